#!/usr/bin/env bash
# Data-file tests of bpfgate check (tests/data/check/*.t): each case's verdict
# and message, and the same expectation checked against the running kernel.
# min-pass: 955 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
if ! command -v clang-19 >/dev/null; then skip check_data "clang-19 not installed"; exit 0; fi
if [ ! -f "$BG_NORMAL_BUILD/vmlinux.h" ]; then skip check_data "no $BG_NORMAL_BUILD/vmlinux.h"; exit 0; fi
python3 "$BG_ROOT/tests/check_data.py" "$@"
