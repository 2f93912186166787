# bpfgate cc: time to a verified object for each test program of
# tests/data/cc (compiles, seconds, culprit, fix, instruction cost), per clang.
# Target: culprit in <= log2(passes)+3 compiles, < 5 s for small programs.
set -u
B=${BG_BUILD:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
export BPFGATE_PLUGIN_DIR=${BPFGATE_PLUGIN_DIR:-$B/plugins}
tmp=$(mktemp -d /tmp/bg-cc-bench.XXXXXX)
out="$B/bench/cc.tsv"
mkdir -p "$B/bench"
printf 'program\tclang\tverdict\tculprit\tpass#/passes\tbisect compiles\tlog2+3\tfix\tinsns\tcompiles\tseconds\n' > "$out"
for src in "$root"/tests/data/cc/*.c; do
  name=$(basename "$src" .c)
  spec=$(grep -o 'cc-test: .*' "$src" | head -1)
  clangs=$(sed -n 's/.*clangs=\([^ ]*\).*/\1/p' <<<"$spec")
  flags=$(sed -n 's/.*flags=\([^ ]*\).*/\1/p' <<<"$spec" | tr ',' ' ')
  for v in ${clangs//,/ }; do
    "$B/bpfgate" cc --clang "clang-$v" --report json --no-sidecar $flags -O2 -g \
      -I"$root/include" -DBG_ASSERT_DISABLE -I/usr/include/x86_64-linux-gnu -c "$src" -o "$tmp/o.o" > "$tmp/r.json" 2>/dev/null
    python3 - "$tmp/r.json" "$name" "clang-$v" >> "$out" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1])); c = d.get("culprit") or {}
n = c.get("passes") or 0
verdict = "fixed" if d.get("fix") else ("unsafe source" if d.get("unsafe_source") else "not fixed")
print("\t".join(map(str, [sys.argv[2], sys.argv[3], verdict, c.get("pass", "-"),
      f'{c.get("pass_number","-")}/{n}', c.get("bisect_compiles", "-"),
      math.ceil(math.log2(n)) + 3 if n else "-", d.get("fix") or "-",
      f'{d["insns_before"]}->{d["insns_after"]}', d["compiles"], f'{d["seconds"]:.2f}'])))
PY
  done
done
column -t -s $'\t' "$out"

# The two routes that back out pass runs, on the cases both fix: the pass
# plugin (inside clang) and the textual pipeline (opt -passes= minus entries,
# then llc). Same search otherwise; compiles count objects built (the
# pipeline route's setup - frontend IR, printed pipeline, stage A - is one).
rout="$B/bench/cc-route.tsv"
printf 'program\tclang\troute\tfix\tinsns\tcompiles\tseconds\n' > "$rout"
for name in phi_ctx switch_ctx; do
  for v in 14 19; do
    command -v "clang-$v" >/dev/null || continue
    for route in plugin pipeline; do
      "$B/bpfgate" cc --clang "clang-$v" --fix-route $route --report json --no-sidecar -O2 -g \
        -I/usr/include/x86_64-linux-gnu -c "$root/tests/data/cc/$name.c" -o "$tmp/o.o" > "$tmp/r.json" 2>/dev/null
      python3 - "$tmp/r.json" "$name" "clang-$v" "$route" >> "$rout" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("\t".join(map(str, [sys.argv[2], sys.argv[3], sys.argv[4], d.get("fix") or "-",
      f'{d["insns_before"]}->{d["insns_after"]}', d["compiles"], f'{d["seconds"]:.2f}'])))
PY
    done
  done
done
column -t -s $'\t' "$rout"
rm -rf "$tmp"
