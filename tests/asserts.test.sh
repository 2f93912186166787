#!/usr/bin/env bash
# <bpfgate/assert.h> assertions: each kind holding and failing under clang-14
# and clang-19, unrolled copies, lost assertions, objects accepted by the
# running kernel with and without assertions (tests/asserts.py).
# min-pass: 64 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
for c in clang-14 clang-19; do
  if ! command -v $c >/dev/null; then skip asserts "$c not installed"; exit 0; fi
done
python3 "$BG_ROOT/tests/asserts.py" "$@"
