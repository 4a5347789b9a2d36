#!/usr/bin/env bash
# series.sh - the lab's patch series mechanism (quilt's series format).
#
#   series.sh list  SERIES              the patch files, one per line
#   series.sh hash  SERIES              a hash of the series and every patch
#   series.sh apply SERIES SRC DEST     DEST = SRC with the series applied
#
# SERIES lists patch file names relative to its own directory, one per line;
# blank lines and '#' comments are ignored. apply makes DEST as a hard-link
# copy of SRC (patch(1) writes new files, so SRC stays pristine) and moves it
# into place only when every patch applied: a half-patched tree is never
# left where a build would pick it up.
set -euo pipefail

die() { echo "series.sh: $*" >&2; exit 1; }

list() {
	local series=$1 dir line
	[ -r "$series" ] || die "$series: no such series file"
	dir=$(dirname "$series")
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | tr -d '[:space:]')
		[ -n "$line" ] || continue
		[ -r "$dir/$line" ] || die "$series names $line, which is not in $dir"
		echo "$dir/$line"
	done <"$series"
}

hash() {
	local p files
	files=$(list "$1")
	{
		for p in $files; do
			basename "$p"
			cat "$p"
		done
	} | sha256sum | cut -c1-12
}

apply() {
	local series=$1 src=$2 dest=$3 tmp p n=0 files
	files=$(list "$series")
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
list) [ $# -eq 1 ] || die "usage: series.sh list SERIES"; list "$1" ;;
hash) [ $# -eq 1 ] || die "usage: series.sh hash SERIES"; hash "$1" ;;
apply) [ $# -eq 3 ] || die "usage: series.sh apply SERIES SRC DEST"; apply "$@" ;;
*) die "usage: series.sh list|hash|apply ..." ;;
esac
