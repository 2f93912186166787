# bpfgate asm / disasm: round trips through files, ELF output that the kernel
# loads, errors as FILE:LINE with exit 2.
# min-pass: 22 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
D="$BG_ROOT/tests/data/isa"
tmp=$(mktemp -d /tmp/bg-isa-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$BPFGATE" asm --help | grep -q -- '--raw' && pass isa-cli/asm-help || fail isa-cli/asm-help
"$BPFGATE" disasm --help | grep -q -- '--source' && pass isa-cli/disasm-help || fail isa-cli/disasm-help

# features.s -> raw -> disasm equals the expected listing
if "$BPFGATE" asm "$D/features.s" -o "$tmp/f.bin" --raw &&
   "$BPFGATE" disasm --raw "$tmp/f.bin" | tail -n +2 >"$tmp/f.out" &&
   diff -u "$D/features.expect" "$tmp/f.out" >"$tmp/diff"; then
  pass isa-cli/asm-disasm-features
else
  fail isa-cli/asm-disasm-features "$(head -8 "$tmp/diff" | tr '\n' ' ')"
fi

# every form (default syntax) -> asm -> raw bytes identical to the table's encoding
if [ -x "$BG_BUILD/tests/test_isa" ]; then
  "$BG_BUILD/tests/test_isa" --dump-forms >"$tmp/forms"
  cut -d' ' -f3- "$tmp/forms" >"$tmp/forms.s"
  if "$BPFGATE" asm "$tmp/forms.s" -o "$tmp/forms.bin" --raw 2>"$tmp/err"; then
    od -An -v -tx8 "$tmp/forms.bin" | tr -s ' ' '\n' | grep . >"$tmp/got"
    awk '{ print $1; if (substr($1, 15, 2) == "18") print $2 }' "$tmp/forms" >"$tmp/want"
    if cmp -s "$tmp/got" "$tmp/want"; then
      pass "isa-cli/asm-every-form ($(wc -l <"$tmp/forms.s") instructions)"
    else
      fail isa-cli/asm-every-form "bytes differ: $(diff "$tmp/want" "$tmp/got" | head -4 | tr '\n' ' ')"
    fi
    "$BPFGATE" disasm --raw "$tmp/forms.bin" | tail -n +2 | sed 's/^ *[0-9]*: //' >"$tmp/forms.back"
    cmp -s "$tmp/forms.s" "$tmp/forms.back" && pass isa-cli/disasm-every-form ||
      fail isa-cli/disasm-every-form "$(diff "$tmp/forms.s" "$tmp/forms.back" | head -4 | tr '\n' ' ')"
  else
    fail isa-cli/asm-every-form "$(head -2 "$tmp/err")"
  fi
fi

# errors: FILE:LINE: message, exit 2
i=0
while IFS='|' read -r line re text; do
  case "$line" in '#'*|'') continue;; esac
  i=$((i + 1))
  printf '%b\n' "$text" >"$tmp/bad$i.s"
  "$BPFGATE" asm "$tmp/bad$i.s" -o "$tmp/bad$i.o" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && grep -q "^$tmp/bad$i.s:$line: .*$re" "$tmp/err"; then
    pass "isa-cli/asm-error-$i ($re)"
  else
    fail "isa-cli/asm-error-$i" "rc=$rc, want $tmp/bad$i.s:$line: $re, got: $(head -1 "$tmp/err")"
  fi
done <"$D/errors.txt"

# disasm: bad inputs exit 2 with the file named
printf 'abc' >"$tmp/short.bin"
"$BPFGATE" disasm --raw "$tmp/short.bin" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "short.bin" "$tmp/err" && pass isa-cli/disasm-raw-truncated ||
  fail isa-cli/disasm-raw-truncated "rc=$rc $(head -1 "$tmp/err")"
printf '\xff\0\0\0\0\0\0\0' >"$tmp/badop.bin"
"$BPFGATE" disasm --raw "$tmp/badop.bin" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "insn 0.*unknown opcode" "$tmp/err" && pass isa-cli/disasm-raw-bad-opcode ||
  fail isa-cli/disasm-raw-bad-opcode "rc=$rc $(head -1 "$tmp/err")"
head -c 300 /dev/urandom >"$tmp/garbage.o"
"$BPFGATE" disasm --sections "$tmp/garbage.o" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && pass isa-cli/disasm-garbage-elf || fail isa-cli/disasm-garbage-elf "rc=$rc"
"$BPFGATE" disasm --raw "$tmp/nonexistent" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass isa-cli/disasm-missing-file || fail isa-cli/disasm-missing-file "rc=$rc"

# JSON output parses and carries the per-program record fields
if command -v python3 >/dev/null; then
  "$BPFGATE" asm "$D/loop_xdp.s" -o "$tmp/loop.o" &&
  "$BPFGATE" disasm --sections --json "$tmp/loop.o" >"$tmp/j" &&
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["programs"][0]
assert all(k in p for k in ("object", "program", "section", "type", "verdict")), p.keys()
assert p["program"] == "xdp" and p["section"] == "xdp" and len(p["insns"]) == 5
assert p["insns"][2]["text"] == "if r0 < 3 goto -2", p["insns"][2]
' "$tmp/j" 2>"$tmp/err" && pass isa-cli/disasm-json || fail isa-cli/disasm-json "$(tail -1 "$tmp/err")"
else
  skip isa-cli/disasm-json "python3 not available to parse JSON"
fi

# the ELF object loads in the running kernel (through libbpf, via bpftool)
"$BPFGATE" asm "$D/loop_xdp.s" -o "$tmp/loop.o" 2>"$tmp/err" || fail isa-cli/asm-elf "$(head -1 "$tmp/err")"
if ! command -v bpftool >/dev/null; then
  skip isa-cli/asm-elf-loads "bpftool not installed"
elif [ ! -d /sys/fs/bpf ] || [ "$(id -u)" != 0 ]; then
  skip isa-cli/asm-elf-loads "bpf() unavailable: not root or no bpffs"
else
  pin=/sys/fs/bpf/bg_isa_test_$$
  if bpftool prog load "$tmp/loop.o" "$pin" 2>"$tmp/err"; then
    rm -f "$pin"; pass isa-cli/asm-elf-loads
  elif grep -qiE 'operation not permitted|permission' "$tmp/err"; then
    skip isa-cli/asm-elf-loads "bpf() unavailable: $(head -1 "$tmp/err")"
  else
    fail isa-cli/asm-elf-loads "$(tail -2 "$tmp/err" | tr '\n' ' ')"
  fi
fi

# asm reads llvm-objdump output as is ("N:" prefixes, "<label>" suffixes):
# assembling an example's listing gives back the same instructions.
OD14=$(command -v llvm-objdump-14 || true)
shopt -s nullglob
ex=("$BG_EXAMPLES"/*.bpf.o)
if [ -z "$OD14" ] || [ ${#ex[@]} -eq 0 ]; then
  skip isa-cli/asm-objdump-listing "needs llvm-objdump-14 and built examples"
else
  bad=0; tot=0; why=""
  for o in "${ex[@]}"; do
    "$OD14" -d --no-show-raw-insn "$o" | grep -E '^ +[0-9]+:' >"$tmp/l.s"
    if ! "$BPFGATE" asm "$tmp/l.s" -o "$tmp/l.bin" --raw 2>"$tmp/err"; then
      bad=$((bad + 1)); why="$(basename "$o"): $(head -1 "$tmp/err")"; continue
    fi
    "$BPFGATE" disasm --raw --objdump "$tmp/l.bin" | grep -E '^ +[0-9]+: ' | sed 's/^ *[0-9]*: //' >"$tmp/a"
    "$BPFGATE" disasm --sections "$o" | grep -E '^ +[0-9]+: ' | sed 's/^ *[0-9]*: //' >"$tmp/b"
    tot=$((tot + $(wc -l <"$tmp/b")))
    cmp -s "$tmp/a" "$tmp/b" || { bad=$((bad + 1)); why="$(basename "$o"): $(diff "$tmp/a" "$tmp/b" | head -3 | tr '\n' ' ')"; }
  done
  [ $bad -eq 0 ] && pass "isa-cli/asm-objdump-listing (${#ex[@]} objects, $tot insns)" ||
    fail isa-cli/asm-objdump-listing "$bad objects: $why"
fi

# subprograms: local call targets become .text functions (as clang lays them
# out); libbpf (bpftool) and bpfgate's loader both accept the object, and our
# interpreter computes 20*2+2 == 42 through the two calls (r0 = 0).
"$BPFGATE" asm "$D/call_socket.s" -o "$tmp/cs.o" --type socket 2>"$tmp/err" &&
  "$BPFGATE" disasm "$tmp/cs.o" >"$tmp/cs.dis" 2>&1
if [ $? -ne 0 ]; then
  fail isa-cli/asm-subprograms "$(head -2 "$tmp/err" "$tmp/cs.dis" 2>/dev/null | tr '\n' ' ')"
else
  grep -q "call pc+5" "$tmp/cs.dis" && grep -q "call pc+1" "$tmp/cs.dis" &&
    [ "$(grep -c '^ *[0-9]*: ' "$tmp/cs.dis")" = 13 ] && pass isa-cli/asm-subprograms ||
    fail isa-cli/asm-subprograms "prepared program: $(tr '\n' ' ' <"$tmp/cs.dis" | head -c 300)"
  head -c 64 /dev/zero >"$tmp/pkt"
  if "$BPFGATE" run --help >/dev/null 2>&1; then
    out=$("$BPFGATE" run "$tmp/cs.o" --prog socket --packet "$tmp/pkt" 2>&1)
    echo "$out" | grep -q "r0 = 0 (0x0)" && pass isa-cli/asm-subprograms-run ||
      fail isa-cli/asm-subprograms-run "$(echo "$out" | head -3 | tr '\n' ' ')"
  fi
  if command -v bpftool >/dev/null && [ "$(id -u)" = 0 ] && [ -d /sys/fs/bpf ]; then
    pin=/sys/fs/bpf/bg_isa_cs_$$
    if bpftool prog loadall "$tmp/cs.o" "$pin" 2>"$tmp/err"; then
      rm -rf "$pin"; pass isa-cli/asm-subprograms-libbpf-load
    elif grep -qiE 'operation not permitted' "$tmp/err"; then
      skip isa-cli/asm-subprograms-libbpf-load "bpf() unavailable: $(head -1 "$tmp/err")"
    else
      rm -rf "$pin"; fail isa-cli/asm-subprograms-libbpf-load "$(grep -v Warning "$tmp/err" | head -3 | tr '\n' ' ')"
    fi
  else
    skip isa-cli/asm-subprograms-libbpf-load "bpf() unavailable: needs bpftool, root and bpffs"
  fi
fi

# disasm --source: every "; FILE:LINE: text" line quotes that line of the file
# (from BTF line info), and --json carries file/line per instruction.
src_ok=0; src_bad=0; src_why=""
for o in "${ex[@]}"; do
  "$BPFGATE" disasm --source "$o" >"$tmp/src" 2>/dev/null || { src_bad=$((src_bad + 1)); src_why="$(basename "$o"): disasm failed"; continue; }
  while IFS= read -r l; do
    f=${l#; }; f=${f%%:*}; rest=${l#; "$f":}; ln=${rest%%:*}; text=${rest#*: }
    [ -r "$f" ] || continue
    want=$(sed -n "${ln}p" "$f" | sed 's/^[ \t]*//')
    if [ "$want" = "$text" ]; then src_ok=$((src_ok + 1)); else src_bad=$((src_bad + 1)); src_why="$f:$ln: '$text' vs '$want'"; fi
  done < <(grep '^; ' "$tmp/src")
done
if [ ${#ex[@]} -eq 0 ]; then skip isa-cli/disasm-source "no examples built"
elif [ $src_bad -eq 0 ] && [ $src_ok -eq 0 ]; then skip isa-cli/disasm-source "source files named in BTF not readable here"
elif [ $src_bad -eq 0 ]; then pass "isa-cli/disasm-source ($src_ok source lines quoted)"
else fail isa-cli/disasm-source "$src_bad wrong of $((src_ok + src_bad)): $src_why"; fi
if [ ${#ex[@]} -gt 0 ] && command -v python3 >/dev/null; then
  "$BPFGATE" disasm --json "${ex[0]}" >"$tmp/j2" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["programs"], "no programs"
for p in d["programs"]:
    assert all(k in p for k in ("object", "program", "section", "type", "verdict")), p.keys()
    assert p["insns"] and all("text" in i and "raw" in i for i in p["insns"])
    assert any("line" in i for i in p["insns"]), "no line info"
' "$tmp/j2" 2>"$tmp/err" && pass isa-cli/disasm-json-object || fail isa-cli/disasm-json-object "$(tail -1 "$tmp/err")"
fi
