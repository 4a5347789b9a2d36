#!/usr/bin/env bash
# go.sh - a Go program of the lab's, built for a 32-bit userland with a
# distribution's own Go: its golang-VERSION-go and golang-VERSION-src
# packages (amd64, this host's), fetched into the cache and unpacked there,
# never installed. Static (CGO_ENABLED=0), as Debian builds its Go programs,
# for the userland's GOARCH and GOARM (machines/defaults.mk: userland.*).
#
#   go.sh cache=DIR suite=trixie mirror=URL go=1.24 goarch=386 goarm= src=FILE out=FILE
#
# out gets the program, which names the Go that built it in every line it
# prints (runtime.Version()).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cache='' suite='' mirror=http://deb.debian.org/debian go='' goarch='' goarm='' src='' out=''
kv_args "$@"
need cache suite go goarch src out
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The toolchain: one entry of the cache per suite and version, fetched once
# even when two userlands' builds ask at once (cache_entry).
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
mkdir -p "$(dirname "$out")" "$cache/go/build-cache"
tmp=$out.tmp.$$
# The toolchain as unpacked, nothing from this host's environment: no
# downloaded toolchain (GOTOOLCHAIN=local), no module lookups, no cgo.
run_go() {
	env -i PATH=/usr/bin:/bin HOME="$cache/go" GOROOT="$goroot" GOCACHE="$cache/go/build-cache" \
		GOTOOLCHAIN=local GOFLAGS=-trimpath GO111MODULE=off GOPROXY=off CGO_ENABLED=0 \
		GOOS=linux GOARCH=$goarch GOARM=$goarm "$goroot/bin/go" "$@"
}
run_go build -o "$tmp" "$src" || die "go $go cannot build $src for GOARCH=$goarch${goarm:+ GOARM=$goarm}"
mv "$tmp" "$out"
