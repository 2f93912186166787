# Helpers compiled in or out by the kernel's config (src/platform/kconfig.h,
# helper_kconfig.def): with the config given ($BG_KCONFIG) bpfgate offers or
# refuses the lwt_seg6local helpers as the kernel would; without one it keeps
# its table; and on the running kernel (its /proc/config.gz), bpfgate's
# verdict is the kernel's, whichever way this kernel was built. The last part
# needs bpf(): skipped where it is refused, a failure under CI=true.
# min-pass: 6
. "$(dirname "$0")/lib/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/seg6.s" <<'ASM'
r6 = r1
r2 = 0
r3 = r10
r3 += -8
r4 = 0
*(u64 *)(r10 - 8) = r4
r4 = 4
call 76
r0 = 0
exit
ASM
if ! "$BPFGATE" asm "$tmp/seg6.s" -o "$tmp/seg6.o" --section lwt_seg6local --name seg6_action 2> "$tmp/err"; then
  fail kconfig/asm "$(head -c 300 "$tmp/err")"; exit 0
fi
printf '# CONFIG_IPV6_SEG6_LWTUNNEL is not set\nCONFIG_IPV6=y\nCONFIG_XFRM=y\n' > "$tmp/off"
printf 'CONFIG_IPV6=y\nCONFIG_IPV6_SEG6_LWTUNNEL=y\nCONFIG_IPV6_SEG6_BPF=y\n' > "$tmp/on"
gzip -c "$tmp/off" > "$tmp/off.gz"

verdict() { # verdict ENV... : bpfgate check's verdict and message on seg6.o
  env "$@" "$BPFGATE" check --json "$tmp/seg6.o" 2>/dev/null |
    python3 -c 'import json,sys; p=json.load(sys.stdin)[0]; print(p["verdict"], p.get("message") or "")'
}
out=$(verdict BG_KCONFIG="$tmp/on")
case "$out" in accepted*) pass kconfig/seg6-on ;; *) fail kconfig/seg6-on "with CONFIG_IPV6_SEG6_BPF=y: $out" ;; esac
out=$(verdict BG_KCONFIG="$tmp/off")
case "$out" in
  "rejected insn 7 (call 76): program of this type cannot use helper bpf_lwt_seg6_action#76: CONFIG_IPV6_SEG6_BPF is not set"*) pass kconfig/seg6-off ;;
  *) fail kconfig/seg6-off "without CONFIG_IPV6_SEG6_BPF: $out" ;;
esac
out=$(verdict BG_KCONFIG="$tmp/off.gz")
case "$out" in rejected*CONFIG_IPV6_SEG6_BPF*) pass kconfig/gzip ;; *) fail kconfig/gzip "gzip config: $out" ;; esac
out=$(verdict BG_KCONFIG=none)
case "$out" in accepted*) pass kconfig/none ;; *) fail kconfig/none "no config: $out" ;; esac
# a config for another release than the one checked is not used
out=$(BG_KCONFIG="$tmp/off" "$BPFGATE" check --kernel 6.12 --json "$tmp/seg6.o" 2>/dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["verdict"])' 2>&1)
case "$out" in accepted*) pass kconfig/other-release ;; *) fail kconfig/other-release "check --kernel 6.12 with the 6.18 config: $out" ;; esac

if ! kernel_ok; then
  if [ "${CI:-}" = true ]; then fail kconfig/running "bpf() refused"; else skip kconfig/running "bpf() refused here"; fi
  exit 0
fi
k=$("$BPFGATE" kload --json "$tmp/seg6.o" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["verdict"])')
ours=$(verdict BG_KCONFIG= | cut -d' ' -f1)
if [ "$k" = "$ours" ]; then
  pass "kconfig/running ($k on this kernel)"
else
  fail kconfig/running "the running kernel $k, bpfgate $ours (config: $(ls /proc/config.gz /boot/config-"$(uname -r)" 2>/dev/null | head -1))"
fi
