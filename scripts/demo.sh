#!/usr/bin/env bash
# make demo: the main job on the bundled examples. For each program: name,
# type, instruction count, the running kernel's verdict and ours side by side.
set -u
B=${BG_BUILD:-build}
for o in "$B"/examples/*.bpf.o; do
  "$B/bpfgate" list "$o" || true
done
