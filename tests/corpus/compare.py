#!/usr/bin/env python3
"""Compare a `bpfgate corpus --json` run with corpus/expected.tsv.

usage: compare.py EXPECTED.TSV RUN.JSON CORPUS_DIR [--counts]
Prints one PASS/FAIL/XFAIL line per recorded program and a few whole-corpus
checks (counts required by the corpus issue)."""
import json
import re
import sys


def main():
    exp_path, run_path, root = sys.argv[1], sys.argv[2], sys.argv[3].rstrip('/') + '/'
    expected = {}
    patterns = {}
    with open(exp_path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            v, obj, prog, verdict, regex, pattern = (line.rstrip('\n').split('\t') + [''] * 6)[:6]
            expected[(v, obj, prog)] = (verdict, regex)
            patterns[(obj, prog)] = pattern
    run = json.load(open(run_path))
    live = {}
    refused = {}
    for r in run['records']:
        if r['verifier'] != 'kernel':
            continue
        rel = r['object'][len(root):] if r['object'].startswith(root) else r['object']
        v, _, obj = rel.partition('/')
        if r['program'] == '-':
            refused[(v, obj)] = r['message']
            continue
        live[(v, obj, r['program'])] = r
    for key in sorted(expected):
        v, obj, prog = key
        name = 'corpus/%s/%s/%s' % (v, obj.replace('.o', ''), prog)
        verdict, regex = expected[key]
        r = live.get(key)
        if r is None:
            if (v, obj) in refused:
                print('XFAIL %s: bpfgate loader refuses the object: %s' % (name, refused[(v, obj)]))
            else:
                print('FAIL %s: recorded but not in the live run (object not built?)' % name)
            continue
        if r['verdict'] != verdict:
            print('FAIL %s: recorded %s, live kernel %s: %s' % (name, verdict, r['verdict'], r['message']))
        elif verdict == 'rejected' and regex and not re.search(regex, r['message']):
            print('FAIL %s: message %r does not match recorded pattern %r' % (name, r['message'], regex))
        else:
            print('PASS %s' % name)
    for key in sorted(set(live) - set(expected)):
        print('FAIL corpus/%s/%s/%s: live program has no recorded verdict (run corpus/record.sh)' % key)

    # Counts the corpus promises (on the recorded data, per distinct source program).
    def progs(dirname, verdict):
        return {(o, p) for (v, o, p), (vd, _) in expected.items()
                if o.startswith(dirname + '/') and vd == verdict and v == 'c19'}
    acc = progs('accept', 'accepted')
    types = {r['type'] for k, r in live.items() if k[1].startswith('accept/') and r['verdict'] == 'accepted'}
    rej = progs('reject', 'rejected')
    pats = {patterns.get(k, '') for k in rej} - {''}
    corr = progs('correlated', 'accepted')
    size_of = {}
    for (v, o, p), r in live.items():
        if r['verdict'] == 'accepted':
            size_of[(o, p)] = max(size_of.get((o, p), 0), r['insns'])
    sizes = sorted(size_of.values(), reverse=True)
    checks = [
        ('corpus/count/accepted>=200', len(acc) >= 200, '%d accepted programs in accept/' % len(acc)),
        ('corpus/count/types>=10', len(types) >= 10, '%d program types: %s' % (len(types), ' '.join(sorted(types)))),
        ('corpus/count/rejected-patterns>=80', len(pats) >= 80, '%d distinct named patterns over %d rejected programs' % (len(pats), len(rej))),
        ('corpus/count/correlated>=30', len(corr) >= 30, '%d accepted correlated programs' % len(corr)),
        ('corpus/count/over-1000-insns', sum(1 for s in sizes if s > 1000) >= 3, 'largest accepted: %s' % sizes[:5]),
        ('corpus/count/over-10000-insns', sum(1 for s in sizes if s > 10000) >= 2, 'largest accepted: %s' % sizes[:5]),
        ('corpus/intent/accept-dirs-accepted',
         all(vd == 'accepted' for (v, o, p), (vd, _) in expected.items() if not o.startswith('reject/')),
         'not accepted: %s' % sorted(k for k, (vd, _) in expected.items() if not k[1].startswith('reject/') and vd != 'accepted')[:5]),
        ('corpus/intent/reject-dir-rejected',
         all(vd == 'rejected' for (v, o, p), (vd, _) in expected.items() if o.startswith('reject/')),
         'not rejected: %s' % sorted(k for k, (vd, _) in expected.items() if k[1].startswith('reject/') and vd != 'rejected')[:5]),
        ('corpus/count/every-reject-named', all(patterns.get(k) for k in rej), 'unnamed: %s' % sorted(k for k in rej if not patterns.get(k))[:5]),
    ]
    if '--counts' not in sys.argv:
        return
    for name, ok, why in checks:
        print(('PASS %s' % name) if ok else ('FAIL %s: %s' % (name, why)))


main()
