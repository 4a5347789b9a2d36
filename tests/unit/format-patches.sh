#!/usr/bin/env bash
# format-patches.sh - the series as it is sent: signed off by the one who
# sends it, and by no one when git knows no one (host-tools/patch-check/
# format-patches.sh).
#
#   tests/unit/format-patches.sh HOST_TOOLS_DIR BUILD_DIR
set -uo pipefail
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
tap_scratch
fp=$top/host-tools/patch-check/format-patches.sh

# The lab's own patches carry no identity at all; a stable backport carries
# its upstream commit's, the commit it names ("commit <id> upstream.").
expect "patches/: no From: or Signed-off-by: line in any patch but a stable backport's" \
	test "$(grep -l '^\(From\|Signed-off-by\): ' "$top"/patches/*.patch "$top"/patches/*/*.patch |
		xargs -r grep -L '^Subject: \[PATCH [0-9]*\.[0-9]*\.y\] ' | wc -l)" = 0
for p in $(grep -l '^Subject: \[PATCH [0-9]*\.[0-9]*\.y\] ' "$top"/patches/*.patch "$top"/patches/*/*.patch); do
	expect "$(basename "$p"): a stable backport names its upstream commit first, and keeps its author and trailers" \
		test "$(awk '/^$/ { getline; print; exit }' "$p" | grep -cE '^commit [0-9a-f]{40} upstream\.$'):$(sed -n 2p "$p" | grep -c '^From: ')" = "1:1"
done

out=$(GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_DIR="$work/no-repo" \
	"$fp" out="$work/none" series="$top/patches/series" kernel=linux-source-7.2 2>&1)
rc=$?
expect "no git identity: it refuses (exit 1), saying how to give one, and writes nothing" \
	test "$rc:$(grep -c 'git config --global user.name' <<<"$out"):$([ -e "$work/none" ] && echo made || echo none)" = "1:1:none"
expect "a malformed identity is refused" \
	test "$("$fp" out="$work/bad" series="$top/patches/series" kernel=linux-source-7.2 identity="nobody" >/dev/null 2>&1; echo $?)" = 1

who="A Tester <a.tester@y2038-lab.invalid>"
"$fp" out="$work/sent" series="$top/patches/series" kernel=linux-source-7.2 identity="$who" >/dev/null 2>&1
n=$("$top/host-tools/kernel/series.sh" list "$top/patches/series" 7.2 | wc -l)
expect "7.2: every patch the series applies there is written ($n), with the cover letter" \
	test "$(find "$work/sent" -name '0*.patch' ! -name '0000-*' | wc -l):$(ls "$work/sent/series/0000-cover-letter.patch" >/dev/null 2>&1 && echo cover)" = "$n:cover"
expect "each patch is from the sender, and signed off by the sender once, just before its '---'" \
	test "$(for p in $(find "$work/sent" -name '0*.patch' ! -name '0000-*'); do
		[ "$(sed -n 2p "$p")" = "From: $who" ] && [ "$(grep -c "^Signed-off-by: " "$p")" = 1 ] &&
		[ "$(grep -A1 "^Signed-off-by: $who\$" "$p" | tail -1)" = --- ] || echo "$p"; done)" = ""
expect "the cover letter is from the sender, signed by no one, its shortlog the sender's" \
	test "$(sed -n 2p "$work/sent/series/0000-cover-letter.patch"):$(grep -c '^Signed-off-by:' "$work/sent/series/0000-cover-letter.patch"):$(grep -c '^A Tester (7):$' "$work/sent/series/0000-cover-letter.patch")" = "From: $who:0:1"
expect "the SIOCGSTAMP_OLD fix goes to net on its own, with stable in Cc and both Fixes:" \
	test "$(ls "$work/sent/net"):$(grep -c '^Fixes: \(c7cbdbf29f48\|942437c97fd9\) ' "$work/sent/net/"*.patch):$(grep -c '^Cc: stable@vger.kernel.org$' "$work/sent/net/"*.patch)" = \
	"0001-net-Give-SIOCGSTAMP_OLD-its-32-bit-layout-without-CO.patch:2:1"
expect "7.2's hrtimer fix is sent on its own" test -n "$(ls "$work/sent/single/"*hrtimer* 2>/dev/null)"
# 6.1: the ISO 9660 backport goes to stable, from its upstream author, and
# the sender signs off after the note on what was adapted.
"$fp" out="$work/sent61" series="$top/patches/series" kernel=linux-source-6.1 identity="$who" >/dev/null 2>&1
iso=$(ls "$work/sent61/stable/"*isofs*.patch 2>/dev/null)
expect "6.1's ISO 9660 backport is sent to stable, from its author, signed off last by the sender" \
	test -n "$iso" -a "$(sed -n 2p "$iso")" = "From: Jonas 'Sortie' Termansen <sortie@maxsi.org>" -a \
	"$(grep -B1 -A1 "^Signed-off-by: $who\$" "$iso" | tr '\n' '|')" = "  through them. The logic is upstream's. ]|Signed-off-by: $who|---|"
expect "... and the kernels that have it upstream (6.12 on) leave it out" \
	test "$(ls "$work/sent/stable" 2>/dev/null | wc -l)" = 0
# The glibc series as it is sent to libc-alpha: master/'s patches after the
# cover letter, each from the sender and signed off, in the form git am
# reads (git mailinfo is its parser).
"$fp" out="$work/glibc" series="$top/patches/glibc/series" glibc=master \
	cover="$top/docs/upstream/glibc-cover-letter.patch" identity="$who" >/dev/null 2>&1
n=$("$top/host-tools/kernel/series.sh" list "$top/patches/glibc/series" | wc -l)
expect "glibc: the cover letter and master/'s $n patches, in series/" \
	test "$(ls "$work/glibc/series" | tr '\n' ' ')" = "0000-cover-letter.patch $(ls "$top/patches/glibc/master/" | grep '^0' | tr '\n' ' ')"
expect "glibc: each patch is master/'s, from the sender, signed off once just before its '---', and git mailinfo reads the sender" \
	test "$(for p in "$work/glibc/series/"000[1-9]*.patch; do
		[ "$(grep -vE '^(From|Signed-off-by): ' "$p")" = "$(cat "$top/patches/glibc/master/$(basename "$p")")" ] &&
		[ "$(grep -c "^Signed-off-by: $who\$" "$p")" = 1 ] && [ "$(grep -A1 "^Signed-off-by: " "$p" | tail -1)" = --- ] &&
		git mailinfo "$work/msg" "$work/patch" <"$p" | grep -qx "Author: A Tester" || echo "$p"; done)" = ""
tap_end
