#!/usr/bin/env bash
# The real corpus (`make realcorpus`) judged by every fetched kernel, the cheap
# form (issue 13): `bpfgate check --kernel 5.10,6.1,6.12,7.2,6.18` over the
# corpus (two processes at a time) against the kernels' verdicts cached in
# tests/data/realcorpus/guests/ (no boot; `make realcorpus-kernels-boot`
# regenerates them). A disagreement neither in tests/data/realcorpus/kernels.tsv
# nor shared with the running kernel (disagreements.tsv) FAILs, and so does a
# listed one that agrees now. Skips, with the reason, without the real corpus,
# the guest cache or the kernel images (fetched into $XDG_CACHE_HOME/bpfgate:
# check --kernel V needs V's BTF); under CI=true those FAIL.
# See tests/realcorpus_kernels.py.
# min-pass: 4 (one PASS per kernel compared when corpus, cache and images are there)
. "$(dirname "$0")/lib/common.sh"
tmp=$(mktemp -d /tmp/bg-rck.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
BG_REAL_OUT=$tmp BG_REAL_REPORT=$tmp/report.json \
  BG_REAL_BPFGATE=${BG_REAL_BPFGATE:-$BG_NORMAL_BUILD/bpfgate} python3 "$BG_ROOT/tests/realcorpus_kernels.py"
