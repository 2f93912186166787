#!/usr/bin/env bash
# Output contracts of the CLI (issue 12), each reproduced as its reporter did:
# JSON is valid UTF-8 JSON whatever the object holds, text is terminal-safe,
# an error in --json mode is one JSON error object, SARIF records a failed
# run, run/cov refuse inputs they cannot use, captures go through libpcap,
# option values that are options are refused, cov run survives refused
# inputs and signals, cc reports a missing source as a compile error, bad
# objects say where, loop paths are folded. Ends with the name fuzz
# (tests/robust_fuzz.py): hostile names over every --json subcommand.
# min-pass: 66 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
source "$(dirname "$0")/lib/common.sh"
T=$(mktemp -d /tmp/bg-robust.XXXXXX)
trap 'rm -rf "$T"' EXIT
EX=$BG_EXAMPLES
PATCH="python3 $BG_ROOT/tests/lib/elfpatch.py"
need_kernel() { # NAME: true when bpf() works; else SKIP (FAIL under CI=true)
  kernel_ok && return 0
  if [ "${CI:-}" = true ]; then fail "$1" "bpf() unavailable under CI"; else skip "$1" "bpf() unavailable"; fi
  return 1
}
# json_ok FILE [PY-EXPR on d]: FILE is one strict-UTF-8 JSON value (and EXPR holds)
json_ok() {
  python3 - "$1" "${2:-True}" <<'EOF'
import json, sys
raw = open(sys.argv[1], 'rb').read()
d = json.loads(raw.decode('utf-8'))
ok = eval('(' + sys.argv[2] + ')')
sys.exit(0 if ok else 1)
EOF
}
# no raw control bytes (C0 but \n and \t, DEL, C1) and valid UTF-8
term_safe() {
  python3 - "$1" <<'EOF'
import sys
t = open(sys.argv[1], 'rb').read().decode('utf-8')
bad = [c for c in t if (ord(c) < 32 and c not in '\n\t') or 0x7f <= ord(c) <= 0x9f]
sys.exit(1 if bad else 0)
EOF
}
err_shape='isinstance(d, dict) and set(d) == {"error"} and set(d["error"]) == {"command", "file", "offset", "message", "exit_code"} and d["error"]["exit_code"] == 2'
arr_err='any(isinstance(x, dict) and "error" in x and x["error"]["exit_code"] == 2 for x in d)'

# ---- 1. --json is valid UTF-8 JSON: bytes that are not UTF-8 become U+FFFD ----
$PATCH license "$EX/xdp_count.bpf.o" "$T/lic.o" ffbf1b
"$BPFGATE" list "$T/lic.o" --json >"$T/o" 2>&1
json_ok "$T/o" 'd["license"] == "\ufffd\ufffd\x1b"' && pass robust/json-license-not-utf8 \
  || fail robust/json-license-not-utf8 "$(head -c 300 "$T/o")"
# valid UTF-8 (here: é) is kept as is
$PATCH license "$EX/xdp_count.bpf.o" "$T/lic2.o" c3a958
"$BPFGATE" list "$T/lic2.o" --json >"$T/o" 2>&1
json_ok "$T/o" 'd["license"] == "\u00e9X"' && pass robust/json-utf8-kept || fail robust/json-utf8-kept "$(head -c 300 "$T/o")"

# ---- 2. terminal-safe text: ESC, OSC, BEL, newline, C1, bad bytes escaped ----
hostile=$(printf '\x1b]0;X\x07\n\x9b\xff' | od -An -tx1 | tr -d ' \n')  # 9 bytes, as "xdp_count"
$PATCH rename "$EX/xdp_count.bpf.o" "$T/evil.o" xdp_count "$hostile"
for c in list check disasm; do
  "$BPFGATE" $c "$T/evil.o" >"$T/o" 2>&1
  if term_safe "$T/o" && grep -qF '\x1b]0;X\x07\n\x9b\xff' "$T/o"; then pass "robust/text-safe-$c"
  else fail "robust/text-safe-$c" "$(head -c 300 "$T/o" | od -c | head -5)"; fi
done
if need_kernel robust/text-safe-kload; then
  "$BPFGATE" kload "$T/evil.o" >"$T/o" 2>&1
  term_safe "$T/o" && grep -qF '\x1b]0;X' "$T/o" && pass robust/text-safe-kload \
    || fail robust/text-safe-kload "$(head -c 300 "$T/o" | od -c | head -5)"
fi
"$BPFGATE" list "$T/evil.o" --json >"$T/o" 2>&1
json_ok "$T/o" 'd["programs"][0]["program"] == "\x1b]0;X\x07\n\ufffd\ufffd"' && term_safe "$T/o" \
  && pass robust/json-control-escaped || fail robust/json-control-escaped "$(head -c 300 "$T/o")"

# ---- 3. in --json mode an error is one JSON object on stdout, exit code kept ----
printf 'not an object' >"$T/bad.o"
printf 'r0 = 1\nbogus\n' >"$T/bad.s"
jerr() { # NAME SHAPE CMD...: exit 2, stdout one JSON value matching SHAPE
  local name=$1 shape=$2; shift 2
  "$@" >"$T/o" 2>"$T/e"; local rc=$?
  if [ $rc -eq 2 ] && json_ok "$T/o" "$shape"; then pass "$name"
  else fail "$name" "rc=$rc out=$(head -c 200 "$T/o") err=$(head -c 200 "$T/e")"; fi
}
jerr robust/json-error-list "$err_shape and d['error']['file'] == '$T/bad.o' and d['error']['offset'] == 0" \
  "$BPFGATE" list "$T/bad.o" --json
jerr robust/json-error-disasm "$err_shape" "$BPFGATE" disasm "$T/bad.o" --json
jerr robust/json-error-run "$err_shape" "$BPFGATE" run "$T/bad.o" --json
jerr robust/json-error-asm "$err_shape and d['error']['file'] == '$T/bad.s'" "$BPFGATE" asm "$T/bad.s" -o "$T/x.o" --json
jerr robust/json-error-cov-run "$err_shape and d['error']['command'] == 'cov'" \
  "$BPFGATE" cov run "$T/bad.o" --vm --input "$T/bad.o" --json
jerr robust/json-error-check "$arr_err" "$BPFGATE" check "$T/bad.o" --json
jerr robust/json-error-check-mixed "$arr_err and any('verdict' in x for x in d)" \
  "$BPFGATE" check "$T/bad.o" "$EX/xdp_count.bpf.o" --json
jerr robust/json-error-kload "$arr_err" "$BPFGATE" kload "$T/bad.o" --json
jerr robust/json-error-usage "$err_shape" "$BPFGATE" list --btf --json "$T/bad.o"
mkdir -p "$T/cdir"; cp "$T/bad.o" "$T/cdir/"
jerr robust/json-error-corpus "$err_shape" "$BPFGATE" corpus "$T/nonexistent-dir" --json

# ---- 4. SARIF: a failed run is recorded; URIs percent-encoded; real informationUri ----
"$BPFGATE" check "$T/bad.o" --sarif >"$T/o" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && json_ok "$T/o" 'd["runs"][0]["invocations"][0]["executionSuccessful"] is False and
  len(d["runs"][0]["invocations"][0]["toolExecutionNotifications"]) == 1 and
  d["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["level"] == "error"' \
  && pass robust/sarif-unreadable || fail robust/sarif-unreadable "rc=$rc $(head -c 400 "$T/o")"
"$BPFGATE" check "$EX/xdp_count.bpf.o" --sarif >"$T/o" 2>/dev/null
json_ok "$T/o" 'd["runs"][0]["invocations"][0]["executionSuccessful"] is True and
  d["runs"][0]["tool"]["driver"]["informationUri"].startswith(("file:///", "https://")) and
  "example" not in d["runs"][0]["tool"]["driver"]["informationUri"]' \
  && pass robust/sarif-ok-run || fail robust/sarif-ok-run "$(head -c 400 "$T/o")"
mkdir -p "$T/dir with space"
printf 'exit\n' >"$T/rej.s"   # r0 never set: rejected
"$BPFGATE" asm "$T/rej.s" -o "$T/dir with space/ü%.o" >/dev/null 2>&1
"$BPFGATE" check "$T/dir with space/ü%.o" --sarif >"$T/o" 2>/dev/null; rc=$?
want="file://${T// /%20}/dir%20with%20space/%C3%BC%25.o"
[ $rc -eq 1 ] && json_ok "$T/o" \
  "d['runs'][0]['results'][0]['locations'][0]['physicalLocation']['artifactLocation']['uri'] == '$want'" \
  && pass robust/sarif-uri-encoded || fail robust/sarif-uri-encoded "rc=$rc want $want: $(grep '"uri"' "$T/o")"

# ---- 5. run: read errors are errors; inputs the type has no use for refused ----
mkdir -p "$T/pktdir"
runerr() { # NAME WANT-IN-STDERR CMD...
  local name=$1 want=$2; shift 2
  "$@" >"$T/o" 2>"$T/e"; local rc=$?
  [ $rc -eq 2 ] && grep -q -- "$want" "$T/e" && pass "$name" || fail "$name" "rc=$rc $(head -c 300 "$T/e")"
}
runerr robust/run-packet-dir "Is a directory" "$BPFGATE" run "$EX/xdp_count.bpf.o" --packet "$T/pktdir"
runerr robust/run-packet-unreadable "No such file" "$BPFGATE" run "$EX/xdp_count.bpf.o" --packet "$T/nodir/p"
runerr robust/run-ctx-dir "Is a directory" "$BPFGATE" run "$EX/kprobe_openat.bpf.o" --ctx "$T/pktdir"
printf '\x00\x01\x02\x03\x04\x05\x00\x01\x02\x03\x04\x05\x08\x00' >"$T/eth.bin"
runerr robust/run-packet-on-kprobe "has no packet" "$BPFGATE" run "$EX/kprobe_openat.bpf.o" --packet "$T/eth.bin"
"$BPFGATE" run "$EX/xdp_count.bpf.o" --packet "$T/eth.bin" --ctx "$T/eth.bin" >"$T/o" 2>"$T/e"; rc=$?
[ $rc -eq 0 ] && grep -q "warning: --ctx on an XDP program" "$T/e" && pass robust/run-ctx-on-xdp-warns \
  || fail robust/run-ctx-on-xdp-warns "rc=$rc $(cat "$T/e")"

# captures through libpcap: pcap and pcapng, Ethernet / cooked SLL, SLL2 / raw IP / 802.11
python3 - "$T" <<'EOF'
import struct, sys
t = sys.argv[1]
ip = bytes.fromhex('4500001c000100004011' '0000' 'c0a8010a' 'c0a80114' '303900350008' '0000')
tcp = bytes.fromhex('45000028000100004006' '0000' 'c0a8010a' 'c0a80114') + bytes(20)
ip6 = bytes.fromhex('6000000000083a40') + bytes(32) + bytes.fromhex('8000000000000000')
src = bytes.fromhex('020000000001')
eth = lambda l3, et=0x0800: bytes(6) + src + struct.pack('>H', et) + l3
frames = [(ip, 0x0800), (tcp, 0x0800), (ip6, 0x86dd)]
def pcap(name, linktype, recs):
    with open(t + '/' + name, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype))
        for r in recs:
            f.write(struct.pack('<IIII', 0, 0, len(r), len(r)) + r)
def pcapng(name, linktype, recs):
    def block(typ, body):
        n = 12 + len(body) + (-len(body) % 4)
        return struct.pack('<II', typ, n) + body + bytes(-len(body) % 4) + struct.pack('<I', n)
    out = block(0x0a0d0d0a, struct.pack('<IHHq', 0x1a2b3c4d, 1, 0, -1))
    out += block(1, struct.pack('<HHI', linktype, 0, 65535))
    for r in recs:
        out += block(6, struct.pack('<IIIII', 0, 0, 0, len(r), len(r)) + r + bytes(-len(r) % 4))
    open(t + '/' + name, 'wb').write(out)
pcap('eth.pcap', 1, [eth(l3, et) for l3, et in frames])
pcapng('eth.pcapng', 1, [eth(l3, et) for l3, et in frames])
sll = lambda l3, et: struct.pack('>HHH', 0, 1, 6) + src + bytes(2) + struct.pack('>H', et) + l3
pcap('sll.pcap', 113, [sll(l3, et) for l3, et in frames])
sll2 = lambda l3, et: struct.pack('>HHIHBB', et, 0, 1, 1, 0, 6) + src + bytes(2) + l3
pcap('sll2.pcap', 276, [sll2(l3, et) for l3, et in frames])
pcap('raw.pcap', 101, [l3 for l3, et in frames])
pcap('wifi.pcap', 105, [bytes(24) + ip])
pcap('sll-llc.pcap', 113, [struct.pack('>HHH', 0, 1, 6) + src + bytes(2) + struct.pack('>H', 4) + ip])
EOF
pcap_run() { "$BPFGATE" run "$1" --pcap "$2" --json 2>"$T/e"; }
pcap_run "$EX/xdp_parse.bpf.o" "$T/eth.pcap" >"$T/eth.json"; rc=$?
[ $rc -eq 0 ] && json_ok "$T/eth.json" 'd["packets"] == 3 and d["faults"] == 0' && pass robust/pcap-ethernet \
  || fail robust/pcap-ethernet "rc=$rc $(cat "$T/e") $(head -c 300 "$T/eth.json")"
for f in eth.pcapng sll.pcap sll2.pcap; do
  pcap_run "$EX/xdp_parse.bpf.o" "$T/$f" >"$T/x.json"; rc=$?
  if [ $rc -eq 0 ] && python3 -c 'import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); sys.exit(a["actions"]!=b["actions"] or a["insns"]!=b["insns"] or a["packets"]!=3)' \
       "$T/eth.json" "$T/x.json"; then pass "robust/pcap-$f-same-as-ethernet"
  else fail "robust/pcap-$f-same-as-ethernet" "rc=$rc $(cat "$T/e") $(head -c 300 "$T/x.json")"; fi
done
runerr robust/pcap-raw-ip-on-xdp "link type RAW.*refused: raw IP has no link-layer header" \
  "$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/raw.pcap"
"$BPFGATE" run "$EX/socket_dns.bpf.o" --pcap "$T/raw.pcap" --json >"$T/o" 2>"$T/e"; rc=$?
[ $rc -eq 0 ] && json_ok "$T/o" 'd["packets"] == 3' && pass robust/pcap-raw-ip-on-socket-filter \
  || fail robust/pcap-raw-ip-on-socket-filter "rc=$rc $(cat "$T/e")"
runerr robust/pcap-80211-refused "link type IEEE802_11 (105) refused" \
  "$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/wifi.pcap"
runerr robust/pcap-sll-not-ethertype "record 1: cooked capture protocol 0x0004 is not an EtherType" \
  "$BPFGATE" run "$EX/xdp_parse.bpf.o" --pcap "$T/sll-llc.pcap"

# ---- 6. cov run: refused inputs reported, the others counted; --help; signals ----
"$BPFGATE" cov run --help >"$T/o" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "usage: bpfgate cov run" "$T/o" && pass robust/cov-run-help || fail robust/cov-run-help "rc=$rc"
head -c 64 /dev/zero >"$T/long.bin"; head -c 10 /dev/zero >"$T/short.bin"
if need_kernel robust/cov-run-refused-input; then
  "$BPFGATE" cov run "$EX/xdp_count.bpf.o" --input "$T/long.bin" --input "$T/short.bin" --input "$T/long.bin" \
    -o "$T/c.info" --json >"$T/o" 2>"$T/e"; rc=$?
  # the entry block ran twice (two 64-byte frames), the 10-byte one was refused and reported
  if [ $rc -eq 1 ] && grep -q "input 1 refused by BPF_PROG_TEST_RUN" "$T/e" \
     && json_ok "$T/o" 'd[0]["refused_inputs"] == [{"input": 1, "errno": 22, "message": "Invalid argument"}] and max(c["count"] for c in d[0]["counters"]) == 2' \
     && grep -q '^DA:[0-9]*,2$' "$T/c.info"; then pass robust/cov-run-refused-input
  else fail robust/cov-run-refused-input "rc=$rc $(head -c 300 "$T/e")"; fi
fi
proc_gone() { # PID: no such process, or a zombie waiting for init
  local s; s=$(ps -o stat= -p "$1" 2>/dev/null); [ -z "$s" ] || [[ "$s" == Z* ]]
}
if need_kernel robust/cov-run-sigterm; then
  "$BPFGATE" cov run "$EX/tp_syscall_count.bpf.o" -o "$T/t.info" -- \
    sh -c "echo \$\$ >'$T/child.pid'; while :; do cat /dev/null; sleep 0.05; done" >"$T/o" 2>"$T/e" &
  bp=$!
  for _ in $(seq 50); do [ -s "$T/child.pid" ] && break; sleep 0.1; done
  sleep 1
  kill -TERM $bp; wait $bp; rc=$?
  sleep 0.3
  if [ $rc -eq 0 ] && grep -q "writing the counts gathered so far" "$T/e" && grep -q '^DA:[0-9]*,[1-9]' "$T/t.info" \
     && proc_gone "$(cat "$T/child.pid")"; then pass robust/cov-run-sigterm
  else fail robust/cov-run-sigterm "rc=$rc $(tail -c 300 "$T/e")"; fi
  rm -f "$T/child.pid"
  "$BPFGATE" cov run "$EX/tp_syscall_count.bpf.o" -o "$T/t2.info" -- \
    sh -c "echo \$\$ >'$T/child.pid'; while :; do sleep 0.05; done" >/dev/null 2>&1 &
  bp=$!
  for _ in $(seq 50); do [ -s "$T/child.pid" ] && break; sleep 0.1; done
  kill -KILL $bp; wait $bp 2>/dev/null
  sleep 0.3
  cpid=$(cat "$T/child.pid")
  if proc_gone "$cpid"; then pass robust/cov-run-sigkill-no-orphan
  else fail robust/cov-run-sigkill-no-orphan "command $cpid still running"; kill -KILL "$cpid"; fi
fi

# ---- 8. option values that look like options ----
runerr robust/option-value-is-option "--prog needs a value, got the option '--packet'" \
  "$BPFGATE" run "$EX/xdp_count.bpf.o" --prog --packet "$T/eth.bin"
runerr robust/option-value-is-option-check "--prog needs a value, got the option '--json'" \
  "$BPFGATE" check "$EX/xdp_count.bpf.o" --prog --json
runerr robust/option-value-missing "--prog needs a value" "$BPFGATE" disasm "$EX/xdp_count.bpf.o" --prog

# ---- 7. cc: a missing source is a compile error (clang's message, exit 2, no fix search) ----
if command -v clang-19 >/dev/null || command -v clang-14 >/dev/null; then
  (cd "$T" && "$BPFGATE" cc -c missing.c >"$T/o" 2>"$T/e"); rc=$?
  if [ $rc -eq 2 ] && grep -q "no such file or directory: 'missing.c'" "$T/e" && grep -q "compile error" "$T/e" \
     && ! grep -q "rejected by\|no fix found" "$T/e"; then pass robust/cc-missing-source
  else fail robust/cc-missing-source "rc=$rc $(head -c 400 "$T/e")"; fi
else skip robust/cc-missing-source "no clang"; fi

# ---- 8. truncated ELF says so, with the offset; malformed .BTF is a warning; magic first ----
size=$(stat -c %s "$EX/xdp_count.bpf.o")
for cut in $((size - 1)) $((size / 2)) 64; do
  head -c $cut "$EX/xdp_count.bpf.o" >"$T/cut.o"
  "$BPFGATE" list "$T/cut.o" --json >"$T/o" 2>"$T/e"; rc=$?
  if [ $rc -eq 2 ] && grep -q "truncated: the section header table at offset 0x[0-9a-f]*.*ends past the end of the file ($cut bytes)" "$T/e" \
     && json_ok "$T/o" "$err_shape and d['error']['offset'] > 0"; then pass "robust/truncated-$cut"
  else fail "robust/truncated-$cut" "rc=$rc $(cat "$T/e")"; fi
done
python3 - "$EX/kprobe_exec_stats.bpf.o" "$T/badbtf.o" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28); shnum, shstr = struct.unpack_from('<HH', d, 0x3c)
sh = [struct.unpack_from('<IIQQQQ', d, shoff + 64 * i) for i in range(shnum)]
def nm(i):
    o = sh[shstr][4] + sh[i][0]; return d[o:d.index(b'\0', o)].decode()
b = next(i for i in range(shnum) if nm(i) == '.BTF')
hdr_len, = struct.unpack_from('<I', d, sh[b][4] + 4)
struct.pack_into('<I', d, sh[b][4] + hdr_len + 4, 31 << 24)   # type 1: kind 31 (none such)
open(sys.argv[2], 'wb').write(d)
PY
"$BPFGATE" list "$T/badbtf.o" >"$T/o" 2>"$T/e"; rc=$?
if [ $rc -eq 0 ] && grep -q "kprobe_exec_stats" "$T/o" && grep -q "warning: $T/badbtf.o: section [0-9]* (.BTF) at offset 0x[0-9a-f]*: malformed BTF" "$T/e"; then
  pass robust/malformed-btf-warning; else fail robust/malformed-btf-warning "rc=$rc $(cat "$T/e")"; fi
"$BPFGATE" list "$T/badbtf.o" --json >"$T/o" 2>/dev/null
json_ok "$T/o" 'd["btf"] is False and "malformed BTF" in d["btf_error"] and len(d["programs"]) == 1' \
  && pass robust/malformed-btf-json || fail robust/malformed-btf-json "$(head -c 300 "$T/o")"
"$BPFGATE" check "$T/badbtf.o" >"$T/o" 2>"$T/e"; rc=$?
[ $rc -eq 0 ] && grep -q "accepted" "$T/o" && grep -q "warning:.*malformed BTF" "$T/e" \
  && pass robust/malformed-btf-check || fail robust/malformed-btf-check "rc=$rc $(cat "$T/e")"
# a 200 MB file that is not ELF: refused after its magic, without reading it (max RSS)
truncate -s 200M "$T/big.bin"
rss=$(python3 -c '
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], capture_output=True)
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$BPFGATE" list "$T/big.bin")
read -r rc kb <<<"$rss"
[ "$rc" = 2 ] && [ "$kb" -lt 100000 ] && pass robust/magic-first-200mb \
  || fail robust/magic-first-200mb "exit $rc, max RSS $kb KiB (a 200 MB non-ELF must not be read)"
rm -f "$T/big.bin"

# ---- 9. loop paths folded; cov maps instrumented insn numbers back ----
python3 -c "
print('r1 = *(u32 *)(r1 + 12)'); print('r2 = 0')
for i in range(64): print('if r1 == 0 goto +1'); print('r2 += 1')
print('r0 = *(u32 *)(r2 + 0)'); print('exit')" >"$T/unrolled.s"
"$BPFGATE" asm "$T/unrolled.s" -o "$T/unrolled.o" >/dev/null 2>&1
"$BPFGATE" check "$T/unrolled.o" >"$T/o" 2>&1; rc=$?
lines=$(grep -c "if r1 == 0 goto +1" "$T/o")
[ $rc -eq 1 ] && [ "$lines" -eq 1 ] && grep -q "x64 (insns 2-128), each time:" "$T/o" && pass robust/check-path-folded \
  || fail robust/check-path-folded "rc=$rc, $lines path lines: $(head -c 400 "$T/o")"
"$BPFGATE" check "$T/unrolled.o" --json >"$T/o" 2>/dev/null
json_ok "$T/o" 'len(d[0]["diagnostic"]["path"]) == 64' && pass robust/check-path-json-whole \
  || fail robust/check-path-json-whole "$(head -c 300 "$T/o")"
printf 'r1 = 0\nexit\n' >"$T/r0.s"; "$BPFGATE" asm "$T/r0.s" -o "$T/r0.o" >/dev/null 2>&1
if need_kernel robust/cov-insn-numbers; then
  "$BPFGATE" cov stats "$T/r0.o" >"$T/o" 2>&1
  # the kernel rejects `exit` (insn 1) of the instrumented build at its own insn number
  grep -q "insn 1 (instrumented [0-9]*): R0 !read_ok" "$T/o" && pass robust/cov-insn-numbers \
    || fail robust/cov-insn-numbers "$(cat "$T/o")"
fi

# ---- the name fuzz: hostile names over every --json subcommand ----
python3 "$BG_ROOT/tests/robust_fuzz.py" --bpfgate "$BPFGATE" --examples "$EX" --work "$T/fuzz" \
  --mutants "${BG_ROBUST_MUTANTS:-12}" $(kernel_ok && echo --kernel)
