#!/usr/bin/env python3
"""Data-file tests of `bpfgate check` (tests/data/check/*.t).

A .t file holds cases of BPF assembly (the llvm/kernel syntax) that share a
program type and maps. File header lines (before the first case):
  # prog-type: xdp                 SEC() name of every case (a case may override)
  # map: NAME TYPE key=4 value=8 entries=4 [flags=N]   (TYPE: array, hash,
  #      percpu_array, lru_hash, ringbuf, prog_array, perf_event_array,
  #      array_of_maps...; value may be a C type: value=struct lockval)
  # c: <a line of C>                e.g. a struct, `const volatile int cfg = 1;`
  # license: TEXT                   the object's license (default GPL)
Each case:
  # case: NAME                      a C identifier (also the program name)
  # expect: accept|reject
  # message: REGEX                  must match our rejection message (optional)
  # section: SEC                    overrides prog-type for this case
  # xfail: REASON                   we knowingly differ from the kernel here
  # max-steps: N                    bpfgate's analysis takes at most N steps
  #                                 (a cost the mechanism under test bounds)
  # decl-tag: TAG                   a BTF decl tag on the case's function
  #                                 (exception_callback:NAME)
  # kernel: skip REASON             the kernel cannot judge it here
  # profile: VER accept|reject [REGEX]  bpfgate's verdict for kernel profile VER
  #                                 (`check --kernel`, repeatable); the 6.18
  #                                 verdict of that run must equal the default's;
  #                                 for VER with a Debian image (5.10, 6.1, 6.12,
  #                                 7.2) the real kernel, booted under QEMU
  #                                 (`kload --kernel`), must give the same verdict
  # real: VER accept|reject REASON  the real VER kernel knowingly differs from
  #                                 the profile (XFAIL with REASON)
  asm lines; `name:` labels and `goto name`; `call bpf_xxx` (helper by name);
  `%[map]` / `%[cfg]` for ld_imm64 of a map / global.
The runner compiles each file with clang-19 into one object (one naked
function per case), runs `bpfgate check --json` and, when bpf() works,
`bpfgate kload --json`, and prints PASS/FAIL/XFAIL per case: our verdict must
equal the expectation, and the kernel's too (the expectation is checked
against the running kernel, never trusted blindly).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BG_BUILD", os.path.join(ROOT, "build"))
NORMAL = os.environ.get("BG_NORMAL_BUILD", BUILD)
BPFGATE = os.path.join(BUILD, "bpfgate")
VMLINUX = os.path.join(NORMAL, "vmlinux.h")
CLANG = os.environ.get("BG_CLANG_ASM", "clang-19")

MAP_TYPES = {
    "hash": "BPF_MAP_TYPE_HASH", "array": "BPF_MAP_TYPE_ARRAY",
    "prog_array": "BPF_MAP_TYPE_PROG_ARRAY", "perf_event_array": "BPF_MAP_TYPE_PERF_EVENT_ARRAY",
    "percpu_hash": "BPF_MAP_TYPE_PERCPU_HASH", "percpu_array": "BPF_MAP_TYPE_PERCPU_ARRAY",
    "lru_hash": "BPF_MAP_TYPE_LRU_HASH", "ringbuf": "BPF_MAP_TYPE_RINGBUF",
    "array_of_maps": "BPF_MAP_TYPE_ARRAY_OF_MAPS", "hash_of_maps": "BPF_MAP_TYPE_HASH_OF_MAPS",
    "stack_trace": "BPF_MAP_TYPE_STACK_TRACE", "devmap": "BPF_MAP_TYPE_DEVMAP",
    "sk_storage": "BPF_MAP_TYPE_SK_STORAGE", "queue": "BPF_MAP_TYPE_QUEUE",
}


def helper_ids():
    ids = {}
    try:
        text = open("/usr/include/linux/bpf.h").read()
    except OSError:
        return ids
    m = re.search(r"#define ___BPF_FUNC_MAPPER\(FN, ctx\.\.\.\)(.*?)\n/\*", text, re.S) or \
        re.search(r"#define __BPF_FUNC_MAPPER\(FN\)(.*?)\n/\*", text, re.S)
    if not m:
        return ids
    for i, name in enumerate(re.findall(r"FN\((\w+)", m.group(1))):
        ids["bpf_" + name] = i
    return ids


def parse(path):
    head = {"prog-type": "socket", "maps": [], "c": []}
    cases = []
    cur = None
    for ln, line in enumerate(open(path), 1):
        s = line.rstrip("\n")
        fm = re.match(r"\s*#\s*at\s+(\w+):\s*(.*)$", s)
        if fm and cur is not None:
            cur["facts"].append((fm.group(1), fm.group(2).strip()))
            continue
        m = re.match(r"\s*#\s*([a-z-]+):\s*(.*)$", s)
        if m:
            k, v = m.group(1), m.group(2).strip()
            if k == "case":
                cur = {"name": v, "asm": [], "line": ln, "expect": None, "message": None,
                       "section": None, "xfail": None, "kernel": None, "facts": [], "profiles": [],
                       "real": {}}
                cases.append(cur)
            elif k == "profile" and cur is not None:
                cur["profiles"].append(v)
            elif k == "real" and cur is not None:
                f = v.split(None, 2)
                cur["real"][f[0]] = (f[1] + "ed" if len(f) > 1 else "?", f[2] if len(f) > 2 else "")
            elif cur is None:
                if k == "map":
                    head["maps"].append(v)
                elif k == "c":
                    head["c"].append(v)
                else:
                    head[k] = v
            else:
                cur[k] = v
            continue
        if re.match(r"\s*(#|//|;)", s) or not s.strip():
            continue
        if cur is None:
            raise SystemExit("%s:%d: instruction before the first '# case:'" % (path, ln))
        cur["asm"].append(s.strip())
    return head, cases


def map_c(spec):
    f = spec.split()
    name, typ, kv = f[0], f[1], dict(x.split("=", 1) for x in f[2:])
    lines = ["struct {", "\t__uint(type, %s);" % MAP_TYPES.get(typ, typ)]
    if "entries" in kv:
        lines.append("\t__uint(max_entries, %s);" % kv["entries"])
    for k, field in (("key", "key"), ("value", "value")):
        if k in kv:
            if kv[k].isdigit():
                lines.append("\t__uint(%s_size, %s);" % (field, kv[k]))
            else:
                lines.append("\t__type(%s, %s);" % (field, kv[k].replace("_", " ", 1) if kv[k].startswith("struct_") else kv[k]))
    if "flags" in kv:
        lines.append("\t__uint(map_flags, %s);" % kv["flags"])
    lines.append("} %s SEC(\".maps\");" % name)
    return "\n".join(lines)


def case_c(case, head, hids):
    sec = case["section"] or head["prog-type"]
    body, refs, calls = [], [], []
    labels = set()
    for a in case["asm"]:
        m = re.match(r"^(\w+):$", a)
        if m:
            labels.add(m.group(1))
    for a in case["asm"]:
        a = re.sub(r"%(?!\[)", "%%", a)
        m = re.match(r"^(\w+):$", a)
        if m:
            body.append("%s_%%=:" % m.group(1))
            continue
        a = re.sub(r"\bgoto\s+(\w+)\b", lambda mm: "goto %s_%%=" % mm.group(1) if mm.group(1) in labels else mm.group(0), a)
        a = re.sub(r"\bgotol\s+(\w+)\b", lambda mm: "gotol %s_%%=" % mm.group(1) if mm.group(1) in labels else mm.group(0), a)
        a = re.sub(r"\bmay_goto\s+(\w+)\b", lambda mm: "may_goto %s_%%=" % mm.group(1) if mm.group(1) in labels else mm.group(0), a)
        m = re.match(r"^call\s+(bpf_\w+)$", a)
        if m and m.group(1) in hids:
            a = "call %d" % hids[m.group(1)]
        elif m:
            if m.group(1) not in calls:  # one asm operand per kfunc, however often called
                calls.append(m.group(1))
            a = "call %%[%s]" % m.group(1)
        for r in re.findall(r"%\[(\w+)\]", a):
            if r not in refs and r not in calls:
                refs.append(r)
        body.append(a)
    # a kfunc both called and address-taken (bpf_ksym_exists) is one operand
    ops = ["[%s]\"i\"(&%s)" % (r, r) for r in refs if r not in calls] + ["[%s]\"i\"(%s)" % (c, c) for c in calls]
    asm = "\n".join("\t\t\"%s\\n\"" % b.replace("\\", "\\\\").replace('"', '\\"') for b in body)
    tag = ("__attribute__((btf_decl_tag(\"%s\"))) " % case["decl-tag"]) if case.get("decl-tag") else ""
    return ("SEC(\"%s\") %s__attribute__((naked)) int %s(void)\n{\n\tasm volatile(\n%s\n\t\t:: %s : \"memory\");\n}\n"
            % (sec, tag, case["name"], asm, ", ".join(ops)))


def build(path, head, cases, tmp, hids):
    src = ['#include "vmlinux.h"', "#include <bpf/bpf_helpers.h>", ""]
    src += head["c"]
    src += [map_c(m) for m in head["maps"]]
    for c in cases:
        src.append(case_c(c, head, hids))
    src.append('char _license[] SEC("license") = "%s";' % head.get("license", "GPL"))
    base = os.path.join(tmp, os.path.basename(path)[:-2])
    open(base + ".c", "w").write("\n".join(src) + "\n")
    cmd = [CLANG, "-O2", "-g", "-target", "bpf", "-mcpu=v4", "-I", os.path.dirname(VMLINUX),
           "-I/usr/include/x86_64-linux-gnu", "-c", base + ".c", "-o", base + ".o"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr
    return base + ".o", None


def build_bpfgate_asm(path, head, cases, tmp):
    """`# assembler: bpfgate`: one object per case from `bpfgate asm` (local
    calls and callbacks work there; no maps)."""
    objs = []
    for c in cases:
        src = os.path.join(tmp, "%s.s" % c["name"])
        open(src, "w").write("\n".join(c["asm"]) + "\n")
        obj = src[:-2] + ".o"
        sec = c["section"] or head["prog-type"]
        r = subprocess.run([BPFGATE, "asm", src, "-o", obj, "--section", sec, "--name", c["name"]],
                           capture_output=True, text=True)
        if r.returncode:
            return None, "%s: %s" % (c["name"], r.stderr.strip()[-200:])
        objs.append(obj)
    return objs, None


def run_json(args):
    r = subprocess.run([BPFGATE] + args, capture_output=True, text=True)
    try:
        recs = json.loads(r.stdout)
    except ValueError:
        return None, (r.stderr or r.stdout)[-400:]
    return {x["program"]: x for x in recs}, None


def kernel_ok():
    r = subprocess.run([BPFGATE, "kload", "--probe"], capture_output=True, text=True)
    return r.returncode == 0


def main():
    files = sys.argv[1:] or sorted(
        os.path.join(ROOT, "tests/data/check", f) for f in os.listdir(os.path.join(ROOT, "tests/data/check"))
        if f.endswith(".t"))
    hids = helper_ids()
    kern = kernel_ok() and os.environ.get("BG_CHECK_NO_KERNEL") is None
    if not kern:
        print("SKIP check_data_kernel: bpf() unavailable: expectations not checked against the kernel")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            head, cases = parse(path)
            tname = os.path.basename(path)[:-2]
            if head.get("assembler") == "bpfgate":
                objs, err = build_bpfgate_asm(path, head, cases, tmp)
            else:
                obj, err = build(path, head, cases, tmp, hids)
                objs = [obj] if obj else None
            if not objs:
                print("FAIL %s: does not compile: %s" % (tname, err.strip().splitlines()[-1] if err.strip() else "?"))
                failed += 1
                continue
            ours, err = run_json(["check", "--json"] + objs)
            if ours is None:
                print("FAIL %s: bpfgate check failed: %s" % (tname, err))
                failed += 1
                continue
            theirs = run_json(["kload", "--json"] + objs)[0] if kern else None
            for c in cases:
                failed += judge(tname, c, ours.get(c["name"]), theirs.get(c["name"]) if theirs else None)
                for fact in c["facts"]:
                    failed += check_fact(tname, c, fact, objs)
            failed += judge_profiles(tname, cases, ours, objs)
        failed += soundness(tmp)
    return 1 if failed else 0


def soundness(tmp):
    """Every accepted case, run by the interpreter, must stay inside the
    abstract states bpfgate claimed (tests/unit/test_soundness.c on the
    objects just built; its PASS/FAIL/XFAIL lines are this test's)."""
    exe = os.path.join(BUILD, "tests", "test_soundness")
    if not os.access(exe, os.X_OK):
        print("SKIP check_data_soundness: %s not built" % exe)
        return 0
    env = dict(os.environ, BG_EXAMPLES=tmp, BG_CORPUS=os.path.join(tmp, "no-corpus"),
               BG_SOUND_PREFIX="data/", BG_SOUND_INPUTS="4")
    p = subprocess.run([exe], env=env, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    if p.returncode != 0 and "FAIL " not in p.stdout:
        print("FAIL check_data_soundness: exited with %d: %s" % (p.returncode, p.stderr[-300:]))
        return 1
    return 1 if p.returncode else 0


def judge_profiles(tname, cases, ours, objs):
    """`# profile:` lines: one `check --kernel V1,V2,...,6.18` run per file."""
    want = [c for c in cases if c["profiles"]]
    if not want:
        return 0
    vers = []
    for c in want:
        for p in c["profiles"]:
            v = p.split()[0]
            if v not in vers:
                vers.append(v)
    if "6.18" not in vers:
        vers.append("6.18")
    multi, err = run_json(["check", "--json", "--kernel", ",".join(vers)] + objs)
    if multi is None:
        print("FAIL %s/profiles: bpfgate check --kernel failed: %s" % (tname, err))
        return 1
    real = real_verdicts(tname, vers, objs)
    failed = 0
    for c in want:
        rec = multi.get(c["name"])
        kern = rec.get("kernels", {}) if rec else {}
        base = ours.get(c["name"]) or {}
        if kern.get("6.18", {}).get("verdict") != base.get("verdict"):
            print("FAIL %s/%s@6.18: --kernel run says %s, the default run %s" % (
                tname, c["name"], kern.get("6.18", {}).get("verdict"), base.get("verdict")))
            failed += 1
        for p in c["profiles"]:
            f = p.split(None, 2)
            name = "%s/%s@%s" % (tname, c["name"], f[0])
            exp = {"accept": "accepted", "reject": "rejected"}.get(f[1] if len(f) > 1 else "")
            got = kern.get(f[0])
            if not exp or not got:
                print("FAIL %s: bad profile line %r or no verdict for it" % (name, p))
                failed += 1
                continue
            msg = got.get("message") or ""
            if got["verdict"] != exp:
                print("FAIL %s: %s (%s), expected %s" % (name, got["verdict"], msg, exp))
                failed += 1
            elif len(f) > 2 and exp == "rejected" and not re.search(f[2], msg):
                print("FAIL %s: message %r does not match /%s/" % (name, msg, f[2]))
                failed += 1
            else:
                print("PASS %s: %s%s" % (name, got["verdict"], (" (%s)" % msg[-90:]) if msg else ""))
            r = real.get((f[0], c["name"]))
            if f[0] in REAL_KERNELS and real and exp:
                rv = r["verdict"] if r else "no verdict"
                known = c["real"].get(f[0])
                if known and known[0] == rv and rv != exp:
                    print("XFAIL %s/real: the %s kernel %s: %s" % (name, f[0], rv, known[1]))
                elif rv == exp:
                    print("PASS %s/real: the %s kernel agrees (%s)" % (name, f[0], rv))
                elif rv == "unavailable":
                    print("SKIP %s/real: the %s kernel cannot judge it: %s" % (name, f[0], (r or {}).get("message")))
                else:
                    print("FAIL %s/real: the profile says %s, the %s kernel %s (%s)" % (
                        name, exp, f[0], rv, (r or {}).get("message")))
                    failed += 1
    return failed


REAL_KERNELS = ("5.10", "6.1", "6.12", "7.2")  # Debian images `bpfgate kernels` fetches


def real_verdicts(tname, vers, objs):
    """{(kernel, program): record} from booting each real kernel of vers once
    with objs; {} (after a SKIP line, or a FAIL under CI) when the images
    cannot be fetched. BG_NO_QEMU=1 skips."""
    vers = [v for v in vers if v in REAL_KERNELS]
    if not vers:
        return {}
    if os.environ.get("BG_NO_QEMU"):
        print("SKIP %s/real-kernels: BG_NO_QEMU set" % tname)
        return {}
    f = subprocess.run([BPFGATE, "kernels", "fetch"] + vers, capture_output=True, text=True)
    if f.returncode != 0:
        why = (f.stderr.strip().splitlines() or ["?"])[-1]
        ci = os.environ.get("CI") == "true" or "unreachable" not in why
        print("%s %s/real-kernels: %s" % ("FAIL" if ci else "SKIP", tname, why))
        return {}
    env = dict(os.environ)
    loader = os.path.join(NORMAL, "bpfgate")  # the guest runs the plain build
    if os.access(loader, os.X_OK):
        env["BG_KVM_LOADER"] = loader
    jobs = ["-j", os.environ["BG_KVM_JOBS"]] if os.environ.get("BG_KVM_JOBS") else []  # guests at once
    p = subprocess.run([BPFGATE, "kload", "--json", "--kernel", ",".join(vers)] + jobs + objs,
                       capture_output=True, text=True, env=env)
    try:
        recs = json.loads(p.stdout)
    except ValueError:
        print("FAIL %s/real-kernels: kload --kernel failed (%d): %s" % (tname, p.returncode, p.stderr[-400:]))
        return {}
    if p.returncode == 2:
        print("FAIL %s/real-kernels: a guest failed: %s" % (tname, p.stderr[-400:]))
    out = {}
    for r in recs if isinstance(recs, list) else []:
        if isinstance(r, dict) and "kernel" in r and "program" in r:
            out[(r["kernel"], r["program"])] = r
        else:  # an error object (a guest that failed to boot or timed out)
            print("FAIL %s/real-kernels: kload --kernel reported an error: %s" % (tname, json.dumps(r)[:400]))
    return out


def label_slot(case, label):
    slot = 0
    for a in case["asm"]:
        if re.match(r"^(\w+):$", a):
            if a[:-1] == label:
                return slot
            continue
        slot += 2 if re.search(r"\bll$", a) else 1
    return None


def value_range(tok):
    """(lo, hi) of a printed scalar, or None."""
    if re.fullmatch(r"-?\d+", tok):
        return int(tok), int(tok)
    m = re.fullmatch(r"\[(-?\d+),(-?\d+)\]", tok)
    if m:
        return int(m.group(1)), int(m.group(2))
    kv = dict(re.findall(r"(\w+)=(-?(?:0x)?[0-9a-f]+)", tok))
    lo = kv.get("smin", kv.get("umin"))
    hi = kv.get("smax", kv.get("umax"))
    if lo is None or hi is None:
        return None
    return int(lo, 0), int(hi, 0)


def check_fact(tname, c, fact, objs):
    """`# at LABEL: rN in [a,b]` or `rN = k`: every state the analysis reaches
    at LABEL (trace of -v) holds rN within the range (bpfgate only)."""
    label, text = fact
    name = "%s/%s@%s" % (tname, c["name"], label)
    m = re.fullmatch(r"r(\d+)\s*(?:in\s*\[(-?\d+),\s*(-?\d+)\]|=\s*(-?\d+))", text)
    slot = label_slot(c, label)
    if not m or slot is None:
        print("FAIL %s: bad fact %r (label or syntax)" % (name, text))
        return 1
    reg = int(m.group(1))
    lo, hi = (int(m.group(2)), int(m.group(3))) if m.group(2) is not None else (int(m.group(4)), int(m.group(4)))
    r = subprocess.run([BPFGATE, "check", "-v", "--prog", c["name"]] + objs, capture_output=True, text=True)
    lines = r.stderr.splitlines()
    seen = 0
    for i, ln in enumerate(lines):
        if not re.match(r"ctx \d+ insn %d:" % slot, ln) or i + 1 >= len(lines):
            continue
        mm = re.search(r"\br%d=(\S+)" % reg, lines[i + 1])
        if not mm:
            print("FAIL %s: r%d not a scalar at insn %d: %s" % (name, reg, slot, lines[i + 1].strip()))
            return 1
        vr = value_range(mm.group(1))
        seen += 1
        if vr is None or vr[0] < lo or vr[1] > hi:
            print("FAIL %s: r%d = %s at insn %d, expected %s" % (name, reg, mm.group(1), slot, text))
            return 1
    if not seen:
        print("FAIL %s: insn %d never reached" % (name, slot))
        return 1
    print("PASS %s: %s (%d states)" % (name, text, seen))
    return 0


def judge(tname, c, o, k):
    name = "%s/%s" % (tname, c["name"])
    want = {"accept": "accepted", "reject": "rejected"}.get(c["expect"])
    if not want:
        print("FAIL %s: no '# expect: accept|reject'" % name)
        return 1
    if not o:
        print("FAIL %s: no result from bpfgate check" % name)
        return 1
    problems = []
    if o["verdict"] != want:
        problems.append("bpfgate %s (%s), expected %s" % (o["verdict"], o.get("message") or "", want))
    if c["message"] and o["verdict"] == "rejected" and not re.search(c["message"], o.get("message") or ""):
        problems.append("message %r does not match /%s/" % (o.get("message"), c["message"]))
    if c.get("max-steps") and (o.get("steps") is None or o["steps"] > int(c["max-steps"])):
        problems.append("%s analysis steps, expected at most %s" % (o.get("steps"), c["max-steps"]))
    kver = k["verdict"] if k else None
    if kver and kver != "unavailable" and not (c["kernel"] or "").startswith("skip") and kver != want:
        problems.append("kernel %s (%s), expected %s" % (kver, (k.get("message") or "").strip()[-120:], want))
    if problems and c["xfail"]:
        print("XFAIL %s: %s [%s]" % (name, c["xfail"], "; ".join(problems)))
        return 0
    if problems:
        print("FAIL %s: %s" % (name, "; ".join(problems)))
        return 1
    if c["xfail"]:
        print("FAIL %s: marked xfail (%s) but passes" % (name, c["xfail"]))
        return 1
    print("PASS %s%s" % (name, "" if kver in ("accepted", "rejected") else " (no kernel verdict)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
