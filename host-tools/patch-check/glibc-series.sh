#!/usr/bin/env bash
# glibc-series.sh - the lab's glibc series (patches/glibc/), checked as
# make check can afford: it applies, without fuzz, to the source the lab
# builds (glibc.sh apply: the distribution's glibc-source, fetched into the
# cache), and each patch is one a glibc maintainer would take as a start.
#
#   glibc-series.sh cache=DIR suite=SUITE mirror=URL version=V series=FILE [KEY=VALUE...]
#
# The build runs in make libc (6 to 16 min per userland cold), its boots in
# make libc-check; the test the patch adds runs in glibc's own harness only,
# in no lab target (docs/libc.md). Prints TAP; adds to $COUNTS.
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

# git format-patch's form, with no identity: whoever sends it signs it off.
anonymous() {
	head -1 "$1" | grep -q '^From 0\{40\} ' && ! grep -qE '^(From|Signed-off-by):' "$1"
}
# glibc's tests: a patch that changes the library adds or changes a test
# (a tst-*.c, and the Makefile line that runs it).
tested() {
	local files
	files=$(sed -n 's|^+++ b/||p' "$1")
	grep -v '/tst-' <<<"$files" | grep -qE '\.(c|h|S)$' || return 0	# no code changed
	grep -q '/tst-[^/]*\.c$' <<<"$files" && grep -q 'Makefile$' <<<"$files" &&
		grep -qE '^\+.*tst-' "$1"
}
for p in "${patches[@]}"; do
	expect "$(basename "$p"): a git format-patch with no author or sign-off" anonymous "$p"
	expect "$(basename "$p"): what it changes comes with a test in glibc's form (tst-*.c, in a Makefile)" tested "$p"
done
tap_end
