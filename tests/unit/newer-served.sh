#!/usr/bin/env bash
# Tests of newer-served.sh (make check's "does Debian serve a newer kernel
# than the lab offers?") on package indexes written here, around the
# versions the lab takes now (data/kernel-sources.tsv, and for "apt" the
# version installed here): each kernel's line is ok only when no index
# serves a newer stable version of its series, says what to do when one
# does, and fails nothing for it.
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"
tool=$top/host-tools/kernel/newer-served.sh

# What the tool compares: "PACKAGE SRCPKG FROM VERSION" a kernel.
mapfile -t kernels < <("$tool" pinned)
expect "newer-served: it names each kernel offered" \
	test "${#kernels[@]}" -gt 0 -a "${#kernels[@]}" = "$(grep -v '^#' "$top/data/kernel-sources.tsv" | grep -c .)"

# bump VERSION [SUFFIX]: the next stable version of its series, Debian's
# revision kept (7.3.4-1~bpo13+1 -> 7.3.5-1~bpo13+1); SUFFIX goes after the
# upstream part (~rc1: a release candidate of it).
bump() {
	local up=${1%-*} rev=${1##*-}
	case $up in
	*.*.*) up=${up%.*}.$((${up##*.} + 1)) ;;
	*) up=$up.1 ;;
	esac
	echo "$up${2:-}-$rev"
}
# index FILE [SRCPKG=VERSION...]: a Packages index serving each kernel's
# version, an older one and a release candidate of its series, then these.
index() {
	local file=$1 k p
	shift
	: >"$file"
	for k in "${kernels[@]}"; do
		read -r _ p _ v <<<"$k"
		printf 'Package: %s\nVersion: %s\n\nPackage: %s\nVersion: %s\n\nPackage: %s-doc\nVersion: %s\n\n' \
			"$p" "$v" "$p" "${v%%.*}.0~rc3-1" "$p" "$(bump "$v")" >>"$file"
	done
	for p in "$@"; do printf 'Package: %s\nVersion: %s\n\n' "${p%%=*}" "${p#*=}" >>"$file"; done
}
# served FILE: the indexes argument that serves FILE as every suite a
# kernel comes from (apt's under bookworm-security).
served() {
	local k from s=
	for k in "${kernels[@]}"; do
		read -r _ _ from _ <<<"$k"
		[ "$from" != apt ] || from=bookworm-security
		[[ " $s " == *" $from=$1 "* ]] || s+=" $from=$1"
	done
	echo "$s"
}
run() { COUNTS=$work/counts "$tool" indexes="$1" >"$work/out" 2>&1; }

index "$work/now"
run "$(served "$work/now")"
rc=$?
same "newer-served: the versions offered are the newest served: exits 0" "$rc" 0
same "newer-served: ... every kernel ok (an older version, a release candidate and another package do not count)" \
	"$(grep -c '^ok [0-9]* .*: the newest stable .* Debian serves$' "$work/out")" "${#kernels[@]}"
same "newer-served: ... nothing to do" "$(tail -1 "$work/counts")" "${#kernels[@]} 0 0 0"

# The last kernel offered (the newest series): its next stable version, in
# another suite than the one the table names.
read -r last_pkg last_src last_from last_v <<<"${kernels[-1]}"
next=$(bump "$last_v")
index "$work/newer" "$last_src=$next"
run "$(served "$work/now") elsewhere-backports=$work/newer"
rc=$?
same "newer-served: a newer stable version served: exits 0 (Debian's update fails no run)" "$rc" 0
expect "newer-served: ... and its kernel's line is a TODO naming where, what, and what to do" \
	grep -qxF "not ok ${#kernels[@]} $last_pkg $last_v: the newest stable ${last_src#linux-source-} Debian serves # TODO elsewhere-backports serves $next: $(
		[ "$last_from" = apt ] && echo "this machine has $last_v (apt-get install $last_src, where its apt serves it; else pin a suite for it in data/kernel-sources.tsv), then make kernels-check KERNELS_CHECK=$last_pkg" ||
		echo "pin it in data/kernel-sources.tsv and run make kernels-check KERNELS_CHECK=$last_pkg")" "$work/out"
same "newer-served: ... counted as to do, not as failed" "$(tail -1 "$work/counts")" "$((${#kernels[@]} - 1)) 0 0 1"
expect "newer-served: ... and its totals say so" grep -qx "$((${#kernels[@]} - 1)) passed, 0 failed, 0 skipped, 1 to do" "$work/out"

# A release candidate above the version offered is no newer stable version.
index "$work/rc" "$last_src=$(bump "$last_v" '~rc2')"
run "$(served "$work/rc")"
same "newer-served: a newer release candidate alone: every kernel ok" "$(tail -1 "$work/counts")" "${#kernels[@]} 0 0 0"

# A kernel the table pins from a suite that serves it no more (sid keeps
# only its newest): to do, naming what is served.
pinned_from_suite=
for k in "${kernels[@]}"; do
	read -r p src from v <<<"$k"
	[ "$from" = apt ] || { pinned_from_suite="$p $src $from $v"; break; }
done
if [ -n "$pinned_from_suite" ]; then
	read -r p src from v <<<"$pinned_from_suite"
	awk -v v="Version: $v" -v r="Version: ${v%-*}-99" '$0 == v { $0 = r } { print }' "$work/now" >"$work/gone"
	indexes=$(served "$work/now")
	run "${indexes/ $from=$work\/now/ $from=$work/gone}"
	expect "newer-served: the pinned $v no longer in $from: a TODO naming the version to pin" \
		grep -q "^not ok [0-9]* $p $v: .* # TODO $from no longer serves $v (the newest stable ${src#linux-source-}: ${v%-*}-99 in $from): pin what it serves" "$work/out"
else
	skip "newer-served: a pinned version no longer served" "every kernel offered comes from this machine's apt"
fi

# An index that cannot be read: every kernel a skip with the reason.
run "$(served "$work/missing")"
rc=$?
same "newer-served: an unreadable index: exits 0" "$rc" 0
same "newer-served: ... every kernel skipped, saying why" \
	"$(grep -c "^ok [0-9]* .* # SKIP the package indexes cannot be read (.*$work/missing cannot be read)" "$work/out") $(tail -1 "$work/counts")" \
	"${#kernels[@]} 0 0 ${#kernels[@]} 0"
tap_end
