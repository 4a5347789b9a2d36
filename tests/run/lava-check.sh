#!/usr/bin/env bash
# lava-check.sh - one matrix cell booted by the lab and through LAVA
# (lava-run), collected together: LAVA's verdicts must equal the lab's.
#
#   tests/run/lava-check.sh RUN_DIR CELL
#
# RUN_DIR/boots/CELL is the lab's own boot, RUN_DIR/boots/CELL-lava the same
# job run by lava-run (host-tools/engines/lava.sh run), and RUN_DIR/results.json the
# collector's verdicts on both. Checks: LAVA's job passed; every case LAVA
# recorded is the case the TAP shows, with the matching result; the cells and
# their verdicts are the same in both boots (the diff is kept in
# RUN_DIR/lava-diff.txt, and must be empty). The LAVA boot's TAP is read
# by the collector (LAB_COLLECT: y2038-collect --boot DIR --json), as
# every boot's is.
set -uo pipefail

run=$1 cell=$2
lab=$run/boots/$cell lava=$run/boots/$cell-lava
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"

"${LAB_COLLECT:?lava-check.sh: LAB_COLLECT names the built collector (make exports it)}" \
	--boot "$lava" --json >"$run/lava-boot.json"
expect "lava-run finished the job (result pass)" grep -qx pass "$lava/lava-job.txt"
expect "the LAVA boot reached the end of its TAP" jq -e .tap.done "$run/lava-boot.json"

# What LAVA should have recorded, from the TAP it read: per program (suite),
# "ABI CASE PHASE" with pass for PASS, skip for SKIP, fail otherwise.
jq -r '.tap.programs[] | .name as $suite | .cases[]
	| [$suite, "\(.abi) \(.case) \(.phase)",
	   (if .class == "PASS" then "pass" elif .class == "SKIP" then "skip" else "fail" end)] | @tsv' \
	"$run/lava-boot.json" | sort >"$run/lava-expected-cases.tsv"
cut -f1,3,4 "$lava/lava-cases.tsv" | awk -F'\t' 'BEGIN { OFS = "\t" } { print $1, $3, $2 }' | sort >"$run/lava-recorded-cases.tsv"
n=$(wc -l <"$run/lava-recorded-cases.tsv")
expect "LAVA recorded $n test cases, one for each case in the TAP, with the same result" \
	diff "$run/lava-expected-cases.tsv" "$run/lava-recorded-cases.tsv"
expect "LAVA recorded more than a handful of cases ($n)" [ "$n" -gt 100 ]

# The collector's verdicts, cell by cell: the details carry timings, so the
# outcome and verdict are compared.
cells() {
	jq -r --arg boot "$1" '.[] | select(.boot == $boot)
		| [.scenario, .case, .abi, .phase, .observed, .verdict] | @tsv' "$run/results.json" | sort
}
cells "$cell" >"$run/lab-cells.tsv"
cells "$cell-lava" >"$run/lava-cells.tsv"
diff "$run/lab-cells.tsv" "$run/lava-cells.tsv" >"$run/lava-diff.txt"
expect "the lab and LAVA have the same cells and verdicts ($(wc -l <"$run/lab-cells.tsv") cells; diff: $run/lava-diff.txt)" \
	[ ! -s "$run/lava-diff.txt" ]
expect "every LAVA cell is as expected" \
	[ "$(jq --arg boot "$cell-lava" '[.[] | select(.boot == $boot and .verdict != "match")] | length' "$run/results.json")" -eq 0 ]
tap_end
