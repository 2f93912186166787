#!/usr/bin/env bash
# bpfgate check --kernel: several kernel profiles in one run (text side by
# side, JSON `kernels`, SARIF rule ids per kernel, exit codes, bad lists).
# The verdicts themselves are data tests (tests/data/check/kernels.t).
# min-pass: 13 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
rb=$BG_EXAMPLES/kprobe_openat.bpf.o
ok=$BG_EXAMPLES/socket_dns.bpf.o
[ -f "$rb" ] && [ -f "$ok" ] || { skip check_kernels "no examples built ($rb)"; exit 0; }

"$BPFGATE" check "$rb" --kernel 6.18,5.10,5.4 >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "6.18 ok, 5.10 ok, 5.4 rejected" "$T/out" \
  && grep -q "^  5.4: .*map open_events of type ringbuf is not available before 5.8" "$T/out" \
  && pass check_kernels_text_side_by_side || fail check_kernels_text_side_by_side "rc=$rc $(head -3 "$T/out")"

"$BPFGATE" check "$rb" --kernel 6.18,5.10 >"$T/out" 2>&1; rc=$?
[ $rc = 0 ] && pass check_kernels_all_ok_exit0 || fail check_kernels_all_ok_exit0 "rc=$rc $(head -2 "$T/out")"

"$BPFGATE" check "$rb" --profile 5.4 >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "5.4 rejected" "$T/out" && pass check_kernels_profile_alias || fail check_kernels_profile_alias "rc=$rc"

"$BPFGATE" check "$rb" --kernel 5.4,4.19 >"$T/out" 2>&1
grep -q "^  5.4, 4.19: " "$T/out" && pass check_kernels_same_reason_grouped || fail check_kernels_same_reason_grouped "$(cat "$T/out" | head -4)"

"$BPFGATE" check "$rb" "$ok" --kernel all --json >"$T/j" 2>/dev/null; rc=$?
python3 - "$T/j" "$BPFGATE" <<'PY' && [ $rc = 1 ] && pass check_kernels_json || fail check_kernels_json "rc=$rc"
import json, subprocess, sys
recs = json.load(open(sys.argv[1]))
assert len(recs) == 2, recs
for r in recs:
    for k in ("object", "program", "section", "type", "verdict", "kernels"):
        assert k in r, k
    ks = r["kernels"]
    assert list(ks)[0] == "7.2" and list(ks)[1] == "6.18" and "4.19" in ks and len(ks) >= 8, list(ks)
rb = [r for r in recs if r["program"] == "kprobe_openat"][0]
assert rb["verdict"] == "rejected" and rb["kernels"]["5.10"]["verdict"] == "accepted"
assert rb["kernels"]["5.4"]["check"] == "kernel_version" and "ringbuf" in rb["kernels"]["5.4"]["message"]
assert rb["kernels"]["6.18"]["verdict"] == "accepted"
ok = [r for r in recs if r["program"] != "kprobe_openat"][0]
assert ok["verdict"] == "accepted" and all(v["verdict"] == "accepted" for v in ok["kernels"].values())
PY

"$BPFGATE" check "$rb" --kernel 6.18,5.4,4.19 --sarif >"$T/s" 2>/dev/null; rc=$?
python3 - "$T/s" <<'PY' && [ $rc = 1 ] && pass check_kernels_sarif || fail check_kernels_sarif "rc=$rc"
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
ids = sorted(r["ruleId"] for r in res)
assert ids == ["kernel_version/4.19", "kernel_version/5.4"], ids
assert all(r["properties"]["kernel"] in ("5.4", "4.19") for r in res)
assert res[0]["locations"][0]["physicalLocation"]["region"]["startLine"] > 0
PY

"$BPFGATE" check "$rb" --kernel 5.10,7.3 >/dev/null 2>"$T/e"; rc=$?
[ $rc = 2 ] && grep -q "unknown kernel profile 7.3 (known: 7.2, 6.18, 6.12" "$T/e" && pass check_kernels_unknown_exit2 \
  || fail check_kernels_unknown_exit2 "rc=$rc $(cat "$T/e")"
"$BPFGATE" check "$rb" --kernel , >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && pass check_kernels_empty_list_exit2 || fail check_kernels_empty_list_exit2 "rc=$rc"
"$BPFGATE" check --help | grep -q "NOT modelled" && pass check_kernels_help_says_not_modelled \
  || fail check_kernels_help_says_not_modelled "--help does not state the limits"

# program size: 4096 instructions before 5.2, 1M since
python3 -c 'print("r0 = 0\n" * 4100 + "exit")' > "$T/big.s"
"$BPFGATE" asm "$T/big.s" -o "$T/big.o" --section socket --name big >/dev/null 2>&1
"$BPFGATE" check "$T/big.o" --kernel 5.4,4.19 >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "5.4 ok, 4.19 rejected" "$T/out" && grep -q "program too large: 4101 instructions, kernel 4.19 allows 4096" "$T/out" \
  && pass check_kernels_size_limit || fail check_kernels_size_limit "rc=$rc $(head -3 "$T/out")"

# tail calls in a program with bpf-to-bpf calls: refused before 5.10 (checked
# before the arguments, which are not valid here: 5.10 rejects for them)
printf 'r6 = r1\ncall f\nr1 = r6\nr2 = 0\nr3 = 0\ncall 12\nr0 = 0\nexit\nf:\nr0 = 0\nexit\n' > "$T/tc.s"
"$BPFGATE" asm "$T/tc.s" -o "$T/tc.o" --section socket --name tc_sub >/dev/null 2>&1
"$BPFGATE" check "$T/tc.o" --kernel 5.10,5.4 --json >"$T/j" 2>/dev/null
python3 - "$T/j" <<'PY' && pass check_kernels_tailcall_subprog || fail check_kernels_tailcall_subprog "$(head -c 600 "$T/j")"
import json, sys
k = json.load(open(sys.argv[1]))[0]["kernels"]
assert "tail call in a program with bpf-to-bpf calls" in k["5.4"]["message"] and k["5.4"]["insn"] == 5
assert k["5.10"]["verdict"] == "rejected" and "tail call" not in k["5.10"]["message"]
PY

# the default run and an explicit --kernel 6.18 agree on every example
"$BPFGATE" check --json "$BG_EXAMPLES"/*.bpf.o >"$T/a" 2>/dev/null
"$BPFGATE" check --json --kernel 6.18 "$BG_EXAMPLES"/*.bpf.o >"$T/b" 2>/dev/null
python3 - "$T/a" "$T/b" <<'PY' && pass check_kernels_default_is_6.18 || fail check_kernels_default_is_6.18 "verdicts differ"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert len(a) == len(b) > 10
for x, y in zip(a, b):
    assert x["program"] == y["program"] and x["verdict"] == y["kernels"]["6.18"]["verdict"] == y["verdict"], x["program"]
PY

"$BPFGATE" check --list-kernels >"$T/lk" 2>&1; rc=$?
[ $rc = 0 ] && grep -q "^5.15 .*bpf_loop (5.17)" "$T/lk" && grep -q "^4.19 *4096 *131072" "$T/lk" && grep -q "^7.2 .* -$" "$T/lk" \
  && pass check_kernels_list || fail check_kernels_list "rc=$rc $(head -3 "$T/lk")"
"$BPFGATE" check --list-kernels --json | python3 -c '
import json, sys
ks = {k["name"]: k for k in json.load(sys.stdin)}
# the running 6.18 lacks only what 7.2 first showed
assert ks["7.2"]["lacks"] == [] and ks["4.19"]["max_prog_insns"] == 4096
assert ks["6.18"]["lacks"] and all(l["since"] == "7.2" for l in ks["6.18"]["lacks"])
assert {"feature": "may_goto", "since": "6.9"} in ks["6.6"]["lacks"]
' && pass check_kernels_list_json || fail check_kernels_list_json "bad JSON"

# monotonic: a program accepted on an older profile is accepted on every newer
# one (profiles only take features away going back), and every rejection that
# 6.18 does not share is a kernel_version one or a modelled verifier change
objs=$(ls "$BG_CORPUS"/c19/accept/*.o 2>/dev/null)
if [ -z "$objs" ]; then skip check_kernels_monotonic "no corpus built ($BG_CORPUS)"; else
  # shellcheck disable=SC2086
  "$BPFGATE" check --kernel all --json $objs >"$T/m" 2>/dev/null
  python3 - "$T/m" <<'PY' && pass check_kernels_monotonic || fail check_kernels_monotonic "see above"
import json, sys
recs = json.load(open(sys.argv[1]))
assert len(recs) > 100, len(recs)
bad = 0
for r in recs:
    ks = list(r["kernels"].items())          # newest first
    for (newer, a), (older, b) in zip(ks, ks[1:]):
        # the one exception, confirmed by the real 5.10: before 5.6 global
        # functions are verified as static ones, so pointer arguments that
        # 5.6-5.11 refuse ("Arg#0 type PTR ... not supported yet") load there
        if older in ("5.4", "4.19") and "type PTR in" in (a.get("message") or ""):
            continue
        # a kernel whose image is cached relocates CO-RE against its own BTF, an
        # older profile without an image against the host's (task_struct.__state:
        # 5.14's name, no field of 5.10's BTF; the host has it)
        if a.get("check") == "core":
            continue
        if b["verdict"] == "accepted" and a["verdict"] != "accepted":
            print("FAIL %s: accepted on %s but %s on %s" % (r["program"], older, a["verdict"], newer)); bad += 1
    for k, v in ks[1:]:
        # core: CO-RE/kfuncs resolved against kernel V's own BTF (its image cached);
        # helper_not_allowed: helper availability measured in kernel V's image
        if v["verdict"] == "rejected" and ks[0][1]["verdict"] == "accepted" and v["check"] not in (
                "kernel_version", "stack_uninit", "mem_null", "null", "map_value_or_null", "core",
                "helper_not_allowed") and "or_null" not in (v.get("message") or ""):
            print("FAIL %s@%s: new rejection is not a modelled difference: %s" % (r["program"], k, v["message"])); bad += 1
sys.exit(1 if bad else 0)
PY
fi
