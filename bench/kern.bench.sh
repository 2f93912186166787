#!/usr/bin/env bash
# Kernel verifier cost per example program: processed instructions and
# verification time as the kernel reports them (BPF_LOG_STATS only, so log
# formatting does not inflate the time). Best of 3 loads per object.
# Output: $BG_BUILD/bench/kern.tsv (object, program, type, insns, processed, verif_time_us).
set -u
B=${BG_BUILD:-build}
out="$B/bench"; mkdir -p "$out"
tsv="$out/kern.tsv"
if ! "$B/bpfgate" kload --probe >/dev/null 2>&1; then
  echo "kern.bench: bpf() unavailable: $("$B/bpfgate" kload --probe 2>&1 | head -1)"; exit 0
fi
tmp=$(mktemp -d /tmp/bg-kbench.XXXXXX); trap 'rm -rf "$tmp"' EXIT
for o in "$B"/examples/*.bpf.o; do
  for i in 1 2 3; do "$B/bpfgate" kload --json --log-level 4 "$o" >"$tmp/$(basename "$o").$i.json"; done
done
python3 - "$tmp" "$tsv" <<'PY'
import glob, json, os, sys
tmp, tsv = sys.argv[1], sys.argv[2]
best = {}
for f in sorted(glob.glob(f"{tmp}/*.json")):
    for r in json.load(open(f)):
        k = (os.path.basename(r["object"]), r["program"])
        t = r["verif_time_us"]
        if k not in best or (t >= 0 and t < best[k]["verif_time_us"]):
            best[k] = r
with open(tsv, "w") as o:
    o.write("object\tprogram\ttype\tinsns\tprocessed\tverif_time_us\tverdict\n")
    for (obj, prog), r in sorted(best.items()):
        o.write(f"{obj}\t{prog}\t{r['type']}\t{r['insns']}\t{r['processed']}\t{r['verif_time_us']}\t{r['verdict']}\n")
tot_p = sum(r["processed"] for r in best.values() if r["processed"] > 0)
tot_t = sum(r["verif_time_us"] for r in best.values() if r["verif_time_us"] > 0)
print(f"kern.bench: {len(best)} programs, processed insns total {tot_p}, verification time total {tot_t} us -> {tsv}")
PY
