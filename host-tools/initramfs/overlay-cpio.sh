#!/usr/bin/env bash
# overlay-cpio.sh - the lab's initramfs with more on top: a distribution's
# root and the lab's own additions, as concatenated newc archives (the
# kernel unpacks them in order, later files replacing earlier ones).
#
#   overlay-cpio.sh OUT BASE_CPIO [--root DIR] [DIR...]
#
# --root DIR: a distribution's root, without what the guest does not need to
# run its programs (/usr/share, documentation and data, but for the Node.js
# builtins Debian keeps out of node's binary; package caches, iconv
# modules) nor what the lab's initramfs and init provide: /init,
# /scenarios, /y2038, and the mount points (a root may have /proc as a
# symlink, as debootstrap leaves it).
# Each other DIR goes in whole. Owners are root's, whoever runs this.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: overlay-cpio.sh OUT BASE_CPIO [--root DIR] [DIR...]" >&2; exit 2; }
out=$1 base=$2
shift 2
{
	cat "$base"
	while [ $# -gt 0 ]; do
		if [ "$1" = --root ]; then
			(cd "$2" && find . \( -path './usr/share/*' ! -path './usr/share/nodejs' ! -path './usr/share/nodejs/*' -o -path ./var/cache -o -path ./var/lib/apt \
				-o -name gconv -o -path ./init -o -path ./scenarios -o -path ./y2038 \
				-o -path ./dev -o -path ./proc -o -path ./sys -o -path ./tmp \) -prune -o -print |
				cpio -o -H newc -R 0:0 --quiet)
			shift 2
		else
			(cd "$1" && find . | cpio -o -H newc -R 0:0 --quiet)
			shift
		fi
	done
} >"$out.tmp"
mv "$out.tmp" "$out"
