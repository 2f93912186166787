# The CLI front door: version, help, unknown commands and flags exit 2.
# min-pass: 3 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run))
. "$(dirname "$0")/lib/common.sh"
v=$("$BPFGATE" --version); [[ "$v" == "bpfgate "* ]] && pass cli/version || fail cli/version "$v"
"$BPFGATE" --help | grep -q "kload" && pass cli/help || fail cli/help
"$BPFGATE" nosuchcmd >/dev/null 2>&1; [ $? -eq 2 ] && pass cli/unknown-command || fail cli/unknown-command
"$BPFGATE" >/dev/null 2>&1; [ $? -eq 2 ] && pass cli/no-command || fail cli/no-command
