# bpfgate cc on programs whose -O2 build the kernel rejects while the source
# is safe (tests/data/cc/*.c, each with a "cc-test:" line naming the clangs,
# extra flags and the expected outcome). The running kernel is the judge:
# the first build must be rejected by it, the backed-out object accepted by
# it (checked again with bpfgate kload), and the unsafe program blamed on
# the source. Writes a table to $BG_BUILD/cc-table.tsv for the closing note.
# min-pass: 27 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
export BPFGATE_PLUGIN_DIR=${BPFGATE_PLUGIN_DIR:-$BG_NORMAL_BUILD/plugins}
data="$BG_ROOT/tests/data/cc"
tmp=$(mktemp -d /tmp/bg-cc-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# assertions off: a case is the kernel's verdict on clang's code (asserts_cc builds them on)
CFLAGS_BPF="-O2 -g -I$BG_ROOT/include -DBG_ASSERT_DISABLE -I/usr/include/x86_64-linux-gnu"

"$BPFGATE" cc --verifier nonsense -c x.c >/dev/null 2>&1; [ $? -eq 2 ] && pass cc/bad-flag || fail cc/bad-flag "exit not 2"
printf 'int f(void) { return }\n' > "$tmp/broken.c"
"$BPFGATE" cc $CFLAGS_BPF -c "$tmp/broken.c" -o "$tmp/broken.o" >/dev/null 2>&1; [ $? -eq 2 ] && pass cc/compile-error || fail cc/compile-error "exit not 2"
"$BPFGATE" cc -E "$data/phi_ctx.c" -I/usr/include/x86_64-linux-gnu -o "$tmp/pp.i" >/dev/null 2>&1 && grep -q pick_field "$tmp/pp.i" \
  && pass cc/passthrough-preprocess || fail cc/passthrough-preprocess "clang -E not passed through"

# dependency files: -MD -MF are honoured on the user's build (not on trial builds)
cat > "$tmp/ok.c" <<'C'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("xdp") int pass_all(struct xdp_md *ctx) { return XDP_PASS; }
char LICENSE[] SEC("license") = "GPL";
C
"$BPFGATE" cc $CFLAGS_BPF -MD -MF "$tmp/ok.d" -c "$tmp/ok.c" -o "$tmp/ok.o" >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/ok.o" ] && grep -q "bpf_helpers.h" "$tmp/ok.d" 2>/dev/null && grep -q "^$tmp/ok.o:" "$tmp/ok.d" \
  && pass cc/depfile-and-accepted || fail cc/depfile-and-accepted "exit $rc, depfile $(wc -c < "$tmp/ok.d" 2>/dev/null)"

if ! kernel_ok; then
  skip cc/kernel-judged "bpf() unavailable: bpf() refused here; the cc cases need the kernel as judge"
  exit 0
fi

field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d
for k in sys.argv[2].split("."): v = v[int(k)] if isinstance(v, list) else (v or {}).get(k)
print("" if v is None else v)' "$1" "$2"; }

printf 'program\tclang\tflags\tfirst verdict\tculprit\tfix\tinsns before\tinsns after\tcompiles\tseconds\n' > "$BG_BUILD/cc-table.tsv"
# one case: a program with one clang; prints its PASS/FAIL line into $tmp/res.<n>
# With a 4th argument "pipeline" the pass runs are backed out through the
# textual pipeline route (--fix-route pipeline) and the sidecar is kept;
# "auto-noplugin": the default route with no plugin built must pick it too.
run_case() {
  local src=$1 v=$2 n=$3 route=${4:-} label= name spec flags expect want_fix want_culprit t out rc first culprit fix side=--no-sidecar
  name=$(basename "$src" .c)
  spec=$(grep -o 'cc-test: .*' "$src" | head -1)
  flags=$(sed -n 's/.*flags=\([^ ]*\).*/\1/p' <<<"$spec" | tr ',' ' ')
  expect=$(sed -n 's/.*expect=\([^ ]*\).*/\1/p' <<<"$spec")
  want_fix=$(sed -n 's/.* fix=\([^ ]*\).*/\1/p' <<<"$spec")
  want_culprit=$(sed -n 's/.* culprit=\([^ ]*\).*/\1/p' <<<"$spec")
  t="cc/$name/clang-$v"
  out="$tmp/$name-$v.o"
  if [ "$route" = pipeline ]; then
    t="$t/pipeline-route"; out="$tmp/$name-$v-pipeline.o"; flags="--fix-route pipeline $flags"
    want_fix="^pipeline without "; side=
  elif [ "$route" = auto-noplugin ]; then
    t="$t/auto-route-without-plugin"; out="$tmp/$name-$v-auto.o"; want_fix="^pipeline without "
    export BPFGATE_PLUGIN_DIR="$tmp/no-plugins"; label="(auto route, no plugin) $flags"
  fi
  exec >"$tmp/res.$n"
  "$BPFGATE" cc --clang "clang-$v" --verifier kernel --report json $side $flags $CFLAGS_BPF -c "$src" -o "$out" \
    >"$tmp/r$n.json" 2>"$tmp/r$n.err"
  rc=$?
  if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/r$n.json" 2>/dev/null; then
    fail "$t" "no JSON report (exit $rc): $(tail -2 "$tmp/r$n.err" | tr '\n' ' ')"; return
  fi
  first=$(field "$tmp/r$n.json" programs.0.verdict)
  if [ "$(field "$tmp/r$n.json" culprit.before)" = accepted ] || [ "$(field "$tmp/r$n.json" culprit.by_elimination)" = True ]; then
    culprit="$(field "$tmp/r$n.json" culprit.pass) ($(field "$tmp/r$n.json" culprit.pass_number)/$(field "$tmp/r$n.json" culprit.passes))"
  else
    culprit="no single pass (target choice)"
  fi
  fix=$(field "$tmp/r$n.json" fix)
  printf '%s\tclang-%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$v" "${label:-${flags:--}}" "$first" "$culprit" "${fix:--}" \
    "$(field "$tmp/r$n.json" insns_before)" "$(field "$tmp/r$n.json" insns_after)" \
    "$(field "$tmp/r$n.json" compiles)" "$(field "$tmp/r$n.json" seconds)" > "$tmp/row.$n"
  case "$expect" in
    fixed)
      if [ "$first" != rejected ]; then fail "$t" "the -O2 build was not rejected by the kernel ($first): the case no longer reproduces"; return; fi
      if [ $rc -ne 0 ] || [ -z "$fix" ]; then fail "$t" "no fix found (exit $rc): $(tail -3 "$tmp/r$n.err" | tr '\n' ' ')"; return; fi
      if [ -n "$want_fix" ] && ! [[ "$fix" =~ $want_fix ]]; then fail "$t" "fix '$fix' is not the expected /$want_fix/"; return; fi
      if [ -n "$want_culprit" ] && ! [[ "$culprit" =~ $want_culprit ]]; then fail "$t" "culprit '$culprit' is not the expected $want_culprit"; return; fi
      if [ -n "$route" ] && [ "$(field "$tmp/r$n.json" fix_route)" != pipeline ]; then fail "$t" "report says fix_route '$(field "$tmp/r$n.json" fix_route)'"; return; fi
      if "$BPFGATE" kload "$out" >/dev/null 2>&1; then pass "$t: culprit $culprit, fixed with $fix"
      else fail "$t" "kernel rejects the backed-out object"; fi ;;
    unsafe)
      if [ $rc -eq 1 ] && [ "$(field "$tmp/r$n.json" unsafe_source)" = True ] && [ ! -e "$out" ]; then pass "$t: blamed on the source"
      else fail "$t" "expected exit 1 with unsafe_source (exit $rc, unsafe=$(field "$tmp/r$n.json" unsafe_source))"; fi ;;
  esac
}
# the decision is recorded and replayed (second build of the same source is
# fast), and --strict fails instead of backing out: one job in the queue
serial_checks() {
  local src="$data/phi_ctx.c" out="$tmp/replay.o"
  exec >"$tmp/res.serial"
  "$BPFGATE" cc --clang clang-14 --report json $CFLAGS_BPF -c "$src" -o "$out" >"$tmp/a.json" 2>/dev/null
  "$BPFGATE" cc --clang clang-14 --report json $CFLAGS_BPF -c "$src" -o "$out" >"$tmp/b.json" 2>/dev/null
  if [ -s "$out.bpfgate" ] && [ "$(field "$tmp/b.json" replayed)" = True ] && \
     [ "$(field "$tmp/b.json" compiles)" -lt "$(field "$tmp/a.json" compiles)" ]; then
    pass "cc/sidecar-replay: $(field "$tmp/a.json" compiles) compiles, replay $(field "$tmp/b.json" compiles)"
  else
    fail cc/sidecar-replay "not replayed (sidecar $(wc -c < "$out.bpfgate" 2>/dev/null) bytes, replayed=$(field "$tmp/b.json" replayed))"
  fi
  "$BPFGATE" cc --clang clang-14 --strict --no-sidecar $CFLAGS_BPF -c "$src" -o "$tmp/strict.o" >/dev/null 2>&1
  [ $? -eq 1 ] && [ ! -e "$tmp/strict.o" ] && pass cc/strict || fail cc/strict "expected exit 1 and no object"
}
# two cases at a time (each is a chain of compiles and kernel loads)
# the longest jobs first: the serial checks and the textual pipeline route
# forced on a case the plugin route fixes too, then chosen by auto
serial_checks &
n=1; pipe_n=1
while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
run_case "$data/phi_ctx.c" 14 "$n" pipeline &
n=2
while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
run_case "$data/switch_ctx.c" 19 "$n" auto-noplugin &
for src in "$data"/*.c; do
  clangs=$(grep -o 'cc-test: .*' "$src" | head -1 | sed -n 's/.*clangs=\([^ ]*\).*/\1/p')
  for v in ${clangs//,/ }; do
    n=$((n + 1))
    if ! command -v "clang-$v" >/dev/null; then echo "SKIP cc/$(basename "$src" .c)/clang-$v: clang-$v not installed" > "$tmp/res.$n"; continue; fi
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
    run_case "$src" "$v" "$n" &
  done
done
wait
for k in $(seq 1 "$n"); do cat "$tmp/res.$k" 2>/dev/null; cat "$tmp/row.$k" >> "$BG_BUILD/cc-table.tsv" 2>/dev/null; done
cat "$tmp/res.serial"
src="$data/phi_ctx.c"

# the pipeline route's decision is replayed from its sidecar
"$BPFGATE" cc --fix-route nonsense -c x.c >/dev/null 2>&1; [ $? -eq 2 ] && pass cc/fix-route-bad-value || fail cc/fix-route-bad-value "exit not 2"
out="$tmp/phi_ctx-14-pipeline.o"
if [ -s "$out.bpfgate" ]; then
  "$BPFGATE" cc --clang clang-14 --verifier kernel --fix-route pipeline --report json $CFLAGS_BPF -c "$src" -o "$out" >"$tmp/c.json" 2>/dev/null
  if [ "$(field "$tmp/c.json" replayed)" = True ] && [[ "$(field "$tmp/c.json" fix)" == "pipeline without "* ]] && \
     "$BPFGATE" kload "$out" >/dev/null 2>&1; then
    pass "cc/pipeline-route-replay: $(field "$tmp/r$pipe_n.json" compiles) compiles, replay $(field "$tmp/c.json" compiles)"
  else
    fail cc/pipeline-route-replay "not replayed or not accepted (replayed=$(field "$tmp/c.json" replayed), fix=$(field "$tmp/c.json" fix))"
  fi
else
  fail cc/pipeline-route-replay "the pipeline-route case wrote no sidecar"
fi
