# tap.sh - the one TAP helper of the lab's test scripts (tests/unit/*.sh,
# tests/run/*.sh, tests/fuzz/fuzz.sh), sourced: TAP lines with running
# counts, and the closing plan and totals, added to $COUNTS for make
# check's last line.
#
#   expect NAME COMMAND...   ok when the command succeeds
#   same NAME GOT WANT       ok when the two are equal; both shown when not
#   skip NAME REASON         a check this host cannot make, and why
#   not_ok NAME [LINE...]    a check that failed, or could not even be made
#   tap_end                  the plan and totals; the script's exit status
#   tap_scratch              $work, a scratch folder removed at exit (KEEP=1
#                            keeps it); $top is the lab's top folder

passed=0 failed=0
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tap_scratch() {
	work=$(mktemp -d)
	trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
}
echo "TAP version 13"

not_ok() {
	local l
	failed=$((failed + 1)); echo "not ok $((passed + failed)) $1"
	shift
	for l in "$@"; do echo "#   $l"; done
}

expect() {
	local name=$1; shift
	if "$@"; then passed=$((passed + 1)); echo "ok $((passed + failed)) $name"
	else not_ok "$name" "failed: $*"; fi
}

same() {
	if [ "$2" = "$3" ]; then passed=$((passed + 1)); echo "ok $((passed + failed)) $1"
	else not_ok "$1" "got:  $2" "want: $3"; fi
}

skip() {
	passed=$((passed + 1)); echo "ok $((passed + failed)) $1 # SKIP $2"
}

tap_end() {
	echo "1..$((passed + failed))"
	echo "$passed passed, $failed failed"
	[ -z "${COUNTS:-}" ] || echo "$passed $failed" >>"$COUNTS"
	[ "$failed" -eq 0 ]
}
