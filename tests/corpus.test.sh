# bpfgate corpus: every recorded kernel verdict (corpus/expected.tsv) equals
# the live kernel's; the corpus holds what it promises; the comparison report
# works with external verifiers (accept-all / reject-all / broken scripts);
# -j gives the same records; list files and folders; bad input exits 2.
# min-pass: 1145 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
exp="$BG_ROOT/corpus/expected.tsv"
tmp=$(mktemp -d /tmp/bg-corpus.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# --- bad input (no kernel needed) ---
"$BPFGATE" corpus /nonexistent/x.o >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "/nonexistent/x.o" "$tmp/err" && pass corpus/bad-input/missing-path || fail corpus/bad-input/missing-path "rc=$rc $(head -1 "$tmp/err")"
"$BPFGATE" corpus --bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass corpus/bad-input/unknown-option || fail corpus/bad-input/unknown-option "rc=$rc"
printf 'does/not/exist.o\n' >"$tmp/list"
"$BPFGATE" corpus "$tmp/list" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "list:1" "$tmp/err" && pass corpus/bad-input/list-entry || fail corpus/bad-input/list-entry "rc=$rc $(cat "$tmp/err")"
"$BPFGATE" corpus -j 0 "$tmp" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass corpus/bad-input/jobs || fail corpus/bad-input/jobs "rc=$rc"
"$BPFGATE" corpus --external noequals "$tmp" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass corpus/bad-input/external || fail corpus/bad-input/external "rc=$rc"
"$BPFGATE" corpus --verifier nosuch "$tmp" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass corpus/bad-input/verifier || fail corpus/bad-input/verifier "rc=$rc"
"$BPFGATE" corpus --help | grep -q -- "--external" && pass corpus/help || fail corpus/help

if [ ! -d "$BG_CORPUS/c19" ] && [ ! -d "$BG_CORPUS/c14" ]; then
  skip corpus/live "no built corpus in $BG_CORPUS (make corpus)"; exit 0
fi

# --- the whole corpus through the kernel, once ---
t0=$(date +%s)
"$BPFGATE" corpus "$BG_CORPUS" --verifier kernel --json -j2 --quiet >"$tmp/run.json" 2>"$tmp/run.err"; rc=$?
t1=$(date +%s)
if [ $rc -ne 0 ]; then fail corpus/run "exit $rc: $(head -3 "$tmp/run.err")"; exit 0; fi
decided=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d['summary'][0]; print(s['accepted']+s['rejected'])" "$tmp/run.json")
if [ "$decided" = 0 ]; then
  why=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['records'][0]['message'] if d['records'] else 'no records')" "$tmp/run.json")
  skip corpus/live "bpf() unavailable: $why"; exit 0
fi
echo "# whole corpus through the kernel: $((t1 - t0)) s"
python3 "$BG_ROOT/tests/corpus/compare.py" "$exp" "$tmp/run.json" "$BG_CORPUS" --counts

# --- comparison report with trivial external verifiers, on a small subset ---
sub=()
for o in c19/reject/packet.o c19/reject/stack_ctx.o c19/accept/parsers.o; do
  [ -f "$BG_CORPUS/$o" ] && sub+=("$BG_CORPUS/$o")
done
if [ ${#sub[@]} -eq 3 ]; then
  printf '#!/bin/sh\necho "looks fine to me: $2/$3"\nexit 0\n' >"$tmp/yes.sh"
  printf '#!/bin/sh\necho "no: $3"\nexit 1\n' >"$tmp/no.sh"
  printf '#!/bin/sh\necho "crashed"\nexit 3\n' >"$tmp/broken.sh"
  "$BPFGATE" corpus "${sub[@]}" --external "yes=sh $tmp/yes.sh {obj} {section} {prog}" \
    --external "no=sh $tmp/no.sh {obj} {section} {prog}" --external "broken=sh $tmp/broken.sh" \
    --json -j2 --quiet >"$tmp/ext.json" 2>"$tmp/ext.err"; rc=$?
  "$BPFGATE" corpus "${sub[@]}" --external "yes=sh $tmp/yes.sh {obj} {section} {prog}" --quiet \
    >"$tmp/ext.txt" 2>&1
  [ $rc -eq 0 ] && python3 - "$tmp/ext.json" "$tmp/ext.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read()
S = {s['verifier']: s for s in d['summary']}
R = d['records']
def rec(v, prog):
    return next(r for r in R if r['verifier'] == v and r['program'] == prog)
k = S['kernel']
def check(name, ok, why=''):
    print(('PASS ' + name) if ok else ('FAIL %s: %s' % (name, why)))
check('corpus/external/accept-all-matrix',
      S['yes']['acc_acc'] == k['accepted'] and S['yes']['acc_rej'] == k['rejected'] and S['yes']['rej_acc'] == 0,
      str(S['yes']))
check('corpus/external/reject-all-matrix',
      S['no']['rej_acc'] == k['accepted'] and S['no']['rej_rej'] == k['rejected'], str(S['no']))
check('corpus/external/broken-is-unavailable',
      S['broken']['unavailable'] == S['broken']['accepted'] + S['broken']['rejected'] + S['broken']['unavailable']
      and S['broken']['unavailable'] > 0, str(S['broken']))
r = rec('yes', 'xdp_no_bounds_check')
check('corpus/external/unsoundness-flag', r.get('disagreement') == 'POSSIBLE UNSOUNDNESS', str(r))
r = rec('yes', 'sock_redirect_not_allowed')
check('corpus/external/policy-flag', r.get('disagreement') == 'policy', str(r))
r = rec('no', 'xdp_tcp_flags')
check('corpus/external/imprecision-flag', r.get('disagreement') == 'imprecision', str(r))
check('corpus/external/message', rec('no', 'xdp_tcp_flags')['message'] == 'no: xdp_tcp_flags',
      rec('no', 'xdp_tcp_flags')['message'])
check('corpus/external/text-report', 'POSSIBLE UNSOUNDNESS' in txt and 'agreement rate' in txt
      and 'kernel: R1 offset is outside of the packet' in txt, txt[:300])
PY
  [ $rc -eq 0 ] || fail corpus/external/run "exit $rc: $(head -3 "$tmp/ext.err")"

  # -j1 and -j2 give the same records; a list file and a folder are accepted
  printf '%s\n' "${sub[@]}" >"$tmp/objs.list"
  "$BPFGATE" corpus "$tmp/objs.list" --json --quiet >"$tmp/j1.json" 2>/dev/null
  "$BPFGATE" corpus "${sub[@]}" --json -j3 --quiet --tsv "$tmp/track.tsv" >"$tmp/j3.json" 2>/dev/null
  python3 - "$tmp/j1.json" "$tmp/j3.json" "$tmp/track.tsv" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))['records']; b = json.load(open(sys.argv[2]))['records']
key = lambda r: (r['object'], r['program'], r['verifier'], r['verdict'], r['message'])
ok = sorted(map(key, a)) == sorted(map(key, b)) and len(a) > 0
print('PASS corpus/jobs-and-list-same-records' if ok else 'FAIL corpus/jobs-and-list-same-records: %d vs %d' % (len(a), len(b)))
rows = open(sys.argv[3]).read().splitlines()
ok = rows[0].startswith('object\tprogram\tsection\ttype\tkernel_verdict') and len(rows) == 1 + len(a)
print('PASS corpus/tsv' if ok else 'FAIL corpus/tsv: %d rows for %d records: %s' % (len(rows), len(a), rows[:2]))
PY
else
  skip corpus/external "subset objects missing under $BG_CORPUS"
fi

# --- an external verifier that hangs is cut off and reported unavailable ---
if [ -f "$BG_CORPUS/c19/reject/cve.o" ]; then
  t0=$(date +%s)
  "$BPFGATE" corpus "$BG_CORPUS/c19/reject/cve.o" --external 'slow=sleep 30' --timeout 0.3 --json \
    --quiet >"$tmp/slow.json" 2>&1; rc=$?
  t1=$(date +%s)
  python3 - "$tmp/slow.json" $rc $((t1 - t0)) <<'PY'
import json, sys
rc, secs = int(sys.argv[2]), int(sys.argv[3])
try:
    recs = [r for r in json.load(open(sys.argv[1]))['records'] if r['verifier'] == 'slow']
except Exception as e:
    recs = []
ok = rc == 0 and recs and all(r['verdict'] == 'unavailable' and r['message'] == 'timed out' for r in recs) and secs < 25
print('PASS corpus/external/timeout' if ok else 'FAIL corpus/external/timeout: rc=%d %ds %s' % (rc, secs, recs[:1]))
PY
fi

# --- kernel,bpfgate end to end (bpfgate may still be unavailable) ---
if [ ${#sub[@]} -ge 1 ]; then
  "$BPFGATE" corpus "${sub[0]}" --verifier kernel,bpfgate --quiet >"$tmp/bg.txt" 2>&1; rc=$?
  [ $rc -eq 0 ] && grep -q "^bpfgate:" "$tmp/bg.txt" && pass corpus/verifier-bpfgate-runs \
    || fail corpus/verifier-bpfgate-runs "rc=$rc $(head -3 "$tmp/bg.txt")"
fi
