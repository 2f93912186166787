# Branch hints (.bpfgate.hints) and the profile-guided build of bpfgate cc:
# hints from likely()/unlikely() in disasm, check --json and run --json (how
# often each was right, counted on packets built for it); the object still
# loads in the kernel; a profile from cov run drives a rebuild that the
# kernel and bpfgate check accept, with hints marked (profile); a stale
# profile (changed line, renamed function) is named; bad input exits 2.
# min-pass: 24 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
tmp=$(mktemp -d /tmp/bg-hints-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
src="$BG_ROOT/tests/data/hints/likely.bpf.c"
line_of() { grep -n "L:$1 " "$2" | cut -d: -f1; }
need_kernel() { # name: true when bpf() works; SKIP (FAIL under CI=true) otherwise
  kernel_ok && return 0
  if [ "${CI:-}" = true ]; then fail "$1" "bpf() refused under CI=true"; else skip "$1" "bpf() unavailable"; fi
  return 1
}

# 10 frames: 8 start with 0x45 (likely path), 2 with 0x60 and p[1] == 7
python3 - "$tmp/pk.pcap" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i in range(10):
        p = bytes([0x45 if i < 8 else 0x60, 7]) + bytes(58)
        f.write(struct.pack("<IIII", i, 0, len(p), len(p)) + p)
PY

for clang in clang-14 clang-19; do
  command -v "$clang" >/dev/null || { skip "hints/$clang" "$clang not installed"; continue; }
  obj="$tmp/likely-$clang.o"
  if ! "$BPFGATE" cc --hints --clang "$clang" -O2 -g -I/usr/include/x86_64-linux-gnu -c "$src" -o "$obj" 2>"$tmp/err"; then
    fail "hints/$clang/build" "$(tail -2 "$tmp/err")"; continue
  fi
  grep -q "3 branch hint(s) written" "$tmp/err" && pass "hints/$clang/report" || fail "hints/$clang/report" "$(cat "$tmp/err")"
  # section present, not allocated (flags column has no A)
  fl=$(readelf -S -W "$obj" | awk '$2 == ".bpfgate.hints" {print $8}')
  [ -n "$(readelf -S -W "$obj" | grep -F .bpfgate.hints)" ] && [[ "$fl" != *A* ]] \
    && pass "hints/$clang/section-not-allocated" || fail "hints/$clang/section-not-allocated" "flags '$fl'"
  "$BPFGATE" disasm --json "$obj" > "$tmp/d.json"
  python3 - "$tmp/d.json" "$(line_of bounds "$src")" "$(line_of likely "$src")" "$(line_of plain "$src")" <<'PY' \
    && pass "hints/$clang/disasm-json" || fail "hints/$clang/disasm-json" "hints wrong"
import json, sys
d = json.load(open(sys.argv[1]))["programs"][0]["insns"]
b, l, p = map(int, sys.argv[2:5])
h = {x["hint"]["line"]: x["hint"] for x in d if "hint" in x}
assert set(h) == {b, l, p}, h
assert h[b]["source"] == "expect" and h[l]["source"] == "expect" and h[p]["source"] == "static", h
# unlikely(bounds) and likely(p[0]) are extreme one way or the other; the plain test is not
assert min(h[b]["taken"], 1 - h[b]["taken"]) < 0.01 and min(h[l]["taken"], 1 - h[l]["taken"]) < 0.01, h
assert 0.05 < h[p]["taken"] < 0.95, h
PY
  "$BPFGATE" disasm "$obj" | grep -Eq "goto .*; (un)?likely taken (0\.00|1\.00) \(expect\)" \
    && pass "hints/$clang/disasm-text" || fail "hints/$clang/disasm-text" "$("$BPFGATE" disasm "$obj" | grep goto)"
  "$BPFGATE" check --json "$obj" | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
assert r["verdict"] == "accepted" and len(r["hints"]) == 3 and {h["source"] for h in r["hints"]} == {"expect", "static"}, r
' && pass "hints/$clang/check-json" || fail "hints/$clang/check-json" "no hints in check --json"
  # run --json: the likely jump was right for the 8 packets that start with 0x45,
  # the unlikely bounds check for all 10; 10 runs, cond jumps counted
  "$BPFGATE" run "$obj" --pcap "$tmp/pk.pcap" --json > "$tmp/r.json"
  python3 - "$tmp/r.json" "$(line_of bounds "$src")" "$(line_of likely "$src")" <<'PY' \
    && pass "hints/$clang/run-right" || fail "hints/$clang/run-right" "$(head -c 600 "$tmp/r.json")"
import json, sys
r = json.load(open(sys.argv[1])); b, l = int(sys.argv[2]), int(sys.argv[3])
h = {x["line"]: x for x in r["hints"]}
assert h[b]["executed"] == 10 and h[b]["right"] == 10, h[b]
assert h[l]["executed"] == 10 and h[l]["right"] == 8, h[l]
assert r["cond_jumps"] == 10 + 10 + 2 and r["per_run"]["cond_jumps"] == 2.2, r
assert r["taken_jumps"] == sum(x["taken"] for x in r["hints"]), r
PY
  if need_kernel "hints/$clang/kernel-load"; then
    pin=/sys/fs/bpf/bg_hints_test_$$
    if bpftool prog load "$obj" "$pin" 2>"$tmp/bt"; then
      rm -f "$pin"; pass "hints/$clang/kernel-load"
    else
      fail "hints/$clang/kernel-load" "$(tail -2 "$tmp/bt")"
    fi
  fi
done

# a malformed hints section is named and ignored, the code still shows
obj="$tmp/likely-clang-14.o"
if [ -f "$obj" ]; then
  cp "$obj" "$tmp/bad.o"
  off=$(readelf -S -W "$tmp/bad.o" | awk '$2 == ".bpfgate.hints" {print $5}')
  printf 'XXXX' | dd of="$tmp/bad.o" bs=1 seek=$((16#$off)) conv=notrunc status=none
  "$BPFGATE" disasm "$tmp/bad.o" >"$tmp/o" 2>"$tmp/e"; rc=$?
  [ $rc = 0 ] && grep -q "section .bpfgate.hints offset 0x0: bad header" "$tmp/e" && grep -q "exit" "$tmp/o" \
    && ! grep -q "(expect)" "$tmp/o" && pass hints/malformed-section || fail hints/malformed-section "rc=$rc $(cat "$tmp/e")"
fi

# ---- the profile-guided build on the example parser ----
cp "$BG_ROOT/examples/xdp_parse.bpf.c" "$tmp/xdp_parse.bpf.c"
flags=(-O2 -g -I"$BG_NORMAL_BUILD" -I"$BG_ROOT/examples/include" -I/usr/include/x86_64-linux-gnu)
python3 "$BG_ROOT/bench/skewed_pcap.py" "$tmp/skew.pcap" 1000
if ! "$BPFGATE" cc --hints --clang clang-14 "${flags[@]}" -c "$tmp/xdp_parse.bpf.c" -o "$tmp/base.o" 2>"$tmp/err"; then
  fail hints/profile/base-build "$(tail -2 "$tmp/err")"; exit 0
fi
"$BPFGATE" cov run "$tmp/base.o" --vm --pcap "$tmp/skew.pcap" -o "$tmp/base.info" --profile "$tmp/prof.json" \
  --cfg "$tmp/cfg" >/dev/null 2>&1 || { fail hints/profile/cov-run "cov run failed"; exit 0; }
# CFG view: the h_proto test's edges carry the profile's counts; the SVG is
# rendered and linked from the genhtml report, whose pages show branch counts
python3 - "$tmp/prof.json" "$tmp/cfg/xdp_parse.dot" <<'PY' && pass hints/cfg-view/edges || fail hints/cfg-view/edges "edge counts differ from the profile"
import json, re, sys
prof = json.load(open(sys.argv[1])); dot = open(sys.argv[2]).read()
b = [x for x in prof if x["kind"] == "branch" and "h_proto" in x["text"]][0]
edges = re.findall(r'b(\d+) -> b(\d+) \[label="(\d+)"', dot)
blk = max(int(f) for f, _, _ in edges if int(f) <= b["insn"])
out = sorted(int(c) for f, _, c in edges if int(f) == blk)
assert out == sorted([b["taken"], b["not_taken"]]) and b["taken"] + b["not_taken"] == 1000, (out, b)
assert 'fillcolor="0.000 0.700 1.000"' in dot and 'fillcolor="0.000 0.000 1.000"' in dot
PY
if need_kernel hints/profile/kernel-equals-vm; then
  "$BPFGATE" cov run "$tmp/base.o" --pcap "$tmp/skew.pcap" -o "$tmp/k.info" --profile "$tmp/kprof.json" >/dev/null 2>&1
  cmp -s "$tmp/kprof.json" "$tmp/prof.json" && pass hints/profile/kernel-equals-vm \
    || fail hints/profile/kernel-equals-vm "the kernel's profile differs from the interpreter's"
fi
head -c 200 "$tmp/cfg/xdp_parse.svg" | grep -q "<?xml\|<svg" && pass hints/cfg-view/svg || fail hints/cfg-view/svg "no svg"
if "$BPFGATE" cov html "$tmp/base.info" -o "$tmp/html" --cfg "$tmp/cfg" >/dev/null 2>"$tmp/err"; then
  grep -q 'href="cfg/index.html"' "$tmp/html/index.html" && [ -f "$tmp/html/cfg/xdp_parse.svg" ] \
    && grep -q 'href="xdp_parse.svg"' "$tmp/html/cfg/index.html" && pass hints/cfg-view/linked || fail hints/cfg-view/linked "no link"
  grep -rq "was taken [0-9]* times" "$tmp/html" && pass hints/cfg-view/html-branch-counts || fail hints/cfg-view/html-branch-counts "no branch counts"
else
  fail hints/cfg-view/linked "$(cat "$tmp/err")"
fi
if "$BPFGATE" cc --clang clang-14 --profile "$tmp/prof.json" "${flags[@]}" -c "$tmp/xdp_parse.bpf.c" -o "$tmp/pgo.o" 2>"$tmp/err" \
   && grep -q "function(s) in the sample profile" "$tmp/err" && ! grep -q STALE "$tmp/err"; then
  pass hints/profile/build
else
  fail hints/profile/build "$(cat "$tmp/err")"
fi
"$BPFGATE" disasm "$tmp/pgo.o" | grep -Eq "goto .*\(profile\)" && pass hints/profile/disasm \
  || fail hints/profile/disasm "no (profile) hint"
"$BPFGATE" check "$tmp/pgo.o" >/dev/null 2>&1 && pass hints/profile/check-accepts || fail hints/profile/check-accepts "rejected"
if need_kernel hints/profile/kernel-accepts; then
  "$BPFGATE" kload "$tmp/pgo.o" 2>&1 | grep -q "accepted" && pass hints/profile/kernel-accepts \
    || fail hints/profile/kernel-accepts "$("$BPFGATE" kload "$tmp/pgo.o" 2>&1 | tail -2)"
fi
# the profile-guided block layout (src/cc/layout.c): applied to the build the
# profile describes, strictly fewer taken jumps per packet than the build
# without the profile (interpreter counts), every edge-case packet gives the
# same r0 in the interpreter (and in the kernel) before and after, bpftool
# loads the rewritten object
grep -q "layout: 1 function(s) of the plain build laid out by the profile: [1-9][0-9]* jump(s) inverted" "$tmp/err" \
  && pass hints/profile/layout-applied || fail hints/profile/layout-applied "$(grep layout "$tmp/err")"
tj() { "$BPFGATE" run "$1" --pcap "$tmp/skew.pcap" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["per_run"]["taken_jumps"])'; }
a=$(tj "$tmp/base.o"); b=$(tj "$tmp/pgo.o")
if python3 -c "import sys; sys.exit(0 if $b < $a else 1)"; then
  pass hints/profile/fewer-taken-jumps
else
  fail hints/profile/fewer-taken-jumps "taken jumps per packet $a without, $b with the profile"
fi
python3 - "$tmp/eq" <<'PY'
import os, struct, sys
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
mac = bytes(12)
def ip(proto, l4, ihl=5, tot=None):
    h = bytes([0x40 | ihl, 0]) + struct.pack(">H", tot or 20 + len(l4)) + bytes(5) + bytes([proto]) + bytes(2) + bytes(8)
    return h + bytes(max(0, ihl * 4 - 20)) + l4
tcp = lambda port: struct.pack(">HH", 1234, port) + bytes(16)
frames = {
  "tcp": mac + b"\x08\x00" + ip(6, tcp(80)),
  "tcp_blocked": mac + b"\x08\x00" + ip(6, tcp(23)),
  "tcp_short": mac + b"\x08\x00" + ip(6, bytes(10)),
  "tcp_opts": mac + b"\x08\x00" + ip(6, tcp(443), ihl=7),
  "udp": mac + b"\x08\x00" + ip(17, bytes(8)),
  "udp_short": mac + b"\x08\x00" + ip(17, bytes(4)),
  "icmp": mac + b"\x08\x00" + ip(1, bytes(8)),
  "ihl_small": mac + b"\x08\x00" + ip(6, tcp(80), ihl=3),
  "ihl_past_end": mac + b"\x08\x00" + ip(6, b"", ihl=15),
  "ip_short": mac + b"\x08\x00" + bytes(10),
  "eth_only": mac + b"\x08\x00",
  "ipv6": mac + b"\x86\xdd" + bytes(40),
  "arp": mac + b"\x08\x06" + bytes(28),
}
for k, f in frames.items():
    open(os.path.join(d, k + ".bin"), "wb").write(f + bytes(max(0, 14 - len(f))))
PY
diffs=""
for f in "$tmp"/eq/*.bin; do
  r1=$("$BPFGATE" run "$tmp/base.o" --packet "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["r0"])')
  r2=$("$BPFGATE" run "$tmp/pgo.o" --packet "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["r0"])')
  [ -n "$r1" ] && [ "$r1" = "$r2" ] || diffs="$diffs $(basename "$f"):$r1/$r2"
done
[ -z "$diffs" ] && pass hints/profile/layout-same-results || fail hints/profile/layout-same-results "r0 differs:$diffs"
if need_kernel hints/profile/layout-bpftool-load; then
  pin=/sys/fs/bpf/bg_hints_layout_$$
  if bpftool prog load "$tmp/pgo.o" "$pin" 2>"$tmp/e"; then
    kd=""
    bpftool prog load "$tmp/base.o" "${pin}_b" 2>/dev/null
    for f in "$tmp"/eq/*.bin; do
      k1=$(bpftool prog run pinned "${pin}_b" data_in "$f" 2>&1 | sed -n 's/.*[Rr]eturn value: \([0-9]*\).*/\1/p')
      k2=$(bpftool prog run pinned "$pin" data_in "$f" 2>&1 | sed -n 's/.*[Rr]eturn value: \([0-9]*\).*/\1/p')
      [ -n "$k1" ] && [ "$k1" = "$k2" ] || kd="$kd $(basename "$f"):$k1/$k2"
    done
    rm -f "$pin" "${pin}_b"
    pass hints/profile/layout-bpftool-load
    [ -z "$kd" ] && pass hints/profile/layout-same-results-kernel || fail hints/profile/layout-same-results-kernel "retval differs:$kd"
  else
    fail hints/profile/layout-bpftool-load "$(tail -3 "$tmp/e")"
  fi
fi

# stale: a changed line and a renamed program function are named, left out
ln=$(grep -n 'if (eth->h_proto != bpf_htons(ETH_P_IP)) {' "$tmp/xdp_parse.bpf.c" | cut -d: -f1)
sed -i "${ln}s/if (eth->h_proto != bpf_htons(ETH_P_IP)) {/if (bpf_htons(ETH_P_IP) != eth->h_proto) {/" "$tmp/xdp_parse.bpf.c"
sed -i 's/^int xdp_parse(struct xdp_md \*ctx)/int xdp_parse_v2(struct xdp_md *ctx)/' "$tmp/xdp_parse.bpf.c"
"$BPFGATE" cc --clang clang-14 --profile "$tmp/prof.json" "${flags[@]}" -c "$tmp/xdp_parse.bpf.c" -o "$tmp/st.o" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && grep -q "STALE" "$tmp/err" && grep -q "function 'xdp_parse' of the profile is not defined" "$tmp/err" \
  && pass hints/profile/stale-function || fail hints/profile/stale-function "rc=$rc $(cat "$tmp/err")"
# only the line changed (function name restored): that line is named
sed -i 's/^int xdp_parse_v2(struct xdp_md \*ctx)/int xdp_parse(struct xdp_md *ctx)/' "$tmp/xdp_parse.bpf.c"
"$BPFGATE" cc --clang clang-14 --profile "$tmp/prof.json" "${flags[@]}" -c "$tmp/xdp_parse.bpf.c" -o "$tmp/st.o" --report json \
  >"$tmp/st.json" 2>"$tmp/err"; rc=$?
python3 - "$tmp/st.json" "$ln" <<'PY' && [ $rc = 0 ] && pass hints/profile/stale-line || fail hints/profile/stale-line "rc=$rc $(cat "$tmp/err")"
import json, sys
p = json.load(open(sys.argv[1]))["profile"]
assert p["stale"] == 1 and f"xdp_parse.bpf.c:{sys.argv[2]} changed since the profile" in p["stale_entries"], p
PY
# bad profile input: exit 2 naming the file and offset
printf '[{"kind": "line", "line": 3,' > "$tmp/bad.json"
"$BPFGATE" cc --clang clang-14 --profile "$tmp/bad.json" "${flags[@]}" -c "$tmp/xdp_parse.bpf.c" -o "$tmp/x.o" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "bad.json: offset [0-9]*: " "$tmp/err" && [ ! -f "$tmp/x.o" ] && pass hints/profile/bad-input \
  || fail hints/profile/bad-input "rc=$rc $(cat "$tmp/err")"
"$BPFGATE" cc --clang clang-14 --profile "$tmp/none.json" "${flags[@]}" -c "$tmp/xdp_parse.bpf.c" -o "$tmp/x.o" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "none.json: No such file" "$tmp/err" && pass hints/profile/missing || fail hints/profile/missing "rc=$rc $(cat "$tmp/err")"

# ---- the layout across functions: static calls, a global function, a
# bpf_loop callback, JSET, a loop (tests/data/hints/layout_calls.bpf.c, tc) ----
lc="$BG_ROOT/tests/data/hints/layout_calls.bpf.c"
lflags=(-O2 -g -I/usr/include/x86_64-linux-gnu)
python3 "$BG_ROOT/tests/data/hints/layout_pkts.py" "$tmp/lc-train.pcap" 1000 1 0.9
python3 "$BG_ROOT/tests/data/hints/layout_pkts.py" "$tmp/lc-eval.pcap" 40 2 0.5 --split "$tmp/lc-eval"
if "$BPFGATE" cc --clang clang-14 "${lflags[@]}" -c "$lc" -o "$tmp/lc-base.o" 2>"$tmp/err" \
   && "$BPFGATE" cov run "$tmp/lc-base.o" --vm --pcap "$tmp/lc-train.pcap" -o "$tmp/lc.info" --profile "$tmp/lc-prof.json" >/dev/null 2>&1 \
   && "$BPFGATE" cc --clang clang-14 --profile "$tmp/lc-prof.json" "${lflags[@]}" -c "$lc" -o "$tmp/lc-pgo.o" 2>"$tmp/err"; then
  # clang aborts with a sample profile on calls: built without it, said so; the
  # layout rewrites the program and both .text functions with conditional jumps
  grep -q "clang fails with the sample profile" "$tmp/err" && pass hints/layout-calls/sample-profile-fallback \
    || fail hints/layout-calls/sample-profile-fallback "$(grep profile "$tmp/err")"
  grep -q "layout: 3 function(s) of the plain build laid out" "$tmp/err" && pass hints/layout-calls/applied \
    || fail hints/layout-calls/applied "$(grep layout "$tmp/err")"
  "$BPFGATE" check "$tmp/lc-pgo.o" >/dev/null 2>&1 && pass hints/layout-calls/check-accepts || fail hints/layout-calls/check-accepts "rejected"
  a=$("$BPFGATE" run "$tmp/lc-base.o" --pcap "$tmp/lc-eval.pcap" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["per_run"]["taken_jumps"])')
  b=$("$BPFGATE" run "$tmp/lc-pgo.o" --pcap "$tmp/lc-eval.pcap" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["per_run"]["taken_jumps"])')
  python3 -c "import sys; sys.exit(0 if $b < $a else 1)" && pass hints/layout-calls/fewer-taken-jumps \
    || fail hints/layout-calls/fewer-taken-jumps "$a without, $b with the profile"
  # r0 is the program's whole computation: equal on every packet
  diffs=""
  for f in "$tmp"/lc-eval/*.bin; do
    r1=$("$BPFGATE" run "$tmp/lc-base.o" --packet "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["r0"])')
    r2=$("$BPFGATE" run "$tmp/lc-pgo.o" --packet "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["r0"])')
    [ -n "$r1" ] && [ "$r1" = "$r2" ] || diffs="$diffs $(basename "$f"):$r1/$r2"
  done
  [ -z "$diffs" ] && pass hints/layout-calls/same-results || fail hints/layout-calls/same-results "r0 differs:$diffs"
  if need_kernel hints/layout-calls/kernel; then
    pin=/sys/fs/bpf/bg_hints_lc_$$
    if bpftool prog load "$tmp/lc-pgo.o" "$pin" 2>"$tmp/e" && bpftool prog load "$tmp/lc-base.o" "${pin}_b" 2>>"$tmp/e"; then
      kd=""
      for f in "$tmp"/lc-eval/*.bin; do
        k1=$(bpftool prog run pinned "${pin}_b" data_in "$f" 2>&1 | sed -n 's/.*[Rr]eturn value: \([0-9]*\).*/\1/p')
        k2=$(bpftool prog run pinned "$pin" data_in "$f" 2>&1 | sed -n 's/.*[Rr]eturn value: \([0-9]*\).*/\1/p')
        [ -n "$k1" ] && [ "$k1" = "$k2" ] || kd="$kd $(basename "$f"):$k1/$k2"
      done
      [ -z "$kd" ] && pass hints/layout-calls/kernel || fail hints/layout-calls/kernel "retval differs:$kd"
    else
      fail hints/layout-calls/kernel "$(tail -3 "$tmp/e")"
    fi
    rm -f "$pin" "${pin}_b"
  fi
else
  fail hints/layout-calls/build "$(tail -3 "$tmp/err")"
fi
