# The committed platform tables are exactly what their generators produce
# from the committed inputs (uapi header, kernel measurements).
# min-pass: 5 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
cd "$BG_ROOT" || exit 1
if ! command -v python3 >/dev/null; then
  skip platform/gen-helpers "no python3"; skip platform/gen-ctx "no python3"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if python3 scripts/gen_helpers.py > "$tmp/helpers.def" 2> "$tmp/err" && cmp -s "$tmp/helpers.def" src/platform/helpers.def; then
  pass platform/gen-helpers
else
  fail platform/gen-helpers "src/platform/helpers.def differs from scripts/gen_helpers.py output: $(head -c 300 "$tmp/err")$(diff "$tmp/helpers.def" src/platform/helpers.def | head -4 | tr '\n' ' ')"
fi
if python3 scripts/gen_helpers.py --attach > "$tmp/attach.def" 2> "$tmp/err" && cmp -s "$tmp/attach.def" src/platform/helper_attach.def; then
  pass platform/gen-helper-attach
else
  fail platform/gen-helper-attach "src/platform/helper_attach.def differs from scripts/gen_helpers.py --attach output: $(head -c 300 "$tmp/err")"
fi
if python3 scripts/gen_helpers.py --maps > "$tmp/maps.def" 2> "$tmp/err" && cmp -s "$tmp/maps.def" src/platform/map_helpers.def; then
  pass platform/gen-map-helpers
else
  fail platform/gen-map-helpers "src/platform/map_helpers.def differs from scripts/gen_helpers.py --maps output: $(head -c 300 "$tmp/err")"
fi
if python3 scripts/gen_helpers.py --pkt > "$tmp/pkt.def" 2> "$tmp/err" && cmp -s "$tmp/pkt.def" src/platform/helper_pkt.def; then
  pass platform/gen-helper-pkt
else
  fail platform/gen-helper-pkt "src/platform/helper_pkt.def differs from scripts/gen_helpers.py --pkt output: $(head -c 300 "$tmp/err")"
fi
if python3 scripts/gen_ctx.py > "$tmp/ctx.def" 2> "$tmp/err" && cmp -s "$tmp/ctx.def" src/platform/ctx.def; then
  pass platform/gen-ctx
else
  fail platform/gen-ctx "src/platform/ctx.def differs from scripts/gen_ctx.py output: $(head -c 300 "$tmp/err")"
fi
if python3 scripts/gen_kfunc_types.py > "$tmp/kft.def" 2> "$tmp/err" && cmp -s "$tmp/kft.def" src/platform/kfunc_types.def; then
  pass platform/gen-kfunc-types
else
  fail platform/gen-kfunc-types "src/platform/kfunc_types.def differs from scripts/gen_kfunc_types.py output: $(head -c 300 "$tmp/err")"
fi
if python3 scripts/gen_kfunc_flags.py types scripts/data/kfunc-flags-6.12.txt 6.12 > "$tmp/kfk.def" 2> "$tmp/err" &&
   cmp -s "$tmp/kfk.def" src/platform/kfunc_kver.def; then
  pass platform/gen-kfunc-kver
else
  fail platform/gen-kfunc-kver "src/platform/kfunc_kver.def differs from scripts/gen_kfunc_flags.py types output: $(head -c 300 "$tmp/err")"
fi
# a kfunc set behind a filter the generator does not know is refused
sed '0,/^bpf_put_file /s/filter=bpf_fs_kfuncs_filter/filter=some_new_filter/' scripts/data/kfunc-flags-6.12.txt > "$tmp/kff.txt"
if python3 scripts/gen_kfunc_flags.py types "$tmp/kff.txt" 6.12 >/dev/null 2>&1; then
  fail platform/gen-kfunc-kver-rejects-unknown-filter "a set with an unknown .filter was accepted"
else
  pass platform/gen-kfunc-kver-rejects-unknown-filter
fi
# The generator must refuse an input it cannot reproduce (a corrupted measurement).
mkdir -p "$tmp/s/scripts/data/ctx-6.18" "$tmp/s/tests/unit"
cp scripts/gen_ctx.py "$tmp/s/scripts/"; cp scripts/data/ctx-6.18/fields.txt "$tmp/s/scripts/data/ctx-6.18/"
cp tests/unit/test_platform_kernel.c "$tmp/s/tests/unit/"
# a 1-byte load inside __sk_buff->data (which only takes 4-byte loads) of tc
awk '{print} /^# skb_tc /{t=1} t && /^ 76 /{print " 77 1   .   "; t=0}' scripts/data/ctx-6.18/access.txt \
  > "$tmp/s/scripts/data/ctx-6.18/access.txt"
if (cd "$tmp/s" && python3 scripts/gen_ctx.py >/dev/null 2>&1); then
  fail platform/gen-ctx-rejects-irregular "an irregular access (1 byte at data+1) was not reported"
else
  pass platform/gen-ctx-rejects-irregular
fi
