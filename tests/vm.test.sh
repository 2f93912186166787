#!/usr/bin/env bash
# bpfgate run: the conformance plugin protocol, runs of the examples on
# crafted packets (text, JSON, pcap), sanitizer reports with source lines,
# exit codes on bad input.
# min-pass: 39 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
source "$(dirname "$0")/lib/common.sh"
T=$(mktemp -d /tmp/bg-vm-test.XXXXXX)
trap 'rm -rf "$T"' EXIT

# ---- conformance plugin protocol ----
plugin() { # NAME ASM EXPECTED_STDOUT [MEMHEX]
  local name=$1 src=$2 want=$3 mem=${4:-}
  printf '%s\n' "$src" >"$T/p.s"
  if ! "$BPFGATE" asm "$T/p.s" -o "$T/p.bin" --raw >"$T/asm.out" 2>&1; then
    fail "$name" "assembler: $(head -2 "$T/asm.out")"; return; fi
  local hex out rc
  hex=$(od -An -v -tx1 "$T/p.bin" | tr -s ' \n' ' ' | sed 's/ \([0-9a-f][0-9a-f]\)/\1  /g')
  if [ -n "$mem" ]; then out=$(printf '%s' "$hex" | "$BPFGATE" run --conformance-plugin "$mem" 2>"$T/err"); rc=$?
  else out=$(printf '%s' "$hex" | "$BPFGATE" run --conformance-plugin 2>"$T/err"); rc=$?; fi
  if [ "$want" = ERROR ]; then
    if [ $rc -ne 0 ] && [ -s "$T/err" ] && [ -z "$out" ]; then pass "$name"
    else fail "$name" "want non-zero exit with a message, got rc=$rc out='$out'"; fi
  elif [ $rc -eq 0 ] && [ "$out" = "$want" ]; then pass "$name"
  else fail "$name" "want '$want', got '$out' rc=$rc $(head -c 200 "$T/err")"; fi
}
plugin plugin/mov "r0 = 42
exit" 2a
plugin plugin/mem "r0 = *(u32 *)(r1 + 0)
r0 += r2
exit" 4030205 "01 02 03 04"
plugin plugin/mem-packed "r0 = *(u16 *)(r1 + 2)
exit" 403 "01020304"
plugin plugin/div0 "r0 = 7
r1 = 0
r0 /= r1
exit" 0
plugin plugin/helper5 "r1 = 9
call 5
exit" 9
plugin plugin/fault "r0 = *(u64 *)(r10 - 8)
exit" ERROR
out=$(printf 'zz 00' | "$BPFGATE" run --conformance-plugin 2>&1); rc=$?
[ $rc -eq 2 ] && [[ "$out" == *offset* ]] && pass plugin/bad-hex || fail plugin/bad-hex "rc=$rc $out"

# ---- crafted packets ----
python3 - "$T" <<'EOF'
import struct, sys
t = sys.argv[1]
eth = bytes.fromhex('020000000002' '020000000001' '0800')
def ip(proto, l4):
    h = bytearray(bytes.fromhex('45000000123400004000' '0000' 'c0a8010a' 'c0a80114'))
    h[9] = proto
    h[2:4] = struct.pack('>H', 20 + len(l4))
    s = sum(struct.unpack('>10H', bytes(h)))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    h[10:12] = struct.pack('>H', ~s & 0xffff)
    return eth + bytes(h) + l4
tcp = ip(6, bytes.fromhex('c3500050000000010000000050027210000000000000'))
dns = ip(17, bytes.fromhex('d4310035001c0000123401000001000000000000037777770765780000010001'))
open(t + '/tcp.bin', 'wb').write(tcp)
open(t + '/dns.bin', 'wb').write(dns)
with open(t + '/mix.pcap', 'wb') as f:
    f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for p in (tcp, dns, tcp, eth + b'\x00' * 4):
        f.write(struct.pack('<IIII', 0, 0, len(p), len(p)) + p)
open(t + '/bad.pcap', 'wb').write(b'not a pcap at all, really')
mix = open(t + '/mix.pcap', 'rb').read()
# cut inside the second record's data (header 24 + record 16+len(tcp) + 16 + 10 bytes)
open(t + '/cut.pcap', 'wb').write(mix[:24 + 16 + len(tcp) + 16 + 10])
# cut inside the second record's header: 8 bytes of it
open(t + '/cuthdr.pcap', 'wb').write(mix[:24 + 16 + len(tcp) + 8])
with open(t + '/big.pcap', 'wb') as f:
    f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1))
    f.write(struct.pack('<IIII', 0, 0, len(tcp), len(tcp)) + tcp)
    f.write(struct.pack('<IIII', 0, 0, 70000, 70000) + tcp + b'\x00' * (70000 - len(tcp)))
print(24 + 16 + len(tcp), file=open(t + '/rec2.off', 'w'))
EOF

EX=$BG_EXAMPLES
if [ ! -f "$EX/xdp_parse.bpf.o" ]; then
  skip run/examples "no built examples in $EX"
else
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --packet "$T/tcp.bin" 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *XDP_PASS* ]] && [[ "$out" == *"map proto_counts"* ]] \
    && pass run/xdp-text || fail run/xdp-text "rc=$rc $out"
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --packet "$T/tcp.bin" --json 2>&1); rc=$?
  if [ $rc -eq 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["verdict"] == "accepted" and d["action"] == "XDP_PASS" and d["r0"] == 2, d
assert d["object"] and d["program"] == "xdp_parse" and d["type"] and d["section"], d
assert d["insns"] > 10 and d["map_changes"], d
'; then pass run/xdp-json; else fail run/xdp-json "rc=$rc $out"; fi
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/mix.pcap" 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *"4 packets"* ]] && [[ "$out" == *XDP_PASS* ]] \
    && pass run/pcap || fail run/pcap "rc=$rc $out"
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/mix.pcap" --json 2>&1); rc=$?
  if [ $rc -eq 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["packets"] == 4 and sum(d["actions"].values()) == 4, d'; then pass run/pcap-json
  else fail run/pcap-json "rc=$rc $out"; fi
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/bad.pcap" 2>&1); rc=$?
  [ $rc -eq 2 ] && [[ "$out" == *bad.pcap*offset* ]] && pass run/bad-pcap || fail run/bad-pcap "rc=$rc $out"
  off2=$(cat "$T/rec2.off")
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/cut.pcap" 2>&1); rc=$?
  [ $rc -eq 2 ] && [[ "$out" == *"cut.pcap: offset $off2: record 2: truncated"* ]] \
    && pass run/truncated-pcap-record || fail run/truncated-pcap-record "rc=$rc $out"
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/cuthdr.pcap" --json 2>&1); rc=$?
  [ $rc -eq 2 ] && [[ "$out" == *"cuthdr.pcap: offset $off2: record 2: truncated"* ]] \
    && pass run/truncated-pcap-header || fail run/truncated-pcap-header "rc=$rc $out"
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/big.pcap" 2>&1); rc=$?
  [ $rc -eq 2 ] && [[ "$out" == *"big.pcap: offset $off2: record 2: packet of 70000 bytes is too large"* ]] \
    && pass run/pcap-packet-too-large || fail run/pcap-packet-too-large "rc=$rc $out"
  out=$(cat "$T/mix.pcap" | "$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap /dev/stdin 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *"4 packets"* ]] && pass run/pcap-from-pipe || fail run/pcap-from-pipe "rc=$rc $out"
  out=$("$BPFGATE" run "$EX/socket_dns.bpf.o" --packet "$T/dns.bin" 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *"map dns_seen"* ]] && pass run/socket-filter || fail run/socket-filter "rc=$rc $out"
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --packet "$T/tcp.bin" --repeat 1000 --no-sanitize 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *"proto_counts key 01000000: 0000000000000000 -> e803000000000000"* ]] \
    && pass run/repeat || fail run/repeat "rc=$rc $out"
  out=$("$BPFGATE" run "$EX/xdp_parse.bpf.o" --prog nosuch --packet "$T/tcp.bin" 2>&1); rc=$?
  [ $rc -eq 2 ] && pass run/no-such-prog || fail run/no-such-prog "rc=$rc $out"
  out=$("$BPFGATE" run "$T/tcp.bin" 2>&1); rc=$?
  [ $rc -eq 2 ] && pass run/not-an-object || fail run/not-an-object "rc=$rc $out"
fi

# ---- a sanitizer report names the source line ----
cat >"$T/oob.bpf.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("xdp")
int oob(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	return data[100]; /* no bounds check: the kernel rejects this */
}
char LICENSE[] SEC("license") = "GPL";
EOF
CL=$(command -v clang-14 || command -v clang || true)
if [ -z "$CL" ]; then
  skip run/oob-report "no clang"
else
  "$CL" -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c "$T/oob.bpf.c" -o "$T/oob.bpf.o" 2>"$T/cc.err"
  out=$("$BPFGATE" run "$T/oob.bpf.o" --packet "$T/tcp.bin" 2>&1); rc=$?
  [ $rc -eq 1 ] && [[ "$out" == *oob.bpf.c:7:* ]] && [[ "$out" == *"past the end of packet"* ]] \
    && pass run/oob-report || fail run/oob-report "rc=$rc $out"
  out=$("$BPFGATE" run "$T/oob.bpf.o" --packet "$T/tcp.bin" --no-sanitize 2>&1); rc=$?
  [ $rc -eq 1 ] && [[ "$out" == *"past the end of packet"* ]] \
    && pass run/oob-no-sanitize || fail run/oob-no-sanitize "rc=$rc $out"
fi

# ---- the loop's region cache keeps the sanitizer exact ----
# A first access to a map value caches its region; the next element, a ringbuf
# record after submit and an atomic add past the value must still be reported
# (sanitizing on and off).
cat >"$T/cache.bpf.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 4);
	 __type(key, __u32); __type(value, __u64); } arr SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_RINGBUF); __uint(max_entries, 4096); } rb SEC(".maps");
SEC("xdp")
int next_elem(struct xdp_md *ctx)
{
	__u32 k = 0;
	volatile __u64 *p = bpf_map_lookup_elem(&arr, &k);
	if (!p)
		return 0;
	p[0] = 1;
	p[1] = 2; /* element 1: another region */
	return 2;
}
SEC("xdp")
int after_submit(struct xdp_md *ctx)
{
	volatile __u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return 0;
	*r = 1;
	bpf_ringbuf_submit((void *)r, 0);
	*r = 2; /* the record is gone */
	return 2;
}
SEC("xdp")
int atomic_past(struct xdp_md *ctx)
{
	__u32 k = 3;
	__u64 *p = bpf_map_lookup_elem(&arr, &k);
	if (!p)
		return 0;
	__sync_fetch_and_add(p, 1);
	__sync_fetch_and_add(p + 1, 1); /* past the last element */
	return 2;
}
char LICENSE[] SEC("license") = "GPL";
EOF
if [ -z "$CL" ]; then
  skip run/cache "no clang"
elif ! "$CL" -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c "$T/cache.bpf.c" -o "$T/cache.bpf.o" 2>"$T/cc.err"; then
  fail run/cache "compile: $(head -3 "$T/cc.err")"
else
  for prog in next_elem after_submit atomic_past; do
    want="past the end of map value"
    [ $prog = after_submit ] && want="already submitted or discarded"
    for mode in "" --no-sanitize; do
      out=$("$BPFGATE" run "$T/cache.bpf.o" --prog $prog --packet "$T/tcp.bin" $mode 2>&1); rc=$?
      [ $rc -eq 1 ] && [[ "$out" == *"of 8 bytes at"*"$want"* ]] && [[ "$out" == *cache.bpf.c:* ]] \
        && pass "run/cache/$prog${mode:+-nosan}" || fail "run/cache/$prog${mode:+-nosan}" "rc=$rc $out"
    done
  done
fi

# ---- helper programs (tests/data/vm/progs) ----
if [ -n "$CL" ]; then
  mkdir -p "$T/progs"
  ok=1
  CL19=$(command -v clang-19 || true)
  for f in "$BG_ROOT"/tests/data/vm/progs/*.bpf.c; do
    cc=$CL # kfunc calls need clang >= 15 (BTF for extern functions)
    [[ $f == *iter* ]] && [ -n "$CL19" ] && cc=$CL19
    "$cc" -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c "$f" \
      -o "$T/progs/$(basename "${f%.c}").o" 2>"$T/cc.err" || { ok=0; fail progs/compile "$f: $(head -3 "$T/cc.err")"; }
  done
  [ $ok = 1 ] && pass progs/compile
  [ -n "$CL19" ] || skip progs/iter-num "clang-19 not installed: xdp_iter_num runs without kfuncs"
  python3 - "$T" <<'EOF'
import struct, sys
t = sys.argv[1]
regs = bytearray(168)                      # struct pt_regs, rsi at offset 104
regs[104:112] = struct.pack('<Q', 0xffff888000001000)
open(t + '/regs.bin', 'wb').write(regs)
open(t + '/name.bin', 'wb').write(b'/etc/passwd\0garbage')
open(t + '/even.bin', 'wb').write(b'\x02' + b'\0' * 20)
open(t + '/odd.bin', 'wb').write(b'\x03' + b'\0' * 20)
EOF
  P="$T/progs"
  out=$("$BPFGATE" run "$P/kp_helpers.bpf.o" --ctx "$T/regs.bin" --mem 0xffff888000001000="$T/name.bin" 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *"open /etc/passwd by bpfgate n=12"* ]] && [[ "$out" == *"r0 = 12 "* ]] \
    && [[ "$out" == *"record 0 (map rb, 20 bytes)"* ]] && [[ "$out" == *"record 2 (map pe, 8 bytes)"* ]] \
    && pass helpers/probe-read-printk-ringbuf-perf || fail helpers/probe-read-printk-ringbuf-perf "rc=$rc $out"
  out=$("$BPFGATE" run "$P/kp_helpers.bpf.o" --ctx "$T/regs.bin" 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *"n=-14"* ]] && pass helpers/probe-read-efault || fail helpers/probe-read-efault "rc=$rc $out"
  out=$("$BPFGATE" run "$P/xdp_tail.bpf.o" --prog dispatch --packet "$T/even.bin" 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *XDP_PASS* ]] && pass tailcall/empty-slot || fail tailcall/empty-slot "rc=$rc $out"
  out=$("$BPFGATE" run "$P/xdp_tail.bpf.o" --prog dispatch --packet "$T/even.bin" --prog-array jmp:0=tail_a 2>&1); rc=$?
  [ $rc -eq 0 ] && [[ "$out" == *XDP_TX* ]] && pass tailcall/jump || fail tailcall/jump "rc=$rc $out"
  out=$("$BPFGATE" run "$P/xdp_tail.bpf.o" --prog dispatch --packet "$T/odd.bin" --prog-array jmp:1=tail_b --json 2>&1); rc=$?
  if [ $rc -eq 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
# dispatch (~10 insns) + 33 chained tail calls of tail_b (3 insns each), then fall through
assert d["action"] == "XDP_DROP" and 100 <= d["insns"] <= 120, d'; then pass tailcall/limit-33
  else fail tailcall/limit-33 "rc=$rc $out"; fi
  out=$("$BPFGATE" run "$P/xdp_tail.bpf.o" --prog dispatch --packet "$T/odd.bin" --prog-array jmp:1=nosuch 2>&1); rc=$?
  [ $rc -eq 2 ] && pass tailcall/bad-prog || fail tailcall/bad-prog "rc=$rc $out"
  # the packet-changing programs against the kernel
  if kernel_ok; then
    BG_EXAMPLES="$P" BG_CORPUS=/nonexistent BG_VM_DIFF_PREFIX=progs "$BG_BUILD/tests/test_vm_diff" 2>&1 \
      | grep -E '^(PASS|FAIL|SKIP|XFAIL) '
  else
    skip progs/kernel-diff "bpf() unavailable"
  fi
else
  skip progs "no clang"
fi
exit 0
