#!/usr/bin/env bash
# CC="bpfgate cc" over a real project: a sample of the kernel's BPF selftests
# (the real corpus tree, `make realcorpus`) built with their own flags by
# clang-19 and by bpfgate cc (bench/cc_dropin.sh): every object clang writes
# is written (unless the kernel rejects it and no fix helps: then cc exits 1),
# byte-identical wherever no program of clang's build is rejected by the kernel.
# BG_DROPIN_N sources (default 10; the closing figures use 40).
. "$(dirname "$0")/lib/common.sh"
rc_dir=${BG_REALCORPUS:-$BG_NORMAL_BUILD/realcorpus}
if [ ! -d "$rc_dir/src/tools/testing/selftests/bpf/progs" ]; then skip cc_dropin "no real corpus at $rc_dir (make realcorpus)"; exit 0; fi
command -v clang-19 >/dev/null || { skip cc_dropin "clang-19 not installed"; exit 0; }
if ! kernel_ok; then
  if [ "${CI:-}" = true ]; then fail cc_dropin "bpf() refused"; else skip cc_dropin "bpf() refused here"; fi
  exit 0
fi
tsv=$(mktemp /tmp/bg-dropin.XXXXXX.tsv)
trap 'rm -f "$tsv"' EXIT
out=$(BG_REALCORPUS="$rc_dir" BPFGATE="$BPFGATE" bash "$BG_ROOT/bench/cc_dropin.sh" "${BG_DROPIN_N:-10}" "$tsv" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
# cc refuses (exit 1) a build the kernel rejects and no fix makes acceptable
# (find_vma_fail1.c is such a deliberately unsafe source): every other object
# clang writes, cc writes
written=$(awk -F'\t' 'NR > 1 && $2 == 0 && $3 != 0 && $7 !~ /rejected/' "$tsv" | wc -l)
[ "$written" -eq 0 ] && pass cc_dropin/every-object-written || fail cc_dropin/every-object-written "$written sources clang built (not rejected by the kernel) and cc did not"
[ $rc -eq 0 ] && pass cc_dropin/identical-where-the-kernel-accepts || fail cc_dropin/identical-where-the-kernel-accepts "$(echo "$out" | grep -m3 differ)"
