#!/usr/bin/env bash
# bpfgate check on the kernel's own BPF selftests (the real corpus, `make
# realcorpus`), judged by the running kernel; every disagreement is listed in
# tests/data/realcorpus/disagreements.tsv. Needs bpf(): skips without it,
# fails under CI=true. See tests/realcorpus.py.
. "$(dirname "$0")/lib/common.sh"
BG_REAL_BPFGATE=${BG_REAL_BPFGATE:-$BG_NORMAL_BUILD/bpfgate} python3 "$BG_ROOT/tests/realcorpus.py"
