#!/usr/bin/env bash
# Real kernels under QEMU (src/kvm): `bpfgate kernels`, `kload --kernel`,
# `corpus --verifier kernel@VER,bpfgate@VER`.
#  - bad input exits 2 with a message, before any network or boot;
#  - Debian's 5.10, 6.1, 6.12 and 7.2 images are fetched into the cache
#    ($XDG_CACHE_HOME/bpfgate, kept across runs); an unreachable registry
#    skips the rest (and fails under CI=true, where it is reachable);
#  - a guest past its wall-clock limit, or one that panics, is an error with
#    the console tail, never a hang;
#  - the project corpus (c19 variant + examples + three ISA v4 objects) is judged
#    by every kernel in one boot each, two guests at a time: verdicts the real
#    kernels are known to give hold, and bpfgate@VER agrees with kernel@VER on
#    at least 97% of the programs both decide, with no accept-while-kernel-
#    rejects that is not a known difference (tests/data/kernels/known.tsv);
#  - the real corpus (selftests build): `make realcorpus-kernels`, not here.
. "$(dirname "$0")/lib/common.sh"
tmp=$(mktemp -d /tmp/bg-kernels.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
VERS="5.10 6.1 6.12 7.2"
# the guest runs the plain build (an ASan loader is slower and needs more memory)
[ -x "$BG_NORMAL_BUILD/bpfgate" ] && export BG_KVM_LOADER="$BG_NORMAL_BUILD/bpfgate"
ci_or_skip() { # name, why
  if [ "${CI:-}" = true ]; then fail "$1" "$2 (CI=true: the registry must be reachable)"; else skip "$1" "$2"; fi
}

# --- bad input ---
"$BPFGATE" kernels fetch >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "needs at least one version" "$tmp/e" && pass kernels/usage/fetch-no-version || fail kernels/usage/fetch-no-version "rc=$rc $(cat "$tmp/e")"
"$BPFGATE" kernels fetch ../x >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "not a kernel series" "$tmp/e" && pass kernels/usage/bad-version || fail kernels/usage/bad-version "rc=$rc $(cat "$tmp/e")"
"$BPFGATE" kernels frobnicate >/dev/null 2>&1; [ $? = 2 ] && pass kernels/usage/unknown-action || fail kernels/usage/unknown-action
"$BPFGATE" kernels remove 9.99 >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "not in the cache" "$tmp/e" && pass kernels/usage/remove-missing || fail kernels/usage/remove-missing "rc=$rc"
XDG_CACHE_HOME=$tmp/empty "$BPFGATE" kload --kernel 6.1 "$BG_EXAMPLES/xdp_count.bpf.o" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "kernel 6.1 is not in the cache (bpfgate kernels fetch 6.1)" "$tmp/e" \
  && pass kernels/kload/not-cached || fail kernels/kload/not-cached "rc=$rc $(cat "$tmp/e")"
"$BPFGATE" kload --kernel 6.x "$BG_EXAMPLES/xdp_count.bpf.o" >/dev/null 2>&1; [ $? = 2 ] && pass kernels/kload/bad-version || fail kernels/kload/bad-version
"$BPFGATE" corpus --verifier bpfgate@9.9 "$BG_EXAMPLES" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "no kernel profile '9.9'" "$tmp/e" && pass kernels/corpus/bad-profile || fail kernels/corpus/bad-profile "rc=$rc $(cat "$tmp/e")"
XDG_CACHE_HOME=$tmp/empty "$BPFGATE" corpus --verifier kernel@6.1 "$BG_EXAMPLES" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "not in the cache" "$tmp/e" && pass kernels/corpus/not-cached || fail kernels/corpus/not-cached "rc=$rc $(cat "$tmp/e")"
"$BPFGATE" kernels list >"$tmp/l" 2>&1 && grep -q "^qemu accelerator: \(kvm\|tcg\) (" "$tmp/l" \
  && pass kernels/list || fail kernels/list "$(head -3 "$tmp/l")"

if ! command -v qemu-system-x86_64 >/dev/null || ! [ -x /bin/busybox ]; then
  ci_or_skip kernels/qemu "qemu-system-x86 or busybox-static not installed"; exit 0
fi

# --- fetch (cached after the first run) ---
t0=$(date +%s)
# shellcheck disable=SC2086
"$BPFGATE" kernels fetch $VERS >"$tmp/f" 2>"$tmp/e"; rc=$?
if [ $rc != 0 ]; then
  if grep -q "unreachable" "$tmp/e"; then ci_or_skip kernels/fetch "$(tail -1 "$tmp/e")"; exit 0; fi
  fail kernels/fetch "rc=$rc $(tail -2 "$tmp/e")"; exit 0
fi
echo "# fetch (or cache hit) of $VERS: $(( $(date +%s) - t0 )) s"
pass kernels/fetch
"$BPFGATE" kernels fetch 5.99 >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "registry has no amd64 kernel image of the 5.99 series" "$tmp/e" \
  && pass kernels/fetch/no-such-version || fail kernels/fetch/no-such-version "rc=$rc $(cat "$tmp/e")"
"$BPFGATE" kernels list >"$tmp/l" 2>&1
for v in $VERS; do
  grep -q "^$v  *$v[.0-9]*[-+]" "$tmp/l" && pass "kernels/list/$v" || fail "kernels/list/$v" "$(cat "$tmp/l")"
done

# --- each image's vmlinux BTF: check --kernel V relocates CO-RE against kernel V ---
"$BPFGATE" kernels btf 5.10 6.12 >"$tmp/b" 2>"$tmp/e" && [ -s "$(awk '$1 == "5.10" {print $2}' "$tmp/b")" ] \
  && pass kernels/btf || fail kernels/btf "$(cat "$tmp/b" "$tmp/e")"
XDG_CACHE_HOME=$tmp/empty "$BPFGATE" kernels btf 5.10 >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "kernel 5.10 is not in the cache" "$tmp/e" && pass kernels/btf/not-cached \
  || fail kernels/btf/not-cached "rc=$rc $(cat "$tmp/e")"
tpo=$BG_CORPUS/c19/accept/tracepoints.o
if [ -f "$tpo" ]; then
  # task_struct.__state is 5.14's name (5.10: state): the relocation fails against 5.10's own BTF
  "$BPFGATE" check --kernel 5.10,6.12 --prog btf_sched_switch "$tpo" >"$tmp/k" 2>&1
  grep -q "5.10 rejected, 6.12 ok" "$tmp/k" && grep -q "task_struct.__state: no matching field in target BTF" "$tmp/k" \
    && pass kernels/check/core-against-image || fail kernels/check/core-against-image "$(head -3 "$tmp/k")"
  XDG_CACHE_HOME=$tmp/empty "$BPFGATE" check --kernel 5.10 --prog btf_sched_switch "$tpo" >"$tmp/k" 2>&1
  grep -q "5.10 ok" "$tmp/k" && pass kernels/check/core-host-btf-without-image \
    || fail kernels/check/core-host-btf-without-image "$(head -3 "$tmp/k")"
fi

# --- failures are errors with the console tail, never hangs ---
t0=$(date +%s)
"$BPFGATE" kload --kernel 6.1 --timeout 2 "$BG_EXAMPLES/xdp_count.bpf.o" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "guest did not finish within 2 s (killed)" "$tmp/e" && grep -q "last lines of the guest console" "$tmp/e" \
  && [ $(( $(date +%s) - t0 )) -lt 30 ] && pass kernels/guest/timeout || fail kernels/guest/timeout "rc=$rc $(head -3 "$tmp/e")"
BG_KVM_APPEND="rdinit=/nonexistent" "$BPFGATE" kload --kernel 6.1 --timeout 240 "$BG_EXAMPLES/xdp_count.bpf.o" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "guest stopped before the loader finished" "$tmp/e" && grep -q "Kernel panic" "$tmp/e" \
  && pass kernels/guest/panic || fail kernels/guest/panic "rc=$rc $(head -5 "$tmp/e")"
BG_KVM_MEM=48 "$BPFGATE" kload --kernel 6.1 --timeout 240 "$BG_EXAMPLES/xdp_count.bpf.o" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "guest stopped before the loader finished" "$tmp/e" && grep -q "too little memory" "$tmp/e" \
  && pass kernels/guest/no-memory || fail kernels/guest/no-memory "rc=$rc $(head -5 "$tmp/e")"

# --- the project corpus on every kernel ---
objs=("$BG_EXAMPLES")
[ -d "$BG_CORPUS/c19" ] && objs+=("$BG_CORPUS/c19")
# three ISA v4 objects (the whole c19v4 variant would add ~40% to the boots' time)
for o in dns_quic iter_perf_syscall sockets; do
  [ -f "$BG_CORPUS/c19v4/accept/$o.o" ] && objs+=("$BG_CORPUS/c19v4/accept/$o.o")
done
vlist=kernel,bpfgate
for v in $VERS; do vlist="$vlist,kernel@$v,bpfgate@$v"; done
t0=$(date +%s)
"$BPFGATE" corpus "${objs[@]}" --verifier "$vlist" -j2 --quiet --json >"$tmp/c.json" 2>"$tmp/c.err"; rc=$?
echo "# project corpus (${objs[*]}) on $VERS: $(( $(date +%s) - t0 )) s wall"
if [ $rc != 0 ]; then fail kernels/corpus "rc=$rc $(head -5 "$tmp/c.err")"; exit 0; fi
# the run's JSON for docs/kernels-matrix.md (tests/realcorpus_kernels.py, BG_REAL_PROJECT_JSON)
[ -n "${BG_KERNELS_JSON:-}" ] && cp "$tmp/c.json" "$BG_KERNELS_JSON"
python3 - "$tmp/c.json" "$VERS" "$BG_ROOT/tests/data/kernels/known.tsv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
vers = sys.argv[2].split()
known = {}
for line in open(sys.argv[3]):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    known[(f[0], f[1])] = (f[2], f[3])
def key(r):
    return r["object"].split("/corpus/")[-1].split("/examples/")[-1] + ":" + r["program"]
summ = {s["verifier"]: s for s in d["summary"]}
recs = {}
for r in d["records"]:
    recs[(r["object"].split("/corpus/")[-1].split("/examples/")[-1], r["program"], r["verifier"])] = r
for v in vers:
    k = summ.get("kernel@" + v, {})
    b = k.get("boot") or {}
    print("# kernel@%s: %s, boot %.1f s, judging %.1f s (guest), wall %.1f s, qemu rss %d MiB; %d accepted, %d rejected, %d unavailable" % (
        v, b.get("release"), b.get("boot_seconds", -1), b.get("judge_seconds", -1), b.get("wall_seconds", -1),
        b.get("qemu_peak_rss_kib", 0) // 1024, k.get("accepted", 0), k.get("rejected", 0), k.get("unavailable", 0)))
    ok = b and not b.get("error") and k.get("accepted", 0) + k.get("rejected", 0) > 100
    print("%s kernels/corpus/boot@%s%s" % ("PASS" if ok else "FAIL", v, "" if ok else ": " + str(b.get("error"))))
    g = summ.get("bpfgate@" + v, {})
    dec = sum(g.get(x, 0) for x in ("acc_acc", "acc_rej", "rej_acc", "rej_rej"))
    agree = g.get("agreement", 0)
    print("# bpfgate@%s vs kernel@%s: %.1f%% of %d decided (accepted-while-kernel-rejects %d, rejected-while-kernel-accepts %d)" % (
        v, v, 100 * agree, dec, g.get("acc_rej", 0), g.get("rej_acc", 0)))
    print("%s kernels/corpus/agreement@%s: %.1f%% (at least 97%%)" % ("PASS" if agree >= 0.97 else "FAIL", v, 100 * agree))
    unsound = []
    for r in d["records"]:
        if r["verifier"] != "bpfgate@" + v or not r.get("disagreement"):
            continue
        k = known.get((v, key(r)))
        kr = recs.get((key(r).rsplit(":", 1)[0], r["program"], "kernel@" + v)) or {}
        if k:
            print("XFAIL kernels/corpus/known@%s/%s: %s (%s): %s" % (v, key(r), r["disagreement"], k[0], k[1]))
        elif r["disagreement"] == "POSSIBLE UNSOUNDNESS":
            unsound.append(r)
            print("FAIL kernels/corpus/unexplained@%s/%s: bpfgate@%s accepts, the kernel rejects: %s" % (v, key(r), v, kr.get("message")))
        else:
            print("# %s@%s: %s: bpfgate %s (%s), kernel %s" % (r["disagreement"], v, key(r), r["verdict"], r["message"], kr.get("verdict")))
    print("%s kernels/corpus/no-unexplained-accept@%s%s" % ("PASS" if not unsound else "FAIL", v,
          "" if not unsound else ": %d programs the real kernel rejects are accepted" % len(unsound)))

def verdict(obj, prog, ver):
    r = recs.get((obj, prog, ver))
    return r["verdict"] if r else None

# facts measured on these kernels (FACTS.md, issue 13): usdt_step calls bpf_get_attach_cookie
# (5.15) only when LINUX_HAS_BPF_COOKIE, which the loader sets to 0 on 5.10 as libbpf does, so
# every kernel loads it; bpf_timer_cancel (helper 172, 5.15) is unknown to 5.10; ISA v4 loads
# are refused by 5.10 and 6.1, accepted by 6.12 and 7.2
facts = [("usdt_step.bpf.o", "usdt_step", {"5.10": "accepted", "6.1": "accepted", "6.12": "accepted", "7.2": "accepted"})]
if ("c19/accept/mapfeatures.o", "tc_cancel_gc_timer", "kernel@5.10") in recs:
    facts.append(("c19/accept/mapfeatures.o", "tc_cancel_gc_timer", {"5.10": "rejected", "6.1": "accepted", "7.2": "accepted"}))
v4 = sorted({(o, p) for (o, p, ver) in recs if o.startswith("c19v4/") and ver == "kernel@6.1"
             and recs[(o, p, ver)]["verdict"] == "rejected" and "reserved fields" in (recs[(o, p, ver)]["message"] or "")})
print("# ISA v4 programs that 6.1 refuses with 'reserved fields': %d" % len(v4))
print("%s kernels/facts/v4-refused-by-6.1: %d programs" % ("PASS" if len(v4) >= 3 else "FAIL", len(v4)))
for o, p in v4[:3]:
    facts.append((o, p, {"5.10": "rejected", "6.12": "accepted", "7.2": "accepted"}))
for o, p, want in facts:
    for v, w in want.items():
        got = verdict(o, p, "kernel@" + v)
        print("%s kernels/facts/%s:%s@%s: %s%s" % ("PASS" if got == w else "FAIL", o, p, v, got,
              "" if got == w else " (expected %s)" % w))
PY

# --- kload --kernel: the same records as the running-kernel oracle ---
mf=$BG_CORPUS/c19/accept/mapfeatures.o
[ -f "$mf" ] || { skip kernels/kload "no corpus object $mf"; exit 0; }
"$BPFGATE" kload --kernel 5.10,7.2 --json "$mf" "$BG_EXAMPLES/xdp_count.bpf.o" >"$tmp/k.json" 2>"$tmp/k.err"; rc=$?
python3 - "$tmp/k.json" "$rc" <<'PY'
import json, sys
try:
    recs = json.load(open(sys.argv[1]))
except ValueError as e:
    print("FAIL kernels/kload/json: %s" % e); sys.exit(0)
for r in recs:  # an error object takes the place of the records it prevented
    if "error" in r:
        print("FAIL kernels/kload/error-record: %s" % r["error"])
by = {(r["kernel"], r["program"]): r for r in recs if "kernel" in r}
u = by.get(("5.10", "tc_cancel_gc_timer"), {})
ok = (u.get("verdict") == "rejected" and "unknown#172" in (u.get("message") or "") and
      u.get("kernel_release", "").startswith("5.10") and u.get("booted", "").startswith("qemu "))
print("%s kernels/kload/rejected-record: %s" % ("PASS" if ok else "FAIL", u))
x = by.get(("7.2", "xdp_count"), {})
ok = x.get("verdict") == "accepted" and x.get("processed", 0) > 0 and x.get("kernel_release", "").startswith("7.2")
print("%s kernels/kload/accepted-record: %s" % ("PASS" if ok else "FAIL", x))
print("%s kernels/kload/exit-1-on-rejection: rc=%s" % ("PASS" if sys.argv[2] == "1" else "FAIL", sys.argv[2]))
PY

# --- the real corpus (the kernel's selftests build) on every kernel: `make realcorpus-kernels`
# (tests/realcorpus_kernels.py; about 40 minutes of boots under TCG here, too long for make test)
