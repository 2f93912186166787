#!/usr/bin/env bash
# Interpreter speed: instructions per second on a packet parser (examples
# xdp_parse, xdp_flowtrack on a TCP frame) and on an ALU-heavy loop
# (bench/vm_alu.bpf.c), sanitizing on and off, side by side with the kernel's
# BPF_PROG_TEST_RUN time per run on the same program and input (JIT on);
# byte_loop is examples/xdp_payload_sum summing the 64 payload bytes of a UDP
# frame (a loop over packet bytes). Each figure is the best of 5 timings
# (CPU time of the thread): load from other users only adds time.
# Writes $BG_BUILD/bench/vm.txt.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${BG_BUILD:-$root/build}
out="$B/bench/vm.txt"
mkdir -p "$B/bench"
tmp=$(mktemp -d /tmp/bg-vm-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
CL=$(command -v clang-14 || command -v clang)
"$CL" -O2 -g -target bpf -I"$B" -I/usr/include/x86_64-linux-gnu -c "$root/bench/vm_alu.bpf.c" \
  -o "$tmp/vm_alu.bpf.o" || { echo "vm bench: cannot compile vm_alu.bpf.c"; exit 1; }
gcc -O2 -std=gnu11 -I"$root/include" -o "$tmp/vm_bench" "$root/bench/vm_bench.c" "$B/libbpfgate.a" \
  $(pkg-config --libs libbpf libelf zlib 2>/dev/null || echo -lbpf -lelf -lz) -lm -lpthread \
  || { echo "vm bench: cannot build the harness"; exit 1; }
python3 - "$tmp" <<'PY'
import struct, sys
eth = bytes.fromhex('020000000002' '020000000001' '0800')
h = bytearray(bytes.fromhex('45000000123400004006' '0000' 'c0a8010a' 'c0a80114'))
l4 = bytes.fromhex('c3500050000000010000000050027210000000000000') + b'a' * 20
h[2:4] = struct.pack('>H', 20 + len(l4))
open(sys.argv[1] + '/tcp.bin', 'wb').write(eth + bytes(h) + l4)
# UDP with a 64-byte payload: xdp_payload_sum loops over every payload byte
u = bytearray(bytes.fromhex('45000000123400004011' '0000' 'c0a8010a' 'c0a80114'))
l4 = bytes.fromhex('c35000350048' '0000') + bytes(range(64))
u[2:4] = struct.pack('>H', 20 + len(l4))
open(sys.argv[1] + '/udp.bin', 'wb').write(eth + bytes(u) + l4)
PY
{
  echo "# vm bench $(date -u +%FT%TZ) $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  "$tmp/vm_bench" "$tmp/vm_alu.bpf.o" alu_loop "$tmp/tcp.bin" 200 alu_loop
  "$tmp/vm_bench" "$tmp/vm_alu.bpf.o" mem_loop "$tmp/tcp.bin" 200 mem_loop
  "$tmp/vm_bench" "$B/examples/xdp_parse.bpf.o" xdp_parse "$tmp/tcp.bin" 200000 xdp_parse
  "$tmp/vm_bench" "$B/examples/xdp_flowtrack.bpf.o" xdp_flowtrack "$tmp/tcp.bin" 200000 flowtrack
  "$tmp/vm_bench" "$B/examples/xdp_payload_sum.bpf.o" xdp_payload_sum "$tmp/udp.bin" 50000 byte_loop
} | tee "$out"
