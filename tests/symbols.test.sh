#!/usr/bin/env bash
# The library exports its public API only: libbpfgate.so (version script
# src/libbpfgate.map) and libbpfgate.a (internal symbols localized) define
# nothing global outside the bg_ prefix; every BG_API function of
# include/bpfgate/*.h is exported, and nothing else; a program that defines
# its own verr/check_mem/vid links against the archive without a clash.
# min-pass: 4 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
so=$BG_BUILD/libbpfgate.so a=$BG_BUILD/libbpfgate.a
for f in "$so" "$a"; do [ -f "$f" ] || { fail symbols "$f not built"; exit 0; }; done

# dynamic symbols: defined, not the version node (type A)
nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | sed 's/@.*//' | sort -u > "$T/so"
bad=$(grep -v '^bg_' "$T/so" | head -5 | tr '\n' ' ')
[ -s "$T/so" ] && [ -z "$bad" ] && pass "symbols_so_only_bg ($(wc -l < "$T/so") symbols)" \
  || fail symbols_so_only_bg "non-bg_ exports: $bad"
nm -D "$so" | grep -q ' bg_verify@@LIBBPFGATE_0.1$' && pass symbols_so_versioned \
  || fail symbols_so_versioned "bg_verify has no LIBBPFGATE_0.1 version"

# the static archive: global defined symbols (T, D, B, R, W...)
nm -g --defined-only "$a" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u > "$T/ar"
bad=$(grep -v '^bg_' "$T/ar" | head -5 | tr '\n' ' ')
[ -s "$T/ar" ] && [ -z "$bad" ] && pass "symbols_archive_only_bg ($(wc -l < "$T/ar") symbols)" \
  || fail symbols_archive_only_bg "non-bg_ globals: $bad ($(grep -vc '^bg_' "$T/ar") in all)"

# exported == declared BG_API
perl -0777 -ne 'while (/BG_API\b[^;{]*?\b(bg_\w+)\s*\(/g) { print "$1\n" }' "$BG_ROOT"/include/bpfgate/*.h | sort -u > "$T/api"
extra=$(comm -13 "$T/api" "$T/so" | head -5 | tr '\n' ' ')
missing=$(comm -23 "$T/api" "$T/so" | head -5 | tr '\n' ' ')
[ -z "$extra$missing" ] && pass "symbols_match_headers ($(wc -l < "$T/api") BG_API functions)" \
  || fail symbols_match_headers "exported, not declared: $extra; declared, not exported: $missing"

# a user program with its own verr / check_mem / vid links and runs
cat > "$T/u.c" <<'C'
#include <stdio.h>
#include <bpfgate/bpfgate.h>
int verr(void);
int verr(void) { return 7; }
int check_mem(int x);
int check_mem(int x) { return x; }
unsigned vid;
int main(int argc, char **argv)
{
	char err[256];
	struct bg_object *o = argc > 1 ? bg_object__open(argv[1], NULL, err, sizeof(err)) : NULL;
	struct bg_verify_result r;
	if (!o || bg_verify(bg_object__prog(o, 0), NULL, &r))
		return 2;
	printf("%s %d %d %u\n", bg_verdict_name(r.verdict), verr(), check_mem(3), vid);
	bg_verify_result__fini(&r);
	bg_object__free(o);
	return 0;
}
C
san=
nm "$a" 2>/dev/null | grep -q '__asan_' && san="-fsanitize=address,undefined"
if ${CC:-gcc} $san -std=gnu11 -Wall -Werror -I"$BG_ROOT/include" -DBG_API= -o "$T/u" "$T/u.c" "$a" \
     $(pkg-config --libs libbpf libelf zlib libpcap 2>/dev/null || echo -lbpf -lelf -lz -lpcap) -lm -lpthread 2>"$T/ld"; then
  out=$("$T/u" "$BG_EXAMPLES/xdp_parse.bpf.o" 2>&1)
  [ "$out" = "accepted 7 3 0" ] && pass symbols_archive_no_clash || fail symbols_archive_no_clash "ran: $out"
else
  fail symbols_archive_no_clash "link: $(head -3 "$T/ld" | tr '\n' ' ')"
fi
