#!/usr/bin/env bash
# report-check.sh - the run's report page, opened for real in headless
# Chromium (make boot-check): it loads, holds one cell per record of
# results.json, and its console shows nothing. Keeps a screenshot in the run.
#
#   tests/run/report-check.sh RUN_DIR
set -uo pipefail

run=$(realpath "$1")
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
tap_scratch
# chromium PAGE OUT ARGS...: the page's DOM (or screenshot) and its log in OUT.*
chromium_run() {
	local page=$1 out=$2
	shift 2
	# Quiet and offline: this machine's network is closed.
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d -p "$work")" --enable-logging=stderr --v=0 "$@" \
		"file://$page" >"$out.dom" 2>"$out.log"
}
cells() { grep -o 'class="cell' "$1" | wc -l; }
console() { grep -c ':CONSOLE' "$1"; }

page=$run/report.html
# The heat map holds every cell but the apps family's, which has its own
# section: a square there for each apps cell.
n=$(jq '[.[] | select(.scenario != "apps")] | length' "$run/results.json")
napps=$(jq '[.[] | select(.scenario == "apps")] | length' "$run/results.json")
nall=$(jq length "$run/results.json")
expect "report: the run wrote its page" test -s "$page"
chromium_run "$page" "$work/page" --dump-dom
expect "report: Chromium loads it" test -s "$work/page.dom"
expect "report: the boots' tables have a cell per record ($nall)" test "$(cells "$work/page.dom")" = "$nall"
expect "report: the console shows no message or error" test "$(console "$work/page.log")" = 0
# The first screen (1400x900): the overview heat map and the findings, whole.
chromium_run "$page" "$work/first" --window-size=1400,900 --dump-dom
box() { sed -n "s/.*data-$1-box=\"\([-0-9,]*\)\".*/\1/p" "$work/first.dom" | head -1; }
inside() {	# BOX: left,top,right,bottom within 1400x900, and not empty
	local l t r b
	IFS=, read -r l t r b <<<"$1"
	[ -n "$b" ] && [ "$l" -ge 0 ] && [ "$t" -ge 0 ] && [ "$r" -le 1400 ] && [ "$b" -le 900 ] && [ "$r" -gt "$l" ] && [ "$b" -gt "$t" ]
}
expect "report: the heat map is on the first screen at 1400x900 ($(box heatmap))" inside "$(box heatmap)"
expect "report: the headline findings are beside it ($(box findings))" inside "$(box findings)"
expect "report: ... with the old binaries and applications that fail ($(box old-binaries))" inside "$(box old-binaries)"
expect "report: ... and each distribution's answer, or how to get one ($(box distros))" inside "$(box distros)"
expect "report: the heat map has a square per cell ($n)" \
	test "$(grep -o 'class="hm t-' "$work/first.dom" | wc -l)" = "$n"
expect "report: the apps section has a square per apps cell ($napps)" \
	test "$(sed -n '/<section id="apps">/,/<\/section>/p' "$page" | grep -o '<td class="vs o-' | wc -l)" = "$napps"
expect "report: at least four findings, each with its figures" \
	test "$(grep -oE '<li class="f-(good|bad)"><b>[^<]*</b> [^<]*[0-9]' "$work/first.dom" | wc -l)" -ge 4
chromium_run "$page" "$work/shot" --window-size=1400,900 --screenshot="$run/report.png"
expect "report: a screenshot of the first screen is kept in the run ($run/report.png)" test -s "$run/report.png"

# The checks must be able to fail: a page with a script error, one cell short.
sed 's|</script>|nosuchfunction();</script>|' "$page" >"$work/broken.html"
chromium_run "$work/broken.html" "$work/broken" --dump-dom
expect "report check: a script error on the page is caught" test "$(console "$work/broken.log")" -gt 0
sed '0,/class="cell/s/class="cell/class="gone/' "$page" >"$work/short.html"
sed 's|<div id="findings">|<div id="findings" style="margin-top: 2000px">|' "$page" >"$work/low.html"
chromium_run "$work/low.html" "$work/low" --window-size=1400,900 --dump-dom
outside() { ! inside "$1"; }
expect "report check: findings pushed below the first screen are caught" \
	outside "$(sed -n 's/.*data-findings-box="\([-0-9,]*\)".*/\1/p' "$work/low.dom" | head -1)"
chromium_run "$work/short.html" "$work/short" --dump-dom
expect "report check: a missing cell is caught" test "$(cells "$work/short.dom")" = "$((nall - 1))"

tap_end
