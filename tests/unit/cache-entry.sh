#!/usr/bin/env bash
# Tests of the cache's entries made once (cache_entry, host-tools/lib.sh):
# two fetches of one entry at once, by the helper and by the tools that
# use it, with a stand-in for debian.sh that takes its time, so that the
# second fetch comes while the first is under way.
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"
# shellcheck source=host-tools/lib.sh
. "$top/host-tools/lib.sh"

# --- The helper: one fill for two callers at once; neither sees it half made.
fills=$work/fills
slow_fill() { echo x >>"$fills"; mkdir "$1"; sleep 1; echo whole >"$1/.done"; }
is_whole() { [ -e "$1/.done" ]; }
entry=$work/cache/entry
cache_entry "$entry" is_whole slow_fill & a=$!
sleep 0.2
cache_entry "$entry" is_whole slow_fill & b=$!
wait $a; ra=$?; wait $b; rb=$?
same "cache_entry: two callers at once both succeed" "$ra $rb" "0 0"
same "cache_entry: ... and the entry was filled once" "$(wc -l <"$fills")" 1
same "cache_entry: ... whole, nothing left beside it" "$(cat "$entry/.done") $(ls "$work/cache" | tr '\n' ' ')" "whole entry entry.lock "
failing_fill() { mkdir "$1"; touch "$1/half"; return 3; }
cache_entry "$work/cache/bad" is_whole failing_fill
rc=$?
expect "cache_entry: a fill that fails is the caller's failure, and leaves no entry" \
	test "$rc" = 3 -a ! -e "$work/cache/bad" -a ! -e "$work/cache/bad.new"

# --- go.sh: two userlands' builds fetching one toolchain at once (make run
# builds i386's and armhf's Go programs side by side). In a copy of the
# tools whose debian.sh unpacks a stand-in Go slowly, as a real fetch is.
tools=$work/tools
mkdir -p "$tools/host-tools/initramfs" "$tools/host-tools/distro" "$tools/host-tools/boot"
cp "$top/host-tools/boot/boot-record.h" "$tools/host-tools/boot/"
cp "$top/host-tools/lib.sh" "$tools/host-tools/"
cp "$top/host-tools/initramfs/go.sh" "$tools/host-tools/initramfs/"
cat >"$tools/host-tools/distro/debian.sh" <<'SH'
#!/usr/bin/env bash
# a stand-in for debian.sh package: a Go of one shell script, unpacked slowly
set -eu
for kv; do case $kv in out=*) out=${kv#out=} ;; golang-*-go) go=${kv#golang-}; go=${go%-go} ;; esac; done
mkdir -p "$(dirname "$out")" && echo fetch >>"$(dirname "$out")/fetches"
rm -rf "$out.tmp" && mkdir -p "$out.tmp/usr/lib/go-$go/bin"
printf '#!/bin/sh\n[ -e "$GOROOT/bin/go" ] || exit 1\nsleep 1\n[ -e "$GOROOT/bin/go" ] || exit 1\necho "$GOARCH$GOARM" >"$3"\n' \
	>"$out.tmp/usr/lib/go-$go/bin/go"
chmod +x "$out.tmp/usr/lib/go-$go/bin/go"
sleep 1
printf 'golang-%s-go 1\ngolang-%s-src 1\n' "$go" "$go" >"$out.tmp/.versions"
rm -rf "$out" && mv "$out.tmp" "$out"
SH
chmod +x "$tools/host-tools/distro/debian.sh"
echo 'package main' >"$work/prog.go"
gocache=$work/gocache
"$tools/host-tools/initramfs/go.sh" cache="$gocache" suite=sid go=9.99 goarch=386 src="$work/prog.go" \
	out="$work/out/i386" 2>"$work/go-i386.err" & a=$!
sleep 0.3
"$tools/host-tools/initramfs/go.sh" cache="$gocache" suite=sid go=9.99 goarch=arm goarm=7 src="$work/prog.go" \
	out="$work/out/armhf" 2>"$work/go-armhf.err" & b=$!
wait $a; ra=$?; wait $b; rb=$?
same "go.sh: two builds at once with one toolchain to fetch: both build, for their own GOARCH" \
	"$ra $rb $(cat "$work/out/i386" "$work/out/armhf" 2>/dev/null | tr '\n' ' ')" "0 0 386 arm7 "
same "go.sh: ... and the toolchain was fetched once" "$(cat "$gocache/go/fetches" 2>/dev/null | wc -l)" 1
same "go.sh: ... and neither said anything" "$(cat "$work/go-i386.err" "$work/go-armhf.err")" ""

# --- rust.sh: the same for a suite's rustc (closure) and each userland's
# std (package); and a suite whose rustc is not the version its
# distribution names is an error that says so. The stand-in rustc, run
# through its suite's loader (a stand-in too), writes the target it was
# asked for, once its sysroot has that target's std.
cp "$top/host-tools/initramfs/rust.sh" "$tools/host-tools/initramfs/"
cat >"$tools/host-tools/distro/debian.sh" <<'SH'
#!/usr/bin/env bash
# a stand-in for debian.sh closure (rustc) and package (libstd-rust-dev), slow
set -eu
cmd=$1; shift
for kv; do case $kv in out=*) out=${kv#out=} ;; arch=*) arch=${kv#arch=} ;; esac; done
mkdir -p "$(dirname "$out")" && echo "$cmd $arch" >>"$(dirname "$out")/fetches"
rm -rf "$out.tmp" && mkdir -p "$out.tmp"
if [ "$cmd" = closure ]; then
	libs=$out.tmp/usr/lib/x86_64-linux-gnu
	mkdir -p "$libs" "$out.tmp/usr/bin"
	printf '#!/bin/sh\nshift 2\nexec "$@"\n' >"$libs/ld-linux-x86-64.so.2"
	cat >"$out.tmp/usr/bin/rustc" <<'RUSTC'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in --target) t=$2 ;; --sysroot) s=$2 ;; -o) o=$2 ;; esac; shift; done
[ -d "$s/lib/rustlib/$t/lib" ] || exit 1
sleep 1
echo "$t" >"$o"
RUSTC
	chmod +x "$libs/ld-linux-x86-64.so.2" "$out.tmp/usr/bin/rustc"
	echo "rustc ${RUSTC_VERSION:-1.85.1+dfsg1-1}" >"$out.tmp/.versions"
else
	mkdir -p "$out.tmp/usr/lib/rustlib/$([ "$arch" = i386 ] && echo i686 || echo armv7)-target/lib"
fi
sleep 1
rm -rf "$out" && mv "$out.tmp" "$out"
SH
rustcache=$work/rustcache
rust_build() {	# ARCH TARGET SUITE RUST
	"$tools/host-tools/initramfs/rust.sh" cache="$rustcache" suite="$3" rust="$4" arch="$1" target="$2" \
		cross=x- src="$work/prog.rs" out="$work/out/rust-$1-$3"
}
echo 'fn main() {}' >"$work/prog.rs"
rust_build i386 i686-target sid 1.85 2>"$work/rust-i386.err" & a=$!
sleep 0.3
rust_build armhf armv7-target sid 1.85 2>"$work/rust-armhf.err" & b=$!
wait $a; ra=$?; wait $b; rb=$?
same "rust.sh: two builds at once with one rustc to fetch: both build, for their own target" \
	"$ra $rb $(cat "$work/out/rust-i386-sid" "$work/out/rust-armhf-sid" 2>/dev/null | tr '\n' ' ')" "0 0 i686-target armv7-target "
same "rust.sh: ... and the rustc was fetched once, each std once" \
	"$(sort "$rustcache/rust/fetches" 2>/dev/null | uniq -c | tr -s ' ' | tr '\n' ';')" " 1 closure amd64; 1 package armhf; 1 package i386;"
same "rust.sh: ... and neither said anything" "$(cat "$work/rust-i386.err" "$work/rust-armhf.err")" ""
RUSTC_VERSION=1.86.0-1 rust_build i386 i686-target trixie 1.85 2>"$work/rust-moved.err"
rc=$?
expect "rust.sh: a suite whose rustc is another version fails, and says which" \
	test "$rc" != 0 -a ! -e "$work/out/rust-i386-trixie" -a ! -e "$rustcache/rust/trixie-rustc"
expect "rust.sh: ... naming both versions: $(head -c 200 "$work/rust-moved.err")" \
	grep -q "trixie's rustc is 1.86.0-1, not 1.85 (distros/\*.mk: rust)" "$work/rust-moved.err"
tap_end
