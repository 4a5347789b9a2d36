#!/usr/bin/env bash
# go-series.sh - the lab's Go series (patches/go/), checked as make check
# can afford: it applies, without fuzz, to the Go source the lab builds
# (go-toolchain.sh apply: golang-VERSION-src, fetched into the cache),
# each patch is a CL in Go's form (no author or sign-off, "pkg: summary"
# subject, a body wrapped at 76 columns that names its issue, a test beside
# the change), its Go files are gofmt'ed, and go vet of the patched runtime
# and its tests is clean for linux/386 and linux/arm, with Debian's vet and
# compiler of that version (the series changes no tool).
#
#   go-series.sh cache=DIR suite=SUITE mirror=URL go=VERSION series=FILE [KEY=VALUE...]
#
# The build (make.bash) is make go-time64's, Go's own tests of it run in
# the guests of make go-time64-check (docs/upstream/go.md). Prints TAP;
# adds to $COUNTS.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cache='' suite='' mirror=http://deb.debian.org/debian go='' series=''
args=("$@")
kv_args "$@"
need cache suite go series
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$here/tap.sh"

mapfile -t patches < <("$here/kernel/series.sh" list "$series")
mkdir -p "$cache/go"
tree=$(mktemp -d "$cache/go/.go-series.XXXXXX")	# beside the source: its hard links
trap 'rm -rf "$tree"' EXIT
apply() { "$here/go/go-toolchain.sh" apply "${args[@]}" tree="$tree/go" >&2; }	# its progress is not TAP
expect "the Go series applies to golang-$go-src without fuzz (${#patches[@]} patches)" apply

# Go's commit messages (go.dev/doc/contribute#commit_messages): "pkg/path:
# summary", lowercase after the colon, no trailing period, the whole line
# at most 72 characters; the body wrapped at 76; an issue it fixes or
# updates.
go_subject() {
	local s
	s=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$1")
	[ "${#s}" -le 72 ] && [[ $s =~ ^[a-z0-9/._,{}\ -]+:\ [a-z] ]] && [[ $s != *. ]]
}
go_body() {
	# the message: from the line after Subject's (and its continuation) to ---
	awk '/^Subject: / { on = 1; next } on && /^---$/ { exit } on && !/^ / { print }' "$1" |
		awk 'length > 76 { bad = 1 } END { exit bad }'
}
go_issue() { grep -qE '^(Fixes|Updates|For) (golang/go)?#[0-9N]+$' "$1"; }
# a test: a _test.go file in a package the patch changes
go_test() {
	local dirs
	dirs=$(sed -nE 's%^[+]{3} b/(.*)/[^/]*\.(go|s)$%\1%p' "$1" | sort -u)
	grep -qE "^\\+\\+\\+ b/($(paste -sd'|' <<<"$dirs"))/[^/]*_test\\.go$" "$1"
}
for p in "${patches[@]}"; do
	expect "$(basename "$p"): a git format-patch with no author or sign-off" patch_anonymous "$p"
	expect "$(basename "$p"): its subject in Go's form (pkg: lowercase summary, no period, <= 72)" go_subject "$p"
	expect "$(basename "$p"): its message wrapped at 76 columns" go_body "$p"
	expect "$(basename "$p"): its message names its issue (Fixes/Updates/For #N)" go_issue "$p"
	expect "$(basename "$p"): a test beside the change (a _test.go file of its package)" go_test "$p"
done

# The Go files the series touches, gofmt'ed; the patched runtime vetted.
if [ -d "$tree/go/src" ]; then
	debian_go=$("$here/initramfs/go.sh" goroot cache="$cache" suite="$suite" mirror="$mirror" go="$go")
	mapfile -t gofiles < <(cat "${patches[@]}" | sed -n 's|^+++ b/\(.*\.go\)$|\1|p' | sort -u)
	unformatted() { (cd "$tree/go" && "$debian_go/bin/gofmt" -l "${gofiles[@]}"); }
	expect "the series' Go files are gofmt'ed (${#gofiles[@]})" test -z "$(unformatted 2>&1)"
	vet() {
		env -i PATH=/usr/bin:/bin HOME="$tree" GOROOT="$tree/go" GOCACHE="$tree/gocache" GOTOOLCHAIN=local \
			CGO_ENABLED=0 GOOS=linux GOARCH="$1" GOARM=7 nice -n 10 "$debian_go/bin/go" vet runtime
	}
	for arch in 386 arm; do
		expect "go vet runtime, its tests included, for linux/$arch" vet "$arch"
	done
else
	skip "the series' Go files are gofmt'ed" "the series did not apply"
	skip "go vet runtime for linux/386 and linux/arm" "the series did not apply"
fi
tap_end
