#!/usr/bin/env bash
# Object loader through `bpfgate list`: every example object opens, every
# program has a known type and instructions, JSON records carry the common keys.
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
