#!/usr/bin/env bash
# bpfgate check against the kernel's recorded verdicts on the project corpus
# (agreement >= 97%, no unexplained disagreement; see tests/check_corpus.py).
# min-pass: 1121 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
python3 "$BG_ROOT/tests/check_corpus.py"
