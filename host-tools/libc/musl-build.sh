#!/usr/bin/env bash
# musl-build.sh - a distribution's musl rebuilt for time64-only kernels: its
# own source package, configured exactly as Debian configures musl-dev, with
# the lab's musl series (patches/musl/), which falls back to the time64
# system calls at run time.
#
#   musl-build.sh build KEY=VALUE...   build it (or reuse it) and write out=
#   musl-build.sh plan  KEY=VALUE...   build nothing: "reuse RESULT", or "build
#                                      SECONDS RESULT" (what it took here last;
#                                      0: never built), RESULT its cache folder
#   musl-build.sh apply KEY=VALUE...   only fetch the source and apply the
#                                      series to a fresh copy (patch --fuzz=0)
#
#     cache=DIR       sources and builds (outside the repo)
#     suite=trixie    the Debian suite whose musl source package it is
#     mirror=URL
#     version=V       the source package's Debian version (1.2.5-3.1~deb13u1)
#     arch=i386       the Debian architecture it is built for
#     triplet=T       its cross compiler (i686-linux-gnu): Debian's --host
#     target=T        Debian's musl triplet for it (i386-linux-musl): the
#                     folders musl-dev installs into
#     series=FILE     the musl series (patches/musl/series), or none
#     name=NAME       what the lab calls it (musl-1.2.5-time64fallback)
#     out=FILE        where to write the result's folder, in the cache:
#                     root/ (make install's DESTDIR, laid out as musl-dev:
#                     usr/lib/TARGET/libc.a and musl-gcc.specs,
#                     usr/include/TARGET), libc (NAME), recipe (what decides
#                     it), build.log, seconds. FILE is rewritten only when
#                     that changes, for make's up-to-date check.
#
# The source comes with Debian's patches applied (dpkg-source -x), so only
# the lab's series goes on top. It is built with this host's cross compiler
# and this host's dpkg-buildflags (Debian's hardening=+all optimize=-lto,
# debian/rules), without the path maps: the deviations from Debian's build
# are listed in docs/upstream/musl.md. A result is kept in
# cache/musl/ARCH-HASH, HASH of its recipe, and reused.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cmd=${1:-}
shift || true
cache= suite= mirror=http://deb.debian.org/debian version= arch= triplet= target= series= name= out=
kv_args "$@"
case $cmd in build | plan | apply) ;; *) die "usage: musl-build.sh build|plan|apply cache= suite= version= arch= triplet= target= series= name= out=" ;; esac
[ -n "$version" ] || die "version= is required: the distribution's musl_source (distros/*.mk)"
need cache suite series
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The source package, fetched and unpacked into the cache once (never this
# machine's dpkg): one entry, made once even when both userlands ask at once.
pristine=$cache/src/musl-$version
has_source() { grep -qx "musl $version" "$1/.versions" 2>/dev/null; }
fetch_source() {
	"$here/distro/debian.sh" source cache="$cache" suite="$suite" mirror="$mirror" out="$1" musl "$version" >&2
}
source_tree() {
	cache_entry "$pristine" has_source fetch_source ||
		die "musl $version cannot be fetched from Debian $suite"
}

# apply_series TREE: the lab's patches, in order, with no fuzz.
apply_series() {
	local tree=$1 p
	[ "$series" = none ] && return 0
	for p in $("$here/kernel/series.sh" list "$series"); do
		patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch -s <"$p" >"$tree.patch.log" 2>&1 ||
			die "$(basename "$p") does not apply to musl $version without fuzz: $(head -3 "$tree.patch.log" | tr '\n' ' ')"
		say PATCH "musl $version: $(basename "$p")"
	done
	rm -f "$tree.patch.log"
}

if [ "$cmd" = apply ]; then
	source_tree
	tree=$(mktemp -d "$cache/src/.apply-musl.XXXXXX")
	trap 'rm -rf "$tree" "$tree.patch.log"' EXIT
	cp -a "$pristine/." "$tree"
	apply_series "$tree"
	exit 0
fi

need arch triplet target name out
command -v "$triplet-gcc" >/dev/null || die "$triplet-gcc is missing: make deps installs the machines' cross compilers"

# debian/rules: dh_auto_configure with these, CROSS_COMPILE, and the
# flags dpkg-buildflags gives for DEB_BUILD_MAINT_OPTIONS there; the path
# maps name the build folder, which is no part of what is built. No option
# of the lab's: the series works in musl's default build.
configure_args=(--prefix=/usr --libdir="/usr/lib/$target" --includedir="/usr/include/$target"
	--host="$triplet" --enable-gcc-wrapper=yes --enable-debug)
buildflag() {
	DEB_HOST_ARCH=$arch DEB_BUILD_MAINT_OPTIONS="hardening=+all optimize=-lto" dpkg-buildflags --get "$1" |
		sed 's/ *-f[a-z]*-prefix-map=[^ ]*//g'
}
# dh_strip's for static libraries and objects: musl-dev ships none of
# the debugging information --enable-debug builds
strip_args=(--strip-debug --remove-section=.comment --remove-section=.note --enable-deterministic-archives)
cflags=$(buildflag CFLAGS) cppflags=$(buildflag CPPFLAGS) ldflags=$(buildflag LDFLAGS)
phash=none
[ "$series" = none ] || phash=$("$here/kernel/series.sh" hash "$series")
recipe="musl $version ($suite)
arch $arch
series $phash
compiler $("$triplet-gcc" --version | head -1), $("$triplet-ld" --version | head -1)
CFLAGS $cflags
CPPFLAGS $cppflags
LDFLAGS $ldflags
configure ${configure_args[*]}
strip ${strip_args[*]}"
key=$(printf '%s\n' "$recipe" | sha256sum | cut -c1-12)
result=$cache/musl/$arch-$key
mkdir -p "$cache/musl"

if [ "$cmd" = plan ]; then
	if [ -f "$result/libc" ]; then echo "reuse $result"
	else echo "build $(cat "$cache/musl/$arch.seconds" 2>/dev/null || echo 0) $result"; fi
	exit 0
fi

# build_into DIR: the whole build, into DIR (cache_entry's DIR.new); its
# work tree beside it is redone when an interrupted build left one.
build_into() {
	local dir=$1 work=$1.work start seconds last
	source_tree
	last=$(cat "$cache/musl/$arch.seconds" 2>/dev/null || echo 0)
	say MUSL "$name for $arch ($triplet, series $phash)$([ "$last" -eq 0 ] || echo ": about $(((last + 59) / 60)) min here last time")"
	rm -rf "$work"
	mkdir -p "$work" "$dir"
	# a build that dies leaves neither (its log is kept: ARCH-failed.log)
	trap 'rm -rf "$work" "$dir"' EXIT
	cp -a "$pristine/." "$work/source"
	apply_series "$work/source"
	start=$(date +%s)
	(
		cd "$work/source"
		# debian/rules' copy_fts: musl-dev carries Debian's fts
		mkdir -p src/fts
		cp debian/musl-fts/fts.c debian/musl-fts/config.h src/fts/
		cp debian/musl-fts/fts.h include/
		export LC_ALL=C CROSS_COMPILE="$triplet-" CC="$triplet-gcc" \
			CFLAGS="$cflags" CPPFLAGS="$cppflags" LDFLAGS="$ldflags"
		./configure "${configure_args[@]}"
		nice -n 10 make -j"$(nproc)"
		nice -n 10 make install DESTDIR="$dir/root"
		"$triplet-strip" "${strip_args[@]}" "$dir/root/usr/lib/$target"/*.[ao]
	) >"$dir/build.log" 2>&1 || {
		cp "$dir/build.log" "$cache/musl/$arch-failed.log"
		die "the musl build for $arch failed: $(grep -m1 -E 'Error|error:' "$dir/build.log" || tail -1 "$dir/build.log") (log: $cache/musl/$arch-failed.log)"
	}
	[ -e "$dir/root/usr/lib/$target/libc.a" ] && [ -e "$dir/root/usr/lib/$target/musl-gcc.specs" ] ||
		die "the musl build for $arch installed no usr/lib/$target/libc.a and musl-gcc.specs (log: $dir/build.log)"
	seconds=$(($(date +%s) - start))
	printf '%s\n' "$recipe" >"$dir/recipe"
	echo "$seconds" >"$dir/seconds"
	echo "$name" >"$dir/libc"
	echo "$seconds" >"$cache/musl/$arch.seconds"
	rm -rf "$work"
	trap - EXIT
	say DONE "$name for $arch: $((seconds / 60)) min $((seconds % 60)) s ($result)"
}
built() { [ -f "$1/libc" ]; }
# one build of a recipe at a time; a second run waits, then reuses it
cache_entry "$result" built build_into
[ "$(cat "$out" 2>/dev/null)" = "$result" ] || echo "$result" >"$out"
