#!/usr/bin/env bash
# fs-image.sh - make one filesystem image for the files family's filesystems
# boots, as a device's vendor would: with the distribution's own mkfs, as an
# ordinary user (no mount, no loop device).
#
#   fs-image.sh NAME OUT
#
# NAME is one of the DISK lines of scenarios/files.c, where the filesystems
# are declared (make's FS_IMAGES); this script holds each one's mkfs recipe,
# and refuses a name it has none for. Writable filesystems are made empty
# (the guest sets its files' times); OUT is a sparse file, attached to the
# guest as a virtio-blk disk whose serial is NAME. The read-only ones
# (squashfs, iso9660) are built from a folder of files named t<SECONDS>
# whose mtime and atime are SECONDS: each of the points the guest's cases
# read back (scenarios/files.c, FS_POINTS; the same list, passed by make as
# POINTS).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: fs-image.sh NAME OUT"
name=$1 out=$2
PATH="$PATH:/usr/sbin:/sbin"
tmp=$out.tmp
rm -f "$tmp"
mkdir -p "$(dirname "$out")"

# A folder (dir) of t<SECONDS> files on a tmpfs, which keeps any 64-bit time (the
# build folder's filesystem may clamp them): each time checked after it is
# set, so that an image never carries a time other than the one meant.
points_tree() {
	local t got
	[ -n "${POINTS:-}" ] || die "$name: no POINTS (the times its files carry)"
	dir=$(mktemp -d /dev/shm/y2038-fs-image.XXXXXX 2>/dev/null) ||
		die "$name: no tmpfs at /dev/shm to hold times past 2038 for the image's files"
	trap 'rm -rf "$dir"' EXIT
	for t in $POINTS; do
		: >"$dir/t$t"
		touch -d "@$t" "$dir/t$t"
		got=$(stat -c %Y "$dir/t$t")
		[ "$got" = "$t" ] || die "$name: $dir/t$t keeps mtime $got, not $t"
	done
}

# What each mkfs needs: writable ones on a sparse file of the smallest size
# the tool accepts (xfsprogs refuses under 300 MB, btrfs without --mixed
# under about 110 MiB).
sparse() { truncate -s "$1" "$tmp"; }
case $name in
vfat)	sparse 16M && mkfs.vfat -n Y2038 "$tmp" >/dev/null ;;
exfat)	sparse 16M && mkfs.exfat -L Y2038 "$tmp" >/dev/null ;;
# ext2 as a device made long ago has it: 128-byte inodes, no journal
ext2)	sparse 4M && mke2fs -q -F -t ext2 -I 128 -E root_owner=0:0 "$tmp" ;;
xfs)	sparse 300M && mkfs.xfs -q -f -m bigtime=0 "$tmp" ;;
xfs-bigtime) sparse 300M && mkfs.xfs -q -f -m bigtime=1 "$tmp" ;;
btrfs)	sparse 128M && mkfs.btrfs -q -f "$tmp" >/dev/null ;;
f2fs)	sparse 64M && mkfs.f2fs -q -f "$tmp" >/dev/null ;;
squashfs)
	points_tree
	mksquashfs "$dir" "$tmp" -quiet -no-progress -noappend -all-root >/dev/null ;;
iso9660)
	points_tree
	# -R: Rock Ridge, which every ISO tool writes by default for Linux
	xorriso -as mkisofs -quiet -R -o "$tmp" "$dir" 2>/dev/null ;;
*)	die "no mkfs recipe for $name: a DISK of scenarios/files.c needs its line in host-tools/initramfs/fs-image.sh" ;;
esac
mv "$tmp" "$out"
