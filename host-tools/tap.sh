# tap.sh - the lab's one TAP writer, sourced by its test scripts
# (tests/unit/*.sh, tests/run/*.sh, tests/fuzz/fuzz.sh) and by the host
# tools that report checks (host-tools/patch-check/*.sh): TAP 13 lines with
# running counts, then the plan and the totals, which are added to $COUNTS
# for make check's closing line. A skip is counted apart: it is neither a
# pass nor a failure, and it always says why; so is a "to do".
#
#   pass NAME                a check that held (the caller decided)
#   expect NAME COMMAND...   ok when the command succeeds
#   same NAME GOT WANT       ok when the two are equal; both shown when not
#   skip NAME REASON         a check not made here, and why
#   todo NAME REASON         a check that does not hold for a reason from
#                            outside the lab, which must be said but fails
#                            nothing (Debian serves a newer kernel): TAP's
#                            "not ok N NAME # TODO REASON"
#   not_ok NAME [LINE...]    a check that failed, or could not even be made
#   tap_end                  the plan and totals; the script's exit status
#   tap_scratch              $work, a scratch folder removed at exit (KEEP=1
#                            keeps it); $top is the lab's top folder

passed=0 failed=0 skipped=0 todos=0
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tap_scratch() {
	work=$(mktemp -d)
	trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
}
echo "TAP version 13"

tap_number() { echo $((passed + failed + skipped + todos)); }

pass() {
	passed=$((passed + 1)); echo "ok $(tap_number) $1"
}

not_ok() {
	local l
	failed=$((failed + 1)); echo "not ok $(tap_number) $1"
	shift
	for l in "$@"; do echo "#   $l"; done
}

expect() {
	local name=$1; shift
	if "$@"; then pass "$name"
	else not_ok "$name" "failed: $*"; fi
}

same() {
	if [ "$2" = "$3" ]; then pass "$1"
	else not_ok "$1" "got:  $2" "want: $3"; fi
}

skip() {
	[ -n "${2:-}" ] || { not_ok "$1" "a skip without its reason"; return; }
	skipped=$((skipped + 1)); echo "ok $(tap_number) $1 # SKIP $2"
}

todo() {
	[ -n "${2:-}" ] || { not_ok "$1" "a to do without its reason"; return; }
	todos=$((todos + 1)); echo "not ok $(tap_number) $1 # TODO $2"
}

tap_end() {
	echo "1..$(tap_number)"
	echo "$passed passed, $failed failed, $skipped skipped$([ "$todos" -eq 0 ] || echo ", $todos to do")"
	[ -z "${COUNTS:-}" ] || echo "$passed $failed $skipped $todos" >>"$COUNTS"
	[ "$failed" -eq 0 ]
}
