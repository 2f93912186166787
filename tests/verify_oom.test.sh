#!/usr/bin/env bash
# Allocation failure inside the static verifier (tests/unit/test_verify_oom.c):
# the unit binary interposes malloc, which a sanitizer build cannot do, so
# run the normal build's binary ($BG_NORMAL_BUILD, else build/).
# min-pass: 32 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BG_NORMAL_BUILD:-$root/build}/tests/test_verify_oom
if [ ! -x "$bin" ]; then
  echo "FAIL verify_oom: $bin not built (make)"
  exit 1
fi
exec "$bin"
