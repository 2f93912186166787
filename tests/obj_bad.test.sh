#!/usr/bin/env bash
# Hostile input: damaged copies of a compiled test object (tests/data/obj/mutate.py:
# truncation, garbage, section/symbol/relocation/BTF/BTF.ext fields out of range or
# wrong) are each rejected by `bpfgate list` with exit 2 and a message naming the
# file and the place, never a crash (this suite runs under ASan+UBSan); a malformed
# .BTF is set aside with a warning and the programs are still listed.
# min-pass: 25 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
source "$(dirname "$0")/lib/common.sh"
command -v clang-14 >/dev/null || { skip obj-bad "clang-14 not installed"; exit 0; }
tmp=$(mktemp -d /tmp/bg-obj-bad.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
clang-14 -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c "$BG_ROOT/tests/data/obj/calls.bpf.c" \
  -o "$tmp/good.o" || { fail obj-bad-compile "clang-14 failed"; exit 0; }
check obj-bad-good "$BPFGATE" list "$tmp/good.o"
python3 "$BG_ROOT/tests/data/obj/mutate.py" "$tmp/good.o" "$tmp" >"$tmp/list" || { fail obj-bad-mutate "mutate.py failed"; exit 0; }
while IFS=$'\t' read -r tag msg mode; do
  f="$tmp/$tag.o"
  "$BPFGATE" list "$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
  err=$(cat "$tmp/err")
  if [ "$mode" = warn ]; then # read without the damaged part: listed, with a warning
    if [ "$rc" -eq 0 ] && grep -q "^programs ([1-9]" "$tmp/out" && grep -qF "warning: $f: " <<<"$err" \
       && grep -qF "$msg" <<<"$err"; then pass "obj-bad-$tag"
    else fail "obj-bad-$tag" "exit $rc, want 0 with a warning '$msg': $err"; fi
    continue
  fi
  if [ "$rc" -ne 2 ]; then fail "obj-bad-$tag" "exit $rc, want 2: $err"
  elif ! grep -qF "$f" <<<"$err"; then fail "obj-bad-$tag" "message does not name the file: $err"
  elif ! grep -qF "$msg" <<<"$err"; then fail "obj-bad-$tag" "message '$err' lacks '$msg'"
  else pass "obj-bad-$tag"; fi
done <"$tmp/list"
# every prefix of the object: exit 0 or 2, nothing else (no crash, no hang)
size=$(stat -c %s "$tmp/good.o"); bad=0; step=$(( size / 97 + 1 ))
for ((n = 0; n < size; n += step)); do
  head -c "$n" "$tmp/good.o" >"$tmp/t.o"
  timeout 10 "$BPFGATE" list "$tmp/t.o" >/dev/null 2>&1; rc=$?
  [ "$rc" -eq 2 ] || { bad=1; fail obj-bad-truncations "prefix of $n bytes: exit $rc"; break; }
done
[ "$bad" = 0 ] && pass obj-bad-truncations
# a .values initializer relocation (.rel.maps) that does not point at a slot
clang-14 -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c "$BG_ROOT/tests/data/obj/maps.bpf.c" \
  -o "$tmp/maps.o" && python3 - "$tmp/maps.o" "$tmp/relmaps.o" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28); shnum, shstr = struct.unpack_from('<HH', d, 0x3c)
sh = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + 64 * i) for i in range(shnum)]
def nm(i):
    o = sh[shstr][4] + sh[i][0]; return d[o:d.index(b'\0', o)].decode()
r = next(i for i in range(shnum) if nm(i) == '.rel.maps')
struct.pack_into('<Q', d, sh[r][4], 0)  # offset 0: the first map's `type` member
open(sys.argv[2], 'wb').write(d)
PY
err=$("$BPFGATE" list "$tmp/relmaps.o" 2>&1); rc=$?
if [ "$rc" -eq 2 ] && grep -q "(.rel.maps): relocation 0 at offset 0x0: not a 'values' slot" <<<"$err"; then
  pass obj-bad-relmaps-slot; else fail obj-bad-relmaps-slot "exit $rc: $err"; fi
