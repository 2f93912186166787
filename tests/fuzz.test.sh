#!/usr/bin/env bash
# Bounded libFuzzer run over the object loader (about 45 s; FUZZ_SECONDS to
# change): PASS with the number of executions, FAIL on any finding.
# min-pass: 0 (optional: a SKIP says why libFuzzer could not be built; under CI=true
# a missing runtime fails: scripts/deps.sh installs it)
source "$(dirname "$0")/lib/common.sh"
command -v clang-14 >/dev/null || { skip fuzz-obj "clang-14 not installed"; exit 0; }
secs=${BG_FUZZ_SECONDS:-45}
out=$(FUZZ_SECONDS=$secs bash "$BG_ROOT/tests/fuzz/run.sh" 2>&1); rc=$?
last=$(grep '^fuzz:' <<<"$out" | tail -1)
if [ "$rc" -eq 0 ]; then pass "fuzz-obj ($last)"
elif [ "$rc" -eq 2 ] && [ "${CI:-}" != true ]; then skip fuzz-obj "cannot build the fuzzer: $(tail -1 <<<"$out")"
else fail fuzz-obj "$(tr '\n' ' ' <<<"$out" | tail -c 600)"; fi
