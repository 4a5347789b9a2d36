#!/usr/bin/env bash
# install-libc.sh - a libc the lab built put in place of a root's own
# (host-tools/libc/install-libc.sh), on made-up roots: what is replaced,
# what is kept, and what is refused.
#
#   tests/unit/install-libc.sh HOST_TOOLS_DIR BUILD_DIR
set -uo pipefail
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
tap_scratch
il=$top/host-tools/libc/install-libc.sh
t=i686-linux-gnu

# A build as glibc.sh leaves it: root/ from make install, and its name.
build=$work/build
mkdir -p "$build/root/lib/$t" "$build/root/usr/lib/$t/gconv"
for f in libc.so.6 libm.so.6 libpthread.so.0; do echo "built $f" >"$build/root/lib/$t/$f"; done
echo "built loader" >"$build/root/lib/ld-linux.so.2"
echo "built gconv" >"$build/root/usr/lib/$t/gconv/UTF-16.so"
echo glibc-2.41-time64only >"$build/libc"

# merged_root DIR: a merged-/usr root as Debian's trixie lays out libc6.
merged_root() {
	mkdir -p "$1/usr/lib/$t/gconv" "$1/usr/bin"
	ln -s usr/lib "$1/lib"
	for f in libc.so.6 libm.so.6 libpthread.so.0 ld-linux.so.2 libcrypt.so.1; do echo "own $f" >"$1/usr/lib/$t/$f"; done
	echo "own gconv" >"$1/usr/lib/$t/gconv/UTF-16.so"
	ln -s "$t/ld-linux.so.2" "$1/usr/lib/ld-linux.so.2"
}

root=$work/merged
merged_root "$root"
out=$("$il" root="$root" libc="$build" triplet=$t 2>&1)
expect "a merged /usr root: it succeeds and says what it replaced ($out)" \
	grep -qx "glibc-2.41-time64only: 4 libraries of /usr/lib/$t and 1 loader file replaced" <<<"$out"
expect "each of the build's libraries replaces the root's" \
	test "$(cat "$root/usr/lib/$t/libc.so.6" "$root/usr/lib/$t/libpthread.so.0" "$root/usr/lib/$t/gconv/UTF-16.so")" = \
	"$(printf 'built libc.so.6\nbuilt libpthread.so.0\nbuilt gconv')"
expect "the loader file is replaced, and the root's symlink to it stays a symlink" \
	test "$(cat "$root/usr/lib/$t/ld-linux.so.2"):$(readlink "$root/usr/lib/ld-linux.so.2")" = "built loader:$t/ld-linux.so.2"
expect "a library the build does not make is the root's own still" \
	test "$(cat "$root/usr/lib/$t/libcrypt.so.1")" = "own libcrypt.so.1"
expect "the root's /lib is still its symlink to usr/lib" test "$(readlink "$root/lib")" = usr/lib
expect "y2038/libc names the build (what the guest's programs report)" \
	test "$(cat "$root/y2038/libc")" = glibc-2.41-time64only

# An old, unmerged root: lib/TRIPLET and a real /lib/ld-linux.so.2.
old=$work/old
mkdir -p "$old/lib/$t" "$old/usr/lib/$t"
echo "own libc" >"$old/lib/$t/libc.so.6"
echo "own loader" >"$old/lib/ld-linux.so.2"
"$il" root="$old" libc="$build" triplet=$t >/dev/null 2>&1
expect "an unmerged root: its lib/$t/libc.so.6 and its /lib loader file are replaced" \
	test "$(cat "$old/lib/$t/libc.so.6"):$(cat "$old/lib/ld-linux.so.2")" = "built libc.so.6:built loader"

# into=: the root is read, never written; the files go to the same paths
# under another folder (validate-distro's files for the disk image).
given=$work/given
merged_root "$given"
before=$(cd "$given" && find . -printf '%P %y %s %T@ %l\n' | sort | sha256sum)
"$il" root="$given" libc="$build" triplet=$t into="$work/files" >/dev/null 2>&1
expect "into=: the root given is exactly as it was" \
	test "$(cd "$given" && find . -printf '%P %y %s %T@ %l\n' | sort | sha256sum)" = "$before"
expect "into=: the files are where the root keeps them, under the other folder" \
	test "$(cd "$work/files" && find . -type f | sort | tr '\n' ' ')" = \
	"./usr/lib/$t/gconv/UTF-16.so ./usr/lib/$t/ld-linux.so.2 ./usr/lib/$t/libc.so.6 ./usr/lib/$t/libm.so.6 ./usr/lib/$t/libpthread.so.0 ./y2038/libc "

# Refused: a root without that glibc, a folder that is not a build, and a
# root whose /usr is a symlink out of it (nothing outside is written).
mkdir -p "$work/empty"
expect "a root with no glibc for $t: refused, naming what it looked for" \
	grep -qF "has no glibc for $t (no usr/lib/$t/libc.so.6" <<<"$("$il" root="$work/empty" libc="$build" triplet=$t 2>&1)"
expect "a root with no glibc for $t: the exit status is 1" \
	test "$("$il" root="$work/empty" libc="$build" triplet=$t >/dev/null 2>&1; echo $?)" = 1
expect "a folder that is not glibc.sh's build is refused" \
	test "$("$il" root="$root" libc="$work/empty" triplet=$t >/dev/null 2>&1; echo $?)" = 1
outside=$work/outside
merged_root "$outside"
mkdir -p "$work/escape"
ln -s "$outside/usr" "$work/escape/usr"
"$il" root="$work/escape" libc="$build" triplet=$t >/dev/null 2>&1
expect "a root whose usr is a symlink out of it: refused, and what it points at is untouched" \
	test "$?:$(cat "$outside/usr/lib/$t/libc.so.6")" = "1:own libc.so.6"
tap_end
