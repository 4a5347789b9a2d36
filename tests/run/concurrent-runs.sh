#!/usr/bin/env bash
# concurrent-runs.sh - two make runs at once into one results folder, from
# one checkout and one cache: neither may clobber the other.
#
#   tests/run/concurrent-runs.sh RESULTS_DIR [MAKE VARIABLES...]
#
# Each run boots i386's short rtc-after guest (the kernel and initramfs are
# already built: make check runs this after its real runs). Both must finish
# with their own complete results, under their own run ids; results/latest
# must name one of them, with no half-moved link left behind. A third run,
# judged by a table that disagrees with one cell, must exit non-zero.
set -uo pipefail

results=$1; shift
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"

rm -rf "$results"
mkdir -p "$results"
vars=(MACHINES=i386 CONFIGS=compat32-y BOOT_KINDS=rtc-after FAKETIME=no RESULTS="$results" "$@")
declare -A pid exit_code
for r in a b; do
	make -C "$top" --no-print-directory run RUN_ID="concurrent-$r" "${vars[@]}" >"$results/$r.log" 2>&1 &
	pid[$r]=$!
done
for r in a b; do
	wait "${pid[$r]}"; exit_code[$r]=$?
done

# own_results RUN_ID RESULTS_JSON: every record there carries RUN_ID.
own_results() {
	jq -e --arg id "$1" 'length > 0 and all(.[]; .run_id == $id)' "$2" >/dev/null
}

for r in a b; do
	run=$results/concurrent-$r
	expect "run $r exits 0 (make run, concurrently with the other)" [ "${exit_code[$r]}" -eq 0 ]
	expect "run $r has its own results.json with its own run id" own_results "concurrent-$r" "$run/results.json"
	expect "run $r's cells all as expected" grep -qE '^[1-9][0-9]* cells, [0-9]+ as expected, 0 not' "$run/summary.txt"
	expect "run $r's boot is its own" grep -qx "run_id=concurrent-$r" "$run/boots/i386-compat32-y-rtc-after/meta"
done
expect "both runs have the same cells" \
	cmp <(jq -c '[.[] | [.scenario, .case, .abi, .observed]] | sort' "$results/concurrent-a/results.json") \
	<(jq -c '[.[] | [.scenario, .case, .abi, .observed]] | sort' "$results/concurrent-b/results.json")
latest=$(readlink "$results/latest" || true)
expect "results/latest names one of the two runs ($latest)" \
	grep -qxE 'concurrent-(a|b)' <<<"$latest"
expect "no half-moved latest link is left" [ -z "$(find "$results" -maxdepth 1 -name '.latest-*')" ]

# The same run judged by a table that expects hctosys to fail after the
# overflow: make run must say so by its exit code and still write it all.
sed 's/^\(rtc\thctosys\tafter\tkernel\t\*\t\*\t\*\t\*\t\*\t\*\t\)PASS/\1UNSET/' \
	"$top/expectations.tsv" >"$results/disagreeing.tsv"
expect "the disagreeing table differs from expectations.tsv in one row" \
	[ "$(diff "$top/expectations.tsv" "$results/disagreeing.tsv" | grep -c '^>')" -eq 1 ]
make -C "$top" --no-print-directory run RUN_ID=concurrent-disagreeing "${vars[@]}" \
	EXPECTATIONS="$results/disagreeing.tsv" >"$results/disagreeing.log" 2>&1
rc=$?
expect "a run with a cell not as expected exits non-zero (rc $rc)" [ "$rc" -ne 0 ]
expect "and its summary counts that cell" \
	grep -qE '^[1-9][0-9]* cells, [0-9]+ as expected, 1 not' "$results/concurrent-disagreeing/summary.txt"
tap_end
