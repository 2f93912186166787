#!/usr/bin/env bash
# Thread safety under ThreadSanitizer: tests/unit/test_threads.c built by
# `make tsan` (build-tsan/): 8 threads verify different objects at once; a
# data race in the library is a TSan report and a non-zero exit. Each thread
# walks 8 of the objects (BG_THREADS_OBJS) to stay under a minute.
# min-pass: 2 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
bin=$BG_ROOT/build-tsan/tests/test_threads
if [ ! -x "$bin" ]; then
  fail threads_tsan "$bin not built (make tsan)"
  exit 0
fi
out=$(mktemp); trap 'rm -f "$out"' EXIT
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" BG_THREADS_OBJS=${BG_THREADS_OBJS:-8} BG_EXAMPLES=$BG_EXAMPLES BG_CORPUS=$BG_CORPUS \
  setarch "$(uname -m)" -R "$bin" >"$out" 2>&1; rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$out" | sed 's/^PASS /PASS tsan_/; s/^FAIL /FAIL tsan_/'
if [ $rc -ne 0 ]; then
  fail threads_tsan "exit $rc: $(grep -m1 -A12 'WARNING: ThreadSanitizer' "$out" | tr '\n' ' ' | cut -c1-600)"
else
  pass threads_tsan_clean
fi
