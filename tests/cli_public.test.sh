#!/usr/bin/env bash
# The CLI is a client of the public API (issue 12): tools/ includes only
# include/bpfgate/*.h, its own tools/*.h, shared/*.h (code compiled into both
# library and CLI, held to the same rule) and system headers, is compiled
# without -Isrc, and links libbpfgate.a (never libbpfgate_internal.a). The
# proof that it needs nothing but exported bg_ symbols: its objects link
# against libbpfgate.so (which exports bg_* only) and that binary runs.
# min-pass: 6 (all of them: nothing here needs clang, bpf() or the corpus)
. "$(dirname "$0")/lib/common.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$BG_ROOT" || exit 0

# 1. the text: every #include of tools/ names a tools/ header, a shared/
#    header (code compiled into both library and CLI: shared/ follows the
#    same rule), a public header, or a header that is not part of this
#    repository's src/
bad=
for f in tools/*.c tools/*.h shared/*.c shared/*.h; do
  while IFS= read -r line; do
    h=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]+)[">].*/\1/' <<<"$line")
    case "$line" in
      *'"'*) { [ -f "tools/$h" ] || [ -f "shared/$h" ]; } && [ "${h#*/}" = "$h" ] || bad="$bad $f:$h" ;;
      *) case "$h" in
           bpfgate/*) [ -f "include/$h" ] || bad="$bad $f:<$h>" ;;
           *) [ -e "src/$h" ] && bad="$bad $f:<$h>" ;;
         esac ;;
    esac
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include' "$f")
done
[ -z "$bad" ] && pass cli_public/includes || fail cli_public/includes "outside include/bpfgate, tools/ and shared/:$bad"

# 2. the build: tools/ compiled without -Isrc, the CLI linked with the public archive
make -n -B V=1 BUILD="$T/b" "$T/b/tools/cli.o" "$T/b/bpfgate" >"$T/mk" 2>&1
cc_line=$(grep -E -- '-c tools/cli\.c' "$T/mk")
ld_line=$(grep -E -- "-o $T/b/bpfgate " "$T/mk")
[ -n "$cc_line" ] && ! grep -qE -- '(^| )-I *src( |$)' <<<"$cc_line" \
  && pass cli_public/no-Isrc || fail cli_public/no-Isrc "compile line: ${cc_line:-none}"
[ -n "$ld_line" ] && grep -q 'libbpfgate\.a' <<<"$ld_line" && ! grep -q 'libbpfgate_internal' <<<"$ld_line" \
  && pass cli_public/links-public-archive || fail cli_public/links-public-archive "link line: ${ld_line:-none}"

# 3. every library symbol the CLI objects use is an exported bg_ symbol
objs=$(ls "$BG_BUILD"/tools/*.o 2>/dev/null)
[ -n "$objs" ] && [ -f "$BG_BUILD/libbpfgate.so" ] || { fail cli_public/symbols "no tools objects or libbpfgate.so in $BG_BUILD"; exit 0; }
# shellcheck disable=SC2086
nm --defined-only $objs | awk 'NF == 3 {print $3}' | sort -u >"$T/def"
# shellcheck disable=SC2086
nm -u $objs | awk '{print $NF}' | sort -u | comm -23 - "$T/def" >"$T/undef"
nm -g --defined-only "$BG_BUILD/libbpfgate_internal.a" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u >"$T/lib"
comm -12 "$T/undef" "$T/lib" >"$T/used"
nm -D --defined-only "$BG_BUILD/libbpfgate.so" | awk '$2 != "A" {print $3}' | sed 's/@.*//' | sort -u >"$T/so"
hidden=$(comm -23 "$T/used" "$T/so" | head -5 | tr '\n' ' ')
[ -s "$T/used" ] && [ -z "$hidden" ] \
  && pass "cli_public/symbols ($(wc -l <"$T/used") library functions, all exported bg_)" \
  || fail cli_public/symbols "the CLI uses library symbols libbpfgate.so does not export: $hidden"

# 4. the CLI's objects link against the shared library alone and the result runs
san=
nm "$BG_BUILD/libbpfgate.a" 2>/dev/null | grep -q '__asan_' && san="-fsanitize=address,undefined"
# shellcheck disable=SC2086
ln -s "$BG_BUILD/libbpfgate.so" "$T/libbpfgate.so.0" # the soname
if ${CC:-gcc} $san -o "$T/bpfgate" $objs -L"$BG_BUILD" -l:libbpfgate.so -Wl,-rpath,"$T" \
     $(pkg-config --libs libbpf libelf zlib libpcap 2>/dev/null || echo -lbpf -lelf -lz -lpcap) -lm -lpthread 2>"$T/ld"; then
  pass cli_public/links-shared
  ex=$BG_EXAMPLES/xdp_parse.bpf.o
  if [ -f "$ex" ]; then
    # the same verdicts (the timing in brackets aside) from the shared-library CLI
    a=$("$T/bpfgate" check "$ex" 2>&1 | sed 's/ \[.*//'); b=$("$BPFGATE" check "$ex" 2>&1 | sed 's/ \[.*//')
    [ -n "$a" ] && [ "$a" = "$b" ] && pass cli_public/shared-runs || fail cli_public/shared-runs "shared: $a / static: $b"
  else
    o=$("$T/bpfgate" check --list-kernels 2>&1)
    grep -q '^6.18 ' <<<"$o" && pass cli_public/shared-runs || fail cli_public/shared-runs "$o"
  fi
else
  fail cli_public/links-shared "$(grep -m3 'undefined reference' "$T/ld" | tr '\n' ' ')"
fi
