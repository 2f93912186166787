#!/usr/bin/env bash
# make demo: the main job on the bundled examples. For every program of every
# example object: name, type, instruction count, the running kernel's verdict
# (bpfgate kload) and, once `bpfgate check` exists, ours side by side.
set -u
B=${BG_BUILD:-build}
BPFGATE="$B/bpfgate"
tmp=$(mktemp -d /tmp/bg-demo.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if "$BPFGATE" kload --probe >"$tmp/probe" 2>&1; then
  echo "kernel: $(uname -r), bpf() available - kernel verdicts are live"
else
  echo "kernel: $(uname -r), $(head -1 "$tmp/probe") - kernel verdicts show as unavailable"
fi
have_check=0
if "$BPFGATE" check --help >/dev/null 2>&1; then
  have_check=1
else
  echo "bpfgate check: not available yet - showing the kernel's verdicts only"
fi
echo

objs=("$B"/examples/*.bpf.o)
[ -f "${objs[0]}" ] || { echo "demo: no example objects in $B/examples (run make)" >&2; exit 2; }
for o in "${objs[@]}"; do
  b=$(basename "$o" .bpf.o)
  "$BPFGATE" kload --json --log-level 4 "$o" >"$tmp/$b.kload.json" 2>"$tmp/$b.kload.err"
  if [ $have_check = 1 ]; then
    "$BPFGATE" check --json "$o" >"$tmp/$b.check.json" 2>"$tmp/$b.check.err"
  fi
done

python3 - "$tmp" "$have_check" "${objs[@]}" <<'PY'
import json, os, sys
tmp, have_check, objs = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]

def load(path):
    try:
        data = json.load(open(path))
    except Exception:
        return None
    if isinstance(data, dict):  # tolerate {"programs": [...]} shapes
        data = data.get("programs", [])
    return {r.get("program"): r for r in data if isinstance(r, dict)}

cols = ["object", "program", "type", "insns", "kernel", "processed", "kernel_us"]
if have_check:
    cols += ["bpfgate", "bpfgate_us", "agree"]
rows, agree, compared, accepted, total, notes = [], 0, 0, 0, 0, []
for o in objs:
    b = os.path.basename(o)[:-len(".bpf.o")]
    k = load(f"{tmp}/{b}.kload.json")
    if k is None:
        err = open(f"{tmp}/{b}.kload.err").read().strip().splitlines()
        rows.append([b, "-", "-", "-", "error: " + (err[0] if err else "kload failed")])
        continue
    c = load(f"{tmp}/{b}.check.json") if have_check else None
    for name, r in k.items():
        total += 1
        accepted += r["verdict"] == "accepted"
        row = [b, name, r["type"], str(r["insns"]), r["verdict"],
               str(r["processed"]) if r["processed"] >= 0 else "-",
               str(r["verif_time_us"]) if r["verif_time_us"] >= 0 else "-"]
        if have_check:
            mine = (c or {}).get(name, {})
            ours = mine.get("verdict", "-")
            secs = mine.get("seconds")
            ours_us = f"{secs * 1e6:.0f}" if isinstance(secs, (int, float)) else "-"
            same = "-"
            if ours != "-" and r["verdict"] != "unavailable":
                compared += 1
                same = "yes" if ours == r["verdict"] else "NO"
                agree += same == "yes"
                if same == "NO":
                    cm = (c or {}).get(name, {}).get("message") or ""
                    km = (r["message"] or "").splitlines()
                    km = f" ({km[-1]})" if km else ""
                    cm = f" ({cm})" if cm and ours != "accepted" else ""
                    notes.append(f"{b}/{name}: kernel {r['verdict']}{km}, bpfgate {ours}{cm}")
            row += [ours, ours_us, same]
        rows.append(row)
width = [max(len(str(x[i])) if i < len(x) else 0 for x in rows + [cols]) for i in range(len(cols))]
print("  ".join(h.ljust(w) for h, w in zip(cols, width)))
print("  ".join("-" * w for w in width))
for r in rows:
    print("  ".join(str(v).ljust(w) for v, w in zip(r, width)).rstrip())
print()
print(f"{total} programs in {len(objs)} objects; kernel accepted {accepted}")
print("kernel_us: the kernel's own verification time (log level 4, one load); "
      + ("bpfgate_us: bpfgate check's analysis time" if have_check else ""))
for n in notes:
    print("  disagreement: " + n)
if have_check:
    print(f"bpfgate check agrees with the kernel on {agree} of {compared} programs the kernel could judge")
PY
