# bpfgate cov: instrumented programs still accepted, instruction growth
# (median, max) over examples and corpus, and runtime overhead: the mean
# BPF_PROG_TEST_RUN time (best of 5 x 100000 runs, 64-byte TCP packet) of each
# packet program instrumented over plain. Target: overhead <= 1.5x.
set -u
B=${BG_BUILD:-build}
out="$B/bench/cov.json"
mkdir -p "$B/bench"
objs=("$B"/examples/*.o)
[ -d "$B/corpus/c14" ] && objs+=($(find "$B/corpus/c14" -name '*.o' | sort))
"$B/bpfgate" cov stats --json --bench 100000 "${objs[@]}" > "$out" 2>/dev/null
python3 - "$out" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
acc = [x for x in d if x["verdict"] == "accepted"]
ok = [x for x in acc if x["instrumented_verdict"] == "accepted"]
g = sorted(x["insns_instrumented"] / x["insns"] for x in acc if x["insns"])
print(f"programs accepted by the kernel: {len(acc)}; still accepted instrumented: {len(ok)}")
for x in acc:
    if x["instrumented_verdict"] != "accepted":
        print(f'  NOT accepted: {x["object"]} {x["program"]}: {x["instrumented_verdict"]} {x["message"]}')
print(f"instruction growth: median {statistics.median(g):.2f}x, max {max(g):.2f}x")
r = [(x["program"], x["run_ns"], x["run_ns_instrumented"]) for x in ok if x.get("run_ns") and x.get("run_ns_instrumented")]
if r:
    print(f"{'program':28s} {'plain ns':>9s} {'cov ns':>9s} {'ratio':>6s}")
    for p, a, b in r:
        print(f"{p:28s} {a:9.0f} {b:9.0f} {b / a:6.2f}")
    rat = [b / a for _, a, b in r]
    print(f"overhead over {len(r)} runnable programs: median {statistics.median(rat):.2f}x, max {max(rat):.2f}x")
PY
