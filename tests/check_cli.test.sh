#!/usr/bin/env bash
# bpfgate check CLI: exit codes, text/JSON/SARIF/dot outputs, bad input.
# min-pass: 12 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
ok=$BG_EXAMPLES/xdp_parse.bpf.o
[ -f "$ok" ] || { skip check_cli "no examples built ($ok)"; exit 0; }
printf 'r2 = *(u32 *)(r1 + 0)\nr0 = *(u8 *)(r2 + 0)\nr0 = 2\nexit\n' > "$T/bad.s"
"$BPFGATE" asm "$T/bad.s" -o "$T/bad.o" --section xdp --name nocheck >/dev/null 2>&1 || { fail check_cli_asm "bpfgate asm failed"; exit 0; }

"$BPFGATE" check "$ok" >"$T/out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q ": accepted" "$T/out" && pass check_cli_accept_exit0 || fail check_cli_accept_exit0 "rc=$rc $(head -2 "$T/out")"

"$BPFGATE" check "$T/bad.o" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "rejected" "$T/out" && grep -q "insn 1 (r0 = \*(u8 \*)(r2 + 0)): invalid access to packet" "$T/out" \
  && pass check_cli_reject_exit1 || fail check_cli_reject_exit1 "rc=$rc $(cat "$T/out" | head -3)"

"$BPFGATE" check --json "$T/bad.o" >"$T/j" 2>/dev/null
python3 - "$T/j" <<'PY' && pass check_cli_json || fail check_cli_json "bad JSON record"
import json, sys
r = json.load(open(sys.argv[1]))[0]
for k in ("object", "program", "section", "type", "verdict", "diagnostic"):
    assert k in r, k
assert r["verdict"] == "rejected" and r["diagnostic"]["insn"] == 1 and r["diagnostic"]["check"] == "pkt_bounds"
PY

"$BPFGATE" check --sarif "$T/bad.o" "$ok" >"$T/s" 2>/dev/null; rc=$?
python3 - "$T/s" <<'PY' && [ $rc = 1 ] && pass check_cli_sarif || fail check_cli_sarif "rc=$rc"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["version"] == "2.1.0"
res = s["runs"][0]["results"]
assert len(res) == 1 and res[0]["ruleId"] == "pkt_bounds"
assert res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
PY

"$BPFGATE" check "$ok" --dot "$T/g.dot" >/dev/null 2>&1
grep -q "^digraph" "$T/g.dot" && grep -q -- "->" "$T/g.dot" && pass check_cli_dot || fail check_cli_dot "no graph"

"$BPFGATE" check -v "$T/bad.o" >/dev/null 2>"$T/v"
grep -q "insn 1: r0 = \*(u8 \*)(r2 + 0)" "$T/v" && grep -q "r2=pkt" "$T/v" && pass check_cli_verbose || fail check_cli_verbose "$(head -3 "$T/v")"
# the assertion list of each instruction follows its state; the failing one is among them
python3 - "$T/v" <<'PY' && pass check_cli_verbose_checks || fail check_cli_verbose_checks "$(head -8 "$T/v")"
import sys
lines = open(sys.argv[1]).read().splitlines()
def checks_of(slot):
    for i, ln in enumerate(lines):
        if ln.startswith("ctx 0 insn %d:" % slot):
            for nxt in lines[i + 1:]:
                if nxt.startswith("ctx "):
                    break
                if nxt.strip().startswith("checks:"):
                    return nxt.split(":", 1)[1].split()
    return None
assert checks_of(0) == ["init(r1)", "mem(r1+0,4,read)"], checks_of(0)
assert checks_of(1) == ["init(r2)", "mem(r2+0,1,read)"], checks_of(1)
assert checks_of(2) is None, checks_of(2)  # r0 = 2: nothing to check
PY

"$BPFGATE" check "$T/nonexistent.o" >/dev/null 2>"$T/e"; rc=$?
[ $rc = 2 ] && grep -q "nonexistent" "$T/e" && pass check_cli_missing_exit2 || fail check_cli_missing_exit2 "rc=$rc"
head -c 300 /dev/urandom > "$T/junk.o"
"$BPFGATE" check "$T/junk.o" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && pass check_cli_junk_exit2 || fail check_cli_junk_exit2 "rc=$rc"
"$BPFGATE" check "$ok" --prog no_such_prog >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && pass check_cli_unknown_prog_exit2 || fail check_cli_unknown_prog_exit2 "rc=$rc"
"$BPFGATE" check --help | grep -q "usage: bpfgate check" && pass check_cli_help || fail check_cli_help ""
# a budget reached is no verdict on the program: exit 3, "too complex for bpfgate" with the place
"$BPFGATE" check "$ok" --max-steps 5 >"$T/out" 2>&1; rc=$?
[ $rc = 3 ] && grep -q "too complex for bpfgate" "$T/out" && grep -q "insn [0-9]" "$T/out" \
  && pass check_cli_too_complex || fail check_cli_too_complex "rc=$rc $(head -2 "$T/out")"
"$BPFGATE" check "$ok" --max-steps 5 --json >"$T/tc.json" 2>&1; rc=$?
[ $rc = 3 ] && python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))
assert r and all(x['verdict']=='unavailable' and x['diagnostic']['check']=='too_complex' for x in r), r
" "$T/tc.json" && pass check_cli_too_complex_json || fail check_cli_too_complex_json "rc=$rc $(head -c 300 "$T/tc.json")"

# bounded work on nested loops (selftests loop1.c shape: the inner loop bounded by the outer
# counter, 300 x 300 / 2 iterations for the kernel): the counted-loop proofs widen instead of
# unrolling, so the analysis takes a few hundred steps, not one per iteration
cat > "$T/nested.s" <<'S'
r0 = 0
r7 = 0
o:
r6 = 0
if r7 == 0 goto n
i:
r1 = r6
r1 *= r7
r0 += r1
r6 += 1
if r6 < r7 goto i
n:
r7 += 1
if r7 != 300 goto o
r0 = 0
exit
S
"$BPFGATE" asm "$T/nested.s" -o "$T/nested.o" --section raw_tracepoint/kfree_skb >/dev/null 2>&1
"$BPFGATE" check --json "$T/nested.o" >"$T/nested.json" 2>&1; rc=$?
[ $rc = 0 ] && python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))[0]
assert r['verdict']=='accepted' and r['steps'] < 2000, r
" "$T/nested.json" && pass check_cli_nested_loops_bounded || fail check_cli_nested_loops_bounded "rc=$rc $(head -c 300 "$T/nested.json")"
