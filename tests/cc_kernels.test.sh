#!/usr/bin/env bash
# bpfgate cc --kernel 5.10,6.1: the compile loop judges every build in real
# kernels booted under QEMU (src/kvm) too, and backs out to flags every listed
# kernel accepts.
#  - a kernel not in the cache is a usage error (exit 2) before any compile;
#  - a kernel whose guest fails: exit 2, the reason, no object written;
#  - a source built with -mcpu=v4 (a sign-extending load, BPF_LDX|BPF_MEMSX)
#    loads on the running kernel but 5.10 refuses it ("BPF_LDX uses reserved
#    fields"): cc names kernel@5.10 and its message, lowers -mcpu (no pass
#    bisection: an instruction set choice is no pass's doing) and writes a
#    -mcpu=v3 object judged by kernel@5.10 and kernel@6.1;
#  - independently of cc, `kload --kernel 5.10,6.1` on the written object and
#    on clang's own -mcpu=v4 object: the first accepted by both kernels, the
#    second rejected by both (so the loop's verdicts are the kernels').
# The images are fetched when missing; an unreachable registry skips (and
# fails under CI=true, where it is reachable); a fetch or boot failure fails.
. "$(dirname "$0")/lib/common.sh"
tmp=$(mktemp -d /tmp/bg-cck.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ci_or_skip() { # name, why
  if [ "${CI:-}" = true ]; then fail "$1" "$2 (CI=true: the registry must be reachable)"; else skip "$1" "$2"; fi
}
XDG_CACHE_HOME=$tmp/empty "$BPFGATE" cc --kernel 6.1 -c x.c >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "kernel 6.1 is not in the cache (bpfgate kernels fetch 6.1)" "$tmp/e" \
  && pass cc_kernels/not-cached || fail cc_kernels/not-cached "rc=$rc $(cat "$tmp/e")"
"$BPFGATE" cc --kernel 6.x -c x.c >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "'6.x' is not a kernel series" "$tmp/e" && pass cc_kernels/bad-version \
  || fail cc_kernels/bad-version "rc=$rc $(cat "$tmp/e")"

if ! command -v qemu-system-x86_64 >/dev/null || ! [ -x /bin/busybox ]; then
  ci_or_skip cc_kernels/qemu "qemu-system-x86 or busybox-static not installed"; exit 0
fi
# a listed kernel whose guest fails judges nothing: no object (an earlier one is
# removed, as a compiler does), exit 2 and the reason (a cache entry whose image
# is not a kernel: QEMU stops at once)
mkdir -p "$tmp/fake/bpfgate/kernels/6.1"
printf 'not a kernel' >"$tmp/fake/bpfgate/kernels/6.1/vmlinuz"
printf 'release=6.1.0-0-amd64\npackage=linux-image-6.1.0-0-amd64\nversion=6.1.0-0\n' \
  >"$tmp/fake/bpfgate/kernels/6.1/info"
printf '#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\nSEC("xdp") int p(void *c) { return 2; }\nchar _l[] SEC("license") = "GPL";\n' >"$tmp/g.c"
echo stale >"$tmp/g.o"
XDG_CACHE_HOME=$tmp/fake "$BPFGATE" cc --no-sidecar --kernel 6.1 -O2 -g -I/usr/include/x86_64-linux-gnu \
  -c "$tmp/g.c" -o "$tmp/g.o" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/g.o" ] && grep -q "g.o: not written: kernel@6.1: the guest failed: " "$tmp/e" \
  && pass cc_kernels/guest-failed || fail cc_kernels/guest-failed "rc=$rc $(ls "$tmp"/g.o 2>&1) $(cat "$tmp/e")"

CLANG=$(command -v clang-19 || command -v clang-18)
[ -n "$CLANG" ] || { skip cc_kernels/v4 "no clang >= 18 (-mcpu=v4)"; exit 0; }
"$BPFGATE" kernels fetch 5.10 6.1 >/dev/null 2>"$tmp/e"; rc=$?
if [ $rc != 0 ]; then
  if grep -q "unreachable" "$tmp/e"; then ci_or_skip cc_kernels/fetch "$(tail -1 "$tmp/e")"; exit 0; fi
  fail cc_kernels/fetch "rc=$rc $(tail -2 "$tmp/e")"; exit 0
fi
# the guest runs the plain build (an ASan loader is slower and needs more memory); a loaded
# 2-core machine needs more than the default 122 s of wall clock per boot
[ -x "$BG_NORMAL_BUILD/bpfgate" ] && export BG_KVM_LOADER="$BG_NORMAL_BUILD/bpfgate"
export BG_KVM_TIMEOUT=${BG_KVM_TIMEOUT:-600}

cat >"$tmp/v4.c" <<'C'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, signed char[8]);
} vals SEC(".maps");
SEC("socket")
int v4_prog(void *ctx)
{
	__u32 k = 0;
	signed char *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return 0;
	return v[1] > 0 ? v[1] : -v[1];
}
char _license[] SEC("license") = "GPL";
C
F="-O2 -g -mcpu=v4 -I/usr/include/x86_64-linux-gnu"
# shellcheck disable=SC2086
"$CLANG" -target bpf $F -c "$tmp/v4.c" -o "$tmp/clang-v4.o" || { fail cc_kernels/v4 "clang failed"; exit 0; }
llvm-objdump-19 -d "$tmp/clang-v4.o" 2>/dev/null | grep -q '(s8 \*)' \
  || { fail cc_kernels/v4 "clang -mcpu=v4 emitted no sign-extending load"; exit 0; }
# shellcheck disable=SC2086
"$BPFGATE" cc --clang "$CLANG" -v --no-sidecar --budget 1200 --kernel 5.10,6.1 $F -c "$tmp/v4.c" \
  -o "$tmp/cc.o" >/dev/null 2>"$tmp/e"; rc=$?
grep -q "program 'v4_prog' rejected by kernel@5.10: BPF_LDX uses reserved fields" "$tmp/e" \
  && pass cc_kernels/v4/rejected-by-5.10 || fail cc_kernels/v4/rejected-by-5.10 "rc=$rc $(cat "$tmp/e")"
[ $rc = 0 ] && [ -s "$tmp/cc.o" ] && grep -q "backed out with -mcpu=v3" "$tmp/e" \
  && grep -q "judged by kernel,bpfgate,kernel@5.10,kernel@6.1\|judged by bpfgate,kernel@5.10,kernel@6.1" "$tmp/e" \
  && ! grep -q "bisect" "$tmp/e" \
  && pass cc_kernels/v4/backed-out || fail cc_kernels/v4/backed-out "rc=$rc $(cat "$tmp/e")"
[ -s "$tmp/cc.o" ] || exit 0
"$BPFGATE" kload --json --kernel 5.10,6.1 "$tmp/cc.o" "$tmp/clang-v4.o" >"$tmp/k.json" 2>"$tmp/e"; rc=$?
python3 - "$tmp/k.json" "$tmp" <<'PY' || fail cc_kernels/v4/kload "rc=$rc $(head -c 600 "$tmp/e")"
import json, sys
recs = json.load(open(sys.argv[1]))
got = {(r["kernel"], r["object"].rsplit("/", 1)[-1]): (r["verdict"], r.get("message") or "") for r in recs}
ok = True
for k in ("5.10", "6.1"):
    v = got.get((k, "cc.o"), ("missing", ""))
    print(("PASS" if v[0] == "accepted" else "FAIL") + f" cc_kernels/v4/kload/{k}/cc-object-accepted" +
          ("" if v[0] == "accepted" else f": {v}"))
    v = got.get((k, "clang-v4.o"), ("missing", ""))
    good = v[0] == "rejected" and "reserved fields" in v[1]
    print(("PASS" if good else "FAIL") + f" cc_kernels/v4/kload/{k}/clang-v4-rejected" + ("" if good else f": {v}"))
PY
