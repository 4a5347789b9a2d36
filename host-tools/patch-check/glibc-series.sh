#!/usr/bin/env bash
# glibc-series.sh - the lab's glibc series (patches/glibc/), checked as
# make check can afford: it applies, without fuzz, to the source the lab
# builds (glibc.sh apply: the distribution's glibc-source, fetched into the
# cache), and each patch is one a glibc maintainer would take as a start.
#
#   glibc-series.sh cache=DIR suite=SUITE mirror=URL version=V series=FILE [KEY=VALUE...]
#
# Each patch's master variant (patches/glibc/master/, the same name) adds
# and removes the same lines: the one sent upstream is the one tested here.
# The build runs in make libc (6 to 16 min per userland cold), its boots in
# make libc-check; glibc's own tests, the series' among them, in make
# glibc-tests; the master variant's build in make glibc-master-check
# (docs/libc.md). Prints TAP; adds to $COUNTS.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
series= version=
args=("$@")
kv_args "$@"
need series version
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$here/tap.sh"

mapfile -t patches < <("$here/kernel/series.sh" list "$series")
apply() { "$here/libc/glibc.sh" apply "${args[@]}" >&2; }	# its progress is not TAP
expect "the glibc series applies to glibc-source $version without fuzz (${#patches[@]} patches)" apply

# glibc's tests: a patch that changes the library adds a test (a tst-*.c,
# and the Makefile line that runs it) or changes one (an earlier patch's),
# or says that it changes no behaviour ("No functional change.": the
# existing tests cover it).
tested() {
	local files added
	files=$(sed -n 's|^+++ b/||p' "$1")
	grep -v '/tst-' <<<"$files" | grep -v '^support/' | grep -qE '\.(c|h|S)$' || return 0	# no code changed
	sed '/^---$/q' "$1" | grep -qx 'No functional change\.' && return 0
	grep -q '/tst-[^/]*\.c$' <<<"$files" || return 1
	added=$(awk '/^--- \/dev\/null$/ { getline; if ($2 ~ /\/tst-[^\/]*\.c$/) print $2 }' "$1")
	[ -z "$added" ] || { grep -q 'Makefile$' <<<"$files" && grep -qE '^\+.*tst-' "$1"; }
}
# The lines a patch adds and removes, without the diff's own headers.
changed_lines() { grep -E '^[-+]' "$1" | grep -vE '^(\+\+\+|---)( |$)'; }
for p in "${patches[@]}"; do
	n=$(basename "$p")
	m=$(dirname "$p")/master/$n
	expect "$n: a git format-patch with no author or sign-off" patch_anonymous "$p"
	expect "$n: what it changes comes with a test in glibc's form (tst-*.c, in a Makefile), or changes no behaviour" tested "$p"
	if [ -r "$m" ]; then
		expect "master/$n: a git format-patch with no author or sign-off" patch_anonymous "$m"
		same "master/$n: adds and removes the lines $n does" "$(changed_lines "$m" | sha256sum)" "$(changed_lines "$p" | sha256sum)"
	else
		not_ok "master/$n: the patch made on glibc master" "patches/glibc/master/ has no $n"
	fi
done
tap_end
