#!/usr/bin/env bash
# series.sh - the lab's patch series mechanism (quilt's series format).
#
#   series.sh list  SERIES [KVER]            the patch files, one per line
#   series.sh hash  SERIES [KVER]            a hash of the series and every patch
#   series.sh apply SERIES SRC DEST [KVER]   DEST = SRC with the series applied
#
# SERIES lists patch file names relative to its own directory, one per line;
# blank lines and '#' comments are ignored. Where upstream moved the code a
# patch touches, KVER/NAME beside the series (6.12/0002-...patch) is that
# patch for kernel KVER, and is used instead of NAME. apply makes DEST as a hard-link
# copy of SRC (patch(1) writes new files, so SRC stays pristine) and moves it
# into place only when every patch applied: a half-patched tree is never
# left where a build would pick it up.
set -euo pipefail

die() { echo "series.sh: $*" >&2; exit 1; }

list() {
	local series=$1 kver=${2:-} dir line
	[ -r "$series" ] || die "$series: no such series file"
	dir=$(dirname "$series")
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | tr -d '[:space:]')
		[ -n "$line" ] || continue
		if [ -n "$kver" ] && [ -r "$dir/$kver/$line" ]; then
			echo "$dir/$kver/$line"
			continue
		fi
		[ -r "$dir/$line" ] || die "$series names $line, which is not in $dir"
		echo "$dir/$line"
	done <"$series"
}

hash() {
	local p files
	files=$(list "$1" "${2:-}")
	{
		for p in $files; do
			basename "$p"
			cat "$p"
		done
	} | sha256sum | cut -c1-12
}

apply() {
	local series=$1 src=$2 dest=$3 kver=${4:-} tmp p n=0 files
	files=$(list "$series" "$kver")
	[ -d "$src" ] || die "$src: no source tree"
	[ ! -e "$dest" ] || die "$dest exists already"
	tmp=$(mktemp -d "$dest.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	cp -al "$src/." "$tmp/"
	for p in $files; do
		n=$((n + 1))
		if ! patch -d "$tmp" -p1 -N -s --no-backup-if-mismatch -r - <"$p" >"$tmp.log" 2>&1; then
			cat "$tmp.log" >&2
			rm -f "$tmp.log"
			die "patch $n, $(basename "$p"), does not apply to $src"
		fi
	done
	rm -f "$tmp.log"
	mv "$tmp" "$dest"
	trap - EXIT
}

cmd=${1:-}
shift || true
case $cmd in
list) [ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: series.sh list SERIES [KVER]"; list "$@" ;;
hash) [ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: series.sh hash SERIES [KVER]"; hash "$@" ;;
apply) [ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: series.sh apply SERIES SRC DEST [KVER]"; apply "$@" ;;
*) die "usage: series.sh list|hash|apply ..." ;;
esac
