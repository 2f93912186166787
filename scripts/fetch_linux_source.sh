#!/usr/bin/env bash
# Prints the path of /usr/src/linux-source-VER.tar.xz, or of the same tarball
# fetched (not installed) from Debian's unstable suite through a private apt
# configuration under $BG_KCACHE (default ~/.cache/bpfgate/src-apt): a newer
# kernel's tree than the host's suites ship, for the held-out real corpus
# (make realcorpus-next). Idempotent: a tarball already there is reused.
#   scripts/fetch_linux_source.sh 7.2
set -euo pipefail
ver=${1:?usage: fetch_linux_source.sh VERSION}
[ -r "/usr/src/linux-source-$ver.tar.xz" ] && { echo "/usr/src/linux-source-$ver.tar.xz"; exit 0; }
root=${BG_KCACHE:-$HOME/.cache/bpfgate}/src-apt
out="$root/linux-source-$ver.tar.xz"
[ -r "$out" ] && { echo "$out"; exit 0; }
mkdir -p "$root/parts" "$root/state/lists/partial" "$root/cache/archives/partial" "$root/dl"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main" \
  >"$root/sources.list"
touch "$root/state/status"
opts=(-o "Dir::Etc::SourceList=$root/sources.list" -o "Dir::Etc::SourceParts=$root/parts"
      -o "Dir::State=$root/state" -o "Dir::State::status=$root/state/status" -o "Dir::Cache=$root/cache"
      -o Acquire::Languages=none -o APT::Architecture=amd64)
apt-get "${opts[@]}" update -qq >"$root/update.log" 2>&1 ||
  { echo "fetch_linux_source: apt-get update failed (see $root/update.log)" >&2; exit 1; }
(cd "$root/dl" && rm -f ./*.deb && apt-get "${opts[@]}" download -q "linux-source-$ver" >"$root/download.log" 2>&1) ||
  { echo "fetch_linux_source: linux-source-$ver is not in Debian unstable (see $root/download.log)" >&2; exit 1; }
rm -rf "$root/x" && dpkg-deb -x "$root"/dl/linux-source-"$ver"_*.deb "$root/x"
mv "$root/x/usr/src/linux-source-$ver.tar.xz" "$out.tmp" && mv "$out.tmp" "$out"
rm -rf "$root/x" "$root"/dl/*.deb
echo "$out"
