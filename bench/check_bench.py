#!/usr/bin/env python3
"""bpfgate check vs the kernel verifier: corpus timing and generated scaling.

1. Corpus (the project corpus, and the real corpus of kernel selftests when
   built: $BG_REALCORPUS/obj, its kernel.tsv when present): for every program,
   the kernel's own verification time (the "verification time N usec" of its
   log at log level 4 = BPF_LOG_STATS only, via `bpfgate kload --json
   --log-level 4`) beside bpfgate's analysis time (`bpfgate check --json`:
   cpu_seconds, the CPU time of bg_verify, and seconds, its wall time): total
   ratio, median per-program ratio, programs above 100 ms or 10x their kernel
   time, slowest ten of each side, peak RSS per object (/usr/bin/time).
2. Scaling: programs from bench/check_gen.py (straight, branchy, loops) of
   1k..1M instructions, assembled with `bpfgate asm`; wall time and peak RSS of
   `bpfgate check` (GNU time).
Writes $BG_BUILD/bench/check.json and prints a table. BG_CHECK_BENCH_ONLY=project,real,scaling
picks parts; BG_CHECK_BENCH_SIZES the scaling sizes."""
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
REAL = os.environ.get("BG_REALCORPUS", os.path.join(B, "realcorpus"))
RSS_LIMIT_KIB = 64 * 1024
# issue 11's named programs: nested loops, an iterator, pyperf and strobemeta
NAMED = re.compile(r"^(loop1|iters_task_vma|pyperf[^:]*|strobemeta[^:]*)\.o:")
SIZES = [int(x) for x in os.environ.get("BG_CHECK_BENCH_SIZES", "1000,10000,100000,1000000").split(",")]


def js(args):
    r = subprocess.run([BPFGATE] + args, capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return []


def kernel_times(objs, tsv):
    """{(object basename, program): verif usec} at log level 4 (BPF_LOG_STATS only:
    level 1 formats the log and inflates the time several-fold)"""
    kt = {}
    if tsv and os.path.exists(tsv):
        with open(tsv) as f:
            hdr = f.readline().rstrip("\n").lstrip("# ").split("\t")
            for line in f:
                x = dict(zip(hdr, line.rstrip("\n").split("\t")))
                try:
                    us = float(x.get("verif_usec", x.get("verif_time_us", -1)))
                except ValueError:
                    continue
                kt[(os.path.basename(x["object"]), x["program"])] = (us, x.get("verdict", "?"))
        return kt
    for o in objs:
        for x in js(["kload", "--json", "--log-level", "4", o]):
            if isinstance(x, dict) and x.get("verdict") in ("accepted", "rejected") and "program" in x:
                kt[(os.path.basename(o), x["program"])] = (x.get("verif_time_us", -1), x["verdict"])
    return kt


def check_times(objs):
    """per program (object basename, program) -> record, and per object peak RSS (KiB) of
    `bpfgate check` (an upper bound of each of its programs' peak: states are freed
    between programs)"""
    recs, rss = {}, {}
    for o in objs:
        r = subprocess.run(["/usr/bin/time", "-f", "TIME %M", "timeout", "120", BPFGATE, "check", "--json", o],
                           capture_output=True, text=True)
        m = re.search(r"TIME (\d+)", r.stderr)
        rss[os.path.basename(o)] = int(m.group(1)) if m else -1
        try:
            out = json.loads(r.stdout)
        except ValueError:
            out = []
        if r.returncode == 124:
            print("  timeout (120 s): %s" % o)
        progs = [x for x in out if isinstance(x, dict) and "program" in x]
        for x in progs:
            x["rss_kib"] = rss[os.path.basename(o)]
            recs[(os.path.basename(o), x["program"])] = x
        if rss[os.path.basename(o)] > RSS_LIMIT_KIB and len(progs) > 1:
            # the object's peak bounds its programs' peaks; above the limit,
            # measure each program alone (--prog) for its own peak
            for x in progs:
                r = subprocess.run(["/usr/bin/time", "-f", "TIME %M", "timeout", "120", BPFGATE, "check", "--json",
                                    "--prog", x["program"], o], capture_output=True, text=True)
                m = re.search(r"TIME (\d+)", r.stderr)
                if m:
                    x["rss_kib"] = int(m.group(1))
    return recs, rss


def corpus(label, objs, tsv=None):
    if not objs:
        return {}
    kt = kernel_times(objs, tsv)
    recs, rss = check_times(objs)
    rows = []
    for k, (us, kv) in kt.items():
        c = recs.get(k)
        if not c or us is None or us <= 0:
            continue
        rows.append({"prog": "%s:%s" % k, "kernel_s": us / 1e6, "kernel_verdict": kv,
                     "cpu_s": c.get("cpu_seconds", c["seconds"]), "wall_s": c["seconds"],
                     "verdict": c["verdict"], "rss_kib": c["rss_kib"], "steps": c.get("steps", 0),
                     "peak_state_bytes": c.get("peak_bytes", -1)})
    if not rows:
        print("%s: no program with both a kernel time and a bpfgate verdict" % label)
        return {}
    kts = sum(r["kernel_s"] for r in rows)
    cts = sum(r["cpu_s"] for r in rows)
    wts = sum(r["wall_s"] for r in rows)
    ratios = [r["cpu_s"] / r["kernel_s"] for r in rows]
    res = {"programs": len(rows), "objects": len(objs), "kernel_s": kts, "bpfgate_cpu_s": cts,
           "bpfgate_wall_s": wts, "total_ratio": cts / kts, "total_ratio_wall": wts / kts,
           "median_ratio": statistics.median(ratios),
           "median_ratio_wall": statistics.median([r["wall_s"] / r["kernel_s"] for r in rows]),
           "over_100ms": [r["prog"] for r in rows if r["cpu_s"] > 0.1],
           "over_10x": [r["prog"] for r in rows if r["cpu_s"] > 10 * r["kernel_s"] and r["cpu_s"] > 0.001],
           "max_rss_mib": max(rss.values()) / 1024 if rss else -1,
           "over_64mib_objects": sorted(o for o, v in rss.items() if v > RSS_LIMIT_KIB),
           "over_64mib": [r["prog"] for r in rows if r["rss_kib"] > RSS_LIMIT_KIB],
           "named_over_100ms": [r["prog"] for r in rows if NAMED.match(r["prog"]) and r["cpu_s"] > 0.1],
           "rows": rows}
    print("%s: %d programs (%d objects); kernel verification %.3f s (log level 4); bpfgate cpu %.3f s, "
          "wall %.3f s; total ratio %.3f (wall %.3f); median per-program ratio %.3f (wall %.3f); "
          "%d programs above 100 ms cpu, %d above 10x their kernel time; peak RSS per object max %.1f MiB "
          "(%d objects above 64 MiB, %d programs above 64 MiB alone)"
          % (label, len(rows), len(objs), kts, cts, wts, res["total_ratio"], res["total_ratio_wall"],
             res["median_ratio"], res["median_ratio_wall"], len(res["over_100ms"]), len(res["over_10x"]),
             res["max_rss_mib"], len(res["over_64mib_objects"]), len(res["over_64mib"])))
    print("  slowest ten for bpfgate (cpu ms | wall ms | kernel ms | RSS MiB | verdict/kernel):")
    for r in sorted(rows, key=lambda r: -r["cpu_s"])[:10]:
        print("    %-60s %9.2f %9.2f %9.2f %7.1f  %s/%s" % (r["prog"][:60], r["cpu_s"] * 1e3, r["wall_s"] * 1e3,
              r["kernel_s"] * 1e3, r["rss_kib"] / 1024, r["verdict"], r["kernel_verdict"]))
    print("  slowest ten for the kernel (kernel ms | bpfgate cpu ms | wall ms):")
    for r in sorted(rows, key=lambda r: -r["kernel_s"])[:10]:
        print("    %-60s %9.2f %9.2f %9.2f" % (r["prog"][:60], r["kernel_s"] * 1e3, r["cpu_s"] * 1e3,
              r["wall_s"] * 1e3))
    named = sorted((r for r in rows if NAMED.match(r["prog"])), key=lambda r: r["prog"])
    if named:
        print("  named programs of issue 11 (nested loops, iterator, pyperf, strobemeta):")
        print("    %-52s %9s %9s %7s %8s %9s  %s" % ("program", "cpu ms", "kernel ms", "ratio", "RSS MiB", "steps",
                                                 "verdict/kernel"))
        for r in named:
            print("    %-52s %9.2f %9.2f %7.3f %8.1f %9d  %s/%s" % (r["prog"][:52], r["cpu_s"] * 1e3, r["kernel_s"] * 1e3,
                  r["cpu_s"] / r["kernel_s"], r["rss_kib"] / 1024, r["steps"], r["verdict"], r["kernel_verdict"]))
    for what in ("over_100ms", "over_10x", "over_64mib"):
        if res[what]:
            print("  %s: %s" % (what, " ".join(res[what][:20])))
    # every program: time, ratio to the kernel, peak RSS (a TSV beside check.json;
    # BG_CHECK_BENCH_ALL=1 prints it too)
    os.makedirs(os.path.join(B, "bench"), exist_ok=True)
    tsv = os.path.join(B, "bench", "check_%s.tsv" % label.split()[0])
    lines = ["# program\tcpu_ms\twall_ms\tkernel_ms\tratio\trss_mib\tsteps\tverdict\tkernel_verdict"]
    for r in sorted(rows, key=lambda r: r["prog"]):
        lines.append("%s\t%.3f\t%.3f\t%.3f\t%.4f\t%.1f\t%d\t%s\t%s" % (
            r["prog"], r["cpu_s"] * 1e3, r["wall_s"] * 1e3, r["kernel_s"] * 1e3, r["cpu_s"] / r["kernel_s"],
            r["rss_kib"] / 1024, r["steps"], r["verdict"], r["kernel_verdict"]))
    with open(tsv, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("  per-program figures (cpu, wall, kernel ms, ratio, RSS, steps): %s" % tsv)
    if os.environ.get("BG_CHECK_BENCH_ALL"):
        print("\n".join("    " + x for x in lines))
    sys.stdout.flush()
    return res


def criteria(res):
    """issue 11's must-show figures, each with its measured value and met / NOT met"""
    out = []

    def line(ok, text):
        out.append((ok, text))
        print("  [%s] %s" % ("met" if ok else "NOT met", text))
    print("issue 11 criteria (analysis cpu time; kernel: its own verification time at log level 4):")
    for key, label in (("corpus", "project corpus"), ("realcorpus", "real corpus")):
        c = res.get(key)
        if not c:
            print("  [skipped] %s: not measured" % label)
            continue
        line(c["total_ratio"] <= 0.5, "%s: total time %.3fx the kernel's (<= 0.5)" % (label, c["total_ratio"]))
        line(c["median_ratio"] <= 0.5, "%s: median per-program ratio %.3f (<= 0.5)" % (label, c["median_ratio"]))
        line(not c["over_100ms"], "%s: %d programs above 100 ms %s" % (label, len(c["over_100ms"]),
                                                                    " ".join(c["over_100ms"][:10])))
        line(not c["over_10x"], "%s: %d programs above 10x their kernel time %s" % (label, len(c["over_10x"]),
                                                                                   " ".join(c["over_10x"][:10])))
        line(not c["over_64mib"], "%s: %d programs above 64 MiB peak RSS %s" % (label, len(c["over_64mib"]),
                                                                                " ".join(c["over_64mib"][:10])))
        if key == "realcorpus":
            line(not c["named_over_100ms"], "%s: named programs (nested loops, iterator, pyperf, strobemeta) above "
                 "100 ms: %d %s" % (label, len(c["named_over_100ms"]), " ".join(c["named_over_100ms"])))
    sc = res.get("scaling")
    if sc:
        big = [r for r in sc if r["insns"] >= 0.75 * max(SIZES) and max(SIZES) >= 1000000]
        if not big:
            print("  [skipped] 1M generated instructions: largest size %d" % max(SIZES))
        for r in big:
            line(0 <= r["analysis_cpu_s"] < 2 and 0 <= r["peak_mib"] < 512,
                 "generated %s, %d insns: analysis %.3f s cpu (< 2 s), peak RSS %.1f MiB (< 512 MB)"
                 % (r["kind"], r["insns"], r["analysis_cpu_s"], r["peak_mib"]))
    return [{"met": ok, "what": t} for ok, t in out]


def scaling():
    out = []
    gen = os.path.join(ROOT, "bench", "check_gen.py")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("straight", "branchy", "loops", "nested1", "nested2", "nested3", "nested4"):
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
                       "analysis_s": rec.get("seconds", -1), "analysis_cpu_s": rec.get("cpu_seconds", -1),
                       "wall_s": float(m.group(1)) if m else -1,
                       "peak_mib": int(m.group(2)) / 1024 if m else -1, "steps": rec.get("steps", 0),
                       "cpu_s": float(m.group(3)) + float(m.group(4)) if m else -1}
                out.append(row)
                print("scaling: %-8s %8d insns  %-8s analysis cpu %8.3f s wall %8.3f s  process wall %8.3f s  "
                      "peak RSS %8.1f MiB  steps %d (%.1f/insn)"
                      % (kind, row["insns"], row["verdict"], row["analysis_cpu_s"], row["analysis_s"], row["wall_s"],
                         row["peak_mib"], row["steps"], row["steps"] / max(1, row["insns"])))
                sys.stdout.flush()
    return out


def main():
    try:
        load = open("/proc/loadavg").read().split()[0]
    except OSError:
        load = "?"
    print("load average at start: %s (the machine is shared: wall times are inflated by contention)" % load)
    res = {"loadavg": load}
    only = os.environ.get("BG_CHECK_BENCH_ONLY", "project,real,scaling").split(",")
    if "project" not in only and "real" not in only:
        pass
    elif os.path.exists(BPFGATE) and subprocess.run([BPFGATE, "kload", "--probe"], capture_output=True).returncode:
        print("corpus: bpf() unavailable, no kernel times to compare with")
    else:
        proj = sorted(glob.glob(os.path.join(CORPUS, "**", "*.o"), recursive=True)) if "project" in only else []
        res["corpus"] = corpus("project corpus", proj) if proj else {}
        if not proj and "project" in only:
            print("project corpus: not built (make corpus)")
        real = sorted(glob.glob(os.path.join(REAL, "obj", "**", "*.o"), recursive=True)) if "real" in only else []
        if "real" not in only:
            pass
        elif real:
            res["realcorpus"] = corpus("real corpus", real, os.path.join(REAL, "kernel.tsv"))
        else:
            print("real corpus: skipped, %s/obj holds no objects (make realcorpus)" % REAL)
    if "scaling" in only:
        res["scaling"] = scaling()
    res["criteria"] = criteria(res)
    os.makedirs(os.path.join(B, "bench"), exist_ok=True)
    json.dump(res, open(os.path.join(B, "bench", "check.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
