#!/usr/bin/env bash
# install-libc.sh - put a libc the lab built (glibc.sh) in place of a root's
# own: the copy the guest boots, never the folder a user gave.
#
#   install-libc.sh root=DIR libc=DIR multiarch=i386-linux-gnu [into=DIR]
#
# libc= is glibc.sh's result (root/: make install's DESTDIR). Each of its
# shared objects (lib/MULTIARCH/*.so*, and usr/lib/MULTIARCH/gconv/) replaces
# the root's file of that name in the folder where the root keeps its
# libc.so.6 (usr/lib/MULTIARCH on a merged /usr, lib/MULTIARCH on an old one),
# and its dynamic loader replaces every loader file of that name the root
# has (ld-linux.so.2 or ld-linux-armhf.so.3; the root's symlinks to it
# stay), and its static programs (sbin/ldconfig, sln) the root's of that
# name in usr/sbin or sbin. ROOT/y2038/libc then names it (lab_libc_name, the results' libc
# column). Prints what it replaced; fails if the root has no glibc for
# MULTIARCH. into=: read the root, write nothing there, and put the files at
# the same paths under DIR instead (validate-distro writes them onto the
# root's disk image: the folder a user gave stays as it was).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
root= libc= multiarch= into=
kv_args "$@"
need root libc multiarch
into=${into:-$root}
built=$libc/root
[ -f "$libc/libc" ] && [ -f "$built/lib/$multiarch/libc.so.6" ] ||
	die "$libc is not a libc glibc.sh built for $multiarch (no libc, or no root/lib/$multiarch/libc.so.6)"
# The root's own libc folder: a real folder, not through a symlink that
# might point out of the root (an absolute /lib -> /usr/lib).
dir=
for d in usr/lib/$multiarch lib/$multiarch; do
	if [ -f "$root/$d/libc.so.6" ] && [ ! -L "$root/$d/libc.so.6" ] && [ -z "$(find "$root/${d%%/*}" -maxdepth 0 -type l)" ]; then
		dir=$d
		break
	fi
done
[ -n "$dir" ] || die "$root has no glibc for $multiarch (no usr/lib/$multiarch/libc.so.6 or lib/$multiarch/libc.so.6)"

replaced=0
copy() {	# copy FILE PATH: the file, over what is at PATH in the root (a symlink too)
	mkdir -p "$(dirname "$into/$2")"
	cp --remove-destination -p "$1" "$into/$2"
	replaced=$((replaced + 1))
}
for f in "$built/lib/$multiarch"/*.so*; do
	copy "$f" "$dir/$(basename "$f")"
done
if [ -d "$built/usr/lib/$multiarch/gconv" ] && [ -d "$root/$dir/gconv" ]; then
	for f in "$built/usr/lib/$multiarch/gconv"/*; do
		[ -f "$f" ] && copy "$f" "$dir/gconv/$(basename "$f")"
	done
fi
# replace_named FILE FOLDER...: FILE over every real file of its name in
# those folders of the root (not through a symlinked folder: find does not
# follow a starting point that is a link).
replace_named() {
	local f=$1 d g
	shift
	while IFS= read -r -d '' g; do
		copy "$f" "${g#"$root"/}"
	done < <(for d in "$@"; do find "$root/$d" -maxdepth 1 -name "$(basename "$f")" -type f -print0 2>/dev/null; done | sort -zu)
}
loader=$(find "$built/lib" -maxdepth 1 -name 'ld-linux*.so.*' -type f)
[ -n "$loader" ] || die "$libc has no dynamic loader in root/lib"
libraries=$replaced
replace_named "$loader" usr/lib lib "$dir"
[ "$replaced" -gt "$libraries" ] || die "$root has no $(basename "$loader") file to replace"
loaders=$((replaced - libraries))
# The libc's static programs (ldconfig, sln: libc-bin's, linked with the
# libc they belong to), where the root has them: a root's own ldconfig is
# its old libc, and systemd's ldconfig.service runs it after the libc changed.
for f in "$built/sbin"/*; do
	[ -f "$f" ] && replace_named "$f" usr/sbin sbin
done
mkdir -p "$into/y2038"
cp "$libc/libc" "$into/y2038/libc"
echo "$(cat "$libc/libc"): $libraries libraries and gconv modules of /$dir, $loaders loader file and $((replaced - libraries - loaders)) static programs replaced$([ "$into" = "$root" ] || echo " (into $into)")"
