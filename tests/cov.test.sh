# bpfgate cov: exact counts on a program whose every line and branch count
# is known by construction, identical between the kernel and the
# interpreter; merging; the branch profile; the HTML report in headless
# Chromium; every example and corpus program still accepted when instrumented.
. "$(dirname "$0")/lib/common.sh"
tmp=$(mktemp -d /tmp/bg-cov-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
src="$BG_ROOT/tests/data/cov/branches.bpf.c"
obj="$tmp/branches.o"
clang-14 -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c "$src" -o "$obj" || { fail cov/build "clang"; exit 0; }
mkdir -p "$tmp/in"
# packets: first byte 1 -> drop; second byte > 10 -> tx; else pass (64 bytes each)
python3 - "$tmp/in" <<'PY'
import sys
for name, b in [("a", [1, 0]), ("b", [0, 20]), ("c", [0, 5]), ("d", [0, 5])]:
    open(f"{sys.argv[1]}/{name}", "wb").write(bytes(b + [0] * 62))
PY
line_of() { grep -n "L:$1 " "$src" | cut -d: -f1; }
da() { sed -n "s/^DA:$2,//p" "$1"; }
branch_pair() { # sorted "taken not_taken" counts of the branch on a line
  awk -F'[:,]' -v l="$2" '$1=="BRDA" && $2==l {print $5}' "$1" | sort -n | tr '\n' ' ' | sed 's/ $//'; }
check_counts() { # tracefile, label
  local f=$1 who=$2 ok=1 why=""
  for spec in bounds=4 first=4 second=3 count-lookup=4 count-check=4 count-add=4; do
    local m=${spec%=*} want=${spec#*=} got
    got=$(da "$f" "$(line_of "$m")")
    [ "$got" = "$want" ] || { ok=0; why="$why $m: DA $got, want $want;"; }
  done
  for spec in "first=1 3" "second=1 2" "bounds=0 4" "count-check=0 4"; do
    local m=${spec%=*} want=${spec#*=} got
    got=$(branch_pair "$f" "$(line_of "$m")")
    [ "$got" = "$want" ] || { ok=0; why="$why branch $m: $got, want $want;"; }
  done
  [ $ok = 1 ] && pass "cov/exact-counts/$who" || fail "cov/exact-counts/$who" "$why"
}

"$BPFGATE" cov run "$obj" --vm --input-dir "$tmp/in" -o "$tmp/vm.info" --profile "$tmp/vm.json" >/dev/null 2>"$tmp/err" \
  || fail cov/run-vm "$(tail -2 "$tmp/err")"
check_counts "$tmp/vm.info" vm
python3 - "$tmp/vm.json" "$(line_of second)" <<'PY' && pass cov/profile-json || fail cov/profile-json "branch profile wrong"
import json, sys
d = json.load(open(sys.argv[1])); line = int(sys.argv[2])
b = [x for x in d if x["line"] == line]
assert len(b) == 1 and sorted([b[0]["taken"], b[0]["not_taken"]]) == [1, 2], b
PY
# merging two runs sums them
"$BPFGATE" cov merge "$tmp/vm.info" "$tmp/vm.info" -o "$tmp/m.info" >/dev/null
[ "$(da "$tmp/m.info" "$(line_of second)")" = 6 ] && pass cov/merge-sums || fail cov/merge-sums "DA $(da "$tmp/m.info" "$(line_of second)")"
"$BPFGATE" cov show "$tmp/vm.info" | grep -q "     3:   *$(line_of second): " && pass cov/show-margin || fail cov/show-margin "no count 3 in the margin"
"$BPFGATE" cov report "$tmp/vm.info" | grep -q "cov_branches.*lines 7/7" && pass cov/report || fail cov/report "$("$BPFGATE" cov report "$tmp/vm.info" | head -3)"
printf 'garbage\n' > "$tmp/bad.info"
"$BPFGATE" cov report "$tmp/bad.info" >/dev/null 2>&1; [ $? -eq 2 ] && pass cov/bad-tracefile || fail cov/bad-tracefile "exit not 2"
printf '\xd4\xc3\xb2\xa1' > "$tmp/bad.pcap"
"$BPFGATE" cov run "$obj" --vm --pcap "$tmp/bad.pcap" -o "$tmp/x.info" >/dev/null 2>&1; [ $? -eq 2 ] && pass cov/bad-pcap || fail cov/bad-pcap "exit not 2"

if ! kernel_ok; then
  skip cov/kernel "bpf() unavailable: kernel runs, kernel=vm identity and instrumented loads need it"
  exit 0
fi
"$BPFGATE" cov run "$obj" --input-dir "$tmp/in" -o "$tmp/k.info" >/dev/null 2>"$tmp/err" || fail cov/run-kernel "$(tail -2 "$tmp/err")"
check_counts "$tmp/k.info" kernel
cmp -s "$tmp/k.info" "$tmp/vm.info" && pass cov/kernel-equals-vm || fail cov/kernel-equals-vm "$(diff "$tmp/k.info" "$tmp/vm.info" | head -5 | tr '\n' ' ')"
# the same through a pcap file
python3 - "$tmp/in" "$tmp/in.pcap" <<'PY'
import os, struct, sys
out = open(sys.argv[2], "wb"); out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
for n in sorted(os.listdir(sys.argv[1])):
    b = open(os.path.join(sys.argv[1], n), "rb").read(); out.write(struct.pack("<IIII", 0, 0, len(b), len(b)) + b)
PY
"$BPFGATE" cov run "$obj" --pcap "$tmp/in.pcap" -o "$tmp/p.info" >/dev/null 2>&1 && cmp -s "$tmp/p.info" "$tmp/k.info" \
  && pass cov/pcap-input || fail cov/pcap-input "pcap run differs from the raw-file run"

# attached tracing program while a command runs: tracepoint sys_enter via the examples
ex="$BG_EXAMPLES/tp_syscall_count.bpf.o"
if [ -f "$ex" ]; then
  "$BPFGATE" cov run "$ex" -o "$tmp/tp.info" -- /bin/true >/dev/null 2>"$tmp/err"
  fn=$(sed -n 's/^FNDA:\([0-9]*\),.*/\1/p' "$tmp/tp.info" | head -1)
  [ "${fn:-0}" -gt 0 ] && pass "cov/attach-tracepoint: entered $fn times" || fail cov/attach-tracepoint "no hits: $(tail -2 "$tmp/err")"
fi

# every example and corpus program the kernel accepts stays accepted when instrumented
objs=("$BG_EXAMPLES"/*.o)
[ -d "$BG_CORPUS/c14" ] && objs+=($(find "$BG_CORPUS/c14" -name '*.o' | sort))
"$BPFGATE" cov stats --json "${objs[@]}" > "$tmp/stats.json" 2>/dev/null
python3 - "$tmp/stats.json" "$BG_BUILD/cov-stats.txt" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
acc = [x for x in d if x["verdict"] == "accepted"]
bad = [x for x in acc if x["instrumented_verdict"] != "accepted"]
growth = [x["insns_instrumented"] / x["insns"] for x in acc if x["insns"]]
summary = (f"{len(acc)} accepted programs, {len(acc) - len(bad)} still accepted instrumented; "
           f"growth median {statistics.median(growth):.2f}x max {max(growth):.2f}x")
open(sys.argv[2], "w").write(summary + "\n" + "".join(f'{x["object"]} {x["program"]}: {x["message"]}\n' for x in bad))
for x in acc:
    ok = x["instrumented_verdict"] == "accepted"
    print(("PASS" if ok else "FAIL") + f' cov/instrumented/{x["object"].split("/")[-1]}/{x["program"]}' +
          ("" if ok else f': {x["instrumented_verdict"]}: {(x["message"] or "")[:200]}'))
print("PASS cov/instrumented-summary: " + summary)
PY

# the HTML report, looked at by a browser
"$BPFGATE" cov html "$tmp/k.info" -o "$tmp/html" >/dev/null 2>&1 && [ -f "$tmp/html/index.html" ] \
  && pass cov/genhtml || fail cov/genhtml "genhtml failed"
if ! command -v chromium >/dev/null; then
  BPFGATE_EXTRA_PKGS=chromium timeout 900 bash "$BG_ROOT/scripts/deps.sh" >/dev/null 2>&1
fi
if ! command -v chromium >/dev/null; then
  skip cov/html-in-browser "chromium could not be installed here"
else
  page=$(find "$tmp/html" -name 'branches.bpf.c.gcov.html' | head -1)
  timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$tmp/html/index.html" > "$tmp/index.dom" 2>/dev/null
  timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$page" > "$tmp/page.dom" 2>/dev/null
  timeout 120 chromium --headless --no-sandbox --disable-gpu --window-size=1200,1600 \
    --screenshot="$BG_BUILD/cov-report.png" "file://$page" >/dev/null 2>&1
  grep -q "100.0" "$tmp/index.dom" && grep -q "75.0" "$tmp/index.dom" \
    && pass "cov/html-percentages: lines 100.0 %, branches 75.0 % rendered" || fail cov/html-percentages "percentages not in the rendered page"
  grep -q "L:second" "$tmp/page.dom" && pass cov/html-annotated-source || fail cov/html-annotated-source "source not in the page"
  [ -s "$BG_BUILD/cov-report.png" ] && pass "cov/html-screenshot: $BG_BUILD/cov-report.png" || fail cov/html-screenshot "no screenshot"
fi
