# Shared helpers for shell tests. Each test prints lines the runner counts:
# PASS name | FAIL name: why | SKIP name: why | XFAIL name: why
BG_BUILD=${BG_BUILD:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build}
BG_NORMAL_BUILD=${BG_NORMAL_BUILD:-$BG_BUILD}
BG_EXAMPLES=${BG_EXAMPLES:-$BG_NORMAL_BUILD/examples}
BG_CORPUS=${BG_CORPUS:-$BG_NORMAL_BUILD/corpus}
BG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BPFGATE="$BG_BUILD/bpfgate"
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: ${2:-}"; }
skip() { echo "SKIP $1: ${2:-}"; }
xfail() { echo "XFAIL $1: ${2:-}"; }
check() { # check NAME CMD... : PASS when the command succeeds
  local n=$1; shift
  if "$@" >/tmp/bg-check.$$ 2>&1; then pass "$n"; else fail "$n" "$(tail -3 /tmp/bg-check.$$ | tr '\n' ' ')"; fi
  rm -f /tmp/bg-check.$$
}
# bpf() usable? (prints a reason and returns 1 when not)
kernel_ok() {
  if [ -z "${BG_KERNEL_OK:-}" ]; then
    if "$BG_BUILD/bpfgate" kload --probe >/dev/null 2>&1; then BG_KERNEL_OK=1; else BG_KERNEL_OK=0; fi
    export BG_KERNEL_OK
  fi
  [ "$BG_KERNEL_OK" = 1 ]
}
