#!/usr/bin/env bash
# bpfgate cc and assertions / other compilers / the drop-in policy, with the
# running kernel as judge (tests/data/cc/*.c built with their assertions on):
#  - a failed assertion is a rejection: cc names it, finds the pass, backs it
#    out; the written object's assertions hold (bpfgate check) and it loads;
#  - clang-14's mask compare with no back-out possible (forced plugin route,
#    no plugin): cc names clang-19 and writes its object;
#  - an unsafe source: "the source itself is unsafe", naming the builds tried;
#  - where no kernel can judge (fentry: EPERM here), a bpfgate rejection warns
#    and keeps clang's object byte for byte (--no-hints: cc otherwise adds its
#    .bpfgate.hints section); --strict refuses it.
# min-pass: 12 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
for c in clang-14 clang-19; do
  command -v $c >/dev/null || { skip asserts_cc "$c not installed"; exit 0; }
done
if ! kernel_ok; then
  if [ "${CI:-}" = true ]; then fail asserts_cc "bpf() refused"; else skip asserts_cc "bpf() refused here"; fi
  exit 0
fi
export BPFGATE_PLUGIN_DIR=${BPFGATE_PLUGIN_DIR:-$BG_NORMAL_BUILD/plugins}
tmp=$(mktemp -d /tmp/bg-asserts-cc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
F="-O2 -g -I$BG_ROOT/include -I/usr/include/x86_64-linux-gnu"
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d
for k in sys.argv[2].split("."): v = v[int(k)] if isinstance(v, list) else (v or {}).get(k)
print("" if v is None else v)' "$1" "$2"; }

# 1. hazards caught by an assertion, backed out by cc. A case is DIR/NAME
#    under tests/data (cc/: kernel-judged cases of cc.test.sh, which builds
#    them with -DBG_ASSERT_DISABLE; asserts_cc/: only the assertion rejects)
cc_assert_case() { # dir/name clang want_culprit_regex want_fix_regex [extra clang flags]
  local v=$2 t="asserts_cc/${1#*/}/clang-$2${5:+ $5}" o="$tmp/${1#*/}-$2.o" j="$tmp/${1#*/}-$2.json"
  "$BPFGATE" cc --clang clang-$v --no-sidecar --report json $F ${5:-} -c "$BG_ROOT/tests/data/$1.c" -o "$o" >"$j" 2>"$tmp/err"
  local rc=$? by culprit fix
  by=$(field "$j" programs.0.by); culprit=$(field "$j" culprit.pass); fix=$(field "$j" fix)
  if [ $rc -ne 0 ] || [ "$by" != assertion ]; then fail "$t" "exit $rc, rejected by '$by': $(field "$j" programs.0.message)"; return; fi
  [[ "$(field "$j" programs.0.message)" =~ bg_assert_[a-z_]+\(.*\)\ fails:\ (r[0-9]+\ =|function\ [A-Za-z_0-9]+\ has) ]] || { fail "$t" "message: $(field "$j" programs.0.message)"; return; }
  if [ -n "$3" ] && ! [[ "$culprit" =~ $3 ]]; then fail "$t" "culprit '$culprit' !~ $3"; return; fi
  [[ "$fix" =~ $4 ]] || { fail "$t" "fix '$fix' !~ $4"; return; }
  "$BPFGATE" check "$o" >"$tmp/chk" 2>&1 || { fail "$t" "written object: $(grep -m1 fails "$tmp/chk")"; return; }
  "$BPFGATE" kload "$o" | grep -q accepted || { fail "$t" "written object not accepted by the kernel"; return; }
  pass "$t culprit=${culprit:--} fix=$fix"
}
# the same source under a clang without the hazard: every assertion holds,
# cc writes clang's object byte for byte, the kernel accepts it
cc_holds_case() { # dir/name clang [extra clang flags]
  local t="asserts_cc/${1#*/}/clang-$2/holds" o="$tmp/${1#*/}-$2-h.o" c="$tmp/${1#*/}-$2-clang.o"
  "$BPFGATE" cc --clang clang-$2 --no-sidecar $F ${3:-} -c "$BG_ROOT/tests/data/$1.c" -o "$o" >"$tmp/h.txt" 2>&1
  local rc=$?
  clang-$2 $F ${3:-} -target bpf -c "$BG_ROOT/tests/data/$1.c" -o "$c"
  if [ $rc -eq 0 ] && cmp -s "$o" "$c" && "$BPFGATE" check -v "$o" | grep -q " holds: " && ! "$BPFGATE" check -v "$o" | grep -q " fails: " \
     && "$BPFGATE" kload "$o" | grep -q accepted; then
    pass "$t"
  else
    fail "$t" "exit $rc: $(head -2 "$tmp/h.txt" | tr '\n' ' ')"
  fi
}
# clang-14 InstCombine: (u8)i < 32 becomes a mask test; the pass is backed out
cc_assert_case cc/u8_mask 14 'InstCombinePass' 'skip.*InstCombinePass'
# clang-19 ConstraintElimination deletes a bounds check implied by two others
cc_assert_case cc/implied_check 19 '^ConstraintEliminationPass$' 'enable-constraint-elimination=false' -mcpu=v3
# (at -mcpu=v1 the builds below it fail too: named by elimination, its runs skipped)
cc_assert_case cc/implied_check 19 '^ConstraintEliminationPass$' 'skip.*ConstraintEliminationPass@implied_check' -mcpu=v1
cc_holds_case cc/implied_check 14 -mcpu=v3
# LoopFullUnroll (both clangs) unrolls a loop past the function's size budget
cc_assert_case asserts_cc/unroll_budget 14 '^LoopFullUnrollPass$' 'skip.*LoopFullUnrollPass@hash_key'
cc_assert_case asserts_cc/unroll_budget 19 '^LoopFullUnrollPass$' 'skip.*LoopFullUnrollPass@hash_key'
# a check on a zero-extended copy: fixed by -mcpu=v3, no single pass to blame
cc_assert_case cc/range_fold 14 '' '^-mcpu=v3$'
cc_assert_case cc/range_fold 19 '' '^-mcpu=v3$'
cc_assert_case cc/two_checks 19 '' '^-mcpu=v3$' '-mllvm -bpf-disable-serialize-icmp'

# 2. no back-out possible with clang-14 (forced plugin route, no plugin): clang-19 builds it,
#    its object holds the assertion that clang-14's breaks
mkdir -p "$tmp/noplug"
BPFGATE_PLUGIN_DIR="$tmp/noplug" "$BPFGATE" cc --clang clang-14 --verifier kernel --no-sidecar --no-hints --fix-route plugin \
  $F -c "$BG_ROOT/tests/data/cc/u8_mask.c" -o "$tmp/u8.o" >"$tmp/u8.txt" 2>&1
rc=$?
clang-19 $F -target bpf -c "$BG_ROOT/tests/data/cc/u8_mask.c" -o "$tmp/u8-19.o"
if [ $rc -eq 0 ] && grep -q "clang-19 builds this so that the kernel accepts it" "$tmp/u8.txt" && cmp -s "$tmp/u8.o" "$tmp/u8-19.o" \
   && "$BPFGATE" check -v "$tmp/u8.o" | grep -q "bg_assert_range(i, 0, 31) holds" \
   && "$BPFGATE" kload "$tmp/u8.o" | grep -q accepted; then
  pass asserts_cc/u8_mask/clang-14/other-clang
else
  fail asserts_cc/u8_mask/clang-14/other-clang "exit $rc: $(grep -E 'bpfgate cc: (no back-out|the source)' "$tmp/u8.txt")"
fi

# 3. unsafe: no build is accepted; the verdict names the builds tried
"$BPFGATE" cc --clang clang-14 --verifier kernel --no-sidecar $F -c "$BG_ROOT/tests/data/cc/unsafe_oob.c" -o "$tmp/oob.o" >"$tmp/oob.txt" 2>&1
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$tmp/oob.o" ] && grep -q "the source itself is unsafe" "$tmp/oob.txt" && grep -Eq "builds tried: clang-14 .*clang-19" "$tmp/oob.txt"; then
  pass asserts_cc/unsafe_oob/builds-tried
else
  fail asserts_cc/unsafe_oob/builds-tried "exit $rc: $(grep -E 'unsafe|builds tried' "$tmp/oob.txt" | head -2 | tr '\n' ' ')"
fi

# 4. the kernel cannot judge fentry here (EPERM before verification): bpfgate's
#    rejection warns, clang's object is kept unchanged; --strict refuses it
cat > "$tmp/fentry.c" <<'C'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("fentry/do_nanosleep") int past_args(unsigned long long *ctx) { return ctx[40] == 7; }
char LICENSE[] SEC("license") = "GPL";
C
clang-19 $F -target bpf -c "$tmp/fentry.c" -o "$tmp/fentry-clang.o"
kv=$("$BPFGATE" kload "$tmp/fentry-clang.o" | awk 'NR==1{print $3}')
bv=$("$BPFGATE" check "$tmp/fentry-clang.o" | grep -o 'rejected' | head -1)
if [ "$kv" != unavailable ] || [ "$bv" != rejected ]; then
  skip asserts_cc/policy/no-kernel "premise changed: kernel says '$kv', bpfgate '$bv'"
else
  "$BPFGATE" cc --clang clang-19 --no-sidecar --no-hints $F -c "$tmp/fentry.c" -o "$tmp/fentry-cc.o" >"$tmp/fe.txt" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && cmp -s "$tmp/fentry-cc.o" "$tmp/fentry-clang.o" && grep -q "warning: .*no kernel could judge" "$tmp/fe.txt"; then
    pass asserts_cc/policy/no-kernel-warns-keeps-object
  else
    fail asserts_cc/policy/no-kernel-warns-keeps-object "exit $rc: $(head -3 "$tmp/fe.txt" | tr '\n' ' ')"
  fi
  "$BPFGATE" cc --clang clang-19 --no-sidecar --strict $F -c "$tmp/fentry.c" -o "$tmp/fentry-strict.o" >"$tmp/fs.txt" 2>&1
  rc=$?
  [ $rc -eq 1 ] && [ ! -e "$tmp/fentry-strict.o" ] && pass asserts_cc/policy/no-kernel-strict-refuses \
    || fail asserts_cc/policy/no-kernel-strict-refuses "exit $rc"
fi
