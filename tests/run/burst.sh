#!/usr/bin/env bash
# burst.sh - the cold run's shape, repeated: every boot of the kinds whose
# cases meet moments released at the same moment (as make run does once its
# last input is built), beside a CPU hog at normal priority, REPEAT times.
# Each run must end with every cell as expected and none left late: a case
# that missed its moment under that load is booted again alone
# (retry-late.sh) and then as expected.
#
#   tests/run/burst.sh RESULTS_DIR REPEAT LAB_DIR [MAKE VARIABLES...]
#
# LAB_DIR is the lab whose make runs (its kernels and inputs built first:
# make burst-check and make check do). Per run it prints how many boots
# were booted again and how many of their cases had missed their moment
# (counted in the first boots kept in boots/.late/), and how many cells are
# still late after; and a figure line for each, which make bench's notes
# and the issue's note quote. A lab without late cells (an older one) shows
# its mismatches instead, which is what this test reproduces.
set -uo pipefail

results=$1 repeat=$2 lab=$3
shift 3
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$top/host-tools/tap.sh"

mkdir -p "$results"
# One busy loop at normal priority, for as long as the runs take.
sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
for r in $(seq 1 "$repeat"); do
	id=burst-$(date -u +%Y%m%dT%H%M%SZ)-$r
	rm -rf "${results:?}/$id"
	start=$(date +%s)
	make -C "$lab" --no-print-directory run RUN_ID="$id" RESULTS="$results" FAKETIME=no "$@" \
		>"$results/$id.log" 2>&1
	rc=$?
	run=$results/$id
	retried=$(grep -c '^  RETRY ' "$results/$id.log")
	was_late=$(cat "$run"/boots/.late/*/tap.log 2>/dev/null | grep -cE '^# not ok [0-9]+ .* # LATE ')
	totals=$(grep -E '^[0-9]+ cells, ' "$run/summary.txt" 2>/dev/null | tail -1)
	late=$(sed -n 's/.*, \([0-9]*\) late .*/\1/p' <<<"$totals")
	echo "# burst $r of $repeat ($id, $(($(date +%s) - start)) s, a hog beside it): $retried boots again alone, $was_late cases late before, ${late:-0} after; ${totals:-no summary}"
	expect "burst $r: every cell as expected, none late after boots again alone (exit $rc)" \
		test "$rc" = 0 -a "${late:-0}" = 0 -a -n "$totals" -a "$(sed -n 's/.*, \([0-9]*\) not.*/\1/p' <<<"$totals")" = 0
done
tap_end
