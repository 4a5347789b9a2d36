#!/usr/bin/env bash
# report-check.sh - the run's report page, opened for real in headless
# Chromium (make boot-check): it loads, holds one cell per record of
# results.json, and its console shows nothing. Keeps a screenshot in the run.
#
#   tests/report-check.sh RUN_DIR
set -uo pipefail

run=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
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
n=$(jq length "$run/results.json")
expect "report: the run wrote its page" test -s "$page"
chromium_run "$page" "$work/page" --dump-dom
expect "report: Chromium loads it" test -s "$work/page.dom"
expect "report: the matrix has a cell per record ($n)" test "$(cells "$work/page.dom")" = "$n"
expect "report: the console shows no message or error" test "$(console "$work/page.log")" = 0
chromium_run "$page" "$work/shot" --window-size=1400,1800 --screenshot="$run/report.png"
expect "report: a screenshot is kept in the run ($run/report.png)" test -s "$run/report.png"

# The checks must be able to fail: a page with a script error, one cell short.
sed 's|</script>|nosuchfunction();</script>|' "$page" >"$work/broken.html"
chromium_run "$work/broken.html" "$work/broken" --dump-dom
expect "report check: a script error on the page is caught" test "$(console "$work/broken.log")" -gt 0
sed '0,/class="cell/s/class="cell/class="gone/' "$page" >"$work/short.html"
chromium_run "$work/short.html" "$work/short" --dump-dom
expect "report check: a missing cell is caught" test "$(cells "$work/short.dom")" = "$((n - 1))"

tap_end
