#!/usr/bin/env bash
# unit-c.sh - the C unit tests (tests/unit/unit.c, built as BUILD/tests/unit
# under ASan and UBSan: the parsers of the host tools, the harness's
# judgements), one TAP line a check through host-tools/tap.sh, counted for
# make check's closing line. unit.c says "pass WHAT" or "fail FILE:LINE:
# WHAT" for each check and "end" after the last, and exits 1 if one
# failed: a run that stops before "end" (a sanitizer's report, a crash), or
# exits otherwise (a leak found at exit), is a failure with what it printed.
#
#   tests/unit/unit-c.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

"$build/tests/unit" >"$work/out" 2>"$work/err"
status=$? ended='' fails=0
while IFS= read -r line; do
	case $line in
	"pass "*) pass "${line#pass }" ;;
	"fail "*) not_ok "${line#fail }"; fails=$((fails + 1)) ;;
	end) ended=yes ;;
	*) echo "# $line" ;;
	esac
done <"$work/out"
if [ -z "$ended" ]; then
	not_ok "unit.c ran to its end (status $status)" "$(tail -20 "$work/err")"
elif [ "$status" -ne $((fails > 0)) ]; then
	not_ok "unit.c exited $((fails > 0)) after its last check, not $status" "$(tail -20 "$work/err")"
fi
tap_end
