#!/usr/bin/env python3
"""Measure which helpers each program type (and expected attach type) may call
on the real kernels: one tiny program per (target, helper id) that calls the
helper, judged by `bpfgate kload --kernel V` in Debian's image V under QEMU
and by `bpfgate kload` on the running kernel. A helper is unavailable when the
kernel's message is "unknown func", "program of this type cannot use helper"
or "invalid func" (the verifier looks the helper up before it checks any
argument); any other verdict means the type may call it.

Writes scripts/data/helpers-attach-V.txt for each kernel V, in the format of
scripts/data/helpers-attach-6.18.txt ("layout type attach id id ...": the
allowed ids; a target the kernel cannot load at all is left out), and
compares the running kernel's measurement with helpers-attach-6.18.txt (the
same facts measured by tests/unit/test_platform_kernel --dump-helpers-attach)
as a check of the method. `python3 scripts/gen_helpers.py --kavail` turns
the files into src/platform/helper_kavail.def.

Usage: python3 scripts/probe_kernel_helpers.py [VER...]   (default 5.10 6.1 6.12 7.2)
  BG_BPFGATE (default build/bpfgate), BG_CLANG (clang-19), BG_KVM_* as kload --kernel.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BPFGATE = os.environ.get("BG_BPFGATE", os.path.join(ROOT, "build/bpfgate"))
CLANG = os.environ.get("BG_CLANG", "clang-19")
REF = os.path.join(ROOT, "scripts/data/helpers-attach-6.18.txt")

# layout (as in helpers-attach-6.18.txt) -> section bpfgate's loader maps to (type, attach)
SECTIONS = {
    "skb_filter": "socket", "pt_regs": "kprobe/do_nanosleep", "skb_tc": "tc", "skb_tc_act": "action",
    "tracepoint": "tracepoint/syscalls/sys_enter_nanosleep", "xdp": "xdp", "xdp_devmap": "xdp/devmap",
    "perf_event": "perf_event", "skb_cgroup": "cgroup_skb/ingress", "skb_cgroup_egress": "cgroup_skb/egress",
    "sock_create": "cgroup/sock_create", "sock_post_bind4": "cgroup/post_bind4",
    "sock_post_bind6": "cgroup/post_bind6", "sock_release": "cgroup/sock_release", "skb_lwt_in": "lwt_in",
    "skb_lwt_out": "lwt_out", "skb_lwt_xmit": "lwt_xmit", "sock_ops": "sockops",
    "skb_sk_parser": "sk_skb/stream_parser", "skb_sk": "sk_skb/stream_verdict", "cgroup_dev": "cgroup/dev",
    "sk_msg": "sk_msg", "raw_tp": "raw_tp/sys_enter", "sock_addr_bind4": "cgroup/bind4",
    "sock_addr_bind6": "cgroup/bind6", "sock_addr_connect4": "cgroup/connect4",
    "sock_addr_connect6": "cgroup/connect6", "sock_addr_sendmsg4": "cgroup/sendmsg4",
    "sock_addr_sendmsg6": "cgroup/sendmsg6", "sock_addr_recvmsg4": "cgroup/recvmsg4",
    "sock_addr_recvmsg6": "cgroup/recvmsg6", "sock_addr_getpeername4": "cgroup/getpeername4",
    "sock_addr_getpeername6": "cgroup/getpeername6", "sock_addr_getsockname4": "cgroup/getsockname4",
    "sock_addr_getsockname6": "cgroup/getsockname6", "sock_addr_unix": "cgroup/connect_unix",
    "sock_addr_unix_sendmsg": "cgroup/sendmsg_unix", "sock_addr_unix_recvmsg": "cgroup/recvmsg_unix",
    "sock_addr_unix_getpeername": "cgroup/getpeername_unix",
    "sock_addr_unix_getsockname": "cgroup/getsockname_unix", "skb_lwt_seg6": "lwt_seg6local",
    "sk_reuseport": "sk_reuseport", "sk_reuseport_migrate": "sk_reuseport/migrate",
    "skb_flow": "flow_dissector", "sysctl": "cgroup/sysctl", "sockopt_get": "cgroup/getsockopt",
    "sockopt_set": "cgroup/setsockopt", "tp_btf": "tp_btf/sched_switch", "iter": "iter/task",
    "sk_lookup": "sk_lookup", "syscall": "syscall", "netfilter": "netfilter",
}
NO_HELPER = re.compile(r"unknown func|cannot use helper|invalid func")


def targets():
    out = []
    for line in open(REF):
        f = line.split()
        if f and f[0] in SECTIONS:
            out.append((f[0], int(f[1]), int(f[2])))
    return out


def max_id():
    ids = [int(m.group(1)) for m in re.finditer(r"BG_HELPER\((\d+),", open(
        os.path.join(ROOT, "src/platform/helpers.def")).read())]
    return max(ids)


def build(tmp, layout, n):
    src = os.path.join(tmp, layout + ".c")
    sec = SECTIONS[layout]
    with open(src, "w") as f:
        f.write("#define SEC(x) __attribute__((section(x), used))\n")
        # a program without a call: the target itself loads (return 0 or 1: valid everywhere)
        f.write('SEC("%s") __attribute__((naked)) int base(void)\n{ asm volatile("r0 = 1; exit;"); }\n' % sec)
        for h in range(1, n + 1):
            f.write('SEC("%s") __attribute__((naked)) int h%d(void)\n'
                    '{ asm volatile("r1 = 0; r2 = 0; r3 = 0; r4 = 0; r5 = 0; call %d; r0 = 1; exit;"); }\n'
                    % (sec, h, h))
        f.write('char _license[] SEC("license") = "GPL";\n')
    obj = src[:-2] + ".o"
    subprocess.run([CLANG, "-O2", "-target", "bpf", "-c", src, "-o", obj], check=True)
    return obj


def judge(objs, vers):
    """Records of the running kernel (vers empty) or of the booted kernels
    (two guests at a time), each with its "kernel" field."""
    cmd = [BPFGATE, "kload", "--json"] + (["--kernel", ",".join(vers), "-j", "2"] if vers else []) + objs
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    try:
        recs = json.loads(r.stdout)
    except ValueError:
        raise SystemExit("%s: exit %d, no JSON: %s" % (" ".join(cmd[:4]), r.returncode, r.stderr[-500:]))
    return recs


def table(recs, tmap):
    by = {}
    for r in recs:
        layout = os.path.basename(r.get("object", ""))[:-2]
        by.setdefault(layout, {})[r.get("program")] = r
    lines, why = [], {}
    for layout, t, a in tmap:
        progs = by.get(layout, {})
        base = progs.get("base") or {}
        if base.get("verdict") != "accepted":
            why[layout] = (base.get("message") or base.get("reason") or "not judged")[:120]
            continue
        ids = []
        for name, r in progs.items():
            if not name.startswith("h"):
                continue
            msg = (r.get("message") or "") + " " + (r.get("reason") or "")
            if r.get("verdict") == "accepted" or (r.get("verdict") == "rejected" and not NO_HELPER.search(msg)):
                ids.append(int(name[1:]))
            elif r.get("verdict") == "unavailable":
                why.setdefault(layout + "/unavailable", msg[:120])
        lines.append("%s %d %d %s" % (layout, t, a, " ".join(str(i) for i in sorted(ids))))
    return lines, why


def main():
    vers = sys.argv[1:] or ["5.10", "6.1", "6.12", "7.2"]
    tmap = targets()
    n = max_id()
    with tempfile.TemporaryDirectory() as tmp:
        objs = [build(tmp, layout, n) for layout, _, _ in tmap]
        running = judge(objs, [])
        booted = judge(objs, vers)
        for ver in [None] + vers:
            recs = running if ver is None else [r for r in booted if r.get("kernel") == ver]
            lines, why = table(recs, tmap)
            name = ver or "running"
            for k, w in sorted(why.items()):
                print("# %s: %s: %s" % (name, k, w))
            if ver is None:
                ref = {l.split()[0]: set(l.split()[3:]) for l in open(REF) if l.split()}
                bad = [l.split()[0] for l in lines if set(l.split()[3:]) != ref.get(l.split()[0])]
                print("# running kernel vs %s: %d targets measured, %d differ%s" % (
                    os.path.relpath(REF, ROOT), len(lines), len(bad), (": " + " ".join(bad)) if bad else ""))
                continue
            out = os.path.join(ROOT, "scripts/data/helpers-attach-%s.txt" % ver)
            with open(out, "w") as f:
                f.write("\n".join(lines) + "\n")
            print("# %s: %d targets, written to %s" % (ver, len(lines), os.path.relpath(out, ROOT)))


if __name__ == "__main__":
    main()
