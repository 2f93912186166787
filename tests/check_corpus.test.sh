#!/usr/bin/env bash
# bpfgate check against the kernel's recorded verdicts on the project corpus
# (agreement >= 97%, no unexplained disagreement; see tests/check_corpus.py).
. "$(dirname "$0")/lib/common.sh"
python3 "$BG_ROOT/tests/check_corpus.py"
