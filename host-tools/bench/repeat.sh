#!/usr/bin/env bash
# repeat.sh - is the matrix the same every time? (make repeat)
#
#   repeat.sh [--details] [--common] RUN_DIR RUN_DIR...
#
# Compares every run's results.json with the first one's, cell by cell (boot,
# scenario, case, phase, ABI: observed outcome), and prints each cell whose
# outcome differs with its detail in both runs. --details compares the
# details too, their numbers aside (each run of digits reads as N: times,
# sizes and addresses differ from run to run). --common compares the cells
# both runs have and counts the others, by scenario (runs of two versions of
# the lab: a case added is not a case changed). Exit 0 when all runs are
# identical, 1 when a cell differs, 2 when a run has no results.
set -uo pipefail
export LC_ALL=C	# sort and join agree on the order

details=no common=no
while [ $# -gt 0 ]; do
	case $1 in
	--details) details=yes; shift ;;
	--common) common=yes; shift ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: repeat.sh [--details] [--common] RUN_DIR RUN_DIR..." >&2; exit 2; }
cells() {	# RUN_DIR: "boot scenario.case.phase abi libc<TAB>observed<TAB>detail", sorted
	jq -r '.[] | "\(.boot) \(.scenario).\(.case).\(.phase) \(.abi) \(.libc)\t\(.observed)\t\(.detail)"' \
		"$1/results.json" | sort
}
# a cell as compared: its outcome and its detail, with --details the
# detail's numbers masked (decimal or hex, as in a commit id: each run of
# them reads as N)
compared() {
	if [ "$details" = yes ]; then
		cells "$1" | awk -F'\t' -v OFS='\t' '{ gsub(/[0-9a-f]*[0-9][0-9a-f]*/, "N", $3); print }'
	else
		cells "$1"
	fi
}
for r in "$@"; do
	[ -s "$r/results.json" ] || { echo "repeat.sh: $r has no results.json" >&2; exit 2; }
done
first=$1
total=$(jq length "$first/results.json")
what="every cell's outcome"
[ "$details" = yes ] && what="every cell's outcome and detail, numbers aside"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cells "$first" | cut -f1 >"$tmp/first.keys"
rc=0
for r in "${@:2}"; do
	cells "$r" | cut -f1 >"$tmp/keys"
	if [ "$common" = yes ]; then
		comm -12 "$tmp/first.keys" "$tmp/keys" >"$tmp/both"
		for side in 23 13; do
			n=$(comm -"$side" "$tmp/first.keys" "$tmp/keys" | grep -c .)
			[ "$n" -eq 0 ] && continue
			only=$r
			[ "$side" = 23 ] && only=$first
			echo "$(basename "$r"): $n cells only in $(basename "$only"):" \
				"$(comm -"$side" "$tmp/first.keys" "$tmp/keys" | awk '{ split($2, c, "."); n[c[1]]++ }
					END { for (s in n) { printf "%s%s %d", sep, s, n[s]; sep = ", " } }')"
		done
	else
		cat "$tmp/first.keys" "$tmp/keys" | sort -u >"$tmp/both"
	fi
	# the cells compared, in both runs (a missing cell compares as absent)
	join -t $'\t' -a 1 -e '(absent)' -o 0,2.2,2.3 "$tmp/both" <(compared "$first") >"$tmp/a"
	join -t $'\t' -a 1 -e '(absent)' -o 0,2.2,2.3 "$tmp/both" <(compared "$r") >"$tmp/b"
	# each differing cell, its outcome and detail in both runs
	join -t $'\t' "$tmp/a" "$tmp/b" | awk -F'\t' -v details="$details" \
		'$2 != $4 || (details == "yes" && $3 != $5) { printf "  %s: %s (%s) | %s (%s)\n", $1, $2, $3, $4, $5 }' \
		>"$tmp/differ"
	if [ ! -s "$tmp/differ" ]; then
		echo "$(basename "$r"): identical to $(basename "$first") ($(grep -c . "$tmp/both") cells: $what)"
		continue
	fi
	rc=1
	echo "$(basename "$r"): $(grep -c . "$tmp/differ") cells differ from $(basename "$first") ($what):"
	cat "$tmp/differ"
done
[ $rc -eq 0 ] && echo "repeat: $# runs, $what the same in each (the first had $total cells)"
exit $rc
