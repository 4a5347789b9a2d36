#!/usr/bin/env bash
# series.sh - the lab's patch series mechanism (quilt's series format).
#
#   series.sh list  SERIES [KVER]            the patch files, one per line
#   series.sh hash  SERIES [KVER]            a hash of the series' names and diffs
#
# SERIES lists patch file names relative to its own directory, one per line;
# blank lines and '#' comments are ignored. Where upstream moved the code a
# patch touches, KVER/NAME beside the series (6.12/0002-...patch) is that
# patch for kernel KVER and the kernels after it, up to the next version
# that has its own (7.2/NAME): a kernel takes the newest KVER/NAME at or
# below its version, else NAME. A NAME that exists only as KVER/NAME fixes
# code that kernels before KVER do not have: they leave it out (and their
# hash does not change). KVER/NAME.upstream says that from KVER on the
# kernel has the change itself (a stable backport's upstream commit): those
# kernels leave NAME out; the note says which commit. A line that is an
# absolute path names that patch itself (a series a tool wrote: make
# hrtimer-check's). Applying them is source.sh's tree_take.
set -euo pipefail

die() { echo "series.sh: $*" >&2; exit 1; }

# variant_for DIR NAME KVER: DIR/V/NAME for the newest V at or below KVER
# that has one or an upstream note (versions compared as sort -V does):
# prints the variant, or nothing for a note; fails where no V has either.
variant_for() {
	local dir=$1 name=$2 kver=$3 v best=
	for v in "$dir"/[0-9]*.[0-9]*/; do
		v=$(basename "$v")
		[ -r "$dir/$v/$name" ] || [ -r "$dir/$v/$name.upstream" ] || continue
		[ "$(printf '%s\n%s\n' "$v" "$kver" | sort -V | tail -1)" = "$kver" ] || continue	# v <= kver
		[ -z "$best" ] || [ "$(printf '%s\n%s\n' "$best" "$v" | sort -V | tail -1)" = "$v" ] && best=$v
	done
	[ -n "$best" ] || return 1
	[ -r "$dir/$best/$name" ] && echo "$dir/$best/$name"
	return 0
}

list() {
	local series=$1 kver=${2:-} dir line variant
	[ -r "$series" ] || die "$series: no such series file"
	dir=$(dirname "$series")
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | tr -d '[:space:]')
		[ -n "$line" ] || continue
		case $line in
		/*) [ -r "$line" ] || die "$series names $line, which is not there"
			echo "$line"	# a series made by a tool: its patches by path
			continue ;;
		esac
		if [ -n "$kver" ] && variant=$(variant_for "$dir" "$line" "$kver"); then
			[ -z "$variant" ] || echo "$variant"	# none: upstream has it
			continue
		fi
		if [ -r "$dir/$line" ]; then
			echo "$dir/$line"
		elif ! compgen -G "$dir/[0-9]*.[0-9]*/$line" >/dev/null && ! compgen -G "$dir/[0-9]*.[0-9]*/$line.upstream" >/dev/null; then
			die "$series names $line, which is not in $dir"
		fi
	done <"$series"
}

# What the kernel is built from: each patch's name and its diffs, not its
# message, so that a message reworded rebuilds nothing.
hash() {
	local p files
	files=$(list "$1" "${2:-}")
	{
		for p in $files; do
			basename "$p"
			sed -n '/^diff --git /,$p' "$p"
		done
	} | sha256sum | cut -c1-12
}

cmd=${1:-}
shift || true
case $cmd in
list) [ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: series.sh list SERIES [KVER]"; list "$@" ;;
hash) [ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: series.sh hash SERIES [KVER]"; hash "$@" ;;
*) die "usage: series.sh list|hash ..." ;;
esac
