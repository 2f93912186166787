#!/usr/bin/env bash
# Build and run the libFuzzer target over the object loader (tests/fuzz/fuzz_obj.c).
# Library sources the loader uses are built with clang-14
# -fsanitize=fuzzer-no-link,address,undefined into build-fuzz/; the corpus is
# seeded with build/examples/*.o and the objects of tests/data/obj (clang-14 and
# clang-19). Runs for ${FUZZ_SECONDS:-60} s and fails on any crash, leak, hang
# or sanitizer report (the reproducer is kept in build-fuzz/). Prints
# "fuzz: N executions, F findings".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${FUZZ_OUT:-$root/build-fuzz}
secs=${FUZZ_SECONDS:-60}
cc=${FUZZ_CC:-clang-14}
command -v "$cc" >/dev/null || { echo "fuzz: $cc not installed" >&2; exit 2; }
mkdir -p "$out/obj" "$out/corpus" "$out/crashes"
# Can this compiler link a libFuzzer target at all? If not, the machine lacks
# the runtime (exit 2: the test skips, naming why). Once it can, a failure to
# compile or link OUR sources is a defect (exit 1), never a skip.
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$out/probe.c"
"$cc" -fsanitize=fuzzer,address "$out/probe.c" -o "$out/probe" 2>"$out/probe.log" ||
  { echo "fuzz: $cc cannot link a libFuzzer target (libFuzzer runtime missing): $(head -1 "$out/probe.log")" >&2; exit 2; }
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cflags="-std=gnu11 -g -O1 -fno-omit-frame-pointer -I$root/include -I$root/src $(pkg-config --cflags libbpf libelf libpcap 2>/dev/null) -DBG_API="
libs="$(pkg-config --libs libbpf libelf zlib libpcap 2>/dev/null || echo -lbpf -lelf -lz -lpcap) -lm -lpthread"
objs=()
for src in "$root"/src/obj/*.c "$root"/src/platform/*.c "$root"/src/isa/*.c "$root"/src/core/*.c; do
  o="$out/obj/$(basename "$(dirname "$src")")_$(basename "$src" .c).o"
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find "$root/src" "$root/include" -name '*.h' -newer "$o" -print -quit)" ]; then
    "$cc" $cflags $san -fsanitize=fuzzer-no-link -c "$src" -o "$o" || { echo "fuzz: compiling $src failed" >&2; exit 1; }
  fi
  objs+=("$o")
done
"$cc" $cflags $san -fsanitize=fuzzer "$root/tests/fuzz/fuzz_obj.c" "${objs[@]}" $libs -o "$out/fuzz_obj" ||
  { echo "fuzz: linking the target failed (a source the loader needs is missing from this script's list?)" >&2; exit 1; }

# seeds: examples, test objects (both compilers), a small target BTF for CO-RE
[ -d "$root/build/examples" ] || make -C "$root" -s examples >/dev/null 2>&1
cp "$root"/build/examples/*.o "$out/corpus/" 2>/dev/null
for src in "$root"/tests/data/obj/*.bpf.c; do
  b=$(basename "$src" .bpf.c)
  for v in 14 19; do
    [ -f "$out/corpus/seed-$b.$v.o" ] && [ "$out/corpus/seed-$b.$v.o" -nt "$src" ] && continue
    command -v clang-$v >/dev/null && clang-$v -O2 -g -target bpf -Wno-everything \
      -I/usr/include/x86_64-linux-gnu -c "$src" -o "$out/corpus/seed-$b.$v.o" 2>/dev/null
  done
done
clang-14 -g -target bpf -c "$root/tests/data/obj/btf_nofield.c" -o "$out/target_btf.o" 2>/dev/null
export FUZZ_TARGET_BTF="$out/target_btf.o"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

log="$out/fuzz.log"
( cd "$out/crashes" && "$out/fuzz_obj" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -dict="$root/tests/fuzz/obj.dict" -print_final_stats=1 "$out/corpus" ) >"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
findings=$(find "$out/crashes" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
echo "fuzz: ${execs:-0} executions in ${secs}s, $findings findings, corpus $(ls "$out/corpus" | wc -l) files (log $log)"
if [ "$rc" -ne 0 ] || [ "$findings" -ne 0 ]; then
  grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5 >&2
  ls "$out"/crashes >&2
  exit 1
fi
exit 0
