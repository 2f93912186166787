#!/usr/bin/env python3
"""The real corpus (the kernel's BPF selftests, `make realcorpus`) judged by
every fetched Debian kernel under QEMU, and `bpfgate check --kernel V` against
each of them (issue 13).

  1. `bpfgate kernels fetch` 5.10 6.1 6.12 7.2 (cached; an unreachable registry
     SKIPs, and FAILs under CI=true);
  2. the kernels' verdicts. By default they come from the tracked cache
     tests/data/realcorpus/guests/kernel-V.tsv (one file per kernel, plus
     loader-running.tsv: the running kernel through bpfgate's loader), so the
     comparison takes minutes and boots nothing. With BG_REAL_BOOT=1 (`make
     realcorpus-kernels-boot`): one `bpfgate corpus $RC/obj --verifier
     kernel@5.10,...` run, every object in one boot per kernel, two guests at a
     time, a wall-clock limit per boot ($BG_KVM_TIMEOUT, default 7200 s here)
     and 20 s of guest time per program (longer: unavailable); the running
     kernel judges too (bpfgate's loader, the same as in the guests). Its JSON
     is kept in $BG_REAL_OUT/kernels.json; `--save-guests` rewrites the cache
     from it (regenerate when the loader's rules change what is decided).
     BG_REAL_KVM_JSON=FILE uses a kept JSON instead of booting;
  3. `bpfgate check --kernel 5.10,6.1,6.12,7.2 --json` per object (CPU limit
     8 s per kernel and object, as tests/realcorpus.py);
  4. per kernel V, on the programs V decides (accepted or rejected): agreement
     of bpfgate@V with kernel@V; every disagreement is either the same one the
     running kernel has (listed in tests/data/realcorpus/disagreements.tsv with
     the same class: the analysis's, tracked there) or listed per kernel in
     tests/data/realcorpus/kernels.tsv (V<TAB>key<TAB>class<TAB>reason): a new
     one FAILs, a listed one that no longer disagrees FAILs (stale row).

Writes the verdict matrix $RC/kernels-matrix.tsv (one row per program: the
running kernel by kjudge when $BG_REAL_KERNEL_TSV or $RC/kernel.tsv is there, by
bpfgate's loader, then kernel@V and bpfgate@V per kernel) and the report
$BG_REAL_REPORT (default $RC/kernels-report.json). `--update-list` rewrites the
per-kernel list from this run (review its diff).
"""
import concurrent.futures as cf
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no tests/__pycache__ from the import below
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realcorpus as rcm  # noqa: E402  (message classes, the 6.18 list)

ROOT = rcm.ROOT
NORMAL = rcm.NORMAL
RC = rcm.RC
BPFGATE = rcm.BPFGATE
LIST = os.path.join(ROOT, "tests/data/realcorpus/kernels.tsv")
VERS = os.environ.get("BG_REAL_KERNELS", "5.10 6.1 6.12 7.2").split()
JOBS = rcm.JOBS
CPU_PER_KERNEL = rcm.CPU_LIMIT
CI = rcm.CI
RUNNING = os.environ.get("BG_REAL_RUNNING_PROFILE", "6.18")  # bpfgate's default profile
GUEST_LIMIT = 20.0  # guest seconds per program load (src/kvm/boot.c's default prog_limit)
OUT = os.environ.get("BG_REAL_OUT") or RC  # where kernels.json and kernels-matrix.tsv go
GUESTS = os.environ.get("BG_REAL_GUESTS") or os.path.join(ROOT, "tests/data/realcorpus/guests")
GUEST_COLS = ["object", "program", "verdict", "seconds", "insns_processed", "message"]
BOOT_KEYS = ["release", "debian_version", "accel", "mem_mib", "boot_seconds", "judge_seconds",
             "wall_seconds", "qemu_peak_rss_kib", "error"]


def out(status, name, why=""):
    print("%s realcorpus_kernels/%s%s" % (status, name, (": " + why) if why else ""))


def skip_or_fail(name, why):
    out("FAIL" if CI else "SKIP", name, why + (" (CI=true)" if CI else ""))


def rel(p):
    return os.path.relpath(p, os.path.join(RC, "obj"))


def fetch():
    r = subprocess.run([BPFGATE, "kernels", "fetch"] + VERS, capture_output=True, text=True,
                       errors="replace")
    if r.returncode == 0:
        return True
    if "unreachable" in r.stderr:
        skip_or_fail("fetch", r.stderr.strip().splitlines()[-1])
    else:
        out("FAIL", "fetch", "exit %d: %s" % (r.returncode, r.stderr.strip()[-300:]))
    return False


def boot_and_judge():
    """The QEMU run; returns (corpus JSON, wall seconds, max RSS KiB of the children)."""
    env = dict(os.environ)
    env.setdefault("BG_KVM_TIMEOUT", "7200")
    loader = os.path.join(NORMAL, "bpfgate")
    if os.path.exists(loader):
        env.setdefault("BG_KVM_LOADER", loader)
    vl = ",".join("kernel@" + v for v in VERS)
    t0 = time.time()
    r = subprocess.run(["nice", BPFGATE, "corpus", os.path.join(RC, "obj"), "--verifier", vl,
                        "-j", str(JOBS), "--quiet", "--json"], capture_output=True, text=True,
                       errors="replace", env=env)
    wall = time.time() - t0
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    try:
        d = json.loads(r.stdout)
    except ValueError:
        out("FAIL", "boot", "bpfgate corpus exit %d, no JSON: %s" % (r.returncode, r.stderr.strip()[-400:]))
        return None, wall, rss
    d["host"] = {"wall_seconds": wall, "max_rss_kib_children": rss}
    with open(os.path.join(OUT, "kernels.json"), "w") as f:
        json.dump(d, f)
    return d, wall, rss


def run_check(obj):
    lim = CPU_PER_KERNEL * (len(VERS) + 1)

    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (lim, lim + 5))
    try:
        r = subprocess.run([BPFGATE, "check", "--json", "--kernel", ",".join(VERS + [RUNNING]), obj],
                           capture_output=True, text=True, errors="replace",
                           timeout=rcm.TIMEOUT, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return obj, None, "timeout after %.0f s wall clock" % rcm.TIMEOUT
    if r.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return obj, None, "timeout: over %d s of CPU time (%d profiles)" % (lim, len(VERS) + 1)
    bad = r.returncode not in (0, 1, 2, 3) or "runtime error" in r.stderr or "Sanitizer" in r.stderr
    try:
        recs = json.loads(r.stdout or "[]")
    except ValueError:
        recs, bad = [], True
    return obj, recs, ("crashed (status %d): %s" % (r.returncode, r.stderr.strip()[-300:])) if bad else None


def check_all(objs):
    """bpfgate check --kernel LIST on every object (BG_REAL_CHECK_JSON=FILE: a
    previous run's results, written by BG_REAL_CHECK_SAVE=FILE)."""
    cached = os.environ.get("BG_REAL_CHECK_JSON")
    if cached:
        d = json.load(open(cached))
        return d["ours"], d["errs"], d["seconds"]
    t0 = time.time()
    ours, errs = {}, {}
    with cf.ThreadPoolExecutor(JOBS) as ex:
        for obj, recs, err in ex.map(run_check, objs):
            if err:
                errs[rel(obj)] = err
            for rec in recs or []:
                ours["%s:%s" % (rel(obj), rec.get("program"))] = rec
    t = time.time() - t0
    if os.environ.get("BG_REAL_CHECK_SAVE"):
        with open(os.environ["BG_REAL_CHECK_SAVE"], "w") as f:
            json.dump({"ours": ours, "errs": errs, "seconds": t}, f)
    return ours, errs, t


def guest_file(verifier):
    return os.path.join(GUESTS, "loader-running.tsv" if verifier == "kernel" else
                        "kernel-%s.tsv" % verifier.split("@", 1)[1])


def clean(x, n=200):
    return re.sub(r"\s+", " ", str(x if x is not None else ""))[:n]


def save_guests(d, source):
    """The kernels' verdicts of a boot run (d: `bpfgate corpus --json`) as one
    TSV per kernel: a header of `# key: value` lines (the boot's figures), then
    object (relative to the corpus), program, verdict, guest seconds, processed
    instructions, the message (rejected: the kernel's; unavailable: why)."""
    os.makedirs(GUESTS, exist_ok=True)
    summ = {s["verifier"]: s for s in d["summary"]}
    written = []
    for ver in sorted(summ):
        if ver != "kernel" and not ver.startswith("kernel@"):
            continue
        new = [r for r in d["records"] if r["verifier"] == ver]
        # a run over part of the corpus (new objects) adds to the cache: the rows of
        # objects it did not judge stay, with their source line
        kept, old_src, old_fig = [], [], []
        if os.path.exists(guest_file(ver)):
            judged = {rel(r["object"]) for r in new}
            for line in open(guest_file(ver)):
                if line.startswith("# source: ") or line.startswith("# also: "):
                    old_src.append(line.split(": ", 1)[1].rstrip("\n"))
                elif line.startswith("# boot.") or line.startswith("# host."):
                    old_fig.append(line)
                elif not line.startswith("#") and line.strip() and line.split("\t")[0] not in judged:
                    kept.append(line)
        recs = sorted(new, key=lambda r: (rel(r["object"]), r["program"]))
        rows = sorted(kept + ["\t".join([rel(r["object"]), r["program"], r["verdict"],
                                         "%.6g" % (r.get("seconds") or 0), str(r.get("insns_processed", "")),
                                         clean(r.get("message"))]) + "\n" for r in recs],
                      key=lambda l: tuple(l.split("\t")[:2]))
        with open(guest_file(ver), "w") as f:
            f.write("# %s verdicts of the real corpus (tests/realcorpus_kernels.py --save-guests)\n" % ver)
            for src in old_src if kept else []:
                f.write("# also: %s\n" % src)
            f.write("# source: %s%s\n" % (source, " (%d objects)" % len({rel(r["object"]) for r in new})
                                          if kept else ""))
            f.write("# loader: bpfgate's own (kload --records in the guest; the running kernel: kload)\n")
            f.writelines(old_fig if kept else [])  # the figures of the whole-corpus boot
            for k in (BOOT_KEYS if not kept else []):
                if (summ[ver].get("boot") or {}).get(k) is not None:
                    f.write("# boot.%s: %s\n" % (k, summ[ver]["boot"][k]))
            for k in (("wall_seconds", "max_rss_kib_children") if not kept else ()):
                if (d.get("host") or {}).get(k) is not None:
                    f.write("# host.%s: %s\n" % (k, d["host"][k]))
            f.write("# " + "\t".join(GUEST_COLS) + "\n")
            f.writelines(rows)
        written.append(guest_file(ver))
    return written


def load_guests():
    """The cached verdicts as `bpfgate corpus --json` would give them (records
    and summary with each boot's figures); None when the cache is missing."""
    vers = ["kernel@" + v for v in VERS] + ["kernel"]
    if not all(os.path.exists(guest_file(v)) for v in vers):
        return None
    d = {"records": [], "summary": [], "host": {}, "source": GUESTS}
    for ver in vers:
        boot, host, n = {}, {}, {"accepted": 0, "rejected": 0, "unavailable": 0}
        for line in open(guest_file(ver)):
            line = line.rstrip("\n")
            if line.startswith("# boot.") or line.startswith("# host."):
                k, v = line[2:].split(": ", 1)
                try:
                    # numbers (a whole number of seconds too: "22"); release etc. stay text
                    v = v if k.split(".", 1)[1] in ("release", "debian_version", "accel", "error") else float(v)
                except ValueError:
                    pass
                (boot if k.startswith("boot.") else host)[k.split(".", 1)[1]] = None if v == "None" else v
                continue
            if line.startswith("#") or not line:
                continue
            f = line.split("\t")
            if len(f) != len(GUEST_COLS):
                raise SystemExit("%s: bad row (%d fields, want %d): %s" % (guest_file(ver), len(f),
                                                                          len(GUEST_COLS), line[:120]))
            r = {"object": os.path.join(RC, "obj", f[0]), "program": f[1], "verifier": ver,
                 "verdict": f[2], "seconds": float(f[3]), "message": f[5]}
            if f[4]:
                r["insns_processed"] = int(f[4])
            n[f[2]] = n.get(f[2], 0) + 1
            d["records"].append(r)
        if "mem_mib" in boot:
            boot["mem_mib"] = int(boot["mem_mib"])
        d["summary"].append(dict(n, verifier=ver, boot=boot or None))
        d["host"] = d["host"] or host
    return d


def objects():
    o = os.path.join(RC, "obj")
    return sorted(os.path.join(o, d, f) for d in (os.listdir(o) if os.path.isdir(o) else [])
                  for f in os.listdir(os.path.join(o, d)) if f.endswith(".o"))


def load_list():
    rows = {}
    if os.path.exists(LIST):
        for n, line in enumerate(open(LIST), 1):
            if not line.strip() or line.startswith("#"):
                continue
            f = line.rstrip("\n").split("\t")
            if len(f) < 4:
                out("FAIL", "list", "%s:%d: expected kernel<TAB>key<TAB>class<TAB>reason" % (LIST, n))
                continue
            rows[(f[0], f[1])] = (f[2], f[3])
    return rows


def write_list(rows):
    with open(LIST, "w") as f:
        f.write("# Disagreements of `bpfgate check --kernel V` with the real kernel V (Debian's\n"
                "# image under QEMU) on the real corpus that the running kernel does not share\n"
                "# (tests/realcorpus_kernels.py, `make realcorpus-kernels`):\n"
                "# kernel<TAB>key<TAB>class<TAB>reason. Classes as tests/data/realcorpus/\n"
                "# disagreements.tsv (false-alarm: kernel V accepts, bpfgate@V rejects; missed:\n"
                "# kernel V rejects, bpfgate@V accepts; timeout; bpfgate-...). A disagreement\n"
                "# the running kernel has too (same key and class in disagreements.tsv) is\n"
                "# tracked there. A new one fails the test; a listed one that agrees now must go.\n")
        for (v, key), (cls, why) in sorted(rows.items(), key=lambda kv: (vkey(kv[0][0]), kv[0][1])):
            f.write("\t".join([v, key, cls, why.replace("\t", " ")]) + "\n")


def vkey(v):
    return tuple(int(x) for x in v.split("."))


def main():
    objs = objects()
    if not objs:
        skip_or_fail("corpus", "no real corpus in %s (make realcorpus)" % RC)
        return 0
    cached = os.environ.get("BG_REAL_KVM_JSON")
    d = None
    if cached:
        d = json.load(open(cached))
    elif os.environ.get("BG_REAL_BOOT") != "1":
        d = load_guests()
        if d is None:
            skip_or_fail("guests", "no cached guest verdicts in %s (make realcorpus-kernels-boot)" % GUESTS)
            return 0
        cached = "the tracked guest verdicts in " + os.path.relpath(GUESTS, ROOT)
        # check --kernel V relocates CO-RE against V's own BTF, from V's cached image: without
        # the images it would judge against the host's BTF and disagree for that reason alone
        if not fetch():
            return 0
    if d is not None:
        wall, rss = d.get("host", {}).get("wall_seconds", -1), d.get("host", {}).get("max_rss_kib_children", -1)
        wall, rss = float(wall), int(float(rss))
    else:
        if subprocess.run(["sh", "-c", "command -v qemu-system-x86_64 && test -x /bin/busybox"],
                          capture_output=True).returncode:
            skip_or_fail("qemu", "qemu-system-x86 or busybox-static not installed")
            return 0
        if not fetch():
            return 0
        d, wall, rss = boot_and_judge()
        if d is None:
            return 0
    if "--save-guests" in sys.argv[1:]:
        for p in save_guests(d, cached or "a boot run of %s" % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())):
            print("# realcorpus_kernels: wrote %s" % p)
        d = load_guests() or d  # a partial run was merged into the cache: compare the whole
    failed = 0
    summ = {s["verifier"]: s for s in d["summary"]}

    kv = {}  # (key, verifier) -> record
    late = 0
    for r in d["records"]:
        # the guest's limit per program (kload --kernel): a load that took GUEST_LIMIT s of guest
        # time or more is unavailable (JSON of loaders before the fix of prog_timer reported
        # 7.2's interrupted loads as rejected and 5.10's late ones as decided)
        if r["verifier"].startswith("kernel@") and (r.get("seconds") or 0) >= GUEST_LIMIT and \
                r["verdict"] != "unavailable":
            r = dict(r, verdict="unavailable", message="verification took longer than %g s in the guest" % GUEST_LIMIT)
            late += 1
        kv[("%s:%s" % (rel(r["object"]), r["program"]), r["verifier"])] = r
    keys = sorted({k for (k, v) in kv})
    print("# realcorpus_kernels: %d guest loads over %g s counted unavailable" % (late, GUEST_LIMIT))
    print("# realcorpus_kernels: %d objects, %d programs; boots and judging %.0f s wall (%s), "
          "max RSS of a child process %d MiB" % (len(objs), len(keys), wall,
                                                  "cached: " + cached if cached else "this run", rss // 1024))
    def cnt(v, verdict):  # after the guest-limit rule above
        return sum(1 for (k, ver), r in kv.items() if ver == "kernel@" + v and r["verdict"] == verdict)
    for v in VERS:
        s = summ.get("kernel@" + v, {})
        b = s.get("boot") or {}
        print("# kernel@%s (%s): boot %.1f s, judging %.1f s (guest), wall %.1f s, qemu peak rss %d MiB, "
              "guest memory %s MiB; %d accepted, %d rejected, %d unavailable" % (
                  v, b.get("release"), b.get("boot_seconds", -1), b.get("judge_seconds", -1),
                  b.get("wall_seconds", -1), b.get("qemu_peak_rss_kib", 0) // 1024, b.get("mem_mib", "?"),
                  cnt(v, "accepted"), cnt(v, "rejected"), cnt(v, "unavailable")))
        ok = b and not b.get("error") and cnt(v, "accepted") + cnt(v, "rejected") > 1000
        out("PASS" if ok else "FAIL", "boot@" + v, "" if ok else str(b.get("error") or "too few verdicts"))
        failed += not ok
    s = summ.get("kernel", {})
    print("# kernel (running, bpfgate's loader): %d accepted, %d rejected, %d unavailable" % (
        s.get("accepted", 0), s.get("rejected", 0), s.get("unavailable", 0)))

    # bpfgate check --kernel V
    ours, errs, tcheck = check_all(objs)
    print("# bpfgate check --kernel %s: %.0f s (%d objects over the CPU limit or failed)" % (
        ",".join(VERS), tcheck, len(errs)))
    # an object with programs the kernels never judged: the cache predates it
    judged = {rel(r["object"]) for r in d["records"]}
    missing = sorted({k.rsplit(":", 1)[0] for k in ours} - judged)
    if missing:
        out("FAIL", "guests", "%d objects of the corpus have no kernel verdicts (%s...): the cache is stale, "
            "make realcorpus-kernels-boot" % (len(missing), ", ".join(missing[:3])))
        failed += 1
    for o, e in sorted(errs.items()):
        if "crashed" in e:
            out("FAIL", "crash/" + o, e)
            failed += 1

    running_list, _ = rcm.load_list()
    listed = load_list()
    used, newrows = set(), {}
    report = {}
    for v in VERS:
        st = {"decided": 0, "agree": 0, "shared": 0, "specific": 0, "classes": {}, "kinds": {},
              "msg_classes": {}}
        dis = []
        for key in keys:
            k = kv.get((key, "kernel@" + v))
            if not k or k["verdict"] not in ("accepted", "rejected"):
                continue
            st["decided"] += 1
            rec = ours.get(key)
            o = key.rsplit(":", 1)[0]
            bk = ((rec or {}).get("kernels") or {}).get(v) or {}
            bv = bk.get("verdict") or ("timeout" if "timeout" in errs.get(o, "") else "none")
            lk = (v, key)
            if bv == k["verdict"]:
                st["agree"] += 1
                if lk in listed:
                    used.add(lk)
                    out("FAIL", "%s/%s" % (v, key), "listed (%s) but bpfgate@%s now agrees with kernel@%s (%s): "
                        "remove it" % (listed[lk][0], v, v, bv))
                    failed += 1
                continue
            cls = ("false-alarm" if k["verdict"] == "accepted" and bv == "rejected" else
                   "missed" if k["verdict"] == "rejected" and bv == "accepted" else
                   "timeout" if bv == "timeout" else "bpfgate-" + bv)
            run = kv.get((key, "kernel")) or {}
            kmsg = k.get("message") or ""
            bmsg = bk.get("message") or errs.get(o, "")
            b618 = ((((rec or {}).get("kernels") or {}).get(RUNNING)) or {}).get("verdict")
            # kernel-difference: kernel V judges it differently from the running kernel (a gap
            # of the V profile); profile: the kernels agree but bpfgate@V and bpfgate@RUNNING
            # do not; as-running: the analysis's disagreement, the same as on the running kernel
            kind = ("running-unavailable" if run.get("verdict") not in ("accepted", "rejected") else
                    "kernel-difference" if run.get("verdict") != k["verdict"] else
                    "profile" if bv != b618 else "as-running")
            shared = kind == "as-running" and running_list.get(key, ("",))[0] == cls
            st["classes"][cls] = st["classes"].get(cls, 0) + 1
            st["kinds"]["%s/%s" % (kind, cls)] = st["kinds"].get("%s/%s" % (kind, cls), 0) + 1
            mc = rcm.msg_class(kmsg if cls != "false-alarm" else bmsg, ours=(cls == "false-alarm"))
            if kind in ("kernel-difference", "profile"):
                st["msg_classes"]["%s/%s/%s" % (kind, cls, mc)] = st["msg_classes"].get("%s/%s/%s" % (kind, cls, mc), 0) + 1
            st["shared" if shared else "specific"] += 1
            diff = "kernel@%s %s%s | running kernel %s | bpfgate@%s %s: %s | bpfgate@%s %s" % (
                v, k["verdict"], (": " + kmsg[:140]) if kmsg else "", run.get("verdict"), v, bv, bmsg[:160],
                RUNNING, b618)
            dis.append({"key": key, "class": cls, "kind": kind, "shared": shared, "kernel": kmsg,
                        "bpfgate": bmsg, "running": run.get("verdict"), "bpfgate_running": b618,
                        "msg_class": mc})
            if shared:
                out("XFAIL", "%s/%s" % (v, key), "%s, as on the running kernel (disagreements.tsv): %s" % (
                    cls, running_list[key][1][:160]))
                if lk in listed:
                    used.add(lk)
                    out("FAIL", "list", "%s %s is tracked in disagreements.tsv (the running kernel's): remove "
                        "its per-kernel row" % (v, key))
                    failed += 1
                continue
            if kind == "running-unavailable":
                why = "[running-unavailable] kernel %s %s, bpfgate@%s %s: %s" % (
                    v, k["verdict"], v, bv, (kmsg if k["verdict"] == "rejected" else bmsg)[:160])
            elif kind == "kernel-difference":
                why = "[kernel-difference] kernel %s %s, the running kernel %s: %s" % (
                    v, k["verdict"], run.get("verdict"), (kmsg or bmsg)[:160])
            elif kind == "profile":
                why = "[profile] bpfgate@%s %s, bpfgate@%s %s: %s" % (v, bv, RUNNING, b618, (bmsg or kmsg)[:160])
            else:
                why = "[as-running] %s (not in disagreements.tsv: the running kernel's kjudge %s)" % (
                    (bmsg or kmsg)[:160], "unavailable" if key not in running_list else "differs")
            ent = listed.get(lk)
            newrows[lk] = (cls, ent[1] if ent and ent[0] == cls else re.sub(r"\s+", " ", why))
            if ent and ent[0] == cls:
                used.add(lk)
                out("XFAIL", "%s/%s" % (v, key), "%s: %s" % (cls, ent[1]))
            elif ent:
                used.add(lk)
                out("FAIL", "%s/%s" % (v, key), "listed as %s but is now %s (%s)" % (ent[0], cls, diff))
                failed += 1
            else:
                out("FAIL", "%s/%s" % (v, key), "new disagreement %s (%s)" % (cls, diff))
                failed += 1
        pct = 100.0 * st["agree"] / st["decided"] if st["decided"] else 0.0
        if st["decided"]:  # the comparison ran (its FAILs above decide the outcome)
            out("PASS", "compared@" + v, "%d programs decided by kernel %s, %.1f%% agree" % (st["decided"], v, pct))
        else:
            out("FAIL", "compared@" + v, "kernel %s decided no program (empty guest cache?)" % v)
            failed += 1
        print("# bpfgate@%s vs kernel@%s: agreement %.1f%% (%d/%d decided); disagreements %d as on the "
              "running kernel, %d specific to %s; by class %s" % (
                  v, v, pct, st["agree"], st["decided"], st["shared"], st["specific"], v,
                  ", ".join("%s %d" % kv_ for kv_ in sorted(st["classes"].items()))))
        print("#   by kind/class: %s" % ", ".join("%s %d" % kv_ for kv_ in sorted(st["kinds"].items())))
        print("#   kernel-difference and profile by kind/class/message class: %s" % (
            ", ".join("%s %d" % kv_ for kv_ in sorted(st["msg_classes"].items(), key=lambda x: -x[1]))))
        report[v] = {"stats": st, "agreement": pct, "disagreements": dis}
    for lk in sorted(set(listed) - used):
        out("FAIL", "list", "%s %s is listed but no such disagreement was seen (stale row)" % lk)
        failed += 1

    # the verdict matrix
    run_tsv = os.environ.get("BG_REAL_KERNEL_TSV") or os.path.join(RC, "kernel.tsv")
    kj = {}
    if os.path.exists(run_tsv):
        for line in open(run_tsv):
            f = line.rstrip("\n").split("\t")
            if len(f) >= 5 and not line.startswith("#"):
                kj["%s:%s" % (f[0], f[1])] = f[4]
    with open(os.path.join(OUT, "kernels-matrix.tsv"), "w") as f:
        f.write("\t".join(["# object", "program", "running(kjudge)", "running(bpfgate-loader)"] +
                          ["kernel@" + v for v in VERS] + ["bpfgate@" + v for v in VERS + [RUNNING]]) + "\n")
        for key in keys:
            o, p = key.rsplit(":", 1)
            bks = (ours.get(key) or {}).get("kernels") or {}
            f.write("\t".join([o, p, kj.get(key, "-"), (kv.get((key, "kernel")) or {}).get("verdict", "-")] +
                              [(kv.get((key, "kernel@" + v)) or {}).get("verdict", "-") for v in VERS] +
                              [(bks.get(v) or {}).get("verdict", "-") for v in VERS + [RUNNING]]) + "\n")
    if kj:
        c = {}
        for x in kj.values():
            c[x] = c.get(x, 0) + 1
        print("# running kernel by kjudge (%s): %d accepted, %d rejected, %d unavailable" % (
            run_tsv, c.get("accepted", 0), c.get("rejected", 0), c.get("unavailable", 0)))
    print("# realcorpus_kernels: matrix %s" % os.path.join(OUT, "kernels-matrix.tsv"))
    if "--update-list" in sys.argv[1:]:
        write_list(newrows)
        print("# realcorpus_kernels: wrote %s" % LIST)
    with open(os.environ.get("BG_REAL_REPORT") or os.path.join(OUT, "kernels-report.json"), "w") as f:
        json.dump({"kernels": report, "check_seconds": tcheck, "qemu_wall_seconds": wall,
                   "boots": {v: (summ.get("kernel@" + v) or {}).get("boot") for v in VERS}}, f, indent=1)
    if "--summary" in sys.argv[1:]:
        path = sys.argv[sys.argv.index("--summary") + 1]
        write_summary(path, d, kv, keys, ours, kj, report, tcheck, cached, wall, rss)
        print("# realcorpus_kernels: wrote %s" % path)
    return 0


def counts(vals):
    c = {"accepted": 0, "rejected": 0, "unavailable": 0}
    for x in vals:
        c[x if x in c else "unavailable"] += 1
    return c


def project_section(path):
    """The project corpus's matrix from a `corpus --verifier kernel,bpfgate,kernel@V,bpfgate@V...
    --json` run (tests/kernels.test.sh keeps it in $BG_KERNELS_JSON)."""
    d = json.load(open(path))
    summ = {s["verifier"]: s for s in d["summary"]}
    nprog = len({(r["object"], r["program"]) for r in d["records"]})
    nobj = len({r["object"] for r in d["records"]})
    L = ["## The project corpus (%d objects, %d programs: examples, c19, three ISA v4 objects)" % (nobj, nprog), "",
         "`tests/kernels.test.sh` (in `make test`): one boot per kernel, two guests at a time.", "",
         "| verifier | accepted | rejected | unavailable | agreement with the kernel (decided by both) "
         "| guest boot | guest judging | host wall | QEMU peak RSS |", "|---|---|---|---|---|---|---|---|---|"]
    for v in ["kernel", "bpfgate"] + [x for v in VERS for x in ("kernel@" + v, "bpfgate@" + v)]:
        s = summ.get(v)
        if not s:
            continue
        b = s.get("boot") or {}
        dec = sum(s.get(x, 0) for x in ("acc_acc", "acc_rej", "rej_acc", "rej_rej"))
        ag = "%.1f%% of %d (%s)" % (100 * s["agreement"], dec, "kernel@" + v.split("@")[1]
                                     if v.startswith("bpfgate@") and "kernel@" + v.split("@")[1] in summ
                                     else "running kernel") if dec else "-"
        L.append("| %s%s | %d | %d | %d | %s | %s | %s | %s | %s |" % (
            v, " (running %s)" % RUNNING if v == "kernel" else "", s.get("accepted", 0), s.get("rejected", 0),
            s.get("unavailable", 0), ag,
            "%.1f s" % b["boot_seconds"] if b else "", "%.1f s" % b["judge_seconds"] if b else "",
            "%.1f s" % b["wall_seconds"] if b else "", "%d MiB" % (b["qemu_peak_rss_kib"] // 1024) if b else ""))
    L += ["", "Whole run (four boots, two at a time, plus the running kernel and bpfgate): %.0f s wall." %
          d.get("wall_seconds", -1), ""]
    return L


def write_summary(path, d, kv, keys, ours, kj, report, tcheck, source, wall, rss):
    summ = {s["verifier"]: s for s in d["summary"]}
    rev = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                         text=True).stdout.strip()
    L = ["# Real verdicts from many kernels: the matrix and check --kernel's agreement", "",
         "Generated by `tests/realcorpus_kernels.py --summary` (`make realcorpus-kernels`), bpfgate %s, %s." % (
             rev, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())),
         "Kernels: Debian's images booted under QEMU (%s), judging with bpfgate's own loader in the guest; "
         "the kernels' verdicts of the real corpus from %s. Per program: "
         "tests/data/realcorpus/guests/kernel-V.tsv." % (
             (summ.get("kernel@" + VERS[0]) or {}).get("boot", {}).get("accel", "?"), source or "this boot run"), ""]
    L += ["## The real corpus (%d objects, %d programs: the kernel's BPF selftests and samples, Debian's BPF applications)" % (
        len(objects()), len(keys)), "",
          "| verifier | accepted | rejected | unavailable | guest boot | guest judging | host wall | QEMU peak RSS |",
          "|---|---|---|---|---|---|---|---|"]
    for v in VERS:
        c = counts((kv.get((k, "kernel@" + v)) or {}).get("verdict", "unavailable") for k in keys)
        b = (summ.get("kernel@" + v) or {}).get("boot") or {}
        L.append("| kernel %s (%s) | %d | %d | %d | %.1f s | %.1f s | %.1f s | %d MiB |" % (
            v, b.get("release", "?"), c["accepted"], c["rejected"], c["unavailable"], b.get("boot_seconds", -1),
            b.get("judge_seconds", -1), b.get("wall_seconds", -1), b.get("qemu_peak_rss_kib", 0) // 1024))
    c = counts((kv.get((k, "kernel")) or {}).get("verdict", "unavailable") for k in keys)
    L.append("| kernel %s, running (bpfgate's loader) | %d | %d | %d | | | | |" % (
        RUNNING, c["accepted"], c["rejected"], c["unavailable"]))
    if kj:
        c = counts(kj.get(k, "unavailable") for k in keys)
        L.append("| kernel %s, running (kjudge: libbpf) | %d | %d | %d | | | | |" % (
            RUNNING, c["accepted"], c["rejected"], c["unavailable"]))
    for v in VERS + [RUNNING]:
        c = counts((((ours.get(k) or {}).get("kernels") or {}).get(v) or {}).get("verdict", "unavailable")
                   for k in keys)
        L.append("| bpfgate check --kernel %s | %d | %d | %d | | | | |" % (
            v, c["accepted"], c["rejected"], c["unavailable"]))
    L += ["", "Boots: two guests at a time, nice, under TCG on 2 shared cores; whole boot run %.0f s wall, "
          "largest child (a QEMU) %d MiB resident; host memory: at most two guests, each ~0.6-0.9 GiB "
          "(guest memory 256 MiB + 3x the %s initrd). `check --kernel %s` over the corpus: %.0f s (-j%d)." % (
              wall, rss // 1024, "~150 MB", ",".join(VERS + [RUNNING]), tcheck, JOBS), ""]
    L += ["## check --kernel V against kernel V (the programs V decides)", "",
          "| V | decided | agree | agreement | false alarms | missed | other | as on the running kernel "
          "| specific to V |", "|---|---|---|---|---|---|---|---|---|"]
    for v in VERS:
        st = report[v]["stats"]
        cl = st["classes"]
        L.append("| %s | %d | %d | %.1f%% | %d | %d | %d | %d | %d |" % (
            v, st["decided"], st["agree"], report[v]["agreement"], cl.get("false-alarm", 0), cl.get("missed", 0),
            sum(n for k, n in cl.items() if k not in ("false-alarm", "missed")), st["shared"], st["specific"]))
    L += ["", "Kinds: *as-running*: kernel V and the running kernel agree and so do bpfgate@V and "
          "bpfgate@%s: the analysis's own disagreement (the 6.18 fidelity work; shared ones are tracked in "
          "tests/data/realcorpus/disagreements.tsv); *kernel-difference*: kernel V judges the program "
          "differently from the running kernel (a gap of the V profile); *profile*: the kernels agree but "
          "bpfgate@V differs from bpfgate@%s; *running-unavailable*: the running kernel cannot judge it. "
          "Every disagreement not tracked in disagreements.tsv is listed, with its reason, in "
          "tests/data/realcorpus/kernels.tsv." % (RUNNING, RUNNING), ""]
    L += ["### Disagreements by kind and class", "", "| V | kind/class | programs |", "|---|---|---|"]
    for v in VERS:
        for k, n in sorted(report[v]["stats"]["kinds"].items(), key=lambda x: -x[1]):
            L.append("| %s | %s | %d |" % (v, k, n))
    L += ["", "### Kernel-difference and profile disagreements by message class", "",
          "| V | kind/class/message class | programs | example |", "|---|---|---|---|"]
    for v in VERS:
        ex = {}
        for dd in report[v]["disagreements"]:
            if dd["kind"] in ("kernel-difference", "profile"):
                ex.setdefault("%s/%s/%s" % (dd["kind"], dd["class"], dd["msg_class"]), dd)
        for k, n in sorted(report[v]["stats"]["msg_classes"].items(), key=lambda x: -x[1]):
            e = ex.get(k) or {}
            msg = (e.get("kernel") if e.get("class") != "false-alarm" else e.get("bpfgate")) or ""
            L.append("| %s | %s | %d | %s: %s |" % (v, k, n, e.get("key", ""),
                                                   clean(msg, 110).replace("|", "\\|")))
    pj = os.environ.get("BG_REAL_PROJECT_JSON")
    L += [""] + (project_section(pj) if pj and os.path.exists(pj) else [])
    with open(path, "w") as f:
        f.write("\n".join(L).rstrip("\n") + "\n")


if __name__ == "__main__":
    sys.exit(main())
