#!/usr/bin/env bash
# install-libc.sh - put a libc the lab built (glibc.sh) in place of a root's
# own: the copy the guest boots, never the folder a user gave.
#
#   install-libc.sh root=DIR libc=DIR triplet=i686-linux-gnu [into=DIR]
#
# libc= is glibc.sh's result (root/: make install's DESTDIR). Each of its
# shared objects (lib/TRIPLET/*.so*, and usr/lib/TRIPLET/gconv/) replaces
# the root's file of that name in the folder where the root keeps its
# libc.so.6 (usr/lib/TRIPLET on a merged /usr, lib/TRIPLET on an old one),
# and its dynamic loader replaces every loader file of that name the root
# has (ld-linux.so.2 or ld-linux-armhf.so.3; the root's symlinks to it
# stay). ROOT/y2038/libc then names it (lab_libc_name, the results' libc
# column). Prints what it replaced; fails if the root has no glibc for
# TRIPLET. into=: read the root, write nothing there, and put the files at
# the same paths under DIR instead (validate-distro writes them onto the
# root's disk image: the folder a user gave stays as it was).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
root= libc= triplet= into=
kv_args "$@"
need root libc triplet
into=${into:-$root}
built=$libc/root
[ -f "$libc/libc" ] && [ -f "$built/lib/$triplet/libc.so.6" ] ||
	die "$libc is not a libc glibc.sh built for $triplet (no libc, or no root/lib/$triplet/libc.so.6)"
# The root's own libc folder: a real folder, not through a symlink that
# might point out of the root (an absolute /lib -> /usr/lib).
dir=
for d in usr/lib/$triplet lib/$triplet; do
	if [ -f "$root/$d/libc.so.6" ] && [ ! -L "$root/$d/libc.so.6" ] && [ -z "$(find "$root/${d%%/*}" -maxdepth 0 -type l)" ]; then
		dir=$d
		break
	fi
done
[ -n "$dir" ] || die "$root has no glibc for $triplet (no usr/lib/$triplet/libc.so.6 or lib/$triplet/libc.so.6)"

replaced=0
copy() {	# copy FILE PATH: the file, over what is at PATH in the root (a symlink too)
	mkdir -p "$(dirname "$into/$2")"
	cp --remove-destination -p "$1" "$into/$2"
	replaced=$((replaced + 1))
}
for f in "$built/lib/$triplet"/*.so*; do
	copy "$f" "$dir/$(basename "$f")"
done
if [ -d "$built/usr/lib/$triplet/gconv" ] && [ -d "$root/$dir/gconv" ]; then
	for f in "$built/usr/lib/$triplet/gconv"/*; do
		[ -f "$f" ] && copy "$f" "$dir/gconv/$(basename "$f")"
	done
fi
loader=$(find "$built/lib" -maxdepth 1 -name 'ld-linux*.so.*' -type f)
[ -n "$loader" ] || die "$libc has no dynamic loader in root/lib"
libraries=$replaced
while IFS= read -r -d '' f; do
	copy "$loader" "${f#"$root"/}"
done < <(find "$root/usr/lib" "$root/lib" "$root/$dir" -maxdepth 1 -name "$(basename "$loader")" -type f -print0 2>/dev/null | sort -zu)
[ "$replaced" -gt "$libraries" ] || die "$root has no $(basename "$loader") file to replace"
mkdir -p "$into/y2038"
cp "$libc/libc" "$into/y2038/libc"
echo "$(cat "$libc/libc"): $libraries libraries of /$dir and $((replaced - libraries)) loader file replaced$([ "$into" = "$root" ] || echo " (into $into)")"
