#!/usr/bin/env bash
# Pointer comparisons with 0 on BTF pointers (tests/data/check/nullcmp_btf.bpf.c):
# bpfgate check must decide each as the program name's suffix says, and the
# running kernel (when it can load the program type) must agree.
# min-pass: 4 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
if ! command -v clang-19 >/dev/null; then skip check_nullcmp "clang-19 not installed"; exit 0; fi
if [ ! -f "$BG_NORMAL_BUILD/vmlinux.h" ]; then skip check_nullcmp "no $BG_NORMAL_BUILD/vmlinux.h"; exit 0; fi
src=$BG_ROOT/tests/data/check/nullcmp_btf.bpf.c
clang-19 -O2 -g -target bpf -I "$BG_NORMAL_BUILD" -I/usr/include/x86_64-linux-gnu -c "$src" -o "$T/n.o" \
  2>"$T/cc" || { fail check_nullcmp_build "$(head -3 "$T/cc")"; exit 0; }
"$BPFGATE" check --json "$T/n.o" >"$T/ours.json" 2>/dev/null
if kernel_ok; then "$BPFGATE" kload --json "$T/n.o" >"$T/kern.json" 2>/dev/null; else echo '[]' >"$T/kern.json"; fi
python3 - "$T/ours.json" "$T/kern.json" <<'PY'
import json, sys
ours = {r["program"]: r["verdict"] for r in json.load(open(sys.argv[1]))}
try:
    kern = {r["program"]: r["verdict"] for r in json.load(open(sys.argv[2]))}
except Exception:
    kern = {}
if not ours:
    print("FAIL check_nullcmp: no verdicts from bpfgate check")
for prog, v in sorted(ours.items()):
    want = "accepted" if prog.endswith("_accept") else "rejected"
    name = "check_nullcmp/" + prog
    k = kern.get(prog)
    if v != want:
        print(f"FAIL {name}: bpfgate {v}, expected {want}")
    elif k in ("accepted", "rejected") and k != want:
        print(f"FAIL {name}: the kernel says {k}, the expectation {want}")
    else:
        note = f" (kernel: {k})" if k else ""
        print(f"PASS {name}{note}" if k else f"PASS {name}")
PY
