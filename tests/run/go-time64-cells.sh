#!/usr/bin/env bash
# go-time64-cells.sh - the lab's Go in a run of the apps boots (make
# go-time64-check): every apps boot ran its cases, gotime built with it and
# Go's own tests of the series, so that a check whose cells all match did
# not match by leaving them out; and those tests passed where they ran.
#
#   tests/run/go-time64-cells.sh RUN_DIR VERSION    (VERSION: 1.27-time64)
set -uo pipefail
run=$1 version=$2
tag=go${version//[.-]/}
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"

# the cases the apps boots run for it: session.tsv's go_* lines and
# go-time64.tsv's, each (case, phase) once
top_dir=$(cd "$(dirname "$0")/../.." && pwd)
want=$(awk -F'\t' '!/^#/ && $2 ~ /^go_/ { print $1 }' "$top_dir/scenarios/apps/session.tsv" \
	"$top_dir/scenarios/apps/go-time64.tsv" | grep -c .)
boots=$(jq -r '[.[] | select(.scenario == "apps") | .boot] | unique | .[]' "$run/results.json")
expect "the run has apps boots ($(echo "$boots" | grep -c .))" test -n "$boots"
for b in $boots; do
	cells() { jq --arg b "$b" --arg t "${tag}_" "[.[] | select(.boot == \$b and (.case | startswith(\$t)))] | $1" "$run/results.json"; }
	same "$b: its $tag cells (session.tsv's go_* and go-time64.tsv's)" "$(cells length)" "$want"
	same "$b: Go's own tests of the series passed before and after the overflow" \
		"$(cells '[.[] | select(.case == "'"$tag"'_runtime_test" and .observed == "PASS")] | length')" 2
done
tap_end
