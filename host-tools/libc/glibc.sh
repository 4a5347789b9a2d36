#!/usr/bin/env bash
# glibc.sh - a distribution's glibc rebuilt for time64-only kernels: its own
# source, configured as Debian configures it except --enable-kernel (5.1 or
# later defines __ASSUME_TIME64_SYSCALLS), with the lab's glibc series.
#
#   glibc.sh build KEY=VALUE...   build it (or reuse it) and link out= to it
#   glibc.sh plan  KEY=VALUE...   build nothing: "reuse", or "build SECONDS"
#                                 (what it took here last; 0: never built)
#   glibc.sh apply KEY=VALUE...   only fetch the source and apply the series
#                                 to a fresh copy (patch --fuzz=0), then
#                                 remove it: make check's test of the series
#
#     cache=DIR       sources and builds (outside the repo)
#     suite=trixie    the Debian suite whose glibc-source it is
#     mirror=URL
#     version=V       glibc-source's Debian version (2.41-12+deb13u5)
#     arch=i386       the Debian architecture it is built for
#     triplet=T       its GNU triplet and cross compiler (i686-linux-gnu)
#     multiarch=M     Debian's multiarch folder for it (i386-linux-gnu): where
#                     Debian's libc6 keeps its libraries (configparms)
#     kernel=5.1      --enable-kernel
#     series=FILE     the glibc series (patches/glibc/series), or none
#     name=NAME       what the lab calls it (glibc-2.41-time64only)
#     out=FILE        where to write the result's folder, in the cache:
#                     root/ (make install's DESTDIR: lib/MULTIARCH/libc.so.6,
#                     ld-linux*.so.*, ...), libc (NAME), recipe (what
#                     decides it), build.log, seconds. FILE is rewritten
#                     only when that changes, for make's up-to-date check.
#
# glibc-source ships the source with Debian's patches applied (its rules:
# the tarball is made after $(stamp)patch), so only the lab's series goes
# on top. It is built with this host's cross compiler (gcc 12: glibc 2.41
# wants 6.2 or later, configure.ac), not trixie's gcc-14: the deviations
# from Debian's build are listed in docs/libc.md. A result is kept in
# cache/glibc/ARCH-HASH, HASH of its recipe, and reused.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cmd=${1:-}
shift || true
cache= suite= mirror=http://deb.debian.org/debian version= arch= triplet= multiarch= kernel= series= name= out=
kv_args "$@"
case $cmd in build | plan | apply) ;; *) die "usage: glibc.sh build|plan|apply cache= suite= version= arch= triplet= multiarch= kernel= series= name= out=" ;; esac
need cache suite version series
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
upstream=${version%%-*}

# The source: Debian's glibc-source, into the cache once (never this
# machine's dpkg), unpacked once.
source_tree() {
	local deb=$cache/src/glibc-source-deb tmp
	has_source() { grep -qx "glibc-source $version" "$1/.versions" 2>/dev/null; }
	fetch_source() {
		"$here/../distro/debian.sh" package cache="$cache" arch=amd64 suite="$suite" mirror="$mirror" \
			out="$1" "glibc-source=$version" >&2
	}
	# one entry, fetched once even when both userlands' builds ask at once
	cache_entry "$deb" has_source fetch_source ||
		die "glibc-source $version cannot be fetched from Debian $suite"
	pristine=$cache/src/glibc-$version
	mkdir -p "$cache/src"
	exec 8>"$cache/src/.lock"
	flock 8
	if [ ! -d "$pristine" ]; then
		[ -r "$deb/usr/src/glibc/glibc-$upstream.tar.xz" ] ||
			die "glibc-source $version has no usr/src/glibc/glibc-$upstream.tar.xz"
		say UNPACK "glibc-source $version -> $pristine"
		tmp=$(mktemp -d "$cache/src/.unpack.XXXXXX")
		tar -C "$tmp" -xf "$deb/usr/src/glibc/glibc-$upstream.tar.xz"
		mv "$tmp/glibc-$upstream" "$pristine"
		rmdir "$tmp"
	fi
	exec 8>&-
}

# apply_series TREE: the lab's patches, in order, with no fuzz (an offset
# is allowed: it is how a patch made on glibc meets Debian's patched tree).
apply_series() {
	local tree=$1 p
	[ "$series" = none ] && return 0
	for p in $("$here/../kernel/series.sh" list "$series"); do
		patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch -s <"$p" >"$tree.patch.log" 2>&1 ||
			die "$(basename "$p") does not apply to glibc-source $version without fuzz: $(head -3 "$tree.patch.log" | tr '\n' ' ')"
		say PATCH "glibc $version: $(basename "$p")"
	done
	rm -f "$tree.patch.log"
}

if [ "$cmd" = apply ]; then
	source_tree
	tree=$(mktemp -d "$cache/src/.apply.XXXXXX")
	trap 'rm -rf "$tree" "$tree.patch.log"' EXIT
	cp -a "$pristine/." "$tree"
	apply_series "$tree"
	exit 0
fi

need arch triplet multiarch kernel name out
command -v "$triplet-gcc" >/dev/null || die "$triplet-gcc is missing: make deps installs the machines' cross compilers"
headers=/usr/$triplet/include
[ -d "$headers/asm" ] || die "$headers/asm is missing: the cross toolchain's linux-libc-dev is not installed"

# Debian's configure for its libc6 flavour (debian/rules.d/build.mk,
# debian/sysdeps/linux.mk, debian/sysdeps/$arch.mk), except: this host's
# cross compiler, --enable-kernel=$kernel, no SELinux, libgd, libaudit or
# libcap (no such -dev packages for the userland here; they serve nscd and
# memusagestat only), and the lab's name in --with-pkgversion.
cc="$triplet-gcc"
[ "$arch" = i386 ] && cc="$cc -Wl,--hash-style=both"	# debian/sysdeps/i386.mk
configure_args=(--host="$triplet" --build="$(gcc -dumpmachine)" --prefix=/usr
	"--enable-add-ons=libidn," --without-selinux --disable-crypt --enable-bind-now
	--enable-fortify-source --enable-stackguard-randomization --enable-stack-protector=strong
	"--with-pkgversion=Debian GLIBC $version, y2038-lab $name"
	--with-bugurl=http://www.debian.org/Bugs/ --with-timeoutfactor=25
	--enable-kernel="$kernel" --enable-multi-arch)
configparms="CFLAGS = -pipe -O2 -g
ASFLAGS = -pipe -O2 -g
BUILD_CFLAGS = -O2 -g
LDFLAGS =
BASH := /bin/bash
KSH := /bin/bash
SHELL := /bin/bash
LIBGD = no
bindir = /usr/bin
datadir = /usr/share
complocaledir = /usr/lib/locale
sysconfdir = /etc
libexecdir = /usr/lib
rootsbindir = /sbin
includedir = /usr/include
docdir = /usr/share/doc
mandir = /usr/share/man
sbindir = /usr/sbin
vardbdir = /var/lib/misc
libdir = /usr/lib/$multiarch
slibdir = /lib/$multiarch
rtlddir = /lib"
phash=none
[ "$series" = none ] || phash=$("$here/../kernel/series.sh" hash "$series")
recipe="glibc-source $version ($suite)
arch $arch
series $phash
compiler $("$triplet-gcc" --version | head -1), $("$triplet-ld" --version | head -1)
CC $cc -U_FILE_OFFSET_BITS -U_TIME_BITS
configure ${configure_args[*]}
$configparms"
key=$(printf '%s\n' "$recipe" | sha256sum | cut -c1-12)
result=$cache/glibc/$arch-$key
mkdir -p "$cache/glibc"

if [ "$cmd" = plan ]; then
	if [ -f "$result/libc" ]; then echo reuse
	else echo "build $(cat "$cache/glibc/$arch.seconds" 2>/dev/null || echo 0)"; fi
	exit 0
fi

# One build of an arch at a time; a second run waits, then reuses it.
exec 9>"$cache/glibc/.lock-$arch"
flock 9
if [ ! -f "$result/libc" ]; then
	source_tree
	last=$(cat "$cache/glibc/$arch.seconds" 2>/dev/null || echo 0)
	say GLIBC "$name for $arch ($triplet, --enable-kernel=$kernel, series $phash)$([ "$last" -eq 0 ] || echo ": about $(((last + 59) / 60)) min here last time")"
	work=$cache/glibc/.work-$arch	# what an interrupted build left is redone
	rm -rf "$work" "$result.tmp"
	mkdir -p "$work/build" "$work/include" "$result.tmp"
	cp -a "$pristine/." "$work/source"
	apply_series "$work/source"
	# debian/sysdeps/linux.mk's include folder: the kernel's headers, and
	# an assert.h "to make configure happy if libc6-dev is not installed".
	for h in arch asm asm-generic linux; do
		[ -e "$headers/$h" ] && ln -s "$headers/$h" "$work/include/$h"
	done
	touch "$work/include/assert.h"
	printf '%s\n' "$configparms" "MIG = $triplet-mig" "BUILD_CC = gcc" >"$work/build/configparms"
	start=$(date +%s)
	log=$result.tmp/build.log
	(
		cd "$work/build"
		export LC_ALL=C CPPFLAGS="-isystem $work/include"
		CC="$cc -U_FILE_OFFSET_BITS -U_TIME_BITS" CXX=: MIG=$triplet-mig AUTOCONF=false MAKEINFO=: \
			"$work/source/configure" "${configure_args[@]}" --with-headers="$work/include"
		nice -n 10 make -j"$(nproc)"
		nice -n 10 make install DESTDIR="$result.tmp/root"
	) >"$log" 2>&1 || die "the glibc build for $arch failed: $(grep -m1 -E 'Error|error:' "$log" || tail -1 "$log") (log: $log)"
	[ -e "$result.tmp/root/lib/$multiarch/libc.so.6" ] || die "the glibc build for $arch installed no lib/$multiarch/libc.so.6 (log: $log)"
	seconds=$(($(date +%s) - start))
	printf '%s\n' "$recipe" >"$result.tmp/recipe"
	echo "$seconds" >"$result.tmp/seconds"
	echo "$name" >"$result.tmp/libc"
	mv "$result.tmp" "$result"
	echo "$seconds" >"$cache/glibc/$arch.seconds"
	rm -rf "$work"
	say DONE "$name for $arch: $((seconds / 60)) min $((seconds % 60)) s ($result)"
fi
exec 9>&-
[ "$(cat "$out" 2>/dev/null)" = "$result" ] || echo "$result" >"$out"
