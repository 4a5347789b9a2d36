#!/usr/bin/env bash
# newer-served.sh - does Debian serve a newer stable version of a kernel
# series the lab offers (data/kernel-sources.tsv) than the one it takes?
# One TAP line a kernel (host-tools/tap.sh), made by make check.
#
#   newer-served.sh cache=DIR suites="bookworm trixie-backports ..."
#       reads each suite's package indexes (and its security archive's),
#       fetched into the cache as debian.sh fetches them: a day old at most
#   newer-served.sh indexes="ARCHIVE=FILE ..."
#       reads these Packages files instead (tests/unit/newer-served.sh)
#   newer-served.sh pinned
#       prints what it compares: "PACKAGE SRCPKG FROM VERSION" a kernel
#
# A kernel's line is ok when no index serves a stable version of its series
# (X.Y.Z, no ~rc) above the one it takes: the version the table pins, or
# for "apt" the one installed here. When one does, or when the suite the
# table names no longer serves the pinned version, the line is "not ok ...
# # TODO" saying what is served where and what to do, and the script still
# exits 0: Debian publishes updates overnight, and a CI run must not turn
# red for that, but it must say so (make check's closing line counts it).
# A kernel whose indexes cannot be read is a SKIP with the reason.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=host-tools/kernel/source.sh
. "$LAB_TOP/host-tools/kernel/source.sh"
mode=check
[ "${1:-}" != pinned ] || { mode=pinned; shift; }
cache= suites= indexes=
kv_args "$@"

# The kernels offered, as kernel_package resolves them.
kernels=()
while IFS=$'\t' read -r package _; do
	kernels+=("$package")
done < <(grep -v '^#' "$LAB_TOP/data/kernel-sources.tsv" | grep .)

if [ "$mode" = pinned ]; then
	for k in "${kernels[@]}"; do
		kernel_package "$k"
		echo "$k $srcpkg $package_from ${package_version:--}"
	done
	exit 0
fi

# shellcheck source=host-tools/tap.sh
. "$LAB_TOP/host-tools/tap.sh"

# The indexes: "ARCHIVE<TAB>FILE" lines. A suite that cannot be read is
# remembered with its reason: its kernels are skipped, not judged on less.
lists=() unread=
if [ -n "$indexes" ]; then
	for i in $indexes; do lists+=("${i%%=*}"$'\t'"${i#*=}"); done
else
	[ -n "$cache" ] && [ -n "$suites" ] || die "usage: newer-served.sh cache=DIR suites=\"SUITE...\", or indexes=\"ARCHIVE=FILE...\""
	err=$(mktemp)
	trap 'rm -f "$err"' EXIT
	for s in $suites; do
		if out=$("$LAB_TOP/host-tools/distro/debian.sh" lists cache="$cache" arch=amd64 suite="$s" 2>"$err"); then
			mapfile -t -O ${#lists[@]} lists <<<"$out"
		else
			unread+="${unread:+; }$s: $(tail -1 "$err")"
		fi
	done
fi

# Every version of every linux-source-X.Y the indexes serve:
# "SRCPKG<TAB>VERSION<TAB>ARCHIVE".
served=$(for l in "${lists[@]}"; do
	archive=${l%%$'\t'*} file=${l#*$'\t'}
	/usr/lib/apt/apt-helper cat-file "$file" |
		awk -v a="$archive" '/^Package: / { p = ($2 ~ /^linux-source-[0-9]+\.[0-9]+$/) ? $2 : "" }
			/^Version: / && p != "" { print p "\t" $2 "\t" a; p = "" }' ||
		echo "unreadable"$'\t'"$file"$'\t'"$archive"
done)
while IFS=$'\t' read -r what file archive; do
	[ "$what" != unreadable ] || unread+="${unread:+; }$archive: $file cannot be read"
done <<<"$served"

# upstream VERSION: the kernel's own version (no epoch, no Debian revision)
upstream() { local v=${1#*:}; echo "${v%-*}"; }
newer() { dpkg --compare-versions "$1" gt "$2"; }

for k in "${kernels[@]}"; do
	kernel_package "$k"
	name=$k
	[ "$k" = "$srcpkg" ] || name="$k ($srcpkg)"
	if [ -z "$package_version" ]; then
		skip "$name: the newest stable $kver Debian serves" "$srcpkg is not installed here (make deps installs it)"
		continue
	fi
	name="$name $package_version: the newest stable $kver Debian serves"
	if [ -n "$unread" ]; then
		skip "$name" "the package indexes cannot be read ($unread)"
		continue
	fi
	best= best_in= pinned_served=
	while IFS=$'\t' read -r p v a; do
		[ "$p" = "$srcpkg" ] || continue
		[ "$a" != "$package_from" ] || [ "$v" != "$package_version" ] || pinned_served=yes
		u=$(upstream "$v")
		[[ $u != *"~"* ]] || continue	# a release candidate is no stable version
		if [ -z "$best" ] || newer "$u" "$(upstream "$best")" ||
		   { [ "$u" = "$(upstream "$best")" ] && newer "$v" "$best"; }; then
			best=$v best_in=$a
		fi
	done <<<"$served"
	todo_why=
	if [ -n "$best" ] && newer "$(upstream "$best")" "$(upstream "$package_version")"; then
		if [ "$package_from" = apt ]; then
			todo_why="$best_in serves $best: this machine has $package_version (apt-get install $srcpkg, where its apt serves it; else pin a suite for it in data/kernel-sources.tsv), then make kernels-check KERNELS_CHECK=$k"
		else
			todo_why="$best_in serves $best: pin it in data/kernel-sources.tsv and run make kernels-check KERNELS_CHECK=$k"
		fi
	elif [ "$package_from" != apt ] && [ -z "$pinned_served" ]; then
		todo_why="$package_from no longer serves $package_version (the newest stable $kver: ${best:-none}${best_in:+ in $best_in}): pin what it serves in data/kernel-sources.tsv"
	fi
	if [ -n "$todo_why" ]; then
		todo "$name" "$todo_why"
	else
		pass "$name"
	fi
	[ -z "$best" ] || echo "#   the newest stable: $best ($best_in)"
done
tap_end
