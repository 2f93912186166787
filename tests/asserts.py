#!/usr/bin/env python3
"""Assertions of <bpfgate/assert.h> checked by `bpfgate check` (tests/data/asserts/*.c and
the assertion examples examples/asserts/*.c).

Each source is compiled at -O2 by clang-14 and clang-19. A comment on an
assertion's line states what `check --json` must say of it:
  /* expect: holds|fails|lost|unreached [xN] [/REGEX/] */
every copy of the assertion on that line has that status (xN: exactly N
copies, e.g. one per unrolled iteration) and REGEX matches its abstract value;
`expect-c14:` / `expect-c19:` override for one compiler. Every assertion
of a file must have an expectation, and every expectation must be met.
`kernel-c14: reject` (or -c19) documents a build the kernel refuses (with and
without assertions: an optimizer hazard). Then the kernel: every other program of every object (assertions included) must be
accepted by the running kernel, and the same source built with
-DBG_ASSERT_DISABLE is loaded beside it; the table of instruction counts and
kernel verification times (BPF_LOG_STATS only; the fastest of 3 alternating loads) with and without assertions
(markers = marker instructions, other_delta = the rest of the difference: what the
assertions changed in the optimizer's output) is
printed and written to $BG_NORMAL_BUILD/bench/asserts.tsv.

`--bench` (bench/asserts.bench.sh, `make bench`): no expectations, only the
figures: the same table from BG_ASSERTS_LOADS (default 11) alternating loads,
with the median verification time beside the fastest, and a count of
assertions by kind, clang and status (bench/asserts-kinds.tsv).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BG_BUILD", os.path.join(ROOT, "build"))
NORMAL = os.environ.get("BG_NORMAL_BUILD", BUILD)
BPFGATE = os.path.join(BUILD, "bpfgate")
DATA = [os.path.join(ROOT, "tests", "data", "asserts"), os.path.join(ROOT, "examples", "asserts")]
CLANGS = {"c14": "clang-14", "c19": "clang-19"}
EXPECT = re.compile(r"expect(-c14|-c19)?:\s*(holds|fails|lost|unreached)(?:\s+x(\d+))?(?:\s+/(.*?)/(?=\s|\*|$))?")
KERNEL = re.compile(r"kernel-(c14|c19):\s*(accept|reject)")

failed = 0
BENCH = "--bench" in sys.argv[1:]
LOADS = int(os.environ.get("BG_ASSERTS_LOADS", "11" if BENCH else "3"))


def out(kind, name, why=""):
    global failed
    if kind == "FAIL":
        failed += 1
    print(f"{kind} {name}" + (f": {why}" if why else ""), flush=True)


def expectations(path):
    """line -> {variant or None: (status, count, regex)}"""
    exp = {}
    for no, text in enumerate(open(path), 1):
        for m in EXPECT.finditer(text):
            var = m.group(1)[1:] if m.group(1) else None
            exp.setdefault(no, {})[var] = (m.group(2), int(m.group(3)) if m.group(3) else None, m.group(4))
    return exp


def compile_bpf(clang, src, obj, extra=()):
    cmd = [clang, "-g", "-O2", "-Wall", "-Werror", "-target", "bpf", "-I" + os.path.join(ROOT, "include"),
           "-I/usr/include/x86_64-linux-gnu", *extra, "-c", src, "-o", obj]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def run_json(args):
    r = subprocess.run([BPFGATE, *args], capture_output=True, text=True)
    try:
        return r.returncode, json.loads(r.stdout)
    except json.JSONDecodeError:
        return r.returncode, None


def check_file(src, var, obj):
    name = f"asserts/{os.path.basename(src)}/{var}"
    exp = expectations(src)
    rc, recs = run_json(["check", "--json", obj])
    if recs is None:
        out("FAIL", name, f"check --json gave no JSON (exit {rc})")
        return
    by_line = {}
    for rec in recs:
        for a in rec.get("asserts", []):
            if os.path.basename(a.get("file") or "") not in ("", os.path.basename(src)):
                continue
            by_line.setdefault(a["line"], []).append((rec["program"], a))
    bad = any(a["status"] in ("fails", "lost") for v in by_line.values() for _, a in v)
    if (rc == 1) != bad:
        out("FAIL", name + "/exit", f"exit {rc} with failing/lost assertions: {bad}")
    for line in sorted(set(by_line) | set(exp)):
        e = exp.get(line, {})
        want = e.get(var) or e.get(None)
        got = by_line.get(line, [])
        case = f"{name}:{line}"
        if not want:
            out("FAIL", case, f"assertion without expectation: {[a['status'] for _, a in got]}")
            continue
        status, count, regex = want
        if not got:
            out("FAIL", case, f"no assertion reported on this line (expected {status})")
            continue
        why = []
        if count is not None and len(got) != count:
            why.append(f"{len(got)} copies, expected {count}")
        for prog, a in got:
            if a["status"] != status:
                why.append(f"{prog}: {a['assertion']} {a['status']} ({a['value']}), expected {status}")
            elif regex and not re.search(regex, a["value"] or ""):
                why.append(f"{prog}: value {a['value']!r} does not match /{regex}/")
        if why:
            out("FAIL", case, "; ".join(why))
        else:
            out("PASS", case + f" {status} x{len(got)}")


def kernel_side(src, var, obj, tmp, table):
    name = f"asserts/{os.path.basename(src)}/{var}/kernel"
    plain = os.path.join(tmp, f"{var}-{os.path.basename(src)}.plain.o")
    ok, err = compile_bpf(CLANGS[var], src, plain, ["-DBG_ASSERT_DISABLE"])
    if not ok:
        out("FAIL", name, "build without assertions: " + err.strip()[:200])
        return
    # alternate the two loads LOADS times and keep each program's fastest and
    # median verification (one load is noisy: the first of a pair is often
    # slower, the machine is shared)
    with_a = without = None
    times = {}
    for _ in range(LOADS):
        _, a = run_json(["kload", "--json", obj])
        _, b = run_json(["kload", "--json", plain])
        if a is None or b is None:
            out("FAIL", name, "kload --json gave no JSON")
            return
        for side, cur in (("a", a), ("p", b)):
            for y in cur:
                times.setdefault((side, y["program"]), []).append(y.get("verif_time_us") or 0)
        with_a, without = a, b
    plain_by = {r["program"]: r for r in without}
    _, chk = run_json(["check", "--json", obj])
    markers = {c["program"]: sum(1 for a in c.get("asserts", []) if "insn" in a) for c in (chk or [])}
    want = {m.group(1): m.group(2) for m in KERNEL.finditer(open(src).read())}.get(var, "accept")
    for r in with_a:
        case = f"{name}/{r['program']}"
        p = plain_by.get(r["program"], {})
        if want == "reject":
            # the hazard the assertion documents: the kernel refuses this build, with or without
            if r["verdict"] == "rejected" and p.get("verdict") == "rejected":
                out("PASS", case + " (rejected with and without assertions, as documented)")
            else:
                out("FAIL", case, f"documented kernel rejection: got {r['verdict']} / {p.get('verdict')}")
            continue
        if r["verdict"] != "accepted":
            out("FAIL", case, f"with assertions: {r['verdict']}: {r.get('message')}")
        elif p.get("verdict") != "accepted":
            out("FAIL", case, f"without assertions: {p.get('verdict')}")
        else:
            out("PASS", case)
            m = markers.get(r["program"], 0)
            tp, ta = sorted(times[("p", r["program"])]), sorted(times[("a", r["program"])])
            row = [os.path.basename(src), var, r["program"], p["insns"], r["insns"], m,
                   r["insns"] - p["insns"] - m, p.get("processed", 0), r.get("processed", 0),
                   tp[0], ta[0]]
            if BENCH:
                row += [tp[len(tp) // 2], ta[len(ta) // 2]]
            table.append(tuple(row))


def section_offset(obj, name):
    r = subprocess.run(["readelf", "-S", "-W", obj], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == name:
            return int(f[4], 16)
    return None


def malformed(obj, tmp):
    """A damaged record: exit 2 with a message naming the section and what is wrong."""
    off = section_offset(obj, ".bpfgate.asserts")
    if off is None:
        out("FAIL", "asserts/malformed", "no .bpfgate.asserts section found")
        return
    data = open(obj, "rb").read()
    cases = [("version", off + 8, b"\x07", r"\.bpfgate\.asserts.*assertion version 7"),
             ("kind", off + 9, b"\x63", r"\.bpfgate\.asserts.*unknown assertion kind 99"),
             ("marker", off, b"\x00" * 8, r"\.bpfgate\.asserts.*is not an assertion marker"),
             ("misaligned", off, b"\x03", r"\.bpfgate\.asserts.*not an instruction")]
    for what, at, patch, want in cases:
        bad = os.path.join(tmp, f"bad-{what}.o")
        with open(bad, "wb") as f:
            f.write(data[:at] + patch + data[at + len(patch):])
        r = subprocess.run([BPFGATE, "check", bad], capture_output=True, text=True)
        if r.returncode == 2 and re.search(want, r.stderr):
            out("PASS", f"asserts/malformed/{what}")
        else:
            out("FAIL", f"asserts/malformed/{what}", f"exit {r.returncode}: {r.stderr.strip()[:200]}")


def kernel_usable():
    return subprocess.run([BPFGATE, "kload", "--probe"], capture_output=True).returncode == 0


def main():
    srcs = sorted(os.path.join(d, f) for d in DATA for f in os.listdir(d) if f.endswith(".c"))
    kern = kernel_usable()
    if not kern:
        out("FAIL" if os.environ.get("CI") == "true" else "SKIP", "asserts/kernel", "bpf() refused here")
    table, kinds = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for src in srcs:
            for var, clang in CLANGS.items():
                obj = os.path.join(tmp, f"{var}-{os.path.basename(src)}.o")
                ok, err = compile_bpf(clang, src, obj)
                if not ok:
                    out("FAIL", f"asserts/{os.path.basename(src)}/{var}/build", err.strip()[:300])
                    continue
                if BENCH:
                    count_kinds(obj, var, kinds)
                else:
                    check_file(src, var, obj)
                if os.path.basename(src) == "kinds.c" and var == "c14" and not BENCH:
                    malformed(obj, tmp)
                if kern:
                    kernel_side(src, var, obj, tmp, table)
    if table:
        hdr = ("source", "clang", "program", "insns", "insns+asserts", "markers", "other_delta",
               "processed", "processed+asserts", "verif_us", "verif_us+asserts")
        if BENCH:
            hdr = hdr[:-2] + ("verif_us_min", "verif_us_min+asserts", "verif_us_med", "verif_us_med+asserts")
        write_table("asserts.tsv", hdr, table)
    if kinds:
        write_table("asserts-kinds.tsv", ("kind", "clang", "holds", "fails", "lost", "unreached"),
                    [(k, v, *n) for (k, v), n in sorted(kinds.items())])
    return 1 if failed else 0


def count_kinds(obj, var, kinds):
    """Assertions of one object by (kind, clang): holds, fails, lost, unreached."""
    _, recs = run_json(["check", "--json", obj])
    for rec in recs or []:
        for a in rec.get("asserts", []):
            n = kinds.setdefault((a["kind"], var), [0, 0, 0, 0])
            n[("holds", "fails", "lost", "unreached").index(a["status"])] += 1


def write_table(name, hdr, rows):
    """Print rows as '# ' lines and write $BG_NORMAL_BUILD/bench/NAME."""
    print("# " + "\t".join(hdr))
    for row in rows:
        print("# " + "\t".join(str(x) for x in row))
    try:
        os.makedirs(os.path.join(NORMAL, "bench"), exist_ok=True)
        with open(os.path.join(NORMAL, "bench", name), "w") as f:
            f.write("\t".join(hdr) + "\n")
            for row in rows:
                f.write("\t".join(str(x) for x in row) + "\n")
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())
