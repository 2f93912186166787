#!/usr/bin/env bash
# Profile-guided builds against plain ones, per example: plain (cc), the LLVM
# sample profile alone (cc --profile --no-layout) and the full profile-guided
# build (cc --profile: bpfgate's block layout of the profiled code);
# the profile comes from `bpfgate cov run --vm` on a skewed training capture
# (95% IPv4/TCP, 3% UDP, 1% IPv6, 1% ARP; seed 1); figures on a second capture
# of the same mix (seed 2): executed instructions, conditional and taken jumps
# per packet in the interpreter (run --json), kernel ns per packet with
# BPF_PROG_TEST_RUN (bpftool prog run, JIT, repeat 2000000, best of 5 per frame
# kind, weighted by the mix), instructions and code bytes. Both builds must be
# accepted by bpfgate check (and the kernel when bpf() works).
# Output: $BG_BUILD/bench/pgo.tsv. The tracing examples are left out: their
# profile needs attached runs (cov run -- COMMAND) and test_run has no repeat
# for them.
set -u
B=${BG_BUILD:-build}
R=$(cd "$(dirname "$0")/.." && pwd)
out="$B/bench"; mkdir -p "$out"
tsv="$out/pgo.tsv"
tmp=$(mktemp -d /tmp/bg-pgo.XXXXXX); trap 'rm -rf "$tmp"' EXIT
clang=${BPFGATE_CLANG:-clang-14}
flags=(-O2 -g -I"$B" -I"$R/examples/include" -I/usr/include/x86_64-linux-gnu)
python3 "$R/bench/skewed_pcap.py" "$tmp/train.pcap" 5000 --seed 1
python3 "$R/bench/skewed_pcap.py" "$tmp/eval.pcap" 5000 --seed 2
# one frame per kind for the kernel timing
for k in tcp udp ipv6 arp; do
  python3 "$R/bench/skewed_pcap.py" "$tmp/$k.pcap" 1 --mix "$k=1" --seed 3
  python3 - "$tmp/$k.pcap" "$tmp/$k.bin" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(d[24 + 16:])
PY
done
kern=0; "$B/bpfgate" kload --probe >/dev/null 2>&1 && command -v bpftool >/dev/null && kern=1
kernel_ns() { # obj -> weighted ns per packet, or "-"
  [ $kern = 1 ] || { echo -; return; }
  local pin=/sys/fs/bpf/bg_pgo_$$ tot=0
  bpftool prog load "$1" "$pin" 2>/dev/null || { echo -; return; }
  for km in tcp:95 udp:3 ipv6:1 arp:1; do
    local k=${km%:*} w=${km#*:} best=
    for i in 1 2 3 4 5; do
      local ns
      ns=$(bpftool prog run pinned "$pin" data_in "$tmp/$k.bin" repeat 2000000 2>&1 | sed -n 's/.*duration (average): \([0-9]*\)ns.*/\1/p')
      [ -n "$ns" ] && { [ -z "$best" ] || [ "$ns" -lt "$best" ]; } && best=$ns
    done
    tot=$(python3 -c "print(round($tot + ${best:-0} * $w / 100, 2))")
  done
  rm -f "$pin"
  echo "$tot"
}
printf 'example\tbuild\tinsns_per_pkt\tcond_jumps_per_pkt\ttaken_jumps_per_pkt\tkernel_ns_per_pkt\tinsns\tcode_bytes\tcode_changed\tcheck\n' > "$tsv"
for ex in xdp_parse xdp_flowtrack; do
  src="$R/examples/$ex.bpf.c"
  "$B/bpfgate" cc --hints --clang "$clang" "${flags[@]}" -c "$src" -o "$tmp/$ex.base.o" 2>"$tmp/err" || { echo "pgo.bench: $ex: $(tail -1 "$tmp/err")"; continue; }
  "$B/bpfgate" cov run "$tmp/$ex.base.o" --vm --pcap "$tmp/train.pcap" -o "$tmp/$ex.info" --profile "$tmp/$ex.prof.json" >/dev/null 2>&1
  "$B/bpfgate" cc --clang "$clang" --profile "$tmp/$ex.prof.json" --no-layout "${flags[@]}" -c "$src" -o "$tmp/$ex.sample.o" 2>"$tmp/err" \
    || { echo "pgo.bench: $ex with the sample profile: $(tail -1 "$tmp/err")"; continue; }
  "$B/bpfgate" cc --clang "$clang" --profile "$tmp/$ex.prof.json" "${flags[@]}" -c "$src" -o "$tmp/$ex.pgo.o" 2>"$tmp/err" \
    || { echo "pgo.bench: $ex with profile: $(tail -1 "$tmp/err")"; continue; }
  grep "layout" "$tmp/err" | sed "s/^/pgo.bench: $ex: /"
  for b in base sample pgo; do
    o="$tmp/$ex.$b.o"
    "$B/bpfgate" run "$o" --pcap "$tmp/eval.pcap" --json > "$tmp/r.json"
    "$B/bpfgate" check --json "$o" > "$tmp/c.json" 2>/dev/null
    ns=$(kernel_ns "$o")
    "$B/bpfgate" disasm "$o" | sed 's/\t;.*//' > "$tmp/$b.dis"
    changed=-; [ $b != base ] && { cmp -s "$tmp/base.dis" "$tmp/$b.dis" && changed=no || changed=yes; }
    python3 - "$tmp/r.json" "$tmp/c.json" "$ex" "$b" "$ns" "$changed" >> "$tsv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))[0]
pr = r["per_run"]
name = {"base": "plain", "sample": "sample-profile", "pgo": "profile+layout"}[sys.argv[4]]
print(f"{sys.argv[3]}\t{name}\t{pr['insns']:.2f}\t{pr['cond_jumps']:.2f}\t{pr['taken_jumps']:.3f}\t{sys.argv[5]}\t{c['insns']}\t{c['insns'] * 8}\t{sys.argv[6]}\t{c['verdict']}")
PY
  done
done
column -t -s $'\t' "$tsv"
