#!/usr/bin/env bash
# Object loader through `bpfgate list`: every example object opens, every
# program has a known type and instructions, JSON records carry the common keys.
# min-pass: 36 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
source "$(dirname "$0")/lib/common.sh"
shopt -s nullglob
objs=("$BG_EXAMPLES"/*.o)
[ ${#objs[@]} -gt 0 ] || { skip obj-examples "no examples in $BG_EXAMPLES"; exit 0; }
for o in "${objs[@]}"; do
  n=$(basename "$o")
  if ! out=$("$BPFGATE" list "$o" 2>&1); then fail "list-$n" "$out"; continue; fi
  if grep -q ' unknown ' <<<"$out"; then fail "list-$n" "unknown program type: $out"; continue; fi
  pass "list-$n"
  js=$("$BPFGATE" list --json "$o" 2>&1)
  if python3 -c 'import json,sys; d=json.load(sys.stdin); ps=d["programs"]; assert ps;
for p in ps:
  assert all(k in p for k in ("object","program","section","type")), p
  assert p["insns"] > 0 and p["type"] != "unknown", p
' <<<"$js" 2>/tmp/obj-json.$$; then pass "list-json-$n"; else fail "list-json-$n" "$(tail -1 /tmp/obj-json.$$)"; fi
  rm -f /tmp/obj-json.$$
done
# usage and bad paths: exit codes and messages
"$BPFGATE" list --help >/dev/null 2>&1 && pass list-help || fail list-help "exit $?"
"$BPFGATE" list >/dev/null 2>&1; rc=$?; [ $rc -eq 2 ] && pass list-no-arg || fail list-no-arg "exit $rc"
"$BPFGATE" list --bogus "${objs[0]}" >/dev/null 2>&1; rc=$?; [ $rc -eq 2 ] && pass list-bad-option || fail list-bad-option "exit $rc"
err=$("$BPFGATE" list /nonexistent/x.o 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q '/nonexistent/x.o' <<<"$err" && pass list-missing-file || fail list-missing-file "exit $rc: $err"
err=$("$BPFGATE" list "$BG_ROOT" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q 'not a regular file' <<<"$err" && pass list-directory || fail list-directory "exit $rc: $err"
# --json of an object with maps of every origin: map records carry the definition
js=$("$BPFGATE" list --json "$BG_EXAMPLES/xdp_dispatch.bpf.o" 2>&1)
if python3 -c 'import json,sys; d=json.load(sys.stdin); m={x["name"]:x for x in d["maps"]}
assert m["allow_by_if"]["type"]=="array_of_maps" and m["allow_by_if"]["inner_map"]>=0, m
inner=d["maps"][m["allow_by_if"]["inner_map"]]; assert inner["name"]=="allow_by_if.inner", inner
assert m["handlers"]["type"]=="prog_array" and m["handlers"]["value_size"]==4, m
assert d["btf"] and d["btf_ext"] and d["license"]=="GPL"' <<<"$js" 2>/tmp/obj-json.$$; then pass list-json-maps
else fail list-json-maps "$(tail -1 /tmp/obj-json.$$)"; fi
rm -f /tmp/obj-json.$$
