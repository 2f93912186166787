#!/usr/bin/env python3
"""The yardstick of `bpfgate check`: the kernel's own BPF selftests.

Objects: $BG_REALCORPUS/obj/*/*.o (built by `make realcorpus`, corpus/real/Makefile).
The reference verdict of each program is the running kernel's, asked through
kjudge (corpus/kjudge.c linked with the tree's libbpf: one program per load,
run-time map sizes given a small value, pinning off). Then:

  * bpfgate check --json on every object (per-object wall-clock limit);
  * bpfgate's own loader (`bpfgate corpus --verifier kernel`) against kjudge:
    where they disagree that is a loader bug;
  * every disagreement must be listed in tests/data/realcorpus/disagreements.tsv
    with its class and reason (an expected failure, XFAIL); a new one FAILs, and
    so does a listed one that now agrees (remove it from the list);
  * for rejections both agree on, the class of bpfgate's message is compared
    with the class of the kernel's (MSG_CLASSES); the rate may not drop below
    the floor recorded in the list's header (`# msg-floor: F`).

Prints PASS/XFAIL/FAIL lines for the runner, the summary figures (overall and
per class of program) and writes $BG_REALCORPUS/report.json (or $BG_REAL_REPORT)
and kernel.tsv.
Under CI=true a corpus that is missing or a kernel that refuses bpf() FAILs.

`--update-list` rewrites the list from this run (rows that agree now are
dropped, new disagreements get a reason from REASONS or the two messages;
existing reasons are kept): review its diff like any change of expectations.
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NORMAL = os.environ.get("BG_NORMAL_BUILD", os.path.join(ROOT, "build"))
RC = os.environ.get("BG_REALCORPUS", os.path.join(NORMAL, "realcorpus"))
BPFGATE = os.environ.get("BG_REAL_BPFGATE", os.path.join(NORMAL, "bpfgate"))
# BG_REAL_LIST: another tracked list (the held-out corpus of make realcorpus-next)
LIST = os.environ.get("BG_REAL_LIST", os.path.join(ROOT, "tests/data/realcorpus/disagreements.tsv"))
JOBS = int(os.environ.get("BG_REAL_JOBS", "2"))
TIMEOUT = float(os.environ.get("BG_REAL_TIMEOUT", "600"))
CPU_LIMIT = int(os.environ.get("BG_REAL_CPU_LIMIT", "8"))  # seconds of CPU per object
CI = os.environ.get("CI") == "true"

# Message classes: the cause a rejection names. The same table classifies the
# kernel's message and bpfgate's (whose messages start with the kernel's words).
MSG_CLASSES = [
    # libbpf's fixup of a poisoned call to a kfunc extern it could not resolve
    # ("kfunc 'X' is referenced but wasn't resolved") is the same cause
    ("core", r"CO-RE relocation|is referenced but wasn't resolved"),
    ("complexity", r"BPF program is too large|too complex|sequence of \d+ jumps|too many states"),
    ("loop", r"infinite loop|back-edge|loop detected"),
    ("unreleased", r"Unreleased reference|reference leak|would lead to reference leak"),
    ("release", r"release|unacquired|non-referenced|already released"),
    ("lock", r"spin_lock|spin_unlock|bpf_rcu_read|rcu_read_lock|preempt|irq|lock|^use static function instead"),
    ("uninit_reg", r"!read_ok"),
    ("uninit_stack", r"invalid (indirect )?read from stack(?! R\d+ off=)|uninitialized stack"),
    ("stack_bounds", r"invalid (indirect )?(write|access) to stack|invalid (indirect )?read from stack R\d+ off=|"
     r"invalid (unbounded )?variable-offset (read from|write to|indirect access to) stack|"
     r"stack (limit|depth)|combined stack size|invalid stack"),
    ("packet", r"invalid access to packet|cannot write into packet|offset is outside of the packet"),
    ("map_value", r"invalid access to map value|map value (is outside|of unknown)|value is outside|invalid access to map"),
    ("unbounded", r"unbounded (memory access|min value)|min value is (negative|outside)|max value is outside|value -?\d+ makes .* pointer be out of bounds|math between .* pointer and register with unbounded"),
    ("ctx", r"bpf_context|modified ctx|ctx ptr|ctx access"),
    ("null", r"invalid mem access '(map_value_or_null|ptr_or_null|.*_or_null)'|NULL|null"),
    ("scalar_deref", r"invalid mem access 'scalar'|invalid mem access 'inv'"),
    ("ptr_arith", r"pointer arithmetic|pointer .* prohibited|on pointer prohibited|subtract pointer|pointer offset|32-bit pointer|math between"),
    ("helper_avail", r"unknown func|cannot (use|call) helper|program of this type cannot use|not allowed in|is not allowed|calling kernel function .* is not allowed|cannot call GPL|not available|unsupported"),
    ("arg_type", r"type=\S+ expected=|expected (an? )?(pointer|initialized|uninitialized|refcounted|ptr)|arg#?\d|Caller passes invalid args|must (point|have|be)|invalid zero-sized|R\d+ is not|arg \d"),
    ("ret", r"At (program|subprogram|callback) exit|R0 (has|is)|return value|R0 !read_ok"),
    ("mem_access", r"invalid mem access|(write into|read from) map forbidden|access beyond|invalid (negative|variable) (access|offset)|out of bounds|invalid access|only read|cannot write|rdonly|read-only|misaligned|invalid size"),
    ("dynptr_iter", r"dynptr|iter"),
    ("insn", r"unknown opcode|invalid (insn|instruction|BPF_|func)|reserved field|jump out of range|unreachable|BPF_LD_|BPF_EXIT|last insn|call to|uses reserved"),
    ("div", r"div by zero|invalid shift"),
]


# bpfgate's message names the instruction first ("[FILE: ]insn N (DISASM): "):
# the disassembly is not part of the diagnostic (`lock *(u32 *)(r1 + 8) += r0`
# would read as a lock error), so the class is taken from what follows it.
INSN_PREFIX = re.compile(r"^(?:\S+: )?insn \d+ \((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\): ")


def msg_class(m, ours=False):
    if ours:
        m = INSN_PREFIX.sub("", m or "", count=1)
    for name, rx in MSG_CLASSES:
        if re.search(rx, m or "", re.I):
            return name
    return "other"


def prog_class(sec, ptype, kfunc):
    if sec.startswith("iter"):
        return "iterators"
    if sec.startswith("struct_ops") or ptype == "struct_ops":
        return "struct_ops"
    net = ("xdp", "sched_cls", "sched_act", "socket_filter", "cgroup_skb", "sk_skb", "sk_msg",
           "sk_reuseport", "sk_lookup", "flow_dissector", "lwt_in", "lwt_out", "lwt_xmit",
           "lwt_seg6local", "cgroup_sock", "cgroup_sock_addr", "sock_ops", "cgroup_sockopt",
           "netfilter")
    if ptype in net:
        return "networking+kfunc" if kfunc else "networking"
    tr = ("kprobe", "tracepoint", "raw_tracepoint", "raw_tracepoint_writable", "perf_event",
          "tracing", "lsm")
    if ptype in tr:
        return "tracing+kfunc" if kfunc else "tracing"
    return "other+kfunc" if kfunc else "other"


def load_list():
    rows, floor = {}, 0.0
    if os.path.exists(LIST):
        for n, line in enumerate(open(LIST), 1):
            m = re.match(r"#\s*msg-floor:\s*([0-9.]+)", line)
            if m:
                floor = float(m.group(1))
            if not line.strip() or line.startswith("#"):
                continue
            f = line.rstrip("\n").split("\t")
            if len(f) < 3:
                print("FAIL realcorpus/list: %s:%d: expected key<TAB>class<TAB>reason" % (LIST, n))
                continue
            rows[f[0]] = (f[1], f[2])
    return rows, floor


def run_kjudge(objs):
    kj = os.path.join(RC, "kjudge")
    chunks = [objs[i::JOBS] for i in range(JOBS)]
    out = []

    def one(ch):
        if not ch:
            return ""
        r = subprocess.run([kj] + ch, capture_output=True, text=True, errors="replace")
        return r.stdout

    with cf.ThreadPoolExecutor(JOBS) as ex:
        for txt in ex.map(one, chunks):
            for line in txt.splitlines():
                f = line.split("\t")
                if len(f) >= 8:
                    out.append(f[:8])
    return out


def cpu_limit():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 5))


def run_check(obj):
    """bpfgate check --json on one object. The limit is CPU time (load-independent,
    so the same objects exceed it on a busy machine and in CI); wall clock is
    only a safety net."""
    t0 = time.time()
    try:
        r = subprocess.run([BPFGATE, "check", "--json", obj], capture_output=True, text=True,
                           errors="replace", timeout=TIMEOUT, preexec_fn=cpu_limit)
    except subprocess.TimeoutExpired:
        return obj, None, "timeout after %.0f s wall clock" % TIMEOUT, time.time() - t0
    if r.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return obj, None, "timeout: over %d s of CPU time" % CPU_LIMIT, time.time() - t0
    bad = r.returncode not in (0, 1, 2) or "runtime error" in r.stderr or "Sanitizer" in r.stderr
    try:
        recs = json.loads(r.stdout or "[]")
        if isinstance(recs, dict):
            recs = recs.get("records", [])
    except ValueError:
        recs = []
        bad = True
    err = ("crashed (status %d): %s" % (r.returncode, r.stderr.strip()[-300:])) if bad else None
    return obj, recs, err, time.time() - t0


def kfunc_progs(obj):
    """Programs of obj that call a kfunc (`bpfgate disasm` prints `call kfunc(ID)`)."""
    r = subprocess.run([BPFGATE, "disasm", obj], capture_output=True, text=True, errors="replace")
    progs, cur = set(), None
    for line in r.stdout.splitlines():
        m = re.match(r"^(\S+) \((.*)\):$", line)
        if m:
            cur = m.group(1)
        elif cur and "call kfunc" in line:
            progs.add(cur)
    return progs


# Reasons of known classes of disagreement (first match on "kernel msg | bpfgate msg").
REASONS = [
    (r"struct_ops", "struct_ops: the arguments of a struct_ops program are not typed from the struct's member prototype"),
]


def auto_reason(d):
    if d["prog_class"] == "struct_ops" and d["class"] == "false-alarm":
        return REASONS[0][1]
    both = "%s | %s" % (d["kernel"], d["bpfgate"])
    for rx, why in REASONS:
        if re.search(rx, both):
            return why
    k = re.sub(r"\s+", " ", d["kernel"])[:110]
    b = re.sub(r"^insn \d+ \([^)]*\): ", "", re.sub(r"\s+", " ", d["bpfgate"]))[:150]
    if d["class"] == "false-alarm":
        return "bpfgate: " + b
    if d["class"] == "missed":
        return "not modelled: kernel says " + k
    return "%s; kernel: %s" % (b or d["class"], k or "accepted")


def write_list(disagree, loader, listed, floor, keep=()):
    rows = []
    for d in disagree:
        old = listed.get(d["key"])
        why = old[1] if old and old[0] == d["class"] else auto_reason(d)
        rows.append((d["key"], d["class"], why.replace("\t", " ")))
    for key, why in loader:
        old = listed.get(key)
        rows.append((key, "loader", old[1] if old else why.replace("\t", " ")))
    for key in keep:
        rows.append((key, listed[key][0], listed[key][1]))
    with open(LIST, "w") as f:
        f.write("# Disagreements of bpfgate with the running kernel on the real corpus\n"
                "# (tests/realcorpus.py): key<TAB>class<TAB>reason. Classes: false-alarm (kernel\n"
                "# accepts, bpfgate rejects), missed (kernel rejects, bpfgate accepts), timeout,\n"
                "# bpfgate-unavailable, loader (KEY#loader: bpfgate's loader and kjudge disagree).\n"
                "# A new disagreement fails the test; a listed one that agrees now must be removed.\n"
                "# msg-floor: %.3f\n" % floor)
        for r in sorted(rows):
            f.write("\t".join(r) + "\n")


def main():
    objs = []
    for d in sorted(os.listdir(os.path.join(RC, "obj"))) if os.path.isdir(os.path.join(RC, "obj")) else []:
        for f in sorted(os.listdir(os.path.join(RC, "obj", d))):
            if f.endswith(".o"):
                objs.append(os.path.join(RC, "obj", d, f))
    if not objs or not os.path.exists(os.path.join(RC, "kjudge")):
        (print if not CI else lambda m: print("FAIL" + m[4:]))(
            "SKIP realcorpus: no real corpus in %s (make realcorpus)" % RC)
        return 0
    rel = lambda p: os.path.relpath(p, os.path.join(RC, "obj"))
    t0 = time.time()
    cached = os.environ.get("BG_REAL_KERNEL_TSV")  # iterate on bpfgate without re-asking the kernel
    if cached:
        krows = [[os.path.join(RC, "obj", f[0])] + f[1:8] for f in
                 (l.rstrip("\n").split("\t") for l in open(cached) if not l.startswith("#")) if len(f) >= 8]
    else:
        krows = run_kjudge(objs)
    tk = time.time() - t0
    decided = [r for r in krows if r[4] in ("accepted", "rejected")]
    if not decided:
        why = krows[0][7] if krows else "no records"
        print(("FAIL" if CI else "SKIP") + " realcorpus: the kernel decided nothing (bpf() refused?): " + why)
        return 0
    with open(os.path.join(RC, "kernel.tsv") if not cached else os.devnull, "w") as f:
        f.write("# object\tprogram\tsection\ttype\tverdict\tinsns_processed\tverif_usec\tmessage\n")
        for r in krows:
            f.write("\t".join([rel(r[0])] + r[1:]) + "\n")
    kern = {(rel(r[0]), r[1]): r for r in krows}

    t0 = time.time()
    ours, errs, secs = {}, {}, {}
    with cf.ThreadPoolExecutor(JOBS) as ex:
        for obj, recs, err, dt in ex.map(run_check, objs):
            secs[rel(obj)] = dt
            if err:
                errs[rel(obj)] = err
            for rec in recs or []:
                ours[(rel(obj), rec.get("program"))] = rec
    tb = time.time() - t0

    # bpfgate's own loader against the reference judge
    t0 = time.time()
    no_kload = os.environ.get("BG_REAL_NO_KLOAD") == "1"  # iterate on check only
    kload = {}
    if not no_kload:
        r = subprocess.run([BPFGATE, "corpus", os.path.join(RC, "obj"), "--verifier", "kernel",
                            "--json", "-j", str(JOBS), "--quiet"],
                           capture_output=True, text=True, errors="replace")
        try:
            for rec in json.loads(r.stdout)["records"]:
                if rec.get("verifier", "kernel") == "kernel":
                    kload[(rel(rec["object"]), rec["program"])] = rec
        except (ValueError, KeyError) as e:
            print("FAIL realcorpus/kload: bpfgate corpus gave no records (exit %d): %s %s"
                  % (r.returncode, e, r.stderr.strip()[-200:]))
    tl = time.time() - t0

    listed, floor = load_list()
    unjudged = set()  # listed rows this run cannot judge (kept as they are by --update-list)
    loader_rows = []
    kload_more = 0
    used = set()
    stats = {}
    msg_total = msg_match = 0
    msg_miss = []
    msg_hit = []
    disagree = []
    kf_cache = {}
    failed = 0

    parts = {}  # per part of the corpus (selftests, samples, apps): obj/<part>/
    cur_part = [""]

    def bump(cls, key, n=1):
        for tbl, k in ((stats, cls), (parts, cur_part[0])):
            s = tbl.setdefault(k, {"decided": 0, "agree": 0, "kacc": 0, "krej": 0, "false_alarm": 0,
                                   "missed": 0, "other": 0})
            s[key] += n

    for (o, p), kr in sorted(kern.items()):
        kv = kr[4]
        name = "%s:%s" % (o, p)
        # loader agreement (where both decide or one says unavailable)
        lr = kload.get((o, p))
        if lr is not None and kv == "unavailable" and lr.get("verdict") != "unavailable":
            kload_more += 1  # bpfgate's loader gets a verdict where libbpf gave up: no bug
        elif lr is not None and lr.get("verdict") != kv:
            key = name
            ent = listed.get(key + "#loader")
            why = "kjudge %s, bpfgate kload %s: %s" % (kv, lr.get("verdict"), (lr.get("message") or "")[:160])
            loader_rows.append((key + "#loader", why))
            if ent:
                used.add(key + "#loader")
                print("XFAIL realcorpus/loader/%s: %s (%s)" % (name, ent[1], why))
            else:
                print("FAIL realcorpus/loader/%s: %s" % (name, why))
                failed += 1
        elif lr is not None and (key := name + "#loader") in listed:
            used.add(key)
            print("FAIL realcorpus/loader/%s: listed as a loader disagreement but now agrees: remove it" % name)
            failed += 1
        if kv not in ("accepted", "rejected"):
            continue
        if o not in kf_cache:
            kf_cache[o] = kfunc_progs(os.path.join(RC, "obj", o))
        cls = prog_class(kr[2], kr[3], p in kf_cache[o])
        cur_part[0] = o.split("/", 1)[0]
        rec = ours.get((o, p))
        bv = rec.get("verdict") if rec else ("timeout" if "timeout" in errs.get(o, "") else "none")
        bump(cls, "decided")
        bump(cls, "kacc" if kv == "accepted" else "krej")
        if bv == kv:
            bump(cls, "agree")
            ent = listed.get(name)
            if ent:
                used.add(name)
                print("FAIL realcorpus/%s: listed (%s) but bpfgate now agrees with the kernel (%s): remove it"
                      % (name, ent[0], kv))
                failed += 1
            else:
                print("PASS realcorpus/%s" % name)
            if kv == "rejected":
                kc, bc = msg_class(kr[7]), msg_class(rec.get("message"), ours=True)
                msg_total += 1
                if kc == bc:
                    msg_match += 1
                    msg_hit.append((name, kc, kr[7][:120], (rec.get("message") or "")[:160]))
                else:
                    msg_miss.append((name, kc, bc, kr[7][:120], (rec.get("message") or "")[:160]))
            continue
        if kv == "accepted" and bv == "rejected":
            dcls = "false-alarm"
            bump(cls, "false_alarm")
        elif kv == "rejected" and bv == "accepted":
            dcls = "missed"
            bump(cls, "missed")
        else:
            dcls = "timeout" if bv == "timeout" else "bpfgate-" + bv
            bump(cls, "other")
        detail = "kernel %s: %s | bpfgate %s: %s" % (
            kv, kr[7][:140], bv, ((rec or {}).get("message") or errs.get(o, ""))[:200])
        disagree.append({"key": name, "class": dcls, "prog_class": cls, "kernel": kr[7],
                         "bpfgate": ((rec or {}).get("message") or errs.get(o, "")),
                         "check": ((rec or {}).get("diagnostic") or {}).get("check")})
        ent = listed.get(name)
        if ent and ent[0] == dcls:
            used.add(name)
            print("XFAIL realcorpus/%s: %s: %s" % (name, dcls, ent[1]))
        elif ent:
            used.add(name)
            print("FAIL realcorpus/%s: listed as %s but is now %s (%s)" % (name, ent[0], dcls, detail))
            failed += 1
        else:
            print("FAIL realcorpus/%s: new disagreement %s (%s)" % (name, dcls, detail))
            failed += 1
    if no_kload:
        used |= {k for k in listed if k.endswith("#loader")}
        loader_rows = [(k, v[1]) for k, v in listed.items() if k.endswith("#loader")]
    if cached:
        # iterating from a cached kernel verdict file: rows of objects that file
        # does not judge (a corpus part added after it was made) are not stale
        judged = {o for (o, p) in kern}
        unjudged = {k for k in listed if k.split(":", 1)[0] not in judged}
        used |= unjudged
    for key in sorted(set(listed) - used):
        print("FAIL realcorpus/list: %s is listed but no such disagreement was seen (stale entry)" % key)
        failed += 1
    for o, e in sorted(errs.items()):
        if "crashed" in e:
            print("FAIL realcorpus/crash/%s: %s" % (o, e))
            failed += 1

    tot = {k: sum(s[k] for s in stats.values()) for k in
           ("decided", "agree", "kacc", "krej", "false_alarm", "missed", "other")}
    pct = lambda a, b: 100.0 * a / b if b else 0.0
    rate = msg_match / msg_total if msg_total else 1.0
    unavailable = len(krows) - len(decided)
    print("# realcorpus: %d objects, %d programs, kernel decided %d (%d unavailable); kjudge %.0f s, "
          "bpfgate check %.0f s, bpfgate kload %.0f s" % (len(objs), len(krows), len(decided),
                                                          unavailable, tk, tb, tl))
    print("# realcorpus: agreement %.1f%% (%d/%d); false alarms %d (%.1f%% of %d kernel-accepted); "
          "kernel-rejected but accepted %d (%.1f%% of %d kernel-rejected); other %d (timeouts, unavailable)"
          % (pct(tot["agree"], tot["decided"]), tot["agree"], tot["decided"], tot["false_alarm"],
             pct(tot["false_alarm"], tot["kacc"]), tot["kacc"], tot["missed"],
             pct(tot["missed"], tot["krej"]), tot["krej"], tot["other"]))
    for c in sorted(stats):
        s = stats[c]
        print("#   %-18s agreement %5.1f%% (%d/%d)  false alarms %d/%d  missed %d/%d  other %d"
              % (c, pct(s["agree"], s["decided"]), s["agree"], s["decided"], s["false_alarm"],
                 s["kacc"], s["missed"], s["krej"], s["other"]))
    for c in sorted(parts):
        s = parts[c]
        print("#   part %-13s agreement %5.1f%% (%d/%d)  false alarms %d/%d  missed %d/%d  other %d"
              % (c, pct(s["agree"], s["decided"]), s["agree"], s["decided"], s["false_alarm"],
                 s["kacc"], s["missed"], s["krej"], s["other"]))
    print("# realcorpus: bpfgate's loader disagrees with kjudge on %d programs kjudge decided; "
          "it judges %d that kjudge (libbpf) cannot load" % (len(loader_rows), kload_more))
    print("# realcorpus: message class matched on %d/%d rejections both agree on (%.1f%%; floor %.1f%%)"
          % (msg_match, msg_total, 100 * rate, 100 * floor))
    slow = sorted(secs.items(), key=lambda kv: -kv[1])[:5]
    print("# realcorpus: slowest bpfgate check objects: " + ", ".join("%s %.1fs" % s for s in slow))
    if rate + 1e-9 < floor:
        print("FAIL realcorpus/messages: class match %.3f below the recorded floor %.3f" % (rate, floor))
        failed += 1
    else:
        print("PASS realcorpus/messages: class match %.3f >= floor %.3f" % (rate, floor))
    if "--update-list" in sys.argv[1:]:
        write_list(disagree, loader_rows, listed, max(0.0, int(rate * 1000) / 1000.0 - 0.005),
                   sorted(unjudged))
        print("# realcorpus: wrote %s" % LIST)
    with open(os.environ.get("BG_REAL_REPORT") or os.path.join(RC, "report.json"), "w") as f:
        json.dump({"stats": stats, "parts": parts, "total": tot, "msg": {"matched": msg_match, "total": msg_total,
                                                         "mismatches": msg_miss, "matches": msg_hit},
                   "disagreements": disagree, "seconds": {"kjudge": tk, "check": tb, "kload": tl}, "check_seconds": secs}, f,
                  indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
