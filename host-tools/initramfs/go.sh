#!/usr/bin/env bash
# go.sh - a Go program of the lab's, built for a 32-bit userland with a
# distribution's own Go: its golang-VERSION-go and golang-VERSION-src
# packages (amd64, this host's), fetched into the cache and unpacked there,
# never installed. Static (CGO_ENABLED=0), as Debian builds its Go programs;
# GOARCH=386 for i386, GOARCH=arm GOARM=7 for armhf (Debian's armhf
# baseline).
#
#   go.sh cache=DIR suite=trixie mirror=URL go=1.24 arch=i386 src=FILE out=FILE
#
# out gets the program, which names the Go that built it in every line it
# prints (runtime.Version()).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cache='' suite='' mirror=http://deb.debian.org/debian go='' arch='' src='' out=''
kv_args "$@"
need cache suite go arch src out
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
case $arch in
i386) goarch=386 goarm= ;;
armhf) goarch=arm goarm=7 ;;
*) die "arch=$arch: the lab builds Go programs for i386 and armhf" ;;
esac

toolchain=$cache/go/$suite-go$go
if ! grep -q "^golang-$go-src " "$toolchain/.versions" 2>/dev/null; then
	rm -rf "$toolchain"
	"$here/../distro/debian.sh" package cache="$cache" arch=amd64 suite="$suite" mirror="$mirror" \
		out="$toolchain" "golang-$go-go" "golang-$go-src" >&2 ||
		die "golang-$go-go and golang-$go-src cannot be fetched from Debian $suite"
fi
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
run_go build -o "$tmp" "$src" || die "go $go cannot build $src for $arch"
mv "$tmp" "$out"
