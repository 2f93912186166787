# bpfgate kload: the running kernel's verdict per program.
#  - every bundled example is accepted (one PASS per program);
#  - the small broken programs of tests/data/kern/ get the verdict and message
#    their "EXPECT:" line names (rejected / unavailable), and the exit status
#    follows (1 when something is rejected, 0 when only unavailable);
#  - bad input exits 2.
# min-pass: 50 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
CLANG=$(command -v clang-14 || command -v clang)
tmp=$(mktemp -d /tmp/bg-kload.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# bad input first: it needs no kernel
"$BPFGATE" kload >/dev/null 2>&1; [ $? -eq 2 ] && pass kload/usage/no-object || fail kload/usage/no-object "exit not 2"
"$BPFGATE" kload --bogus x.o >/dev/null 2>&1; [ $? -eq 2 ] && pass kload/usage/unknown-option || fail kload/usage/unknown-option "exit not 2"
"$BPFGATE" kload "$tmp/missing.o" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "missing.o" "$tmp/err" && pass kload/bad/missing-file || fail kload/bad/missing-file "rc=$rc $(cat "$tmp/err")"
head -c 300 /dev/urandom >"$tmp/garbage.o"
"$BPFGATE" kload "$tmp/garbage.o" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && pass kload/bad/garbage || fail kload/bad/garbage "rc=$rc $(head -2 "$tmp/err")"
"$BPFGATE" kload --help | grep -q "unavailable programs alone" && pass kload/help || fail kload/help "help text"

# check_records: PASS/FAIL per JSON record against expected verdicts and messages
check_records() { # file, label, expectations "prog=verdict[:regex]" ... ("*" = every program)
  python3 - "$@" <<'PY'
import json, re, sys
path, label, *exp = sys.argv[1:]
try:
    recs = json.load(open(path))
except Exception as e:
    print(f"FAIL {label}: output is not JSON: {e}"); sys.exit(0)
if not recs:
    print(f"FAIL {label}: no programs reported"); sys.exit(0)
want = {}
for e in exp:
    prog, v = e.split("=", 1)
    verdict, _, rx = v.partition(":")
    want[prog] = (verdict, rx)
for r in recs:
    name = f"{label}/{r.get('program')}"
    miss = [k for k in ("object", "program", "section", "type", "verdict", "insns", "processed",
                        "verif_time_us", "message") if k not in r]
    if miss:
        print(f"FAIL {name}: record lacks {miss}"); continue
    verdict, rx = want.get(r["program"], want.get("*", (None, "")))
    if verdict is None:
        print(f"FAIL {name}: unexpected program"); continue
    if r["verdict"] != verdict:
        print(f"FAIL {name}: verdict {r['verdict']}, expected {verdict}: {r['message']}"); continue
    if verdict == "accepted" and not (r["processed"] > 0 and r["verif_time_us"] >= 0 and r["insns"] > 0):
        print(f"FAIL {name}: accepted without statistics: {r}"); continue
    if verdict != "accepted" and not re.search(rx, r["message"] or ""):
        print(f"FAIL {name}: message {r['message']!r} does not match /{rx}/"); continue
    print(f"PASS {name}")
for p in want:
    if p != "*" and not any(r.get("program") == p for r in recs):
        print(f"FAIL {label}/{p}: not reported")
PY
}

# bpf() refused (an unprivileged user namespace): probe exits 2 with the reason,
# every program is "unavailable" with that reason, and the exit status stays 0
o="$BG_EXAMPLES/xdp_count.bpf.o"
if unshare -Ur true 2>/dev/null && [ -f "$o" ]; then
  unshare -Ur "$BPFGATE" kload --probe >"$tmp/probe" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "unavailable: .*Operation not permitted" "$tmp/probe" &&
    pass kload/refused/probe || fail kload/refused/probe "rc=$rc $(cat "$tmp/probe")"
  unshare -Ur "$BPFGATE" kload --json "$o" >"$tmp/refused.json" 2>&1; rc=$?
  [ $rc -eq 0 ] && pass kload/refused/exit-0 || fail kload/refused/exit-0 "exit $rc"
  check_records "$tmp/refused.json" kload/refused "xdp_count=unavailable:Operation not permitted"
else
  skip kload/refused "cannot create an unprivileged user namespace here (unshare -Ur)"
fi

if ! kernel_ok; then
  skip kload/kernel "bpf() unavailable: $("$BPFGATE" kload --probe 2>&1 | head -1)"
  exit 0
fi
"$BPFGATE" kload --probe >/dev/null && pass kload/probe || fail kload/probe "probe failed"

# 1. every example is accepted
n=0
for o in "$BG_EXAMPLES"/*.bpf.o; do
  [ -f "$o" ] || continue
  n=$((n + 1))
  b=$(basename "$o" .bpf.o)
  "$BPFGATE" kload --json "$o" >"$tmp/$b.json" 2>"$tmp/$b.err"; rc=$?
  [ $rc -eq 0 ] || fail "kload/example/$b/exit" "exit $rc: $(head -3 "$tmp/$b.err")"
  check_records "$tmp/$b.json" "kload/example/$b" "*=accepted"
done
[ $n -ge 12 ] && pass kload/examples-present || fail kload/examples-present "only $n example objects in $BG_EXAMPLES"

# 2. broken programs: verdict and message from their EXPECT line
for src in "$BG_ROOT"/tests/data/kern/*.bpf.c; do
  b=$(basename "$src" .bpf.c)
  if ! "$CLANG" -O2 -g -target bpf -I"$BG_NORMAL_BUILD" -I/usr/include/x86_64-linux-gnu -c "$src" -o "$tmp/$b.o" 2>"$tmp/$b.cc"; then
    fail "kload/data/$b" "does not compile: $(head -2 "$tmp/$b.cc")"; continue
  fi
  exp=$(sed -n 's|^/\* EXPECT: \(.*\) \*/$|\1|p' "$src")
  "$BPFGATE" kload --json "$tmp/$b.o" >"$tmp/$b.json" 2>"$tmp/$b.err"; rc=$?
  case "$exp" in
    *"|"*) verdict=${exp%% |*}; rx=${exp#*| }
           check_records "$tmp/$b.json" "kload/data/$b" "$b=$verdict:$rx"
           want=0; [ "$verdict" = rejected ] && want=1 ;;
    *)     # "verdict:prog ..." per program
           args=(); want=0
           for pv in $exp; do args+=("${pv#*:}=${pv%%:*}"); [ "${pv%%:*}" = rejected ] && want=1; done
           check_records "$tmp/$b.json" "kload/data/$b" "${args[@]}" ;;
  esac
  [ $rc -eq $want ] && pass "kload/data/$b/exit-$want" || fail "kload/data/$b/exit-$want" "exit $rc"
done

# 3. text output, --prog, --log
o="$BG_EXAMPLES/kprobe_vfs_latency.bpf.o"
if [ -f "$o" ]; then
  out=$("$BPFGATE" kload "$o" --prog vfs_read_exit)
  if [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
     printf '%s\n' "$out" | grep -Eq '^vfs_read_exit +kprobe +accepted +insns=[0-9]+ processed=[0-9]+ time=[0-9]+us$'; then
    pass kload/text/prog-select
  else
    fail kload/text/prog-select "$out"
  fi
  "$BPFGATE" kload "$o" --prog vfs_read_exit --log | grep -q "^processed [0-9]* insns" &&
    pass kload/text/log || fail kload/text/log "no verifier statistics in --log output"
  "$BPFGATE" kload "$o" --prog no_such_prog >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] && pass kload/bad/unknown-prog || fail kload/bad/unknown-prog "exit $rc"
fi
o="$tmp/pkt_no_bounds.o"
if [ -f "$o" ]; then
  out=$("$BPFGATE" kload "$o")
  printf '%s\n' "$out" | grep -Eq '^pkt_no_bounds +xdp +rejected ' &&
    printf '%s\n' "$out" | grep -q '^    .*invalid access to packet' &&
    pass kload/text/rejected-message || fail kload/text/rejected-message "$out"
fi

# 4. an older kernel's BTF support (src/kern/kbtfcompat.c): the kinds it lacks
# are rewritten, the object's BTF kept. BG_KBTF_MISSING makes the running
# kernel's loader treat them as missing (as a 5.10 guest finds them), so the
# global function stays global (verified on its own: rejected); with global
# linkage missing too (before 5.6) it is a static function (accepted)
src="$BG_ROOT/tests/data/kern/btf_new_kinds.bpf.c"
C19=$(command -v clang-19 || echo "$CLANG")
o="$tmp/btf_new_kinds19.o"
if "$C19" -O2 -g -target bpf -I"$BG_NORMAL_BUILD" -I/usr/include/x86_64-linux-gnu -c "$src" -o "$o" 2>"$tmp/bnk.cc"; then
  if command -v bpftool >/dev/null; then
    kinds=$(bpftool btf dump file "$o" | grep -oE '^\[[0-9]+\] (FLOAT|DECL_TAG|TYPE_TAG|ENUM64)' | awk '{print $2}' | sort -u | tr '\n' ' ')
    case "$kinds" in
      *DECL_TAG*FLOAT*TYPE_TAG*) pass kload/btf-compat/kinds-present ;;
      *) fail kload/btf-compat/kinds-present "the object lacks the kinds it tests: $kinds" ;;
    esac
  fi
  BG_KBTF_MISSING=decl_tag,type_tag,float,enum64 "$BPFGATE" kload --json "$o" >"$tmp/bnk510.json" 2>"$tmp/bnk.err"
  check_records "$tmp/bnk510.json" kload/btf-compat/as-5.10 "btf_new_kinds=rejected:invalid mem access"
  BG_KBTF_MISSING=decl_tag,type_tag,float,enum64 "$BPFGATE" kload --log "$o" >"$tmp/bnk510.log" 2>&1
  grep -q "Validating check_arg() func#1" "$tmp/bnk510.log" && grep -q "^; .*btf_new_kinds.bpf.c:" "$tmp/bnk510.log" \
    && pass kload/btf-compat/as-5.10/global-with-line-info \
    || fail kload/btf-compat/as-5.10/global-with-line-info "$(head -5 "$tmp/bnk510.log")"
  BG_KBTF_MISSING=all "$BPFGATE" kload --json "$o" >"$tmp/bnkall.json" 2>"$tmp/bnk.err"
  check_records "$tmp/bnkall.json" kload/btf-compat/all-missing "btf_new_kinds=accepted"
else
  fail kload/btf-compat "does not compile: $(head -2 "$tmp/bnk.cc")"
fi
