# The bundled examples stay loadable when built by clang-19 at -mcpu=v3 (ALU32)
# and -mcpu=v4 (sign-extending loads, movsx, sdiv, gotol): every program of every
# example, compiled both ways, is accepted by the running kernel through kload.
# min-pass: 30 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
CLANG19=$(command -v clang-19 || true)
[ -n "$CLANG19" ] || { skip examples-clang19 "clang-19 not installed (scripts/deps.sh installs it)"; exit 0; }
kernel_ok || { skip examples-clang19 "bpf() unavailable: $("$BPFGATE" kload --probe 2>&1 | head -1)"; exit 0; }
tmp=$(mktemp -d /tmp/bg-ex19.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export CLANG19 tmp BG_NORMAL_BUILD BG_ROOT
ls "$BG_ROOT"/examples/*.bpf.c | while read -r f; do echo "$f v3"; echo "$f v4"; done |
  xargs -P2 -n2 sh -c 'b=$(basename "$0" .bpf.c); "$CLANG19" -O2 -g -target bpf -mcpu=$1 -Wall \
    -Wno-unused-function -I"$BG_NORMAL_BUILD" -I"$BG_ROOT/examples/include" \
    -I/usr/include/x86_64-linux-gnu -c "$0" -o "$tmp/$b.$1.o" 2>"$tmp/$b.$1.err" || true'
for f in "$BG_ROOT"/examples/*.bpf.c; do
  b=$(basename "$f" .bpf.c)
  for cpu in v3 v4; do
    o="$tmp/$b.$cpu.o"
    if [ ! -s "$o" ]; then fail "examples-clang19/$b/$cpu" "does not compile: $(head -2 "$tmp/$b.$cpu.err")"; continue; fi
    out=$("$BPFGATE" kload "$o" 2>&1); rc=$?
    bad=$(printf '%s\n' "$out" | grep -Ev '^[^ ].* accepted +insns=' | head -3)
    [ $rc -eq 0 ] && [ -z "$bad" ] && pass "examples-clang19/$b/$cpu" ||
      fail "examples-clang19/$b/$cpu" "exit $rc: $bad"
  done
done
