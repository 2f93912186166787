#!/usr/bin/env bash
# bpfgate check: analysis time vs the kernel's verification time on the corpus,
# and scaling on generated programs (1k..1M insns). See bench/check_bench.py.
python3 "$(dirname "$0")/check_bench.py"
