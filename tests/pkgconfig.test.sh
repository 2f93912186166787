#!/usr/bin/env bash
# bpfgate.pc is enough to build against the library: a program links against
# the static archive alone with `pkg-config --static --libs bpfgate` (its
# Requires.private / Libs.private name everything libbpfgate.a needs) and
# against the shared library with `pkg-config --libs bpfgate`; both run and
# verify an example. The prefix is a scratch tree laid out like an install
# (lib/, include/bpfgate/), one with only the archive, one with only the .so,
# so the linker cannot pick the other kind. Every public header also compiles
# on its own, and verifier.h does not pull in the kernel oracle's header.
# min-pass: 4 (PASS lines when the library is built: all of them)
. "$(dirname "$0")/lib/common.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
so=$BG_BUILD/libbpfgate.so a=$BG_BUILD/libbpfgate.a pc=$BG_BUILD/bpfgate.pc
for f in "$so" "$a" "$pc"; do [ -f "$f" ] || { fail pkgconfig "$f not built"; exit 0; }; done
command -v pkg-config >/dev/null || { skip pkgconfig "no pkg-config"; exit 0; }

for kind in static shared; do
  mkdir -p "$T/$kind/lib/pkgconfig" "$T/$kind/include"
  sed "s|^prefix=.*|prefix=$T/$kind|" "$pc" > "$T/$kind/lib/pkgconfig/bpfgate.pc"
  ln -s "$BG_ROOT/include/bpfgate" "$T/$kind/include/bpfgate"
done
cp "$a" "$T/static/lib/"
cp "$so" "$T/shared/lib/libbpfgate.so.0" && ln -s libbpfgate.so.0 "$T/shared/lib/libbpfgate.so"

cat > "$T/u.c" <<'C'
#include <stdio.h>
#include <bpfgate/bpfgate.h>
int main(int argc, char **argv)
{
	char err[256];
	struct bg_object *o = argc > 1 ? bg_object__open(argv[1], NULL, err, sizeof(err)) : NULL;
	struct bg_verify_result r;
	if (!o || bg_verify(bg_object__prog(o, 0), NULL, &r))
		return 2;
	printf("%s\n", bg_verdict_name(r.verdict));
	bg_verify_result__fini(&r);
	bg_object__free(o);
	return 0;
}
C
san=
nm "$a" 2>/dev/null | grep -q '__asan_' && san="-fsanitize=address,undefined"
nm "$a" 2>/dev/null | grep -q '__tsan_' && san="-fsanitize=thread"
ex=$BG_EXAMPLES/xdp_parse.bpf.o
for kind in static shared; do
  st=; [ $kind = static ] && st=--static
  flags=$(PKG_CONFIG_PATH="$T/$kind/lib/pkgconfig" pkg-config $st --cflags --libs bpfgate 2>"$T/pcerr") \
    || { fail "pkgconfig_$kind" "pkg-config: $(head -2 "$T/pcerr" | tr '\n' ' ')"; continue; }
  # shellcheck disable=SC2086
  if ! ${CC:-gcc} $san -std=gnu11 -Wall -Werror -o "$T/u_$kind" "$T/u.c" $flags 2>"$T/ld_$kind"; then
    fail "pkgconfig_$kind" "link with '$flags': $(head -3 "$T/ld_$kind" | tr '\n' ' ')"; continue
  fi
  needed=$(readelf -d "$T/u_$kind" | grep -c 'libbpfgate\.so')
  { [ $kind = static ] && [ "$needed" = 0 ]; } || { [ $kind = shared ] && [ "$needed" = 1 ]; } \
    || { fail "pkgconfig_$kind" "NEEDED libbpfgate.so entries: $needed"; continue; }
  out=$(LD_LIBRARY_PATH="$T/$kind/lib" "$T/u_$kind" "$ex" 2>&1)
  [ "$out" = accepted ] && pass "pkgconfig_$kind ($flags)" || fail "pkgconfig_$kind" "ran: $out"
done

# each public header stands alone; the verifier's does not need the kernel's
bad=
for h in "$BG_ROOT"/include/bpfgate/*.h; do
  echo "#include <bpfgate/$(basename "$h")>" | ${CC:-gcc} -fsyntax-only -std=gnu11 -Wall -Werror \
    -I"$BG_ROOT/include" -x c - 2>/dev/null || bad="$bad $(basename "$h")"
done
[ -z "$bad" ] && pass headers_standalone || fail headers_standalone "do not compile alone:$bad"
inc=$(echo '#include <bpfgate/verifier.h>' | ${CC:-gcc} -E -H -I"$BG_ROOT/include" -x c - 2>&1 >/dev/null \
  | grep -o 'bpfgate/[a-z]*\.h' | sort -u | tr '\n' ' ')
case "$inc" in *kern.h*) fail verifier_h_no_kern "verifier.h includes: $inc" ;;
  *) pass "verifier_h_no_kern ($inc)" ;; esac
