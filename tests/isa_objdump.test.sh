# Our disassembly agrees with llvm-objdump, instruction by instruction.
# Inputs: every object in $BG_EXAMPLES, small programs compiled here with
# clang-19 -mcpu=v1..v4, and an object holding every form of the opcode table
# (test_isa --dump-forms). `bpfgate disasm --sections` shows the ELF sections
# as stored, which is what llvm-objdump -d shows.
# Each line is compared with llvm-objdump-14 (modulo whitespace and the
# trailing "<label>"); where 14 prints <unknown> or misreads a v4 encoding
# (it ignores off for sdiv/smod/movsx), with llvm-objdump-19 in decimal, then
# 19 with -mattr=+alu32 (32-bit atomics). Lines no objdump can print
# (ld_imm64 pseudo forms, load-acquire/store-release) are counted, not failed,
# and the forms test checks those by exact expected spelling in test_isa.c.
# min-pass: 35 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"

OD14=$(command -v llvm-objdump-14 || true)
OD19=$(command -v llvm-objdump-19 || true)
if [ -z "$OD14" ]; then skip isa-objdump "llvm-objdump-14 not installed"; exit 0; fi
tmp=$(mktemp -d /tmp/bg-isa-od.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# objdump output -> "SECTION|IDX|TEXT" lines
od_lines() { # objdump-binary args... obj
  "$@" 2>/dev/null | awk '
    /^Disassembly of section / { sec = $0; sub(/^Disassembly of section /, "", sec); sub(/:$/, "", sec); next }
    /^ +[0-9]+:\t/ {
      idx = $0; sub(/^ +/, "", idx); sub(/:.*/, "", idx)
      t = $0; sub(/^ +[0-9]+:\t/, "", t); sub(/ <[^<>]*>$/, "", t)
      gsub(/[ \t]+/, " ", t); sub(/ $/, "", t)
      print sec "\t" idx "\t" t
    }'
}
our_lines() { # obj
  "$BPFGATE" disasm --sections "$1" | awk '
    /^[^ ].* \(.*\):$/ { sec = $0; sub(/^[^ ]* \(/, "", sec); sub(/\):$/, "", sec); next }
    /^ *[0-9]+: / { idx = $0; sub(/^ +/, "", idx); sub(/:.*/, "", idx)
      t = $0; sub(/^ *[0-9]+: /, "", t); gsub(/[ \t]+/, " ", t); print sec "\t" idx "\t" t }'
}

compare_obj() { # name obj
  local name=$1 obj=$2
  our_lines "$obj" >"$tmp/ours" || { fail "isa-objdump/$name" "bpfgate disasm --sections failed"; return; }
  od_lines "$OD14" -d --no-show-raw-insn "$obj" >"$tmp/o14"
  : >"$tmp/o19"; : >"$tmp/o19a"
  if [ -n "$OD19" ]; then
    od_lines "$OD19" -d --no-show-raw-insn --no-print-imm-hex "$obj" >"$tmp/o19"
    od_lines "$OD19" -d --no-show-raw-insn --no-print-imm-hex --mattr=+alu32 "$obj" >"$tmp/o19a"
  fi
  local res
  res=$(awk -F'\t' '
    FILENAME == ARGV[1] { o14[$1 ":" $2] = $3; next }
    FILENAME == ARGV[2] { o19[$1 ":" $2] = $3; next }
    FILENAME == ARGV[3] { o19a[$1 ":" $2] = $3; next }
    {
      k = $1 ":" $2; n++
      if (!(k in o14)) { bad++; if (!msg) msg = k ": objdump has no instruction here"; next }
      if (o14[k] == $3) { same++; next }
      if ((k in o19) && o19[k] == $3) { via19++; next }
      if ((k in o19a) && o19a[k] == $3) { via19++; next }
      if ($3 ~ /(map_fd|map_value|btf_id|func|map_idx|map_idx_value)\(.*\) ll$|load_acquire|store_release/ && \
          (o14[k] ~ /^(ld_pseudo|lea|<unknown>|lock)/)) { noobj++; next }
      bad++; if (!msg) msg = k ": ours \"" $3 "\" objdump-14 \"" o14[k] "\" objdump-19 \"" o19[k] "\""
    }
    END { printf "%d %d %d %d %d|%s\n", n, same, via19, noobj, bad, msg }
  ' "$tmp/o14" "$tmp/o19" "$tmp/o19a" "$tmp/ours")
  local counts=${res%%|*} msg=${res#*|}
  set -- $counts
  local n14; n14=$(wc -l <"$tmp/o14")
  if [ "$5" -eq 0 ] && [ "$1" -gt 0 ] && [ "$1" -eq "$n14" ]; then
    pass "isa-objdump/$name ($1 insns: $2 as objdump-14, $3 as objdump-19, $4 unprintable by objdump)"
  else
    fail "isa-objdump/$name" "$5 of $1 differ (objdump-14 has $n14): $msg"
  fi
}

# 1. the bundled examples
shopt -s nullglob
ex=("$BG_EXAMPLES"/*.bpf.o)
if [ ${#ex[@]} -eq 0 ]; then
  skip isa-objdump/examples "no objects in $BG_EXAMPLES (run make examples)"
fi
for o in "${ex[@]}"; do compare_obj "$(basename "$o" .bpf.o)" "$o"; done

# 2. every form of the opcode table, assembled by clang from .quad directives
CL=$(command -v clang-14 || command -v clang-19 || true)
if [ -n "$CL" ] && [ -x "$BG_BUILD/tests/test_isa" ]; then
  { echo 'void forms(void) {'
    "$BG_BUILD/tests/test_isa" --dump-forms | awk '{
      printf "asm volatile(\".quad 0x%s\");\n", $1
      if (substr($1, 15, 2) == "18") printf "asm volatile(\".quad 0x%s\");\n", $2 }'
    echo '}'; } >"$tmp/forms.c"
  if "$CL" -target bpf -O2 -c "$tmp/forms.c" -o "$tmp/forms.o" 2>"$tmp/cc.err"; then
    compare_obj every-form "$tmp/forms.o"
  else
    fail isa-objdump/every-form "clang could not assemble the forms: $(head -2 "$tmp/cc.err")"
  fi
else
  skip isa-objdump/every-form "no clang or test_isa binary"
fi

# 3. small programs at -mcpu=v1..v4 (clang-19: sdiv, movsx, MEMSX, bswap, gotol)
CL19=$(command -v clang-19 || true)
if [ -z "$CL19" ]; then
  skip isa-objdump/mcpu "clang-19 not installed"
else
  cat >"$tmp/m.c" <<'EOF'
typedef unsigned long u64; typedef long s64; typedef int s32; typedef short s16; typedef signed char s8;
struct ctx { s64 a; s32 b; s16 c; s8 d; u64 e; };
#if __BPF_CPU_VERSION__ >= 4
#define DIV(a, b) ((a) / (b))
#define MOD(a, b) ((a) % (b))
#else
#define DIV(a, b) ((s64)((u64)(a) / (u64)(b)))
#define MOD(a, b) ((s64)((u64)(a) % (u64)(b)))
#endif
static __attribute__((noinline)) s64 sub(s64 x, s64 y) { return y ? DIV(x, y) + MOD(x, y) : x; }
__attribute__((section("tc"), used)) int prog(struct ctx *c)
{
	s64 s = DIV(c->a, (c->b | 1)) + MOD(c->a, 7) + (s32)c->c + (s8)c->d;
	u64 e = __builtin_bswap64(c->e) + __builtin_bswap32((unsigned)c->b) + __builtin_bswap16((unsigned short)c->c);
	__sync_fetch_and_add(&c->e, 1);
	__sync_fetch_and_or(&c->e, 2);
	s += __sync_fetch_and_xor(&c->a, 3);
	s += __sync_val_compare_and_swap(&c->a, 4, 5);
	s += __sync_lock_test_and_set(&c->a, 6);
	for (int i = 0; i < (c->b & 15); i++) s += sub(s, i) * (s32)e;
	return (int)(s ^ (s64)e);
}
EOF
  for cpu in v1 v2 v3 v4; do
    if "$CL19" -target bpf -O2 -mcpu=$cpu -c "$tmp/m.c" -o "$tmp/m-$cpu.o" 2>"$tmp/cc.err"; then
      compare_obj "mcpu-$cpu" "$tmp/m-$cpu.o"
    else
      fail "isa-objdump/mcpu-$cpu" "clang-19 failed: $(head -2 "$tmp/cc.err")"
    fi
  done
fi

# 4. the prepared view (bpfgate disasm OBJ, after relocation): each program's
# own instructions (before appended subprograms) equal llvm-objdump's listing
# of its function, except where relocation legitimately rewrote them: map /
# global-data ld_imm64 (objdump "rN = 0 ll"), subprogram / kfunc calls, and
# instructions poisoned by an unsatisfiable CO-RE relocation (annotated).
prep_compare() { # name obj
  local name=$1 obj=$2
  if ! "$BPFGATE" disasm "$obj" >"$tmp/prep" 2>"$tmp/prep.err"; then
    fail "isa-objdump/prepared-$name" "$(head -2 "$tmp/prep.err" | tr '\n' ' ')"; return
  fi
  "$OD14" -d --no-show-raw-insn "$obj" >"$tmp/od" 2>/dev/null
  local res
  res=$(awk '
    FILENAME == ARGV[1] {
      if ($0 ~ /^[0-9a-f]+ <(LBB|\.L).*>:$/) next   # local labels, not functions
      if ($0 ~ /^[0-9a-f]+ <.*>:$/) { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); nf[fn] = 0; next }
      if ($0 ~ /^ +[0-9]+:\t/ && fn != "") {
        t = $0; sub(/^ +[0-9]+:\t/, "", t); sub(/ <[^<>]*>$/, "", t); gsub(/[ \t]+/, " ", t)
        od[fn, nf[fn]++] = t
      }
      next
    }
    /^[^ ].* \(.*\):$/ { p = $0; sub(/ \(.*$/, "", p); i = 0; next }
    /^ *[0-9]+: / {
      if (!(p in nf) || i >= nf[p]) next
      t = $0; sub(/^ *[0-9]+: /, "", t); o = od[p, i++]; n++
      if (t == o) { same++; next }
      if (t ~ /^call 195896080\t; CO-RE relocation failed: /) { reloc++; next }  # libbpf poison 0xbad2310
      if (o ~ /^r[0-9]+ = -?[0-9]+ ll$/ && t ~ /^r[0-9]+ = .* ll$/) { reloc++; next }
      if (o ~ /^call -?[0-9]+$/ && t ~ /^call (pc[-+][0-9]+|kfunc\(.*\)|-?[0-9]+)$/) { reloc++; next }
      bad++; if (!msg) msg = p "[" i - 1 "]: ours \"" t "\" objdump \"" o "\""
    }
    END { printf "%d %d %d %d|%s\n", n, same, reloc, bad, msg }
  ' "$tmp/od" "$tmp/prep")
  local counts=${res%%|*} msg=${res#*|}
  set -- $counts
  if [ "$4" -eq 0 ] && [ "$1" -gt 0 ]; then
    pass "isa-objdump/prepared-$name ($1 insns: $2 identical, $3 rewritten by relocation)"
  else
    fail "isa-objdump/prepared-$name" "$4 of $1 differ: $msg"
  fi
}
for o in "${ex[@]}"; do prep_compare "$(basename "$o" .bpf.o)" "$o"; done
