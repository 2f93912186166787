#!/usr/bin/env bash
# make bench: runs every bench/*.bench.sh; each prints its figures and writes
# results under $BG_BUILD/bench/.
set -u
B=${BG_BUILD:-build}
mkdir -p "$B/bench"
for b in "$(dirname "$0")"/*.bench.sh; do
  [ -f "$b" ] || continue
  echo "== $(basename "$b" .bench.sh)"
  bash "$b"
done
