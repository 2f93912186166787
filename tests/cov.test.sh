# bpfgate cov: exact counts on a program whose every line and branch count
# is known by construction, identical between the kernel and the
# interpreter; merging; the branch profile; the HTML report in headless
# Chromium; every example and corpus program still accepted when instrumented.
# min-pass: 279 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
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
b = [x for x in d if x["kind"] == "branch" and x["line"] == line]
assert any(x["kind"] == "line" and x["line"] == line and x["count"] == 3 for x in d), "no line record"
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

# uprobe and uretprobe attached while a workload runs: classify() of a
# gcc -O0 binary, 3 rounds of 7 calls (per round: 1 negative, 4 small, 2 big
# arguments; results -1 once, 0 twice, 1 twice, 2 twice)
uex="$BG_EXAMPLES/uprobe_classify.bpf.o"
usrc="$BG_ROOT/examples/uprobe_classify.bpf.c"
uline() { grep -n "L:$1 " "$usrc" | cut -d: -f1; }
fnda() { sed -n "s/^FNDA:\([0-9]*\),$2\$/\1/p" "$1"; }
check_uprobe_counts() { # tracefile, label, which programs ("entry return")
  local f=$1 who=$2 ok=1 why="" specs=()
  [[ $3 == *entry* ]] && specs+=(arg-neg-call=3 arg-small-call=12 arg-big-call=6 arg-neg=21 arg-small=18)
  [[ $3 == *return* ]] && specs+=(ret-neg-call=3 ret-zero-call=6 ret-other-call=12 ret-neg=21 ret-zero=18)
  for spec in "${specs[@]}"; do
    local m=${spec%=*} want=${spec#*=} got
    got=$(da "$f" "$(uline "$m")")
    [ "$got" = "$want" ] || { ok=0; why="$why $m: DA $got, want $want;"; }
  done
  specs=()
  [[ $3 == *entry* ]] && specs+=("arg-neg=3 18" "arg-small=6 12") && [ "$(fnda "$f" classify_entry)" != 21 ] \
    && { ok=0; why="$why FNDA classify_entry $(fnda "$f" classify_entry), want 21;"; }
  [[ $3 == *return* ]] && specs+=("ret-neg=3 18" "ret-zero=6 12") && [ "$(fnda "$f" classify_return)" != 21 ] \
    && { ok=0; why="$why FNDA classify_return $(fnda "$f" classify_return), want 21;"; }
  for spec in "${specs[@]}"; do
    local m=${spec%=*} want=${spec#*=} got
    got=$(branch_pair "$f" "$(uline "$m")")
    [ "$got" = "$want" ] || { ok=0; why="$why branch $m: $got, want $want;"; }
  done
  [ $ok = 1 ] && pass "cov/$who" || fail "cov/$who" "$why"
}
if [ ! -f "$uex" ]; then
  fail cov/uprobe "$uex not built"
elif ! gcc -O0 -g -o "$tmp/uwork" "$BG_ROOT/tests/data/cov/uprobe_work.c" 2>"$tmp/err"; then
  fail cov/uprobe-workload "gcc: $(tail -2 "$tmp/err")"
elif [ ! -e /sys/bus/event_source/devices/uprobe/type ]; then
  skip cov/uprobe "no uprobe PMU in /sys/bus/event_source/devices (kernel without CONFIG_UPROBE_EVENTS)"
else
  "$BPFGATE" cov run "$uex" -o "$tmp/u.info" --uprobe "classify_entry=$tmp/uwork:classify" \
    --uprobe "classify_return=$tmp/uwork:classify" -- "$tmp/uwork" 3 >"$tmp/out" 2>"$tmp/err"
  urc=$?
  if [ $urc = 1 ] && grep -q "perf_event_open: \(Operation not permitted\|Permission denied\|No such device\|Operation not supported\)" "$tmp/out"; then
    skip cov/uprobe "uprobes refused here: $(grep -m1 perf_event_open "$tmp/out")"
  else
    [ $urc = 0 ] && pass cov/uprobe-run || fail cov/uprobe-run "exit $urc: $(cat "$tmp/out" "$tmp/err" | head -3)"
    check_uprobe_counts "$tmp/u.info" uprobe-exact-counts "entry return"
    # bump() is called by both programs: its branch is one source branch, summed
    # (42 = 2 x 21), counted once in BRF like genhtml does
    [ "$(branch_pair "$tmp/u.info" "$(uline bump-check)")" = "0 42" ] && [ "$(sed -n 's/^BRF://p' "$tmp/u.info")" = 10 ] \
      && pass cov/shared-subprogram-branches-summed \
      || fail cov/shared-subprogram-branches-summed "bump-check: $(branch_pair "$tmp/u.info" "$(uline bump-check)"), BRF $(sed -n 's/^BRF://p' "$tmp/u.info")"
    # libbpf's section form, the target in the section: uretprobe alone
    clang-14 -O2 -g -target bpf -I "$BG_NORMAL_BUILD" -I "$BG_ROOT/examples/include" \
      -I/usr/include/x86_64-linux-gnu "-DUPROBE_BIN=\"$tmp/uwork\"" -c "$usrc" -o "$tmp/usec.o" 2>"$tmp/err" \
      || fail cov/uprobe-section-build "$(tail -2 "$tmp/err")"
    sec=$("$BPFGATE" cov run "$tmp/usec.o" --prog classify_return -o "$tmp/ur.info" --json -- "$tmp/uwork" 3 2>"$tmp/err")
    [ $? = 0 ] && pass cov/uretprobe-section-run || fail cov/uretprobe-section-run "$sec $(tail -2 "$tmp/err")"
    check_uprobe_counts "$tmp/ur.info" uretprobe-section-exact-counts return
    [ -z "$(fnda "$tmp/ur.info" classify_entry)" ] && pass cov/uretprobe-only-selected \
      || fail cov/uretprobe-only-selected "classify_entry reported: $(fnda "$tmp/ur.info" classify_entry)"
    # +OFFSET: past the entry of classify() the program still runs once per call
    "$BPFGATE" cov run "$uex" --prog classify_entry -o "$tmp/uo.info" --uprobe "classify_entry=$tmp/uwork:classify+4" \
      -- "$tmp/uwork" 2 >/dev/null 2>&1
    [ "$(fnda "$tmp/uo.info" classify_entry)" = 14 ] && pass cov/uprobe-plus-offset \
      || fail cov/uprobe-plus-offset "FNDA $(fnda "$tmp/uo.info" classify_entry), want 14"
  fi
  # uprobe.multi / uretprobe.multi on "step_*" (step_odd, step_even: 2 calls each
  # per round): 12 entries per program, 6 per parity arm; an arm only runs if
  # its function was probed, so both functions were
  msrc="$BG_ROOT/tests/data/cov/uprobe_multi.bpf.c"
  mline() { grep -n "L:$1 " "$msrc" | cut -d: -f1; }
  if clang-14 -O2 -g -target bpf -I "$BG_NORMAL_BUILD" -I/usr/include/x86_64-linux-gnu -c "$msrc" -o "$tmp/multi.o" 2>"$tmp/err"; then
    "$BPFGATE" cov run "$tmp/multi.o" -o "$tmp/m.info" --uprobe "step_entry=$tmp/uwork:step_*" \
      --uprobe "step_return=$tmp/uwork:step_*" -- "$tmp/uwork" 3 >"$tmp/out" 2>&1
    mrc=$?
    if [ $mrc = 1 ] && grep -q "BPF_LINK_CREATE (uprobe_multi.*\(Invalid argument\|not supported\|Operation not permitted\)" "$tmp/out"; then
      skip cov/uprobe-multi "uprobe_multi links refused here: $(grep -m1 BPF_LINK_CREATE "$tmp/out")"
    else
      got="$(fnda "$tmp/m.info" step_entry) $(fnda "$tmp/m.info" step_return) $(da "$tmp/m.info" "$(mline multi-arg-odd)")"
      got="$got $(da "$tmp/m.info" "$(mline multi-arg-even)") $(da "$tmp/m.info" "$(mline multi-ret-odd)") $(da "$tmp/m.info" "$(mline multi-ret-even)")"
      got="$got / $(branch_pair "$tmp/m.info" "$(mline multi-arg)") / $(branch_pair "$tmp/m.info" "$(mline multi-ret)")"
      [ $mrc = 0 ] && [ "$got" = "12 12 6 6 6 6 / 6 6 / 6 6" ] && pass "cov/uprobe-multi-exact-counts: step_* matched 2 functions" \
        || fail cov/uprobe-multi-exact-counts "exit $mrc; FNDA entry, return, DA odd/even args, odd/even results / branches: $got, want 12 12 6 6 6 6 / 6 6 / 6 6; $(head -2 "$tmp/out")"
    fi
    "$BPFGATE" cov run "$tmp/multi.o" --prog step_entry -o "$tmp/mx.info" --uprobe "step_entry=$tmp/uwork:nomatch_*" \
      -- /bin/true >"$tmp/out" 2>&1
    [ $? = 1 ] && grep -q "no function matches 'nomatch_\*'" "$tmp/out" && pass cov/uprobe-multi-no-match \
      || fail cov/uprobe-multi-no-match "$(head -2 "$tmp/out")"
  else
    fail cov/uprobe-multi-build "$(tail -2 "$tmp/err")"
  fi
  # --command-only: another instance of the binary runs all along; system-wide it
  # is counted too, with the pid filter only the command's 3000 x 7 calls are
  "$tmp/uwork" 1000000000 & bgpid=$!
  "$BPFGATE" cov run "$uex" --prog classify_entry -o "$tmp/cw.info" --uprobe "classify_entry=$tmp/uwork:classify" \
    -- sh -c "$tmp/uwork 3000; sleep 0.1" >/dev/null 2>&1
  "$BPFGATE" cov run "$uex" --prog classify_entry --command-only -o "$tmp/co.info" \
    --uprobe "classify_entry=$tmp/uwork:classify" -- "$tmp/uwork" 3000 >/dev/null 2>&1
  alive=$(kill -0 $bgpid 2>/dev/null && echo yes); kill $bgpid 2>/dev/null; wait $bgpid 2>/dev/null
  cw=$(fnda "$tmp/cw.info" classify_entry); co=$(fnda "$tmp/co.info" classify_entry)
  [ "$alive" = yes ] && [ "${cw:-0}" -gt 21000 ] && pass "cov/uprobe-system-wide: $cw calls with another instance running" \
    || fail cov/uprobe-system-wide "FNDA $cw, want > 21000 (background instance alive: ${alive:-no})"
  [ "$alive" = yes ] && [ "$co" = 21000 ] && pass "cov/uprobe-command-only: exactly 21000 of the command" \
    || fail cov/uprobe-command-only "FNDA $co, want 21000 (background instance alive: ${alive:-no})"
  # targets that do not resolve: the program's error names the function; exit 1
  "$BPFGATE" cov run "$uex" --prog classify_entry -o "$tmp/ux.info" --uprobe "classify_entry=$tmp/uwork:no_such_fn" \
    -- /bin/true >"$tmp/out" 2>&1
  [ $? = 1 ] && grep -q "no function 'no_such_fn'" "$tmp/out" && pass cov/uprobe-missing-function \
    || fail cov/uprobe-missing-function "$(head -2 "$tmp/out")"
  "$BPFGATE" cov run "$uex" --prog classify_entry -o "$tmp/ux.info" -- /bin/true >"$tmp/out" 2>&1
  [ $? = 1 ] && grep -q "names no target: give --uprobe classify_entry=PATH:FUNC" "$tmp/out" \
    && pass cov/uprobe-no-target || fail cov/uprobe-no-target "$(head -2 "$tmp/out")"
  # JSON records: object, program, section, type, verdict; a program left without a target
  # is "unavailable" and says why
  "$BPFGATE" cov run "$uex" --json -o "$tmp/uj.info" --uprobe "classify_entry=$tmp/uwork:classify" \
    -- "$tmp/uwork" 1 >"$tmp/uj.json" 2>/dev/null
  python3 - "$tmp/uj.json" <<'PY' && pass cov/attach-json-records || fail cov/attach-json-records "$(head -c 300 "$tmp/uj.json")"
import json, sys
d = {x["program"]: x for x in json.load(open(sys.argv[1]))}
e, r = d["classify_entry"], d["classify_return"]
assert all(k in x for x in (e, r) for k in ("object", "program", "section", "type", "verdict")), d
assert (e["section"], e["type"], e["verdict"], e["error"]) == ("uprobe", "kprobe", "accepted", None), e
assert r["verdict"] == "unavailable" and "names no target" in r["error"], r
PY
  "$BPFGATE" cov run "$uex" --uprobe "nosuchprog=$tmp/uwork:classify" -o "$tmp/ux.info" -- /bin/true >/dev/null 2>&1
  [ $? = 2 ] && pass cov/uprobe-unknown-program || fail cov/uprobe-unknown-program "exit not 2"
  "$BPFGATE" cov run "$uex" --uprobe "classify_entry" -o "$tmp/ux.info" -- /bin/true >/dev/null 2>&1
  [ $? = 2 ] && pass cov/uprobe-bad-option || fail cov/uprobe-bad-option "exit not 2"
fi

# USDT: bgwork:step(x, k, 7) behind a semaphore, arguments read through
# libbpf's usdt.bpf.h specs (stack operands at -O0, registers at -O2, one
# constant); 3 rounds: 15 probe hits, k < 0 six times, then x < -2 six, else 3
sex="$BG_EXAMPLES/usdt_step.bpf.o"
ssrc="$BG_ROOT/examples/usdt_step.bpf.c"
sline() { grep -n "L:$1 " "$ssrc" | cut -d: -f1; }
check_usdt_counts() { # tracefile, label
  local f=$1 ok=1 why=""
  for spec in usdt-const=15 usdt-down=6 usdt-x-low=9 usdt-low=6 usdt-other=3; do
    local m=${spec%=*} want=${spec#*=} got
    got=$(da "$f" "$(sline "$m")")
    [ "$got" = "$want" ] || { ok=0; why="$why $m: DA $got, want $want;"; }
  done
  for spec in "usdt-const=0 15" "usdt-k-neg=6 9" "usdt-x-low=3 6"; do
    local m=${spec%=*} want=${spec#*=} got
    got=$(branch_pair "$f" "$(sline "$m")")
    [ "$got" = "$want" ] || { ok=0; why="$why branch $m: $got, want $want;"; }
  done
  [ "$(fnda "$f" usdt_step)" = 15 ] || { ok=0; why="$why FNDA usdt_step $(fnda "$f" usdt_step), want 15;"; }
  [ $ok = 1 ] && pass "cov/$2" || fail "cov/$2" "$why"
}
if [ ! -f "$sex" ]; then
  fail cov/usdt "$sex not built"
elif ! printf '#include <sys/sdt.h>\n' | gcc -E - >/dev/null 2>&1; then
  skip cov/usdt "no <sys/sdt.h> (Debian package systemtap-sdt-dev, installed by scripts/deps.sh)"
elif [ ! -e /sys/bus/event_source/devices/uprobe/type ]; then
  skip cov/usdt "no uprobe PMU in /sys/bus/event_source/devices"
else
  for opt in O0 O2; do
    gcc -$opt -g -o "$tmp/usdt-$opt" "$BG_ROOT/tests/data/cov/usdt_work.c" 2>"$tmp/err" || { fail "cov/usdt-build-$opt" "$(tail -2 "$tmp/err")"; continue; }
    "$BPFGATE" cov run "$sex" -o "$tmp/s-$opt.info" --usdt "usdt_step=$tmp/usdt-$opt:bgwork:step" -- "$tmp/usdt-$opt" 3 >"$tmp/out" 2>"$tmp/err"
    src=$?
    if [ $src = 1 ] && grep -q "perf_event_open: \(Operation not permitted\|Permission denied\|No such device\|Operation not supported\)" "$tmp/out"; then
      skip "cov/usdt-$opt" "uprobes refused here: $(grep -m1 perf_event_open "$tmp/out")"
      continue
    fi
    # the workload exits 0 only when every probe site ran: the semaphore was raised
    [ $src = 0 ] && ! grep -q "exited with status" "$tmp/err" && pass "cov/usdt-run-$opt: semaphore raised" \
      || fail "cov/usdt-run-$opt" "exit $src: $(cat "$tmp/out" "$tmp/err" | head -3)"
    check_usdt_counts "$tmp/s-$opt.info" "usdt-exact-counts-$opt: $(grep -m1 -a -o 'Arguments: .*' <(readelf -n "$tmp/usdt-$opt") || true)"
  done
  "$tmp/usdt-O0" 1; [ $? = 1 ] && pass cov/usdt-semaphore-down-unattached || fail cov/usdt-semaphore-down-unattached "probe fired without a tracer"
  "$BPFGATE" cov run "$sex" -o "$tmp/sx.info" --usdt "usdt_step=$tmp/usdt-O0:bgwork:nope" -- /bin/true >"$tmp/out" 2>&1
  [ $? = 1 ] && grep -q "no USDT probe bgwork:nope" "$tmp/out" && pass cov/usdt-missing-probe \
    || fail cov/usdt-missing-probe "$(head -2 "$tmp/out")"
fi

# every example and corpus program the kernel accepts stays accepted when instrumented
objs=("$BG_EXAMPLES"/*.o)
[ -d "$BG_CORPUS/c14" ] && objs+=($(find "$BG_CORPUS/c14" -name '*.o' | sort))
"$BPFGATE" cov stats --json "${objs[@]}" > "$tmp/stats.json" 2>/dev/null
python3 - "$tmp/stats.json" "$BG_BUILD/cov-stats.txt" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
# an object cov cannot read is an error record; only the corpus's deliberately
# malformed object may be one
for e in (x["error"] for x in d if "error" in x):
    ok = e["file"].endswith("reject/malformed.o")
    print(("PASS" if ok else "FAIL") + f' cov/stats-unreadable/{e["file"].split("/")[-1]}: {e["message"][:160]}')
d = [x for x in d if "verdict" in x]
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
