# tap.sh - sourced by the lab's real-run checks (check-run.sh, fault-boots.sh,
# distro-check.sh, report-check.sh): TAP lines with running counts, and the
# closing plan and totals, added to $COUNTS for make check's last line.

passed=0 failed=0
echo "TAP version 13"

# expect NAME COMMAND...: ok when the command succeeds.
expect() {
	local name=$1; shift
	if "$@"; then passed=$((passed + 1)); echo "ok $((passed + failed)) $name"
	else failed=$((failed + 1)); echo "not ok $((passed + failed)) $name"; echo "#   failed: $*"; fi
}

# skip NAME REASON: a check this host cannot make, and why (TAP's SKIP).
skip() {
	passed=$((passed + 1)); echo "ok $((passed + failed)) $1 # SKIP $2"
}

# not_ok NAME: a check that could not even be made.
not_ok() {
	failed=$((failed + 1)); echo "not ok $((passed + failed)) $1"
}

# The plan and totals; the script's exit status.
tap_end() {
	echo "1..$((passed + failed))"
	echo "$passed passed, $failed failed"
	[ -z "${COUNTS:-}" ] || echo "$passed $failed" >>"$COUNTS"
	[ "$failed" -eq 0 ]
}
