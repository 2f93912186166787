#!/usr/bin/env bash
# bpfgate cc as a drop-in on a real project: the kernel's BPF selftests
# (progs/*.c of linux-source-6.12, from the real corpus tree, see
# corpus/real/Makefile) built by one Makefile twice, CC=clang-19 and
# CC="bpfgate cc --clang clang-19", with the selftests' own flags.
#
#   bench/cc_dropin.sh [N] [OUT_TSV]      N sources (default 40; "all" = every one)
#
# Sources: progs that are meant to load (no __failure / __msg annotations, not
# verifier_* negative tests), sorted, N of them spread over the list. For each
# object: written by both? byte-identical (or identical but for the
# .bpfgate.hints section cc adds with --hints: "yes+hints")? the kernel's verdicts on clang's
# build (bpfgate kload: accepted / rejected / unavailable per program), cc's
# warnings, and the compile time of each (overhead = cc / clang).
# Prints a summary and writes OUT_TSV (default build/bench/cc-dropin.tsv).
# Exit 1 when an object is missing or differs where no program of clang's
# build was rejected by the kernel (the policy's promise).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BG_NORMAL_BUILD:-$root/build}
RC=${BG_REALCORPUS:-/work/main/build/realcorpus}
N=${1:-40}
TSV=${2:-$BUILD/bench/cc-dropin.tsv}
BPFGATE=${BPFGATE:-$BUILD/bpfgate}
CLANG=${CLANG:-clang-19}
CC_FLAGS=${CC_FLAGS:-}     # extra bpfgate cc options, e.g. --hints
ST=$RC/src/tools/testing/selftests/bpf
[ -d "$ST/progs" ] && [ -f "$RC/include/vmlinux.h" ] || { echo "cc_dropin: no real corpus at $RC (make -C corpus/real)" >&2; exit 2; }
export BPFGATE_PLUGIN_DIR=${BPFGATE_PLUGIN_DIR:-$BUILD/plugins}
tmp=$(mktemp -d /tmp/bg-cc-dropin.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$TSV")" "$tmp/ref" "$tmp/cc" "$tmp/t"

mapfile -t all < <(cd "$ST/progs" && grep -L -E '__failure|__msg\(|SEC\("\?' *.c | grep -v '^verifier_' | sort)
if [ "$N" = all ] || [ "$N" -ge ${#all[@]} ]; then pick=("${all[@]}"); else
  pick=(); step=$(( ${#all[@]} / N )); for ((i = 0; i < N; i++)); do pick+=("${all[$((i * step))]}"); done
fi
printf '%s\n' "${pick[@]%.c}" > "$tmp/list"

# every section but .bpfgate.hints (and the section-name table) byte-identical?
cat > "$tmp/secs.py" <<'PY'
import struct, sys
def secs(path):
    d = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
    hdr = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    so = hdr[shstrndx][4]
    name = lambda h: d[so + h[0]:d.index(b"\0", so + h[0])].decode()
    out = {name(h): (h[1], h[2], d[h[4]:h[4] + h[5]] if h[1] != 8 else h[5]) for h in hdr
           if not name(h).endswith(".bpfgate.hints")}
    return out, name(hdr[shstrndx])
(a, an), (b, bn) = secs(sys.argv[1]), secs(sys.argv[2])
# the section-name table may only have grown by the new section's name
ta, tb = a.pop(an), b.pop(bn)
sys.exit(0 if a == b and an == bn and ta[:2] == tb[:2] and tb[2].startswith(ta[2]) else 1)
PY
SYS_INC=$($CLANG -v -E - </dev/null 2>&1 | sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }' | tr '\n' ' ')
cat > "$tmp/Makefile" <<EOF
# The selftests' flags (tools/testing/selftests/bpf/Makefile, test_progs flavour)
CFLAGS_BPF = -g -Wall -Werror -D__TARGET_ARCH_x86 -mlittle-endian -I$RC/include -I$ST \
  -I$RC/src/tools/include/uapi -Wno-compare-distinct-pointer-types $SYS_INC -DENABLE_ATOMICS_TESTS
OBJS = \$(patsubst %,\$(OUT)/%.o,\$(shell cat $tmp/list))
all: \$(OBJS)
\$(OUT)/%.o: $ST/progs/%.c
	@s=\$\$(date +%s.%N); \$(CC) \$(CFLAGS_BPF) -O2 --target=bpf -c \$< -mcpu=v3 -o \$@ 2>\$(OUT)/\$*.log; \\
	  rc=\$\$?; echo "\$\$rc \$\$(echo "\$\$(date +%s.%N) - \$\$s" | bc)" > \$(OUT)/\$*.time; exit 0
EOF
echo "cc_dropin: ${#pick[@]} of ${#all[@]} selftests sources; clang ($CLANG) build..." >&2
make -s -f "$tmp/Makefile" OUT="$tmp/ref" CC="$CLANG" -k >/dev/null 2>&1
echo "cc_dropin: bpfgate cc build..." >&2
make -s -f "$tmp/Makefile" OUT="$tmp/cc" CC="$BPFGATE cc --clang $CLANG --no-sidecar --budget 60 $CC_FLAGS" -k >/dev/null 2>&1

printf 'file\tclang_rc\tcc_rc\tclang_s\tcc_s\toverhead\tkernel(clang build)\tidentical\tcc says\n' > "$TSV"
bad=0; n=0; ident=0; identh=0; written=0; judged_ok=0; sum_c=0; sum_b=0
while read -r f; do
  read -r crc cs < "$tmp/ref/$f.time"; read -r brc bs < "$tmp/cc/$f.time"
  kv=-; same=-
  if [ -f "$tmp/ref/$f.o" ]; then
    kv=$("$BPFGATE" kload "$tmp/ref/$f.o" 2>/dev/null | awk 'NF >= 3 && $3 ~ /^(accepted|rejected|unavailable)$/ {c[$3]++} END {s=""; for (k in c) s = s (s ? "," : "") k "=" c[k]; print s ? s : "no-verdict"}')
  fi
  if [ -f "$tmp/ref/$f.o" ] && [ -f "$tmp/cc/$f.o" ]; then
    if cmp -s "$tmp/ref/$f.o" "$tmp/cc/$f.o"; then same=yes
    else # the same object plus cc's own .bpfgate.hints section (with --hints)?
      same=no
      python3 "$tmp/secs.py" "$tmp/ref/$f.o" "$tmp/cc/$f.o" && same=yes+hints
    fi
  fi
  says=$(grep -m1 -E 'warning|backed out|builds this|unsafe' "$tmp/cc/$f.log" 2>/dev/null | cut -c1-160 | tr '\t' ' ')
  n=$((n + 1)); [ -f "$tmp/cc/$f.o" ] && written=$((written + 1)); [ "$same" = yes ] && ident=$((ident + 1)); [ "$same" = yes+hints ] && identh=$((identh + 1))
  if [ "$crc" = 0 ] && [[ "$kv" != *rejected* ]]; then
    judged_ok=$((judged_ok + 1))
    # cc adds no section unless asked (--hints): then only .bpfgate.hints may differ
    [ "$same" = yes ] || { [ "$same" = yes+hints ] && [[ " $CC_FLAGS " == *" --hints "* ]]; } || { bad=$((bad + 1)); echo "cc_dropin: $f: kernel accepts clang's build but cc's object is ${same/-/missing}" >&2; }
  fi
  ov=$(echo "scale=2; $bs / $cs" | bc 2>/dev/null || echo -)
  sum_c=$(echo "$sum_c + $cs" | bc); sum_b=$(echo "$sum_b + $bs" | bc)
  printf '%s\t%s\t%s\t%.3f\t%.3f\t%s\t%s\t%s\t%s\n' "$f.c" "$crc" "$brc" "$cs" "$bs" "$ov" "$kv" "$same" "${says:--}" >> "$TSV"
done < "$tmp/list"
echo "cc_dropin: $n sources, $written objects written by cc ($(ls "$tmp"/ref/*.o 2>/dev/null | wc -l) by clang), $ident byte-identical, $identh identical but for cc's .bpfgate.hints section; $judged_ok built by clang with no kernel rejection, $bad of them differ or are missing"
echo "cc_dropin: compile time clang ${sum_c}s, bpfgate cc ${sum_b}s (x$(echo "scale=2; $sum_b / $sum_c" | bc)); per file: $TSV"
[ "$bad" -eq 0 ]
