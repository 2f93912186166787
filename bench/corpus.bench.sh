#!/usr/bin/env bash
# The kernel over the whole corpus: per program the kernel's processed
# instructions and verification time (TSV), whole-corpus wall time, counts
# by program type and verdict. Figures for the closing notes.
#   BG_BUILD=build bash bench/corpus.bench.sh
set -u
B=${BG_BUILD:-build}
C=${BG_CORPUS:-$B/corpus}
out="$B/bench"
mkdir -p "$out"
if [ ! -d "$C" ]; then echo "corpus bench: no corpus in $C (make corpus)"; exit 0; fi
t0=$(date +%s.%N)
"$B/bpfgate" corpus "$C" --verifier kernel --json -j2 --quiet >"$out/corpus-kernel.json" 2>"$out/corpus-kernel.err"
rc=$?
t1=$(date +%s.%N)
if [ $rc -ne 0 ]; then echo "corpus bench: bpfgate corpus exited $rc"; head -3 "$out/corpus-kernel.err"; exit 0; fi
python3 - "$out/corpus-kernel.json" "$out/corpus-kernel.tsv" "$C" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')" <<'PY'
import json, sys, collections
d = json.load(open(sys.argv[1])); root = sys.argv[3].rstrip('/') + '/'
recs = [r for r in d['records'] if r['verifier'] == 'kernel']
with open(sys.argv[2], 'w') as f:
    f.write('variant\tobject\tprogram\ttype\tverdict\tinsns\tinsns_processed\tverif_usec\tload_seconds\n')
    for r in recs:
        rel = r['object'][len(root):] if r['object'].startswith(root) else r['object']
        v, _, o = rel.partition('/')
        f.write('%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.6f\n' % (v, o, r['program'], r['type'], r['verdict'],
                r.get('insns', ''), r.get('insns_processed', ''), r.get('verif_usec', ''), r['seconds']))
by_type = collections.Counter(); by_verdict = collections.Counter(); by_variant = collections.Counter()
for r in recs:
    by_type[r['type']] += 1; by_verdict[r['verdict']] += 1
    by_variant[r['object'][len(root):].split('/')[0]] += 1
distinct = {(r['object'][len(root):].split('/', 1)[1], r['program']) for r in recs}
ins = sorted(r.get('insns_processed', 0) for r in recs if r['verdict'] == 'accepted')
vt = sorted(r.get('verif_usec', 0) for r in recs if 'verif_usec' in r)
s = d['summary'][0]
print('corpus: %d program loads (%d distinct programs x variants), %d objects, wall %s s (-j2)'
      % (len(recs), len(distinct), d['objects'], sys.argv[4]))
print('verdicts: ' + ', '.join('%s %d' % kv for kv in sorted(by_verdict.items())))
print('variants: ' + ', '.join('%s %d' % kv for kv in sorted(by_variant.items())))
print('types: ' + ', '.join('%s %d' % kv for kv in by_type.most_common()))
if ins:
    print('processed insns (accepted): median %d, p90 %d, max %d, sum %d'
          % (ins[len(ins)//2], ins[len(ins)*9//10], ins[-1], sum(ins)))
if vt:
    print('kernel verification time: median %d us, p90 %d us, max %d us, sum %.2f s'
          % (vt[len(vt)//2], vt[len(vt)*9//10], vt[-1], sum(vt)/1e6))
print('load time per program (incl. map creation): median %.2f ms, p90 %.2f ms, max %.2f s, sum %.1f s'
      % (s['median_seconds']*1e3, s['p90_seconds']*1e3, s['max_seconds'], s['sum_seconds']))
print('per-program TSV: ' + sys.argv[2])
PY
