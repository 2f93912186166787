#!/usr/bin/env bash
# Installs the Debian packages bpfgate needs, only those that are missing.
# Idempotent and quiet when everything is present. Needs root (or sudo) to install.
set -euo pipefail
pkgs=(libelf-dev zlib1g-dev libbpf-dev pkg-config make gcc clang-14 llvm-14 llvm-14-dev libclang-rt-14-dev
      clang-19 llvm-19 llvm-19-dev bpftool lcov graphviz linux-libc-dev python3 systemtap-sdt-dev
      libpcap-dev)
# the real corpus (corpus/real): the kernel's BPF selftests
pkgs+=(linux-source-6.12)
# real kernels under QEMU (bpfgate kernels, kload --kernel)
pkgs+=(qemu-system-x86 busybox-static debian-archive-keyring)
# the vmlinux BTF of those images (check --kernel V): their compressed vmlinux (xz, zstd)
pkgs+=(xz-utils zstd)
[ -n "${BPFGATE_EXTRA_PKGS:-}" ] && read -r -a extra <<<"$BPFGATE_EXTRA_PKGS" && pkgs+=("${extra[@]}")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
stamp=/var/lib/apt/periodic/bpfgate-update-stamp
if [ ! -e "$stamp" ] || [ -n "$(find /var/lib/apt/lists -maxdepth 0 -mmin +720 2>/dev/null)" ]; then
  $SUDO apt-get update -qq >/dev/null || true
  $SUDO mkdir -p "$(dirname $stamp)" && $SUDO touch "$stamp" || true
fi
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/bpfgate-deps.log 2>&1 || {
  # a stale package list is the usual cause: refresh once and retry
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/bpfgate-deps.log 2>&1 || {
    echo "deps: apt-get install failed, see /tmp/bpfgate-deps.log" >&2; tail -20 /tmp/bpfgate-deps.log >&2; exit 1; }
}
echo "deps: done"
