#!/usr/bin/env bash
# musl-series.sh - the lab's musl series (patches/musl/), checked as make
# check can afford: it applies, without fuzz, to the source the lab builds
# (musl-build.sh apply: the distribution's musl source package, fetched
# into the cache), each patch is one musl's list would take as a start
# (and adds no configure option: the fix works in musl's default build),
# and its test, in libc-test's form for libc-test's repository
# (patches/musl/libc-test/), is there.
#
#   musl-series.sh cache=DIR suite=SUITE mirror=URL version=V series=FILE [KEY=VALUE...]
#
# The build runs in make libc (about a minute per userland), its boots in
# make run's time64only boots, its test in make musl-libc-test
# (docs/upstream/musl.md). Prints TAP; adds to $COUNTS.
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
tests=("$(dirname "$series")"/libc-test/*.patch)
apply() { "$here/libc/musl-build.sh" apply "${args[@]}" >&2; }	# its progress is not TAP
expect "the musl series applies to musl $version without fuzz (${#patches[@]} patches)" apply

# musl's subjects: lowercase, no trailing period, at most 72 characters
# (a long one is folded over header lines: unfolded first).
musl_subject() {
	local s
	s=$(sed -n '/^Subject: /{:a;N;/\n[ \t][^\n]*$/ba;p;q}' "$1" | head -n -1 | tr -d '\n' |
		sed 's/^Subject: \[PATCH[^]]*\] //; s/[ \t]\+/ /g')
	[ -n "$s" ] && [ "${#s}" -le 72 ] && [[ $s != *. ]] && [[ ${s:0:1} != [A-Z] ]]
}
# a libc-test test: a new src/functional or src/regression test
libc_test() {
	grep -qE '^\+\+\+ b/src/(functional|regression)/[^/]*\.c$' "$1"
}
# no configure option: configure and the build files stay as they are
default_build() {
	! grep -qE '^\+\+\+ b/(configure|Makefile|config\.mak)' "$1"
}
for p in "${patches[@]}" "${tests[@]}"; do
	expect "$(basename "$p"): a git format-patch with no author or sign-off" patch_anonymous "$p"
	expect "$(basename "$p"): its subject in musl's form (lowercase, no period, <= 72)" musl_subject "$p"
done
for p in "${patches[@]}"; do
	expect "$(basename "$p"): changes neither configure nor the build files" default_build "$p"
done
for t in "${tests[@]}"; do
	expect "libc-test/$(basename "$t"): adds a test in libc-test's form" libc_test "$t"
done
tap_end
