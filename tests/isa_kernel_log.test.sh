# The kernel-log syntax (bg_insn_format_opts BG_FMT_KERNEL, `disasm --kernel`)
# agrees with what the running kernel's verifier prints for the same
# instructions: every example program is loaded with log level 2 and each
# logged "N: (op) text" line is compared with ours. Differences allowed only
# where the kernel shows resolved values we cannot know: map / BTF ld_imm64
# (kernel prints the address) and helper names ("call bpf_map_lookup_elem#1"
# vs our "call #1": the name is stripped before comparing).
# Then the other direction: the logged lines, fed to `bpfgate asm` as they are,
# assemble into instructions whose kernel-syntax listing is the log's text.
# min-pass: 39 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
if ! kernel_ok; then skip isa-kernel-log "bpf() unavailable: bpfgate kload --probe failed"; exit 0; fi
tmp=$(mktemp -d /tmp/bg-isa-klog.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
shopt -s nullglob
ex=("$BG_EXAMPLES"/*.bpf.o)
[ ${#ex[@]} -gt 0 ] || skip isa-kernel-log/examples "no objects in $BG_EXAMPLES"
# forms the examples lack (atomics, acquire/release, v4, legacy packet loads)
if "$BPFGATE" asm "$BG_ROOT/tests/data/isa/kernel_forms.s" -o "$tmp/kernel_forms.bpf.o" --type socket 2>"$tmp/err"; then
  ex+=("$tmp/kernel_forms.bpf.o")
else
  fail isa-kernel-log/kernel_forms "asm failed: $(head -1 "$tmp/err")"
fi
for o in "${ex[@]}"; do
  "$BPFGATE" disasm --kernel "$o" >"$tmp/ours" 2>/dev/null || { fail "isa-kernel-log/$(basename "$o")" "disasm failed"; continue; }
  for p in $(sed -n 's/^\([^ ].*\) (.*):$/\1/p' "$tmp/ours"); do
    name="$(basename "$o" .bpf.o)/$p"
    "$BPFGATE" kload "$o" --prog "$p" --log --log-level 2 >"$tmp/log" 2>&1
    if ! grep -q " accepted " "$tmp/log"; then
      skip "isa-kernel-log/$name" "not accepted by the kernel here: $(head -1 "$tmp/log" | tr -s ' ')"
      continue
    fi
    awk -v P="$p" -v LOGTXT="$tmp/logtxt" '
      FILENAME == ARGV[1] {
        if ($0 ~ /^[^ ].* \(.*\):$/) { cur = $0; sub(/ \(.*$/, "", cur); next }
        if (cur == P && $0 ~ /^ *[0-9]+: /) { i = $0; sub(/^ +/, "", i); sub(/:.*/, "", i)
          t = $0; sub(/^ *[0-9]+: /, "", t); sub(/\t; CO-RE.*$/, "", t); ours[i] = t }
        next
      }
      /^[0-9]+: \([0-9a-f][0-9a-f]\) / {
        i = $0; sub(/:.*/, "", i); if (i in seen) next; seen[i] = 1
        t = $0; sub(/^[0-9]+: /, "", t); sub(/ +;.*$/, "", t); sub(/ +$/, "", t)
        print i "\t" t > LOGTXT
        n++
        if (!(i in ours)) { bad++; if (!msg) msg = "insn " i ": not in our listing"; next }
        o = ours[i]; k = t
        sub(/call [A-Za-z_0-9]+#/, "call #", k)
        if (o == k) { same++; next }
        if (o ~ /^\(18\) r[0-9]+ = [a-z_]+\(.*\) ll$/ && k ~ /^\(18\) r[0-9]+ = /) { res++; next }
        if (o ~ /^\(85\) call kfunc#/ && k ~ /^\(85\) call /) { res++; next }
        bad++; if (!msg) msg = "insn " i ": kernel \"" t "\" ours \"" o "\""
      }
      END { printf "%d %d %d %d|%s\n", n, same, res, bad, msg }
    ' "$tmp/ours" "$tmp/log" >"$tmp/res"
    res=$(cat "$tmp/res"); counts=${res%%|*}; msg=${res#*|}
    set -- $counts
    if [ "$4" -eq 0 ] && [ "$1" -gt 0 ]; then
      pass "isa-kernel-log/$name ($1 logged insns: $2 identical, $3 kernel-resolved map/kfunc refs)"
    else
      fail "isa-kernel-log/$name" "$4 of $1 differ: $msg"
    fi
    # kernel text -> asm -> kernel text
    sort -n "$tmp/logtxt" | cut -f2 >"$tmp/k.s"
    sed -E 's/call [A-Za-z_0-9]+#/call #/' "$tmp/k.s" >"$tmp/k.want"
    if "$BPFGATE" asm "$tmp/k.s" -o "$tmp/k.bin" --raw 2>"$tmp/err" &&
       "$BPFGATE" disasm --raw --kernel "$tmp/k.bin" | sed -n 's/^ *[0-9]*: //p' >"$tmp/k.got" &&
       cmp -s "$tmp/k.want" "$tmp/k.got"; then
      pass "isa-kernel-log/asm-$name ($(wc -l <"$tmp/k.s") lines)"
    else
      fail "isa-kernel-log/asm-$name" "$(head -1 "$tmp/err") $(diff "$tmp/k.want" "$tmp/k.got" 2>/dev/null | head -3 | tr '\n' ' ')"
    fi
  done
done
