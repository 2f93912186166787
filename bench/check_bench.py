#!/usr/bin/env python3
"""bpfgate check vs the kernel verifier: corpus timing and generated scaling.

1. Corpus: for every program, the kernel's own verification time (the
   "verification time N usec" of its log, BPF_LOG_STATS, via `bpfgate kload
   --json`) beside bpfgate's analysis time (`bpfgate check --json`, seconds of
   bg_verify): total ratio, median per-program ratio, max milliseconds.
2. Scaling: programs from bench/check_gen.py (straight, branchy, loops) of
   1k..1M instructions, assembled with `bpfgate asm`; wall time and peak RSS of
   `bpfgate check` (GNU time).
Writes $BG_BUILD/bench/check.json and prints a table."""
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
B = os.environ.get("BG_BUILD", os.path.join(ROOT, "build"))
BPFGATE = os.path.join(B, "bpfgate")
CORPUS = os.environ.get("BG_CORPUS", os.path.join(B, "corpus"))
SIZES = [int(x) for x in os.environ.get("BG_CHECK_BENCH_SIZES", "1000,10000,100000,1000000").split(",")]


def js(args):
    r = subprocess.run([BPFGATE] + args, capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return []


def corpus():
    objs = sorted(glob.glob(os.path.join(CORPUS, "**", "*.o"), recursive=True))
    rows = []
    for o in objs:
        k = {x["program"]: x for x in js(["kload", "--json", o]) if isinstance(x, dict)}
        c = {x["program"]: x for x in js(["check", "--json", o]) if isinstance(x, dict)}
        for p, kr in k.items():
            cr = c.get(p)
            kt = kr.get("verif_time_us", -1)
            if not cr or kt is None or kt <= 0 or kr["verdict"] == "unavailable":
                continue
            rows.append((o, p, kt / 1e6, cr["seconds"]))
    if not rows:
        print("corpus: no programs (build the corpus with make)")
        return {}
    kt = sum(r[2] for r in rows)
    ct = sum(r[3] for r in rows)
    ratios = [r[3] / r[2] for r in rows]
    worst = max(rows, key=lambda r: r[3])
    res = {"programs": len(rows), "kernel_s": kt, "bpfgate_s": ct, "total_ratio": ct / kt,
           "median_ratio": statistics.median(ratios), "max_ms": worst[3] * 1e3,
           "max_prog": "%s:%s" % (os.path.relpath(worst[0], CORPUS), worst[1]),
           "over_100ms": sum(1 for r in rows if r[3] > 0.1)}
    print("corpus: %d programs; kernel verification %.3f s, bpfgate %.3f s; total ratio %.3f, "
          "median per-program ratio %.3f, max %.2f ms (%s), %d programs above 100 ms"
          % (res["programs"], kt, ct, res["total_ratio"], res["median_ratio"], res["max_ms"],
             res["max_prog"], res["over_100ms"]))
    return res


def scaling():
    out = []
    gen = os.path.join(ROOT, "bench", "check_gen.py")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("straight", "branchy", "loops"):
            for n in SIZES:
                s = os.path.join(tmp, "%s_%d.s" % (kind, n))
                o = s[:-2] + ".o"
                with open(s, "w") as f:
                    subprocess.run([sys.executable, gen, kind, str(n)], stdout=f, check=True)
                subprocess.run([BPFGATE, "asm", s, "-o", o, "--section", "socket"], check=True)
                r = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M %U %S", BPFGATE, "check", "--json", o],
                                   capture_output=True, text=True)
                m = re.search(r"TIME ([0-9.]+) ([0-9]+) ([0-9.]+) ([0-9.]+)", r.stderr)
                try:
                    rec = json.loads(r.stdout)[0]
                except (ValueError, IndexError):
                    rec = {"verdict": "error", "insns": n, "seconds": -1}
                row = {"kind": kind, "insns": rec.get("insns", n), "verdict": rec["verdict"],
                       "analysis_s": rec.get("seconds", -1), "wall_s": float(m.group(1)) if m else -1,
                       "peak_mib": int(m.group(2)) / 1024 if m else -1, "steps": rec.get("steps", 0),
                       "cpu_s": float(m.group(3)) + float(m.group(4)) if m else -1}
                out.append(row)
                print("scaling: %-8s %8d insns  %-8s analysis %8.3f s  wall %8.3f s  cpu %8.3f s  peak %8.1f MiB  steps %d"
                      % (kind, row["insns"], row["verdict"], row["analysis_s"], row["wall_s"], row["cpu_s"],
                         row["peak_mib"], row["steps"]))
                sys.stdout.flush()
    return out


def main():
    try:
        load = open("/proc/loadavg").read().split()[0]
    except OSError:
        load = "?"
    print("load average at start: %s (the machine is shared: wall times are inflated by contention)" % load)
    res = {"corpus": corpus(), "scaling": scaling(), "loadavg": load}
    os.makedirs(os.path.join(B, "bench"), exist_ok=True)
    json.dump(res, open(os.path.join(B, "bench", "check.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
