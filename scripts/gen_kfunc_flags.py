#!/usr/bin/env python3
"""Extract the kfunc registrations of a Linux source tree: every
`BTF_ID_FLAGS(func, NAME, KF_...)` inside a `BTF_KFUNCS_START(set) ...
BTF_KFUNCS_END(set)` block, the `struct btf_kfunc_id_set` that points at the
block (`.set = &set`, optional `.filter = fn`) and the program types it is
registered for (`register_btf_kfunc_id_set(BPF_PROG_TYPE_X, &desc)`;
UNSPEC = every type; `register_btf_fmodret_id_set` = fmod_ret targets).

  scripts/gen_kfunc_flags.py extract SRC > scripts/data/kfunc-flags-6.12.txt
  scripts/gen_kfunc_flags.py compare scripts/data/kfunc-flags-6.12.txt
  scripts/gen_kfunc_flags.py types scripts/data/kfunc-flags-6.12.txt 6.12 \
      > src/platform/kfunc_kver.def

extract prints one line per (kfunc, set):
  NAME FLAGS TYPES file:set [filter=FN] [if=CONFIG_A,!CONFIG_B]
FLAGS is `KF_A|KF_B` or `-`, TYPES a comma list of BPF_PROG_TYPE_ suffixes
(`?` when a registration names a variable, `-` when none was found). The
`if=` field lists the #ifdef/#if IS_ENABLED conditions around the row.
Test-only trees (tools/, samples/) are skipped.

compare reads src/platform/kfuncs.def and prints, for every kfunc of the
extract, the KF_* flags bpfgate's row restates (BG_HF_*) that differ, and
the kfuncs without a row. It exits 0; it is a report for the person editing
kfuncs.def, which stays the product (hand-checked rows).
"""
import os
import re
import sys

SKIP_DIRS = ("tools", "samples", "Documentation", "scripts")

RE_START = re.compile(r'^\s*BTF_(?:KFUNCS|SET8)_START\((\w+)\)')
RE_END = re.compile(r'^\s*BTF_(?:KFUNCS|SET8)_END\((\w+)\)')
RE_FLAGS = re.compile(r'^\s*BTF_ID_FLAGS\(\s*func\s*,\s*(\w+)\s*(?:,\s*([^)]*))?\)')
RE_DESC = re.compile(r'struct\s+btf_kfunc_id_set\s+(\w+)\s*=\s*\{([^}]*)\}', re.S)
RE_REG = re.compile(r'register_btf_(kfunc|fmodret)_id_set\(\s*(?:(\w+)\s*,\s*)?&(\w+)\s*\)')
RE_COND = re.compile(r'^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)')


def cond_of(kind, rest):
    rest = rest.strip()
    if kind == "ifdef":
        return rest
    if kind == "ifndef":
        return "!" + rest
    m = re.match(r'(!?)\s*(?:IS_ENABLED|defined|IS_BUILTIN)\s*\(\s*(\w+)\s*\)$', rest)
    if m:
        return m.group(1) + m.group(2)
    return rest.replace(" ", "")


def join_rows(text):
    """Lines with a BTF_ID_FLAGS( row that continues on the next lines
    joined into one."""
    out, acc = [], None
    for ln in text.splitlines():
        if acc is not None:
            acc += " " + ln.strip()
            if ")" in ln:
                out.append(acc)
                acc = None
            continue
        if "BTF_ID_FLAGS(" in ln and ")" not in ln:
            acc = ln
            continue
        out.append(ln)
    return out


def xdp_metadata_rows(src, text):
    """net/core/xdp.c lists its kfuncs through XDP_METADATA_KFUNC_xxx
    (include/net/xdp.h): the third argument of each entry, with the flags of
    the file's `#define XDP_METADATA_KFUNC(...) BTF_ID_FLAGS(func, name, F)`."""
    d = re.search(r'#define XDP_METADATA_KFUNC\([^)]*\)\s*BTF_ID_FLAGS\(func,\s*\w+\s*(?:,\s*([^)]*))?\)', text)
    hdr = os.path.join(src, "include/net/xdp.h")
    if not d or not os.path.exists(hdr):
        return []
    h = open(hdr).read().replace("\\\n", " ")
    m = re.search(r'#define XDP_METADATA_KFUNC_xxx(.*)', h)
    names = re.findall(r'XDP_METADATA_KFUNC\(\s*\w+\s*,\s*\w+\s*,\s*(\w+)\s*,', m.group(1)) if m else []
    return ["BTF_ID_FLAGS(func, %s%s)" % (n, ", " + d.group(1) if d.group(1) else "") for n in names]


def scan_file(path, rel, out, src):
    text = open(path, errors="replace").read()
    if "BTF_ID_FLAGS" not in text:
        return
    descs = {}
    for m in RE_DESC.finditer(text):
        body = m.group(2)
        s = re.search(r'\.set\s*=\s*&(\w+)', body)
        f = re.search(r'\.filter\s*=\s*(\w+)', body)
        if s:
            descs[m.group(1)] = (s.group(1), f.group(1) if f else None)
    types = {}
    for m in RE_REG.finditer(re.sub(r'\s+', ' ', text)):
        kind, pt, desc = m.groups()
        if desc not in descs:
            continue
        if kind == "fmodret":
            t = "FMODRET"
        elif pt and pt.startswith("BPF_PROG_TYPE_"):
            t = pt[len("BPF_PROG_TYPE_"):]
        else:
            t = "?"
        types.setdefault(descs[desc][0], []).append(t)
    filters = {s: f for s, f in descs.values() if f}
    conds, cur = [], None
    lines = []
    for ln in join_rows(text):
        lines += xdp_metadata_rows(src, text) if ln.strip() == "XDP_METADATA_KFUNC_xxx" else [ln]
    for ln in lines:
        c = RE_COND.match(ln)
        if c:
            kind, rest = c.groups()
            if kind in ("ifdef", "ifndef", "if"):
                conds.append(cond_of(kind, rest))
            elif kind in ("elif", "else") and conds:
                conds[-1] = "!(" + conds[-1] + ")" if kind == "else" else cond_of("if", rest)
            elif kind == "endif" and conds:
                conds.pop()
            continue
        m = RE_START.match(ln)
        if m:
            cur = m.group(1)
            base = len(conds)
            continue
        if cur and RE_END.match(ln):
            cur = None
            continue
        m = RE_FLAGS.match(ln)
        if not cur or not m:
            continue
        flags = [f.strip() for f in (m.group(2) or "").split("|") if f.strip()]
        t = types.get(cur)
        row = [m.group(1), "|".join(sorted(flags)) or "-", ",".join(sorted(set(t))) if t else "-",
               "%s:%s" % (rel, cur)]
        if cur in filters:
            row.append("filter=" + filters[cur])
        if conds[base:]:
            row.append("if=" + ",".join(conds[base:]))
        out.append(row)


def hooks(src):
    """The program types of each kfunc hook: kernel/bpf/btf.c
    bpf_prog_type_to_kfunc_hook (`case BPF_PROG_TYPE_X: ... return HOOK;`)."""
    text = open(os.path.join(src, "kernel/bpf/btf.c")).read()
    i = text.index("static int bpf_prog_type_to_kfunc_hook(")
    body = text[i:text.index("\n}\n", i)]
    out, pending = [], []
    for ln in body.splitlines():
        m = re.match(r'\s*case BPF_PROG_TYPE_(\w+):', ln)
        if m:
            pending.append(m.group(1))
        m = re.match(r'\s*return BTF_KFUNC_HOOK_(\w+);', ln)
        if m:
            out += ["#hook %s %s" % (t, m.group(1)) for t in pending]
            pending = []
    return out


def extract(src):
    out = []
    for h in hooks(src):
        print(h)
    for root, dirs, files in os.walk(src):
        rel_root = os.path.relpath(root, src)
        if rel_root.split(os.sep)[0] in SKIP_DIRS:
            dirs[:] = []
            continue
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".c"):
                scan_file(os.path.join(root, f), os.path.normpath(os.path.join(rel_root, f)), out, src)
    for row in sorted(out):
        print(" ".join(row))


# KF_* -> the BG_HF_* bit kfuncs.def restates it with
KF_TO_HF = {
    "KF_ACQUIRE": "BG_HF_ACQUIRE",
    "KF_RELEASE": "BG_HF_RELEASE",
    "KF_RET_NULL": "BG_HF_RET_NULL",
    "KF_TRUSTED_ARGS": "BG_HF_TRUSTED_ARGS",
    "KF_RCU": "BG_HF_RCU",
    "KF_DESTRUCTIVE": "BG_HF_DESTRUCTIVE",
    "KF_ITER_NEW": "BG_HF_ITER_NEW",
    "KF_ITER_NEXT": "BG_HF_ITER_NEXT",
    "KF_ITER_DESTROY": "BG_HF_ITER_DESTROY",
    "KF_FASTCALL": "BG_HF_FASTCALL",
    "KF_RCU_PROTECTED": "BG_HF_RCU_PROTECTED",
}


def def_rows(path="src/platform/kfuncs.def"):
    rows = {}
    for ln in open(path):
        m = re.match(r'BG_KFUNC\((\w+),(.*)\)', ln)
        if m:
            args = [a.strip() for a in m.group(2).split(",")]
            rows[m.group(1)] = set(f.strip() for f in args[7].split("|")) if len(args) > 7 else set()
    return rows


def compare(data):
    rows = def_rows()
    seen = set()
    for ln in open(data):
        f = ln.split()
        if ln.startswith("#"):
            continue
        name, flags = f[0], set() if f[1] == "-" else set(f[1].split("|"))
        if name in seen:
            continue
        seen.add(name)
        if name not in rows:
            print("no row: %s %s %s" % (name, f[1], f[2]))
            continue
        want = set(KF_TO_HF[k] for k in flags if k in KF_TO_HF)
        have = set(h for h in rows[name] if h in KF_TO_HF.values())
        if want != have:
            print("differs: %s source %s row %s" % (name, "|".join(sorted(want)) or "-",
                                                    "|".join(sorted(have)) or "-"))


# What a set's .filter lets through, by program type (the filter's source,
# read by hand; a filter not listed here stops the generator). Filters by
# expected attach type are platform/helpers.c kfunc_attach's business.
FILTER_TYPES = {
    "bpf_fs_kfuncs_filter": {"LSM"},            # fs/bpf_fs_kfuncs.c: LSM only
    "bpf_get_fsverity_digest_filter": {"LSM"},  # fs/verity/measure.c: LSM only
    "tracing_iter_filter": None,                # net/core/filter.c: BPF_TRACE_ITER attach
    "bpf_kprobe_multi_filter": None,            # kernel/trace/bpf_trace.c: kprobe.session
}


def prog_type_numbers(path="src/platform/sections.h"):
    text = open(path).read()
    block = text[text.index("#define BG_PROG_TYPES"):text.index("#define BG_ATTACH_TYPES")]
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r'X\(\s*(\w+)\s*,\s*(\d+)\s*,\s*"[a-z0-9_]+"\s*\)', block)}


def types(data, release):
    """src/platform/kfunc_kver.def: per kfunc, the program types its sets
    are registered for in the release the extract was made from (a type
    counts through its kfunc hook; UNSPEC = the common hook = every type;
    FMODRET = fmod_ret targets, not callable)."""
    nums = prog_type_numbers()
    by_hook, hook_of = {}, {}
    rows = []
    for n, ln in enumerate(open(data), 1):
        f = ln.split()
        if f[0] == "#hook":
            by_hook.setdefault(f[2], set()).add(f[1])
            hook_of[f[1]] = f[2]
            continue
        rows.append((n, f))
    masks = {}
    for n, f in rows:
        name, regs = f[0], f[2].split(",")
        filt = next((x[7:] for x in f[4:] if x.startswith("filter=")), None)
        if filt and filt not in FILTER_TYPES:
            sys.exit("%s:%d: unknown filter %s" % (data, n, filt))
        allowed = set()
        for t in regs:
            if t == "UNSPEC":
                allowed |= set(nums) - {"UNSPEC"}
            elif t in hook_of:
                allowed |= by_hook[hook_of[t]]
            elif t not in ("FMODRET", "-"):
                sys.exit("%s:%d: registration %s has no kfunc hook" % (data, n, t))
        if filt and FILTER_TYPES[filt] is not None:
            allowed &= FILTER_TYPES[filt]
        m = 0
        for t in allowed:
            if t not in nums:
                sys.exit("%s:%d: unknown program type %s" % (data, n, t))
            m |= 1 << nums[t]
        masks[name] = masks.get(name, 0) | m
    maj, mnr = release.split(".")
    print("/* GENERATED by scripts/gen_kfunc_flags.py types %s %s: do not edit." % (data, release))
    print(" * BG_KFUNC_KVER(name, type mask, release): the program types the kfunc sets")
    print(" * of that release register a kfunc for (bit n = enum bpf_prog_type n), through")
    print(" * kernel/bpf/btf.c's kfunc hooks and the sets' program-type filters; sorted. */")
    for name in sorted(masks):
        print('BG_KFUNC_KVER("%s", 0x%xull, BG_KVER(%s, %s))' % (name, masks[name], maj, mnr))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "types":
        types(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if len(sys.argv) == 3 and sys.argv[1] == "extract":
        extract(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "compare":
        compare(sys.argv[2])
    else:
        sys.exit(__doc__)
