#!/usr/bin/env bash
# go.sh - a Go program of the lab's, built for a 32-bit userland with a
# distribution's own Go: its golang-VERSION-go and golang-VERSION-src
# packages (amd64, this host's), fetched into the cache and unpacked there,
# never installed. Static (CGO_ENABLED=0), as Debian builds its Go programs,
# for the userland's GOARCH and GOARM (machines/defaults.mk: userland.*).
#
#   go.sh cache=DIR suite=trixie mirror=URL go=1.24 goarch=386 goarm= src=FILE out=FILE
#   go.sh cache=DIR goroot=DIR goarch=arm goarm=7 src=FILE out=FILE
#       the same with a Go the lab built (host-tools/go/go-toolchain.sh);
#       test=PKG instead of src=: PKG's own tests, built by go test -c
#   go.sh goroot cache=DIR suite=sid mirror=URL go=1.27
#       only fetch the distribution's Go, and print its GOROOT: its
#       golang-VERSION-src is under it (src/) too
#
# out gets the program, which names the Go that built it in every line it
# prints (runtime.Version()).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
mode=build
[ "${1:-}" != goroot ] || { mode=goroot; shift; }
cache='' suite='' mirror=http://deb.debian.org/debian go='' goroot='' goarch='' goarm='' src='' test='' out=''
kv_args "$@"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The toolchain: one entry of the cache per suite and version, fetched once
# even when two userlands' builds ask at once (cache_entry).
if [ -z "$goroot" ]; then
	need cache suite go
	toolchain=$cache/go/$suite-go$go
	has_toolchain() { grep -q "^golang-$go-src " "$1/.versions" 2>/dev/null; }
	fetch_toolchain() {
		"$here/../distro/debian.sh" package cache="$cache" arch=amd64 suite="$suite" mirror="$mirror" \
			out="$1" "golang-$go-go" "golang-$go-src" >&2
	}
	cache_entry "$toolchain" has_toolchain fetch_toolchain ||
		die "golang-$go-go and golang-$go-src cannot be fetched from Debian $suite"
	goroot=$toolchain/usr/lib/go-$go
	[ -x "$goroot/bin/go" ] || die "$toolchain: golang-$go-go has no usr/lib/go-$go/bin/go"
	if [ "$mode" = goroot ]; then
		echo "$goroot"
		exit 0
	fi
fi
need cache goarch out
[ -n "$src$test" ] || die "src= (a program) or test= (a package) is required"
[ -x "$goroot/bin/go" ] || die "goroot=$goroot has no bin/go"
mkdir -p "$(dirname "$out")" "$cache/go/build-cache"
tmp=$out.tmp.$$
# The toolchain as unpacked, nothing from this host's environment: no
# downloaded toolchain (GOTOOLCHAIN=local), no module lookups, no cgo.
run_go() {
	env -i PATH=/usr/bin:/bin HOME="$cache/go" GOROOT="$goroot" GOCACHE="$cache/go/build-cache" \
		GOTOOLCHAIN=local GOFLAGS=-trimpath GO111MODULE=off GOPROXY=off CGO_ENABLED=0 \
		GOOS=linux GOARCH=$goarch GOARM=$goarm "$goroot/bin/go" "$@"
}
if [ -n "$test" ]; then
	run_go test -c -o "$tmp" "$test" || die "go ${go:-of $goroot} cannot build $test's tests for GOARCH=$goarch${goarm:+ GOARM=$goarm}"
else
	run_go build -o "$tmp" "$src" || die "go ${go:-of $goroot} cannot build $src for GOARCH=$goarch${goarm:+ GOARM=$goarm}"
fi
mv "$tmp" "$out"
