#!/usr/bin/env bash
# kcidb-check.sh - a run exported as KCIDB JSON (host-tools/engines/kcidb.sh) and
# validated against the v5.3 rules in tests/kcidb/ (see its README: no
# package ships the published schema) with Debian's python3-jsonschema.
#
#   tests/run/kcidb-check.sh RUN_DIR
set -uo pipefail
run=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
schema=$top/tests/kcidb/v5.3-rules.schema.json
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"

# valid FILE: no schema error (the first ones are printed)
valid() {
	/usr/bin/python3 - "$schema" "$1" <<'PY'
import json, sys
import jsonschema
errors = list(jsonschema.Draft7Validator(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
for e in errors[:3]:
    print("#   " + "/".join(map(str, e.absolute_path)) + ": " + e.message)
sys.exit(1 if errors else 0)
PY
}
refused() { ! valid "$1" >/dev/null; }
holds() { jq -e "$1" "$2" >/dev/null; }

expect "kcidb.sh exports $run" "$top/host-tools/engines/kcidb.sh" "$run"
json=$run/kcidb.json
expect "the export passes the KCIDB v5.3 rules" valid "$json"
kernel_cells=$(jq '[.[] | select(.config | startswith("compat32"))] | length' "$run/results.json")
expect "one test per kernel cell ($kernel_cells)" [ "$(jq '.tests | length' "$json")" -eq "$kernel_cells" ]
expect "every test's build and every build's checkout is in the export" holds '
	([.builds[].id] as $b | all(.tests[]; .build_id as $x | $b | index($x)))
	and ([.checkouts[].id] as $c | all(.builds[]; .checkout_id as $x | $c | index($x)))' "$json"
expect "a test's status is its observation (PASS, SKIP, EOVERFLOW as FAIL)" holds '
	all(.tests[]; (.misc.observed == "PASS") == (.status == "PASS")
		and (.misc.observed == "SKIP") == (.status == "SKIP"))
	and any(.tests[]; .misc.observed == "EOVERFLOW" and .status == "FAIL")' "$json"
# The rules bite: a build without its checkout, and a made-up status.
jq '.builds[0] |= del(.checkout_id)' "$json" >"$run/kcidb-broken.json"
expect "a build without checkout_id is refused" refused "$run/kcidb-broken.json"
jq '.tests[0].status = "MAYBE"' "$json" >"$run/kcidb-broken.json"
expect "a status KCIDB does not know is refused" refused "$run/kcidb-broken.json"
rm -f "$run/kcidb-broken.json"
tap_end
