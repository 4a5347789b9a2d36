#!/usr/bin/env bash
# install-libc.sh - a libc the lab built put in place of a root's own
# (host-tools/libc/install-libc.sh), on made-up roots: what is replaced,
# what is kept, and what is refused; and validate-distro's DISTRO_LIBC,
# which puts it on a copy of a disk image only, and keeps the as-shipped
# pass's boots by what decides them.
#
#   tests/unit/install-libc.sh HOST_TOOLS_DIR BUILD_DIR
set -uo pipefail
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
tap_scratch
il=$top/host-tools/libc/install-libc.sh
t=i386-linux-gnu

# A build as glibc.sh leaves it: root/ from make install, and its name.
build=$work/build
mkdir -p "$build/root/lib/$t" "$build/root/usr/lib/$t/gconv"
for f in libc.so.6 libm.so.6 libpthread.so.0; do echo "built $f" >"$build/root/lib/$t/$f"; done
echo "built loader" >"$build/root/lib/ld-linux.so.2"
mkdir -p "$build/root/sbin"
echo "built ldconfig" >"$build/root/sbin/ldconfig"
echo "built sln" >"$build/root/sbin/sln"
echo "built gconv" >"$build/root/usr/lib/$t/gconv/UTF-16.so"
echo glibc-2.41-time64only >"$build/libc"

# merged_root DIR: a merged-/usr root as Debian's trixie lays out libc6.
merged_root() {
	mkdir -p "$1/usr/lib/$t/gconv" "$1/usr/bin" "$1/usr/sbin"
	ln -s usr/lib "$1/lib"
	ln -s usr/sbin "$1/sbin"
	echo "own ldconfig" >"$1/usr/sbin/ldconfig"
	for f in libc.so.6 libm.so.6 libpthread.so.0 ld-linux.so.2 libcrypt.so.1; do echo "own $f" >"$1/usr/lib/$t/$f"; done
	echo "own gconv" >"$1/usr/lib/$t/gconv/UTF-16.so"
	ln -s "$t/ld-linux.so.2" "$1/usr/lib/ld-linux.so.2"
}

root=$work/merged
merged_root "$root"
out=$("$il" root="$root" libc="$build" multiarch=$t 2>&1)
expect "a merged /usr root: it succeeds and says what it replaced ($out)" \
	grep -qx "glibc-2.41-time64only: 4 libraries and gconv modules of /usr/lib/$t, 1 loader file and 1 static programs replaced" <<<"$out"
expect "each of the build's libraries replaces the root's" \
	test "$(cat "$root/usr/lib/$t/libc.so.6" "$root/usr/lib/$t/libpthread.so.0" "$root/usr/lib/$t/gconv/UTF-16.so")" = \
	"$(printf 'built libc.so.6\nbuilt libpthread.so.0\nbuilt gconv')"
expect "the loader file is replaced, and the root's symlink to it stays a symlink" \
	test "$(cat "$root/usr/lib/$t/ld-linux.so.2"):$(readlink "$root/usr/lib/ld-linux.so.2")" = "built loader:$t/ld-linux.so.2"
expect "the libc's static ldconfig replaces the root's (reached through no symlink); sln, which the root lacks, is not added" \
	test "$(cat "$root/usr/sbin/ldconfig"):$(readlink "$root/sbin"):$(ls "$root/usr/sbin")" = "built ldconfig:usr/sbin:ldconfig"
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
"$il" root="$old" libc="$build" multiarch=$t >/dev/null 2>&1
expect "an unmerged root: its lib/$t/libc.so.6 and its /lib loader file are replaced" \
	test "$(cat "$old/lib/$t/libc.so.6"):$(cat "$old/lib/ld-linux.so.2")" = "built libc.so.6:built loader"

# into=: the root is read, never written; the files go to the same paths
# under another folder (validate-distro's files for the disk image).
given=$work/given
merged_root "$given"
before=$(cd "$given" && find . -printf '%P %y %s %T@ %l\n' | sort | sha256sum)
"$il" root="$given" libc="$build" multiarch=$t into="$work/files" >/dev/null 2>&1
expect "into=: the root given is exactly as it was" \
	test "$(cd "$given" && find . -printf '%P %y %s %T@ %l\n' | sort | sha256sum)" = "$before"
expect "into=: the files are where the root keeps them, under the other folder" \
	test "$(cd "$work/files" && find . -type f | sort | tr '\n' ' ')" = \
	"./usr/lib/$t/gconv/UTF-16.so ./usr/lib/$t/ld-linux.so.2 ./usr/lib/$t/libc.so.6 ./usr/lib/$t/libm.so.6 ./usr/lib/$t/libpthread.so.0 ./usr/sbin/ldconfig ./y2038/libc "

# validate-distro's DISTRO_LIBC: the libc goes onto a copy of the run's
# disk image; the root's folder and the run's disk stay as they were.
PATH=$PATH:/usr/sbin:/sbin	# mke2fs, debugfs
vd=$top/host-tools/distro/validate-distro.sh
vroot=$work/vroot
merged_root "$vroot"
mkdir -p "$work/vstage" "$work/vdir"
mke2fs -q -t ext4 -I 256 -d "$vroot" "$work/run.img" 16M >/dev/null 2>&1
printf '%s=%q\n' dir "$work/vdir" root "$vroot" disk "$work/run.img" >"$work/vstage/prepare.env"
jq -n --arg root "$vroot" '{name: "a fixture", root: $root}' >"$work/vdir/inputs.json"
for f in config.json config.txt scan.json scan.txt smoke.tsv smoke.tsv.skipped; do echo "$f" >"$work/vdir/$f"; done
echo "$build" >"$work/time64only.libc"
root_before=$(cd "$vroot" && find . -printf '%P %y %s %T@ %l\n' | sort | sha256sum)
disk_before=$(sha256sum <"$work/run.img")
with_libc() { "$vd" with-libc stage="$work/vstage" libc_file="$1" multiarch=$t name=glibc-2.41-time64only time32=none \
	vdir="$work/vdir-libc" vdisk="$work/vstage/root-libc.img"; }
with_libc "$work/time64only.libc" >"$work/with-libc.out" 2>&1
expect "with-libc: exit 0, saying what it replaced" \
	grep -q "glibc-2.41-time64only: 4 libraries and gconv modules of /usr/lib/$t, 1 loader file and 1 static programs replaced (into " "$work/with-libc.out"
expect "with-libc: the copy of the disk has the build's libc, loader and name" \
	test "$(debugfs -R "cat /usr/lib/$t/libc.so.6" "$work/vstage/root-libc.img" 2>/dev/null):$(debugfs -R "cat /usr/lib/$t/ld-linux.so.2" "$work/vstage/root-libc.img" 2>/dev/null):$(debugfs -R "cat /y2038/libc" "$work/vstage/root-libc.img" 2>/dev/null)" = \
	"built libc.so.6:built loader:glibc-2.41-time64only"
expect "with-libc: the root's folder and the run's disk are exactly as they were" \
	test "$(cd "$vroot" && find . -printf '%P %y %s %T@ %l\n' | sort | sha256sum):$(sha256sum <"$work/run.img")" = "$root_before:$disk_before"
expect "with-libc: its verdict's inputs are the first pass's, the libc named" \
	test "$(jq -r '"\(.name)|\(.libc)|\(.libc_time32)"' "$work/vdir-libc/inputs.json"):$(cat "$work/vdir-libc/smoke.tsv")" = \
	"a fixture with glibc-2.41-time64only|glibc-2.41-time64only|none:smoke.tsv"
echo "glibc.sh: the glibc build for armhf failed: error: no" >"$work/failed.libc.error"
with_libc "$work/failed.libc" >"$work/with-libc.out" 2>&1
expect "with-libc: a libc that was not built: exit 0, no disk, and why in its verdict's folder" \
	test "$?:$(cat "$work/vdir-libc/error")" = "0:glibc.sh: the glibc build for armhf failed: error: no" -a ! -e "$work/vstage/root-libc.img"

# The as-shipped pass of a DISTRO_LIBC run, kept by what decides it.
echo "$work/made.img" >"$work/run.img.cached"
mkdir -p "$work/vstage/files/y2038" "$work/boots/m-y-distro" "$work/boots/m-n-distro"
echo probe >"$work/vstage/files/y2038/init-probe"
printf 'KERNEL_IMAGE=/k/bzImage\nKERNEL_BUILD_SECONDS=1\n' >"$work/k.env"
printf "qemu='true'\n" >"$work/machine.env"
for b in m-y-distro m-n-distro; do printf 'run_id=r1\nqemu_status=ok\n' >"$work/boots/$b/meta"; echo "$b" >"$work/boots/$b/tap.log"; done
cached() { "$vd" cached-pass "$1" stage="$work/vstage" cache="$work/cache" boots="$2" names="m-y-distro m-n-distro" \
	kernels="$work/k.env" machine_env="$work/machine.env" settings="${3:-2026-06-01}"; }
cached put "$work/boots" >/dev/null 2>&1
cached get "$work/boots2" >"$work/get.out" 2>&1
expect "cached-pass: the boots kept are the ones given back, and it says from which run" \
	test "$(cat "$work/boots2/m-y-distro/tap.log" "$work/boots2/m-n-distro/tap.log"):$(grep -c 'REUSE .*the boots of run r1' "$work/get.out")" = \
	"$(printf 'm-y-distro\nm-n-distro'):1"
cached get "$work/boots3" 2026-07-01 >/dev/null 2>&1
printf 'KERNEL_IMAGE=/k2/bzImage\n' >"$work/k.env"
cached get "$work/boots4" >/dev/null 2>&1
expect "cached-pass: another setting or another kernel: nothing given back" \
	test ! -e "$work/boots3" -a ! -e "$work/boots4"
echo "error=no kernel" >>"$work/boots/m-n-distro/meta"
cached put "$work/boots" 2026-08-01 >/dev/null 2>&1
cached get "$work/boots5" 2026-08-01 >/dev/null 2>&1
sed -i '/^error=/d' "$work/boots/m-n-distro/meta"
cached put "$work/boots" 2026-08-01 >/dev/null 2>&1
cached get "$work/boots6" 2026-08-01 >/dev/null 2>&1
expect "cached-pass: a pass with a boot that did not run is not kept (the same pass that ran is)" \
	test ! -e "$work/boots5" -a -e "$work/boots6/m-n-distro/meta"

# Refused: a root without that glibc, a folder that is not a build, and a
# root whose /usr is a symlink out of it (nothing outside is written).
mkdir -p "$work/empty"
expect "a root with no glibc for $t: refused, naming what it looked for" \
	grep -qF "has no glibc for $t (no usr/lib/$t/libc.so.6" <<<"$("$il" root="$work/empty" libc="$build" multiarch=$t 2>&1)"
expect "a root with no glibc for $t: the exit status is 1" \
	test "$("$il" root="$work/empty" libc="$build" multiarch=$t >/dev/null 2>&1; echo $?)" = 1
expect "a folder that is not glibc.sh's build is refused" \
	test "$("$il" root="$root" libc="$work/empty" multiarch=$t >/dev/null 2>&1; echo $?)" = 1
outside=$work/outside
merged_root "$outside"
mkdir -p "$work/escape"
ln -s "$outside/usr" "$work/escape/usr"
"$il" root="$work/escape" libc="$build" multiarch=$t >/dev/null 2>&1
expect "a root whose usr is a symlink out of it: refused, and what it points at is untouched" \
	test "$?:$(cat "$outside/usr/lib/$t/libc.so.6")" = "1:own libc.so.6"
tap_end
