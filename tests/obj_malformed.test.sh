#!/usr/bin/env bash
# A program whose code does not decode (tests/data/obj/malformed.bpf.c: a jump
# past the end, an unknown opcode in a subprogram, next to a good program):
# `bpfgate check` and `bpfgate corpus` open the object anyway (keep_malformed),
# reject the malformed programs with the loader's message (file, instruction,
# section offset, opcode) and judge the good one normally; the kernel, asked
# on the same object, rejects and accepts the same programs. Commands that
# need every program decoded (list, run) keep refusing the object: exit 2.
# min-pass: 8 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
source "$(dirname "$0")/lib/common.sh"
command -v clang-14 >/dev/null || { skip obj-malformed "clang-14 not installed"; exit 0; }
tmp=$(mktemp -d /tmp/bg-obj-malformed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
o=$tmp/malformed.o
clang-14 -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c "$BG_ROOT/tests/data/obj/malformed.bpf.c" \
  -o "$o" || { fail obj-malformed-compile "clang-14 failed"; exit 0; }

# check --json: exit 1, per-program verdicts and the loader's message
"$BPFGATE" check --json "$o" >"$tmp/check.json" 2>"$tmp/check.err"; rc=$?
if [ $rc -eq 1 ] && python3 - "$tmp/check.json" "$o" <<'PY'
import json, sys
recs = {r["program"]: r for r in json.load(open(sys.argv[1]))}
path = sys.argv[2]
assert set(recs) == {"bad_jump", "good", "calls_bad"}, recs.keys()
assert recs["good"]["verdict"] == "accepted", recs["good"]
b = recs["bad_jump"]
assert b["verdict"] == "rejected" and b["diagnostic"]["check"] == "bad_insn", b
assert b["message"] == path + ": insn 0 (section socket offset 0x0, opcode 0x05): " \
    "jump or call target outside the program", b["message"]
assert b["diagnostic"]["insn"] == 0 and b["diagnostic"]["line"] > 0 and b["insns"] == 3, b
c = recs["calls_bad"]
assert c["verdict"] == "rejected" and "(section .text offset 0x" in c["message"] \
    and "opcode 0xff): unknown opcode" in c["message"] and c["message"].startswith(path), c
assert c["diagnostic"]["source"].strip().startswith("asm volatile(\".8byte"), c["diagnostic"]
for r in recs.values():
    assert all(k in r for k in ("object", "program", "section", "type", "verdict")), r
PY
then pass obj-malformed-check-json; else fail obj-malformed-check-json "exit $rc: $(cat "$tmp/check.err") $(head -c 600 "$tmp/check.json")"; fi

# text and SARIF: the same verdicts
out=$("$BPFGATE" check "$o" 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "good (section socket.*accepted" <<<"$out" \
  && grep -q "insn 0 (section socket offset 0x0, opcode 0x05): jump or call target outside the program \[bad_insn\]" <<<"$out" \
  && pass obj-malformed-check-text || fail obj-malformed-check-text "exit $rc: $out"
out=$("$BPFGATE" check --prog good "$o" 2>&1); rc=$?
[ $rc -eq 0 ] && pass obj-malformed-check-good-alone || fail obj-malformed-check-good-alone "exit $rc: $out"
"$BPFGATE" check --sarif "$o" >"$tmp/s.json" 2>&1; rc=$?
[ $rc -eq 1 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert sorted(x["properties"]["program"] for x in r) == ["bad_jump", "calls_bad"], r
assert all(x["ruleId"] == "bad_insn" for x in r), r' "$tmp/s.json" \
  && pass obj-malformed-check-sarif || fail obj-malformed-check-sarif "exit $rc: $(head -c 400 "$tmp/s.json")"

# list and run still refuse the object (exit 2, file and place named)
for cmd in "list $o" "run $o --prog good"; do
  out=$("$BPFGATE" $cmd 2>&1); rc=$?
  [ $rc -eq 2 ] && grep -qF "$o: program bad_jump (section socket): insn 0 (section socket offset 0x0, opcode 0x05)" <<<"$out" \
    && pass "obj-malformed-${cmd%% *}-refuses" || fail "obj-malformed-${cmd%% *}-refuses" "exit $rc: $out"
done

# corpus: the kernel judges the raw code of every program; bpfgate agrees
"$BPFGATE" corpus "$o" --verifier kernel,bpfgate --json --quiet >"$tmp/c.json" 2>"$tmp/c.err"; rc=$?
if [ $rc -ne 0 ]; then
  fail obj-malformed-corpus "exit $rc: $(head -3 "$tmp/c.err")"
else
  python3 - "$tmp/c.json" <<'PY'
import json, sys
R = json.load(open(sys.argv[1]))["records"]
k = {r["program"]: r for r in R if r["verifier"] == "kernel"}
b = {r["program"]: r for r in R if r["verifier"] == "bpfgate"}
if all(r["verdict"] == "unavailable" for r in k.values()):
    print("SKIP obj-malformed-corpus: bpf() unavailable: %s" % next(iter(k.values()))["message"])
    sys.exit(0)
want = {"bad_jump": "rejected", "calls_bad": "rejected", "good": "accepted"}
ok = {p: r["verdict"] for p, r in k.items()} == want
print("PASS obj-malformed-corpus-kernel" if ok else "FAIL obj-malformed-corpus-kernel: %s" % k)
ok = k.get("calls_bad", {}).get("message", "").startswith("unknown opcode ff") \
    and k.get("bad_jump", {}).get("message", "").startswith("jump out of range")
print("PASS obj-malformed-corpus-kernel-messages" if ok else "FAIL obj-malformed-corpus-kernel-messages: %s" % k)
ok = {p: r["verdict"] for p, r in b.items()} == want
print("PASS obj-malformed-corpus-bpfgate" if ok else "FAIL obj-malformed-corpus-bpfgate: %s" % b)
PY
fi
