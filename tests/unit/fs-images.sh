#!/usr/bin/env bash
# fs-images.sh - the filesystems boots' images, made by fs-image.sh as make
# makes them (host-tools/initramfs/initramfs.mk), checked with each
# filesystem's own tools: make reads every filesystem scenarios/files.c
# declares (its DISK lines), fs-image.sh has a recipe for each, and each
# image is the filesystem the guest mounts it as (the DISK's mount type),
# XFS with and without bigtime, and the read-only ones hold what their tools
# wrote for the times the guest reads back (the filesystems rows of
# expectations.tsv rest on it): mksquashfs keeps the low 32 bits, xorriso
# stops at 2155-12-31T23:59:59.
#
#   tests/unit/fs-images.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"
PATH="$PATH:/usr/sbin:/sbin"
make_image() { POINTS="2147483647 2147483648 4294967296 9223372035" "$top/host-tools/initramfs/fs-image.sh" "$1" "$work/$1.img"; }

# The filesystems, as make reads them from scenarios/files.c (FS_IMAGES).
files_c=$top/scenarios/files.c
printf 'include Makefile\nfs-images:\n\t@echo $(FS_IMAGES)\n' >"$work/fs-images.mk"
names=$(make -s --no-print-directory -C "$top" -f "$work/fs-images.mk" fs-images BUILD="$build" 2>&1)
same "make: FS_IMAGES is every DISK line of scenarios/files.c" \
	"$(wc -w <<<"$names")" "$(grep -c '^[[:space:]]*DISK(' "$files_c")"
for fs in $names; do
	type=$(sed -n "s/^[[:space:]]*DISK([a-z0-9_]*, \"$fs\", \"\([^\"]*\)\".*/\1/p" "$files_c")
	make_image "$fs" >"$work/$fs.out" 2>&1
	expect "fs-image.sh: $fs, a DISK of scenarios/files.c, has a mkfs recipe" \
		test -z "$(grep 'no mkfs recipe' "$work/$fs.out")"
	expect "fs-image.sh $fs: made, and blkid calls it ${type:-?}, its mount type in files.c" \
		test -n "$type" -a "$(blkid -p -o value -s TYPE "$work/$fs.img" 2>&1)" = "$type"
done
same "fs-image.sh xfs: no bigtime (the 2038 limit)" \
	"$(xfs_db -r -c version "$work/xfs.img" | grep -c BIGTIME)" 0
expect "fs-image.sh xfs-bigtime: bigtime" grep -q BIGTIME <(xfs_db -r -c version "$work/xfs-bigtime.img")
expect "fs-image.sh ext2: 128-byte inodes" \
	grep -qx 'Inode size:[[:space:]]*128' <(dumpe2fs -h "$work/ext2.img" 2>/dev/null)

# What the read-only images hold: extracted, each file's mtime.
mtimes() { for t in 2147483647 2147483648 4294967296 9223372035; do stat -c %Y "$1/t$t"; done | paste -sd ' '; }
unsquashfs -q -d "$work/sq" "$work/squashfs.img" >/dev/null 2>&1
same "fs-image.sh squashfs: mksquashfs keeps the low 32 bits of each time (2^32 is 0)" \
	"$(mtimes "$work/sq")" "2147483647 2147483648 0 633437443"
xorriso -osirrox on -indev "$work/iso9660.img" -extract / "$work/iso" >/dev/null 2>&1
same "fs-image.sh iso9660: xorriso keeps each time up to 2155-12-31T23:59:59" \
	"$(mtimes "$work/iso")" "2147483647 2147483648 4294967296 5869583999"

"$top/host-tools/initramfs/fs-image.sh" ntfs "$work/ntfs.img" >"$work/ntfs.out" 2>&1
same "fs-image.sh: a filesystem without a recipe is an error saying where it goes" \
	"$?:$(cat "$work/ntfs.out")" "1:fs-image.sh: no mkfs recipe for ntfs: a DISK of scenarios/files.c needs its line in host-tools/initramfs/fs-image.sh"
POINTS="" "$top/host-tools/initramfs/fs-image.sh" squashfs "$work/none.img" >"$work/none.out" 2>&1
same "fs-image.sh: a read-only image without its times is an error, and no image" \
	"$?:$(cat "$work/none.out"):$(ls "$work"/none.img* 2>/dev/null)" "1:fs-image.sh: squashfs: no POINTS (the times its files carry):"
tap_end
