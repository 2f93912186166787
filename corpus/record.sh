#!/usr/bin/env bash
# Regenerate corpus/expected.tsv from the running kernel (never by hand).
#   bash corpus/record.sh [BUILD_CORPUS_DIR]
# Each program of each built object is loaded alone through kjudge (libbpf);
# the kernel's verdict, and for a rejection a message pattern derived from
# its log (digits generalised), is written as one row:
#   variant  object(rel. to the variant dir)  program  verdict  message-regex  pattern
# "pattern" is the unsafe pattern named by the source comment
# `/* unsafe: ... */` directly above the program's SEC() line (reject/ only).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/corpus}
build=$(cd "$build" && pwd)
out=$here/expected.tsv
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.raw"' EXIT
[ -x "$build/kjudge" ] || { echo "record: $build/kjudge missing (make corpus)" >&2; exit 2; }
find "$build" -name '*.o' | sort >"$tmp.list"
xargs -a "$tmp.list" -n 8 -P 2 "$build/kjudge" >"$tmp.raw"
# pattern comments: file<TAB>prog<TAB>pattern
patterns=$(mktemp)
for f in "$here"/reject/*.bpf.c; do
  [ -f "$f" ] || continue
  awk -v f="reject/$(basename "$f" .bpf.c)" '
    /\/\* unsafe: / { p=$0; sub(/.*\/\* unsafe: /,"",p); sub(/ *\*\/.*/,"",p); next }
    /^SEC\(/ { armed = 1; next }
    armed && /^[A-Za-z_]/ {
      line = $0; armed = 0
      while (match(line, /[A-Za-z_0-9]+\(/)) {
        n = substr(line, RSTART, RLENGTH - 1); line = substr(line, RSTART + RLENGTH)
        if (n ~ /^BPF_(PROG|KPROBE|KRETPROBE)$/ && match(line, /^[A-Za-z_0-9]+/))
          n = substr(line, 1, RLENGTH)
        if (n !~ /^(SEC|__attribute__|naked|__naked|__noinline|noinline|__always_inline|__weak|BPF_PROG|BPF_KPROBE|BPF_KRETPROBE)$/) {
          if (p != "") print f "\t" n "\t" p
          p = ""; break
        }
      }
    }' "$f"
done >"$patterns"
{
  printf '# variant\tobject\tprogram\tverdict\tmessage_regex\tpattern\n'
  awk -F'\t' -v root="$build/" -v pf="$patterns" '
    BEGIN { while ((getline l < pf) > 0) { split(l, a, "\t"); pat[a[1] "\t" a[2]] = a[3] } }
    {
      rel = substr($1, length(root) + 1); v = rel; sub(/\/.*/, "", v); obj = substr(rel, length(v) + 2)
      key = obj; sub(/\.o$/, "", key)
      re = ""
      if ($5 == "rejected") {
        re = $8
        gsub(/[][\\.^$*+?(){}|]/, "\\\\&", re)
        gsub(/-?[0-9]+/, "-?[0-9]+", re)
      }
      p = (key "\t" $2) in pat ? pat[key "\t" $2] : ""
      printf "%s\t%s\t%s\t%s\t%s\t%s\n", v, obj, $2, $5, re, p
    }' "$tmp.raw" | sort
} >"$tmp"
mv "$tmp" "$out"
rm -f "$patterns" "$tmp.list"
awk -F'\t' '!/^#/ { n[$4]++ } END { for (k in n) printf "%s %d\n", k, n[k] }' "$out" >&2
