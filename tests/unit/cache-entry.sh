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
tap_end
