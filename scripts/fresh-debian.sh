#!/usr/bin/env bash
# Runs the README's two set-up commands, read from README.md, on a fresh Debian 12 (debootstrap
# minbase, chroot) from a clone of this repository's HEAD: proof that they rely on nothing this
# machine already has. Usage, as root, with debootstrap and network: scripts/fresh-debian.sh [DIR]
set -euo pipefail
root=${1:-/tmp/mpivet-fresh}
src=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
[ "$(id -u)" = 0 ] || { echo "fresh-debian: run as root (chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-debian: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
[ ! -e "$root" ] || { echo "fresh-debian: $root exists: remove it or name another folder" >&2; exit 2; }
mapfile -t cmds < <(grep '^bash scripts/install-deps.sh && ' "$src/README.md")
[ "${#cmds[@]}" = 2 ] || { echo "fresh-debian: expected the README's two set-up commands, found ${#cmds[@]}" >&2; exit 2; }
cleanup() {
  umount -R "$root/dev" 2>/dev/null || true
  umount -R "$root/sys" 2>/dev/null || true
  umount "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$root.debootstrap.log"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
cp /etc/resolv.conf /etc/hosts "$root/etc/"   # a real machine resolves its own host name
git clone -q "$src" "$root/root/mpivet"
run() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin bash -c "cd /root/mpivet && $1"
}
# the tests first (they install everything), then the main job, whose exit status 1 is a FAIL verdict
t0=$SECONDS
run "${cmds[1]}"
echo "fresh-debian: '${cmds[1]}' passed in $((SECONDS - t0)) s"
t0=$SECONDS
rc=0
run "${cmds[0]}" || rc=$?
echo "fresh-debian: '${cmds[0]}' exited $rc in $((SECONDS - t0)) s (0: PASS, 1: FAIL verdict)"
echo "fresh-debian: the system stays in $root (remove it with rm -rf once unmounted)"
[ "$rc" -le 1 ]
