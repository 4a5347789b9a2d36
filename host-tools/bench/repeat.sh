#!/usr/bin/env bash
# repeat.sh - is the matrix the same every time? (make repeat)
#
#   repeat.sh RUN_DIR...
#
# Compares every run's results.json with the first one's, cell by cell (boot,
# scenario, case, phase, ABI: observed outcome), and prints each cell whose
# outcome differs with its detail in both runs. Exit 0 when all runs are
# identical, 1 when a cell differs, 2 when a run has no results.
set -uo pipefail
export LC_ALL=C	# sort and join agree on the order

[ $# -ge 2 ] || { echo "usage: repeat.sh RUN_DIR RUN_DIR..." >&2; exit 2; }
cells() {	# RUN_DIR: "boot scenario.case.phase abi<TAB>observed<TAB>detail", sorted
	jq -r '.[] | "\(.boot) \(.scenario).\(.case).\(.phase) \(.abi)\t\(.observed)\t\(.detail)"' \
		"$1/results.json" | sort
}
for r in "$@"; do
	[ -s "$r/results.json" ] || { echo "repeat.sh: $r has no results.json" >&2; exit 2; }
done
first=$1
total=$(jq length "$first/results.json")
rc=0
cells "$first" | cut -f1,2 >"$first/.repeat-cells"
for r in "${@:2}"; do
	diffs=$(cells "$r" | cut -f1,2 | diff "$first/.repeat-cells" - | grep -c '^[<>]')
	if [ "$diffs" -eq 0 ]; then
		echo "$(basename "$r"): identical to $(basename "$first") ($total cells)"
		continue
	fi
	rc=1
	echo "$(basename "$r"): differs from $(basename "$first"):"
	# each differing cell, its outcome and detail in both runs
	join -t $'\t' <(cells "$first") <(cells "$r") |
		awk -F'\t' '$2 != $4 { printf "  %s: %s (%s) | %s (%s)\n", $1, $2, $3, $4, $5 }'
done
rm -f "$first/.repeat-cells"
[ $rc -eq 0 ] && echo "repeat: $# runs, every cell the same in each"
exit $rc
