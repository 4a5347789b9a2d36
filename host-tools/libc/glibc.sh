#!/usr/bin/env bash
# glibc.sh - a distribution's glibc rebuilt for kernels without the time32
# system calls: its own source, configured as Debian configures it, with the
# lab's glibc series; --enable-kernel Debian's own (kernel=debian: the series
# falls back to the time64 system calls at run time) or 5.1 (which defines
# __ASSUME_TIME64_SYSCALLS: only the time64 system calls).
#
#   glibc.sh build KEY=VALUE...   build it (or reuse it) and link out= to it
#   glibc.sh plan  KEY=VALUE...   build nothing: "reuse", or "build SECONDS"
#                                 (what it took here last; 0: never built)
#   glibc.sh apply KEY=VALUE...   only fetch the source and apply the series
#                                 to a fresh copy (patch --fuzz=0), then
#                                 remove it: make check's test of the series;
#                                 with keep=DIR, keep the copy there (make
#                                 glibc-abis-check builds in it)
#   glibc.sh tests KEY=VALUE... subdirs="nptl rt ..."
#                                 the same build, kept with glibc's own tests
#                                 of those subdirs built (make glibc-tests):
#                                 out= is then the kept tree's folder (below)
#
#     cache=DIR       sources and builds (outside the repo)
#     suite=trixie    the Debian suite whose glibc-source it is
#     mirror=URL
#     version=V       glibc-source's Debian version (2.41-12+deb13u5)
#     arch=i386       the Debian architecture it is built for
#     triplet=T       its GNU triplet and cross compiler (i686-linux-gnu)
#     multiarch=M     Debian's multiarch folder for it (i386-linux-gnu): where
#                     Debian's libc6 keeps its libraries (configparms)
#     kernel=5.1      --enable-kernel; debian: the floor Debian's own build
#                     configures, read from its source package
#                     (MIN_KERNEL_SUPPORTED, debian/sysdeps/linux.mk: 3.2)
#     series=FILE     the glibc series (patches/glibc/series), or none
#     series_part=all all of it, or tests: only what its patches add to
#                     glibc's tests (tst-* files and the Makefiles that list
#                     them), not the library: the library as without the
#                     series, with the series' tests (make glibc-tests)
#     name=NAME       what the lab calls it (glibc-2.41-time64only)
#     out=FILE        where to write the result's folder, in the cache:
#                     root/ (make install's DESTDIR: lib/MULTIARCH/libc.so.6,
#                     ld-linux*.so.*, ...), libc (NAME), recipe (what
#                     decides it), build.log, seconds. FILE is rewritten
#                     only when that changes, for make's up-to-date check.
#
# tests keeps the build in cache/glibc/ARCH-HASH-tests (source/, build/,
# root/: make install's DESTDIR), the same recipe's, for glibc's own tests,
# which name its paths: a guest runs them there (make glibc-tests). Each
# subdir's tests are built once (make -k tests xtests, run-built-tests=no: a
# cross build never runs them here), and what glibc's make would run for
# them is written down without running anything: tests/SUBDIR.list, one
# line per test, "NAME<TAB>KIND<TAB>COMMAND" (make -n xcheck with the
# test-wrapper TEST_WRAPPER below, which the guest's runner drops; KIND:
# see list_tests). A build asks this tree first: its root/ is the same
# recipe's install.
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
cache= suite= mirror=http://deb.debian.org/debian version= arch= triplet= multiarch= kernel= series= series_part=all name= out= subdirs= keep=
kv_args "$@"
case $cmd in build | plan | apply | tests) ;; *) die "usage: glibc.sh build|plan|apply|tests cache= suite= version= arch= triplet= multiarch= kernel= series= name= out= [subdirs=]" ;; esac
need cache suite version series
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
upstream=${version%%-*}

# The source: Debian's glibc-source, into the cache once (never this
# machine's dpkg), unpacked once.
deb=$cache/src/glibc-source-deb
source_tree() {
	local tmp
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

# tests_of PATCH: its sections for glibc's tests (a tst-* file, a Makefile:
# where tests are listed, or support/: their harness), without the
# library's code.
tests_of() {
	awk '/^diff --git / { keep = ($3 ~ /\/tst-[^\/]*$/ || $3 ~ /\/Makefile$/ || $3 ~ /^a\/support\//) } keep' "$1"
}

# apply_series TREE: the lab's patches, in order, with no fuzz (an offset
# is allowed: it is how a patch made on glibc meets Debian's patched tree);
# with series_part=tests, their tests only.
apply_series() {
	local tree=$1 p
	[ "$series" = none ] && return 0
	for p in $("$here/../kernel/series.sh" list "$series"); do
		if [ "$series_part" = tests ]; then
			tests_of "$p" >"$tree.part.patch"
			[ -s "$tree.part.patch" ] || continue
			patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch -s <"$tree.part.patch" >"$tree.patch.log" 2>&1 ||
				die "the tests of $(basename "$p") do not apply to glibc-source $version without fuzz: $(head -3 "$tree.patch.log" | tr '\n' ' ')"
			say PATCH "glibc $version: $(basename "$p"), its tests only"
			continue
		fi
		patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch -s <"$p" >"$tree.patch.log" 2>&1 ||
			die "$(basename "$p") does not apply to glibc-source $version without fuzz: $(head -3 "$tree.patch.log" | tr '\n' ' ')"
		say PATCH "glibc $version: $(basename "$p")"
	done
	rm -f "$tree.patch.log" "$tree.part.patch"
}

if [ "$cmd" = apply ]; then
	source_tree
	if [ -n "$keep" ]; then
		tree=$keep
		rm -rf "$tree"
		mkdir -p "$tree"
	else
		tree=$(mktemp -d "$cache/src/.apply.XXXXXX")
		trap 'rm -rf "$tree" "$tree.patch.log"' EXIT
	fi
	cp -a "$pristine/." "$tree"
	apply_series "$tree"
	exit 0
fi

need arch triplet multiarch kernel name out
if [ "$kernel" = debian ]; then
	source_tree
	kernel=$(sed -n 's/^MIN_KERNEL_SUPPORTED[[:space:]]*:=[[:space:]]*\([0-9.]*\)[[:space:]]*$/\1/p' \
		"$deb/usr/src/glibc/debian/sysdeps/linux.mk")
	[ -n "$kernel" ] || die "glibc-source $version: no MIN_KERNEL_SUPPORTED in debian/sysdeps/linux.mk (kernel=debian)"
fi
command -v "$triplet-gcc" >/dev/null || die "$triplet-gcc is missing: make deps installs the machines' cross compilers"
headers=/usr/$triplet/include
[ -d "$headers/asm" ] || die "$headers/asm is missing: the cross toolchain's linux-libc-dev is not installed"

# Debian's configure for its libc6 flavour (debian/rules.d/build.mk,
# debian/sysdeps/linux.mk, debian/sysdeps/$arch.mk), except: this host's
# cross compiler, --enable-kernel=$kernel where it is not Debian's, no
# SELinux, libgd, libaudit or libcap (no such -dev packages for the userland
# here; they serve nscd and memusagestat only), and the lab's name in
# --with-pkgversion.
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
case $series_part in all | tests) ;; *) die "series_part=$series_part: all or tests" ;; esac
phash=none
[ "$series" = none ] || phash=$("$here/../kernel/series.sh" hash "$series")
[ "$series" = none ] || [ "$series_part" = all ] || phash="$phash, its tests only"
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

# The kept tree of this recipe, for its tests (tests): built where it stays,
# since its tests name its paths; .library says the build is whole.
tests_tree=$cache/glibc/$arch-$key-tests

if [ "$cmd" = plan ]; then
	if [ -f "$result/libc" ] || [ -f "$tests_tree/.library" ]; then echo reuse
	else echo "build $(cat "$cache/glibc/$arch.seconds" 2>/dev/null || echo 0)"; fi
	exit 0
fi

# build_tree DIR LOG: the source with the series in DIR/source, configured
# and built in DIR/build, installed into DIR/root; its output in LOG.
build_tree() {
	local dir=$1 log=$2 h
	mkdir -p "$dir/build" "$dir/include"
	cp -a "$pristine/." "$dir/source"
	apply_series "$dir/source"
	# debian/sysdeps/linux.mk's include folder: the kernel's headers, and
	# an assert.h "to make configure happy if libc6-dev is not installed".
	for h in arch asm asm-generic linux; do
		[ -e "$headers/$h" ] && ln -s "$headers/$h" "$dir/include/$h"
	done
	touch "$dir/include/assert.h"
	printf '%s\n' "$configparms" "MIG = $triplet-mig" "BUILD_CC = gcc" >"$dir/build/configparms"
	(
		cd "$dir/build"
		export LC_ALL=C CPPFLAGS="-isystem $dir/include"
		CC="$cc -U_FILE_OFFSET_BITS -U_TIME_BITS" CXX=: MIG=$triplet-mig AUTOCONF=false MAKEINFO=: \
			"$dir/source/configure" "${configure_args[@]}" --with-headers="$dir/include"
		nice -n 10 make -j"$(nproc)"
		nice -n 10 make install DESTDIR="$dir/root"
	) >"$log" 2>&1 || die "the glibc build for $arch failed: $(grep -m1 -E 'Error|error:' "$log" || tail -1 "$log") (log: $log)"
	[ -e "$dir/root/lib/$multiarch/libc.so.6" ] || die "the glibc build for $arch installed no lib/$multiarch/libc.so.6 (log: $log)"
}

plan_line() {
	local last
	last=$(cat "$cache/glibc/$arch.seconds" 2>/dev/null || echo 0)
	say GLIBC "$name for $arch ($triplet, --enable-kernel=$kernel, series $phash)$1$([ "$last" -eq 0 ] || echo ": about $(((last + 59) / 60)) min here last time")"
}

# The test-wrapper glibc's make is given when it writes down what it
# would run (Makeconfig: a command put before every test program, as
# scripts/cross-test-ssh.sh is): a word no shell here finds, so that a
# recipe make -n still runs (one naming $(MAKE)) could never run a test on
# this machine (and not "@...": make takes a recipe's leading @ for its
# own). The guest's runner drops it (guest-init/glibc-run.c).
TEST_WRAPPER=y2038-glibc-test-wrapper

# build_tests SUBDIR: its tests built (make -k: one that does not build is
# left out, and its line says so), and what else make check makes before
# it runs them, then tests/SUBDIR.list.
build_tests() {
	local d=$1 src=$tests_tree/source/$1 list=$tests_tree/tests/$1 start
	local -a check=(objdir="$tests_tree/build" run-built-tests=yes test-wrapper="$TEST_WRAPPER")
	start=$(date +%s)
	say GLIBC "$name for $arch: the tests of $d"
	(
		cd "$src"
		export LC_ALL=C CPPFLAGS="-isystem $tests_tree/include"
		nice -n 10 make -r -k -j"$(nproc)" objdir="$tests_tree/build" run-built-tests=no tests xtests ||
			echo "make -k tests xtests: exit $? (the tests that did not build are left out)"
		# What a test's output (.out) depends on besides the test, which
		# make tests does not make: the modules it dlopens, its data.
		# make -pq runs nothing and prints them; they are made, but the
		# outputs of other tests and the locales, which the guest makes.
		make -r -pq "${check[@]}" xcheck >"$list.db" 2>/dev/null || true
		mapfile -t needs < <(out_prerequisites "$tests_tree/build/$d/" <"$list.db")
		[ "${#needs[@]}" -eq 0 ] || nice -n 10 make -r -k -j"$(nproc)" "${check[@]}" "${needs[@]}" ||
			echo "make -k of the tests' prerequisites: exit $? (a test without one fails)"
		rm -f "$list.db"
		# what make check and make xcheck would run: printed, not run
		make -r -n "${check[@]}" xcheck >"$list.make-n"
	) >"$list.log" 2>&1 || die "the tests of $d: make -n xcheck failed (log: $list.log)"
	list_tests "$d" <"$list.make-n" >"$list.list.tmp"
	mv "$list.list.tmp" "$list.list"
	echo $(($(date +%s) - start)) >"$list.seconds"
}

# out_prerequisites OBJPFX <make -p's database: the files under OBJPFX that
# its .out targets name (explicitly), but .out, .test-result and locales.
out_prerequisites() {
	awk -v b="$1" 'index($0, b) == 1 && $0 ~ /\.out: / {
			sub(/^[^:]*: */, ""); sub(/\|.*/, "")
			n = split($0, p, " ")
			for (i = 1; i <= n; i++)
				if (index(p[i], b) == 1 && p[i] !~ /(\.out|\.test-result|\/LC_CTYPE|%)$/ && !seen[p[i]]++)
					print p[i]
		}'
}

# list_tests SUBDIR <make -n output: each test's line (continued lines
# joined) that glibc's evaluate-test.sh judges, as NAME<TAB>KIND<TAB>LINE.
# KIND: run, a program of the build run through the test-wrapper (glibc's
# make-test-out: ENV, ld.so --library-path, ARGS, its .input); locale, a
# locale the tests read, made by the build's localedef through the
# test-wrapper (gen-locale.sh: make check makes them first, and so does
# the list, in make's order);
# unsupported, one glibc's make calls UNSUPPORTED without building it
# (tests-unsupported: the C++ tests, CXX=:); container, run in
# support/test-container, which needs the build's install as a test root
# (testroot.pristine), not made here; other, a script or a host tool
# (Perl's mtrace, Python and GDB's pretty printers, a shell script with
# its own programs, a cmp of outputs). A test that did not build has its line, and no program: the
# runner says so.
list_tests() {
	awk -v wrapper="$TEST_WRAPPER" '
		/\\$/ { line = line substr($0, 1, length($0) - 1); next }
		{ line = line $0 }
		line ~ /scripts\/evaluate-test\.sh / {
			name = line
			sub(/.*scripts\/evaluate-test\.sh /, "", name)
			sub(/ .*/, "", name)
			kind = "other"
			if (line ~ /support\/test-container /) kind = "container"
			else if (line ~ /localedata\/gen-locale\.sh /) kind = "locale"
			else if (line ~ /[ \t]python3?[ \t]/) kind = "other"
			else if (index(line, wrapper " env ") == 1) kind = "run"
			else if (line ~ /^[^ ]*scripts\/evaluate-test\.sh [^ \t]+[ \t]+77[ \t]/) kind = "unsupported"
			gsub(/\t/, " ", line)
			print name "\t" kind "\t" line
		}
		{ line = "" }'
}

# Every subdir's tests listed: the kept build is whole, read without the lock.
tests_listed() {
	[ -f "$tests_tree/.library" ] || return 1
	for d in $subdirs; do [ -f "$tests_tree/tests/$d.list" ] || return 1; done
}

[ "$cmd" != tests ] || need subdirs
if [ "$cmd" = tests ] && tests_listed; then
	[ "$(cat "$out" 2>/dev/null)" = "$tests_tree" ] || echo "$tests_tree" >"$out"
	exit 0
fi
if [ "$cmd" = tests ]; then
	exec 9>"$cache/glibc/.lock-$arch-$key"
	flock 9
	if [ ! -f "$tests_tree/.library" ]; then
		source_tree
		plan_line ", kept for its tests"
		rm -rf "$tests_tree"
		mkdir -p "$tests_tree"
		start=$(date +%s)
		build_tree "$tests_tree" "$tests_tree/build.log"
		printf '%s\n' "$recipe" >"$tests_tree/recipe"
		echo "$name" >"$tests_tree/libc"
		echo $(($(date +%s) - start)) >"$tests_tree/seconds"
		touch "$tests_tree/.library"
		say DONE "$name for $arch: $(cat "$tests_tree/seconds") s ($tests_tree)"
	fi
	mkdir -p "$tests_tree/tests"
	for d in $subdirs; do
		[ -d "$tests_tree/source/$d" ] || die "glibc $version has no subdir $d"
		[ -f "$tests_tree/tests/$d.list" ] || build_tests "$d"
	done
	exec 9>&-
	[ "$(cat "$out" 2>/dev/null)" = "$tests_tree" ] || echo "$tests_tree" >"$out"
	exit 0
fi

# One build of an arch at a time; a second run waits, then reuses it. A
# built entry is read without the lock: another arch's or recipe's build
# does not hold it up; nor does it the copy of this recipe's install that
# its tests' tree has (which that tree's own lock guards), since that is
# no build.
if [ ! -f "$result/libc" ]; then
	if [ -f "$tests_tree/.library" ]; then
		exec 9>"$cache/glibc/.lock-$arch-$key"
	else
		exec 9>"$cache/glibc/.lock-$arch"
	fi
	flock 9
	if [ ! -f "$result/libc" ]; then
		rm -rf "$result.tmp"
		mkdir -p "$result.tmp"
		start=$(date +%s)
		if [ -f "$tests_tree/.library" ]; then
			# the same recipe, built and installed for its tests: its install
			say GLIBC "$name for $arch: the install of $tests_tree"
			cp -a "$tests_tree/root" "$result.tmp/root"
			cp "$tests_tree/build.log" "$result.tmp/build.log"
			seconds=$(cat "$tests_tree/seconds")
		else
			source_tree
			plan_line ""
			work=$cache/glibc/.work-$arch	# what an interrupted build left is redone
			rm -rf "$work"
			build_tree "$work" "$result.tmp/build.log"
			mv "$work/root" "$result.tmp/root"
			rm -rf "$work"
			seconds=$(($(date +%s) - start))
			echo "$seconds" >"$cache/glibc/$arch.seconds"
		fi
		printf '%s\n' "$recipe" >"$result.tmp/recipe"
		echo "$seconds" >"$result.tmp/seconds"
		echo "$name" >"$result.tmp/libc"
		mv "$result.tmp" "$result"
		say DONE "$name for $arch: $((seconds / 60)) min $((seconds % 60)) s ($result)"
	fi
	exec 9>&-
fi
[ "$(cat "$out" 2>/dev/null)" = "$result" ] || echo "$result" >"$out"
