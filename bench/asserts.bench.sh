# <bpfgate/assert.h>: what assertions cost, and what they say. Every program
# of tests/data/asserts and examples/asserts, built at -O2 by clang-14 and
# clang-19 with and without assertions (-DBG_ASSERT_DISABLE), loaded into the
# running kernel BG_ASSERTS_LOADS times (default 11), alternating: instruction
# counts, processed instructions, fastest and median verification time side
# by side (bench/asserts.tsv); assertions by kind, clang and status
# (bench/asserts-kinds.tsv). Needs bpf() for the first table.
set -u
B=${BG_BUILD:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$B" && pwd)
BG_BUILD=$B BG_NORMAL_BUILD=$B python3 "$root/tests/asserts.py" --bench | grep -v '^\(PASS\|#\)'
for t in asserts asserts-kinds; do
  [ -s "$B/bench/$t.tsv" ] && { echo "-- $B/bench/$t.tsv"; column -t -s $'\t' "$B/bench/$t.tsv"; }
done
exit 0
