#!/usr/bin/env bash
# Fetches HPL's source from Debian's hpcc source package (only its .orig tarball is kept) into
# bench/hpl/src/ (or $1): adds a deb-src entry for Debian's archive when there is none (as root),
# `apt-get source --download-only hpcc`, then unpacks hpl-*.tar.gz out of the hpcc tarball.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-$here/src}
if [ -d "$dest/hpl" ]; then echo "fetch-hpl: $dest/hpl already there"; exit 0; fi
if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  [ "$(id -u)" -eq 0 ] || { echo "fetch-hpl: needs root to add a deb-src entry"; exit 2; }
  cat > /etc/apt/sources.list.d/mpivet-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt-get update -qq
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source --download-only -qq hpcc) || true
orig=$(ls "$work"/hpcc_*.orig.tar.gz 2>/dev/null | head -1 || true)
if [ -z "$orig" ]; then
  # apt-get gives up when another file of the source package is missing from the mirror (on
  # 2026-11-24 hpcc_1.5.0-3.debian.tar.xz answered 404): fetch the .orig tarball at the address
  # apt-get prints and check it against the SHA256 of the package index.
  read -r uri name _ sum < <(cd "$work" && apt-get source --print-uris -qq hpcc | grep "\.orig\.tar")
  uri=${uri//\'/}
  curl -sSf -o "$work/$name" "$uri"
  echo "${sum#SHA256:}  $work/$name" | sha256sum -c --quiet
  orig=$work/$name
fi
[ -f "$orig" ] || { echo "fetch-hpl: no hpcc .orig.tar.gz downloaded"; exit 3; }
mkdir -p "$dest"
tar -xzf "$orig" -C "$work"
top=$(find "$work" -maxdepth 1 -type d -name 'hpcc*' | head -1)
mkdir -p "$dest/hpl"
cp -r "$top/hpl/." "$dest/hpl/"
cp "$orig" "$dest/"
echo "fetch-hpl: HPL from $(basename "$orig") in $dest/hpl"
