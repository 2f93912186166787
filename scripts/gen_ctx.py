#!/usr/bin/env python3
"""Generate src/platform/ctx.def, the context layouts, from the kernel's answers.

Inputs:
  scripts/data/ctx-6.18/fields.txt  struct members from the running kernel's BTF
                                    (`build/tests/test_platform_kernel --dump-fields`)
  scripts/data/ctx-6.18/access.txt  which (offset, size, read/write) each program
                                    type / attach type may do on its ctx, one tiny
                                    program per access (`... --dump-ctx`)
  VAL below                         what a load of a pointer field yields (the
                                    kernel's reg_type for it, from the uapi docs)

A field accepts an access (off, size) iff it covers [off, off+size), off is a
multiple of size and size is in its read/write size set. Array elements that
accept the same accesses are grouped into one field ("cb", "user_ip6") so that
8-byte accesses across two elements are expressed. The generator checks that
the resulting table predicts every probed access exactly and fails otherwise.

Usage: python3 scripts/gen_ctx.py > src/platform/ctx.def
"""
import re
import sys

DATA = "scripts/data/ctx-6.18/"

VAL = {
    ("__sk_buff", "data"): "PKT", ("__sk_buff", "data_end"): "PKT_END",
    ("__sk_buff", "data_meta"): "PKT_META", ("__sk_buff", "sk"): "SOCK_COMMON_OR_NULL",
    ("__sk_buff", "flow_keys"): "FLOW_KEYS",
    ("xdp_md", "data"): "PKT", ("xdp_md", "data_end"): "PKT_END", ("xdp_md", "data_meta"): "PKT_META",
    ("bpf_sock_addr", "sk"): "SOCKET",
    ("bpf_sock_ops", "sk"): "SOCKET_OR_NULL", ("bpf_sock_ops", "skb_data"): "PKT",
    ("bpf_sock_ops", "skb_data_end"): "PKT_END",
    ("sk_msg_md", "data"): "PKT", ("sk_msg_md", "data_end"): "PKT_END", ("sk_msg_md", "sk"): "SOCKET",
    ("sk_reuseport_md", "data"): "PKT", ("sk_reuseport_md", "data_end"): "PKT_END",
    ("sk_reuseport_md", "sk"): "SOCKET", ("sk_reuseport_md", "migrating_sk"): "SOCK_COMMON_OR_NULL",
    ("bpf_sk_lookup", "sk"): "SOCKET_OR_NULL",
    ("bpf_sockopt", "sk"): "SOCKET", ("bpf_sockopt", "optval"): "PKT",
    ("bpf_sockopt", "optval_end"): "PKT_END",
}
BTF = {("bpf_nf_ctx", "state"): "nf_hook_state", ("bpf_nf_ctx", "skb"): "sk_buff"}
# Layouts without a fixed struct: (name, struct name shown, size, fields)
# fields: (name, off, size, val) -- sizes come from the measurements.
SYNTH = {
    "tracepoint": ("tracepoint args", 8192, [("args", 8, 8184, "SCALAR")]),
    "raw_tp": ("raw tracepoint args", 96, [("args", 0, 96, "CTX_ARG")]),
    "raw_tp_w": ("raw tracepoint args", 96, [("arg0", 0, 8, "TP_BUFFER"), ("args", 1, 95, "CTX_ARG")]),
    "tp_btf": ("tracing args", 96, [("args", 0, 96, "CTX_ARG")]),
    # struct bpf_iter__<target>: meta, the object, then target-specific
    # members (task_vma: vma; tcp: uid...) typed by the target's BTF
    "iter": ("iterator ctx", 64, [("meta", 0, 8, "BTF_ID"), ("obj", 8, 8, "BTF_ID"),
                                  ("args", 16, 48, "CTX_ARG", [1, 2, 4, 8])]),
    "syscall": ("syscall ctx", 65535, [("ctx", 0, 65535, "SCALAR")]),
}
ANY_READ = {"tracepoint", "raw_tp", "raw_tp_w", "tp_btf", "syscall", "pt_regs"}
# BTF-typed contexts: the attach target's BTF gives each argument's size and
# type; the generic layout allows what any argument could (the check is then
# one-sided: kernel-accepted accesses must be accepted).
BTF_TYPED = {"tp_btf", "iter"}
SIZES = (1, 2, 4, 8)


def parse_fields():
    structs = {}
    for line in open(DATA + "fields.txt"):
        s, name, off, size = line.split()
        if name == "-":
            structs[s] = {"size": int(size), "fields": []}
        else:
            structs[s]["fields"].append((name, int(off), int(size)))
    return structs


def parse_access():
    layouts, cur = {}, None
    for line in open(DATA + "access.txt"):
        if line.startswith("#"):
            f = line[1:].split()
            cur = {"type": int(f[1]), "attach": int(f[2]), "ok": {}, "limit": 0,
                   "unloadable": "unloadable" in f}
            layouts[f[0]] = cur
            continue
        off = int(line[:3])
        cols = line[4:12].ljust(8)
        for i, sz in enumerate(SIZES):
            if cols[i].isdigit():
                cur["ok"][(off, sz, False)] = True
            if cols[4 + i] == "W":
                cur["ok"][(off, sz, True)] = True
    return layouts


def accepted(field_set, off, sz, wr):
    for (name, foff, fsize, rs, ws, _v, at_start) in field_set:
        if at_start and sz < fsize and off != foff:
            continue
        if foff <= off and off + sz <= foff + fsize and off % sz == 0 and sz in (ws if wr else rs):
            return True
    return False


def sizes_at(ok, off, fsize, wr, span):
    """Sizes s accepted at every s-aligned offset of [off, off+span) (s <= fsize)."""
    out = []
    for s in SIZES:
        if s > fsize:
            continue
        offs = [o for o in range(off, off + span) if o % s == 0 and o + s <= off + span]
        if offs and all(ok.get((o, s, wr)) for o in offs):
            out.append(s)
    return out


def build(sname, members, ok):
    """Group array elements, compute size sets; returns field tuples."""
    groups = []
    for name, off, size in members:
        base = re.sub(r"\[\d+\]$", "", name)
        if groups and groups[-1][0] == base and base != name and groups[-1][1] + groups[-1][2] == off:
            groups[-1][2] += size
            groups[-1][3] = True
        else:
            groups.append([base, off, size, base != name, size])
    fields = []
    for base, off, span, is_array, esize in groups:
        maxs = 8 if is_array else span
        rs = sizes_at(ok, off, maxs, False, span)
        ws = sizes_at(ok, off, maxs, True, span)
        if not is_array:
            maxs = 8
        val = VAL.get((sname, base), "SCALAR")
        if (sname, base) in BTF:
            val = "BTF_ID"
        at_start = False
        wide = [s for s in SIZES if s > span and ok.get((off, s, False))] if not is_array else []
        if wide:  # a load wider than the field, into its padding
            full = sizes_at(ok, off, max(wide), False, max(wide))
            if max(wide) in full and len(full) > len([x for x in rs if x <= span]):
                span, rs, wide = max(wide), full, []   # the padding reads like the field (sk_lookup)
        start = [s for s in SIZES if s <= span and ok.get((off, s, False))]
        if not is_array and start != rs:
            rs, at_start = start, True
        if wide:  # only the wide load reaches the padding (bpf_sock dst_port)
            fields.append((base, off, max(wide), wide, [], val, False))
        fields.append((base, off, span, rs, ws, val, at_start))
    # same-offset aliases (bpf_sk_lookup sk/cookie): keep the first
    seen, out = set(), []
    for f in fields:
        if f[1] in seen and any(o[1] == f[1] and o[2] == f[2] for o in out):
            continue
        seen.add(f[1])
        out.append(f)
    return out


def synth(lid, ok, limit):
    sname, size, fl = SYNTH[lid]
    fields = []
    for entry in fl:
        name, off, span, val = entry[:4]
        rs = sizes_at(ok, off, 8, False, max(8, min(span, limit - off)))
        ws = sizes_at(ok, off, 8, True, max(8, min(span, limit - off)))
        if lid in BTF_TYPED:  # any access some argument type could allow
            rs = sorted({sz for (o, sz, wr) in ok if not wr and off <= o < off + span})
        if len(entry) > 4:  # sizes the probe cannot show (target-specific members)
            rs = entry[4]
        fields.append((name, off, span, rs, ws, val, False))
    return sname, size, fields


def mask(sizes):
    return sum({1: 1, 2: 2, 4: 4, 8: 8}[s] for s in sizes)


def main():
    structs = parse_fields()
    layouts = parse_access()
    target_struct = {}
    for line in open("tests/unit/test_platform_kernel.c"):
        m = re.match(r'\s*\{ "(\w+)", [^,]+, [^,]+, (?:"(\w+)"|NULL), (\d+) \},', line)
        if m:
            target_struct[m.group(1)] = (m.group(2), int(m.group(3)))
    out = ["/* GENERATED by scripts/gen_ctx.py from scripts/data/ctx-6.18/ (kernel answers)",
           " * and its VAL table; do not edit by hand.",
           " * BG_CTX_FIELD(name, off, size, perm, val, btf, read sizes, write sizes):",
           " * size sets are bitmasks of 1/2/4/8 (an access needs off %% size == 0).".replace("%%", "%"),
           " */"]
    errors = 0
    for lid, lay in layouts.items():
        if lay["unloadable"]:
            continue
        sname, limit = target_struct[lid]
        ok = lay["ok"]
        if lid in SYNTH:
            shown, size, fields = synth(lid, ok, limit)
        else:
            st = structs[sname]
            shown, size = sname, st["size"]
            members = st["fields"]
            if lid in ANY_READ:  # registers: each slot up to the next one
                byoff = {}
                for n, o, sz in members:
                    byoff.setdefault(o, n)
                offs = sorted(byoff)
                members = [(byoff[o], o, (offs[i + 1] if i + 1 < len(offs) else size) - o)
                           for i, o in enumerate(offs)]
            fields = build(sname, members, ok)
        # verify the rule reproduces the probe exactly
        if lid not in BTF_TYPED:
            for off in range(limit):
                for sz in SIZES:
                    if off % sz:
                        continue
                    for wr in (False, True):
                        want = bool(ok.get((off, sz, wr)))
                        got = accepted(fields, off, sz, wr)
                        if want != got:
                            errors += 1
                            print("gen_ctx: %s: %s%d@%d kernel %s, table %s" %
                                  (lid, "w" if wr else "r", sz, off, want, got), file=sys.stderr)
        out.append("BG_CTX_BEGIN(%s)" % lid)
        for name, off, span, rs, ws, val, at_start in fields:
            perm = []
            if rs:
                perm.append("R")
            if ws:
                perm.append("W")
            if rs and min(rs) < min(span, 8) and len(rs) > 1:
                perm.append("AT_START" if at_start else "NARROW")
            btf = BTF.get((sname, name))
            out.append('BG_CTX_FIELD("%s", %d, %d, %s, BG_CTXV_%s, %s, 0x%x, 0x%x)' %
                       (name, off, span, "|".join(perm) or "0", val,
                        '"%s"' % btf if btf else "NULL", mask(rs), mask(ws)))
        out.append('BG_CTX_END(%s, "%s", %d, %s)' % (lid, shown, size,
                                                     "true" if lid in ANY_READ else "false"))
    if errors:
        sys.exit("gen_ctx: %d accesses not reproduced" % errors)
    print("\n".join(out))


main()
