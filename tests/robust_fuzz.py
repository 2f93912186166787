#!/usr/bin/env python3
"""Name fuzz for the CLI's output contracts (issue 12): mutants of the example
objects whose program, map, function, section and source-file names (and
license) hold hostile bytes (ESC, OSC, BEL, newline, CR, DEL, C1, bytes that
are not UTF-8, surrogates, quotes, backslashes) are fed to every subcommand,
in --json mode (stdout must be one strict-UTF-8 JSON value) and in text mode
(stdout and stderr must hold no raw control byte and be valid UTF-8). Exit
codes must stay 0/1/2 (check: also 3, too complex). Prints PASS/FAIL lines per subcommand and a summary:
  fuzz: N outputs (J json), I invalid json, C with raw control bytes, X bad exits
"""
import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import elfpatch  # noqa: E402

HOSTILE = [b"\x1b", b"\x07", b"\n", b"\r", b"\x08", b"\x7f", b"\x9b", b"\xff", b"\xfe",
           b"\xc3", b"\x80", b"\xc2\x9b", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x80\xae",
           b'"', b"\\", b"]", b"[", b";", b"0", b"A", b"\xc3\xa9", b"\t", b"%", b"/"]


def hostile(n, rnd):
    out = b""
    while len(out) < n:
        out += rnd.choice(HOSTILE)
    out = out[:n]
    if b"\x1b" not in out and n >= 2:  # every mutant carries at least one escape
        out = b"\x1b" + out[1:]
    return out


def mutate(src, dst, rnd):
    data = open(src, "rb").read()
    names = elfpatch.names(data)
    rnd.shuffle(names)
    done = 0
    for old in names[:rnd.randint(1, 4)]:
        data, hits = elfpatch.rename(data, old, hostile(len(old), rnd))
        done += hits
    if rnd.random() < 0.5:
        try:
            data = elfpatch.set_license(data, hostile(3, rnd))
            done += 1
        except SystemExit:
            pass
    open(dst, "wb").write(data)
    return done


class Tally:
    def __init__(self):
        self.outputs = self.json = self.invalid = self.control = self.badexit = 0
        self.per = {}
        self.examples = []

    def bad(self, cmd, why, argv):
        self.per.setdefault(cmd, [0, []])[1].append(why)
        if len(self.examples) < 5:
            self.examples.append("%s: %s: %r" % (cmd, why, argv[-3:]))


def control_free(b):
    try:
        t = b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any((ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f for c in t)


def run(tally, cmd, argv, want_json, cwd):
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, cwd=cwd)
    except subprocess.TimeoutExpired:
        tally.badexit += 1
        tally.bad(cmd, "timeout", argv)
        return
    tally.outputs += 1
    tally.per.setdefault(cmd, [0, []])[0] += 1
    # 0/1/2, and check's 3 (too complex for bpfgate: no verdict, README)
    if p.returncode not in (0, 1, 2) and not (cmd.startswith("check") and p.returncode == 3):
        tally.badexit += 1
        tally.bad(cmd, "exit %d: %s" % (p.returncode, p.stderr[-200:]), argv)
    if want_json:
        tally.json += 1
        try:
            json.loads(p.stdout.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            tally.invalid += 1
            tally.bad(cmd, "invalid JSON (%s): %r" % (e, p.stdout[:200]), argv)
    if not control_free(p.stdout) or not control_free(p.stderr):
        tally.control += 1
        tally.bad(cmd, "raw control byte: %r %r" % (p.stdout[:200], p.stderr[:200]), argv)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bpfgate", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--mutants", type=int, default=24)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--kernel", action="store_true", help="also kload / cov stats / cov run in the kernel")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    os.makedirs(a.work, exist_ok=True)
    srcs = sorted(os.path.join(a.examples, f) for f in os.listdir(a.examples) if f.endswith(".bpf.o"))
    pkt = os.path.join(a.work, "pkt.bin")
    open(pkt, "wb").write(bytes(6) + bytes.fromhex("020000000001" "0800" "45000014000100004006" "0000"
                                                   "c0a8010a" "c0a80114") + bytes(20))
    asm = os.path.join(a.work, "p.s")
    open(asm, "w").write("r0 = 2\nexit\n")
    B = a.bpfgate
    t = Tally()
    mutants = []
    for k in range(a.mutants):
        src = srcs[k % len(srcs)]
        dst = os.path.join(a.work, "m%03d.o" % k)
        mutate(src, dst, rnd)
        mutants.append(dst)
    for k, m in enumerate(mutants):
        out = os.path.join(a.work, "cov%d.info" % k)
        jobs = [
            ("list", [B, "list", m]),
            ("disasm", [B, "disasm", m, "--source"]),
            ("check", [B, "check", m, "-v"]),
            ("run", [B, "run", m, "--packet", pkt]),
            ("run-ctx", [B, "run", m, "--ctx", pkt]),
            ("cov-run-vm", [B, "cov", "run", m, "--vm", "--input", pkt, "-o", out]),
        ]
        if a.kernel:
            jobs += [("kload", [B, "kload", m, "--log"]), ("cov-stats", [B, "cov", "stats", m]),
                     ("cov-run-kernel", [B, "cov", "run", m, "--input", pkt, "-o", out])]
        for cmd, argv in jobs:
            run(t, cmd, argv, False, a.work)
            # check -v traces to stderr: its JSON twin is plain --json
            jargv = [x for x in argv if x not in ("-v", "--source", "--log")] + ["--json"]
            run(t, cmd + "-json", jargv, True, a.work)
        run(t, "check-sarif", [B, "check", m, "--sarif"], True, a.work)
        if os.path.exists(out):
            run(t, "cov-report-json", [B, "cov", "report", out, "--json"], True, a.work)
            run(t, "cov-report", [B, "cov", "report", out], False, a.work)
        h = hostile(12, rnd)
        hs = os.fsdecode(h)  # argv bytes as given (surrogateescape)
        run(t, "asm-json", [B, "asm", asm, "-o", os.path.join(a.work, "a%d.o" % k), "--section", "xdp",
                            "--name", hs, "--json"], True, a.work)
    # the corpus command over all mutants at once
    run(t, "corpus-json", [B, "corpus", a.work, "--json"], True, a.work)
    for cmd in sorted(t.per):
        n, bad = t.per[cmd]
        if bad:
            print("FAIL fuzz/%s: %d of %d outputs bad: %s" % (cmd, len(bad), n, bad[0][:300]))
        else:
            print("PASS fuzz/%s (%d outputs)" % (cmd, n))
    print("fuzz: %d mutants, %d outputs (%d json), %d invalid json, %d with raw control bytes, %d bad exits"
          % (len(mutants), t.outputs, t.json, t.invalid, t.control, t.badexit))
    for e in t.examples:
        print("  e.g. " + e[:400])
    return 0


if __name__ == "__main__":
    sys.exit(main())
