#!/usr/bin/env python3
"""Agreement of `bpfgate check` with the kernel on the project corpus.

The kernel's verdict per program is the one recorded in corpus/expected.tsv
(re-checked against the running kernel by the corpus's own test). Each
program prints PASS when bpfgate agrees; a known disagreement listed in
tests/data/check/corpus-xfail.txt ("variant/object:program reason") prints
XFAIL; any other disagreement is a FAIL, and so is an agreement rate below
97% of decided programs. bpfgate accepting a program the kernel rejects is
only tolerated when the xfail reason starts with "policy:".
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BG_BUILD", os.path.join(ROOT, "build"))
CORPUS = os.environ.get("BG_CORPUS", os.path.join(ROOT, "build", "corpus"))
BPFGATE = os.path.join(BUILD, "bpfgate")


def load_xfail():
    x = {}
    p = os.path.join(ROOT, "tests/data/check/corpus-xfail.txt")
    if os.path.exists(p):
        for line in open(p):
            line = line.strip()
            if line and not line.startswith("#"):
                k, _, why = line.partition(" ")
                x[k] = why.strip()
    return x


def main():
    tsv = os.path.join(ROOT, "corpus/expected.tsv")
    if not os.path.exists(tsv) or not os.path.isdir(CORPUS):
        print("SKIP check_corpus: no corpus (corpus/expected.tsv or %s missing)" % CORPUS)
        return 0
    xfail = load_xfail()
    rows = []
    for line in open(tsv):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows.append((f[0], f[1], f[2], f[3]))
    ours = {}
    crashed = []
    for obj in sorted({(r[0], r[1]) for r in rows}):
        path = os.path.join(CORPUS, obj[0], obj[1])
        if not os.path.exists(path):
            continue
        r = subprocess.run([BPFGATE, "check", "--json", path], capture_output=True, text=True)
        if r.returncode > 2 or r.returncode < 0 or "runtime error" in r.stderr or "Sanitizer" in r.stderr:
            print("FAIL corpus %s/%s: bpfgate check crashed (status %d): %s"
                  % (obj[0], obj[1], r.returncode, r.stderr.strip()[-300:]))
            crashed.append(obj)
        try:
            for rec in json.loads(r.stdout or "[]"):
                ours[(obj[0], obj[1], rec["program"])] = rec
        except ValueError:
            pass
    agree = decided = 0
    failed = 0
    unsound = 0
    for v, o, p, kv in rows:
        name = "%s/%s:%s" % (v, o, p)
        rec = ours.get((v, o, p))
        if kv not in ("accepted", "rejected"):
            continue
        if rec is None:
            print("SKIP corpus %s: no bpfgate verdict (object missing or not loadable)" % name)
            continue
        bv = rec["verdict"]
        if bv == "unavailable":
            print("SKIP corpus %s: bpfgate unavailable: %s" % (name, rec.get("message")))
            continue
        decided += 1
        if bv == kv:
            agree += 1
            print("PASS corpus %s" % name)
            continue
        why = xfail.get(name)
        if bv == "accepted":
            unsound += 1
            if why and why.startswith("policy:"):
                print("XFAIL corpus %s: bpfgate accepts, kernel rejects: %s" % (name, why))
                continue
            print("FAIL corpus %s: bpfgate ACCEPTS a program the kernel rejects%s" % (name, " (%s)" % why if why else ""))
            failed += 1
            continue
        if why:
            print("XFAIL corpus %s: bpfgate rejects (%s): %s" % (name, rec.get("message"), why))
            continue
        print("FAIL corpus %s: bpfgate rejects a program the kernel accepts: %s" % (name, rec.get("message")))
        failed += 1
    rate = 100.0 * agree / decided if decided else 100.0
    line = "agreement %.1f%% (%d of %d decided), accepted-but-kernel-rejected %d" % (rate, agree, decided, unsound)
    if rate < 97.0:
        print("FAIL corpus_agreement: %s, below 97%%" % line)
        failed += 1
    else:
        print("PASS corpus_agreement: %s" % line)
    return 1 if failed or crashed else 0


if __name__ == "__main__":
    sys.exit(main())
