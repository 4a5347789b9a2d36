#!/usr/bin/env bash
# glibc-abis.sh - what the lab's glibc series changes, compiled for every
# glibc ABI Debian has a cross compiler for (data/glibc-abis.tsv), as
# build-many-glibcs.py would build it: make glibc-abis-check.
#
#   glibc-abis.sh abis=FILE out=DIR only="ABI..." KEY=VALUE...  (glibc.sh
#       apply's: cache= suite= mirror= version= series=)
#
# The series is applied to the source the lab builds (glibc.sh apply
# keep=: trixie's glibc-source), once; then, for each ABI, with its
# default kernel floor and, where it is 32-bit, --enable-kernel=5.1 (the
# series' two branches, __ASSUME_TIME64_SYSCALLS or not): configure with
# the ABI's compiler and its kernel headers, the generated headers (a csu
# object), every object of nptl (subdir_lib: the users of
# lowlevellock-futex.h, futex-internal.h and pthread_mutex_trylock.c), the
# objects of each other routine the series changes (each in the subdir
# that builds it, .o and .os), support_block_syscalls and the series'
# tests' objects, all with glibc's flags and -Werror. Each build's log is
# DIR/ABI-FLOOR.log; the tree and builds are removed at the end (KEEP=1
# keeps them). Prints TAP, one line per ABI and floor; adds to $COUNTS.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
abis= out= only= cache= series=
args=("$@")
kv_args "$@"
need abis out cache series
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$here/tap.sh"

# The routines the series changes outside nptl, SUBDIR/NAME (the subdir
# whose Makefile builds them), and the tests it adds, SUBDIR/NAME.
routines="time/clock_nanosleep io/ppoll io/poll io/utimensat misc/pselect misc/pselect32 misc/select
	misc/timerfd_settime sysvipc/semtimedop signal/sigtimedwait rt/mq_timedsend rt/mq_timedreceive
	posix/pause stdlib/arc4random"
tests="nptl/tst-futex-time32-enosys misc/tst-time32-enosys stdlib/tst-arc4random-time32-enosys"

mkdir -p "$out"
work=$(mktemp -d "$cache/glibc/.abis.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
src=$work/source
"$here/libc/glibc.sh" apply "${args[@]}" keep="$src" >&2

# build ABI HOST CC BITS FLOOR: 0 when every object built; the log says what.
build() {
	local abi=$1 host=$2 cc=$3 floor=$5 obj log headers r t d n
	obj=$work/$abi-$floor log=$out/$abi-$floor.log
	headers=/usr/${cc%%-gcc*}/include
	[ "${cc%%-gcc*}" != x86_64-linux-gnu ] || headers=/usr/x86_64-linux-gnu/include
	mkdir -p "$obj/include"
	for d in arch asm asm-generic linux; do [ -e "$headers/$d" ] && ln -s "$headers/$d" "$obj/include/$d"; done
	touch "$obj/include/assert.h"
	: >"$log"
	(
		cd "$obj"
		export LC_ALL=C CPPFLAGS="-isystem $obj/include"
		# shellcheck disable=SC2086 # CC's flags
		CC="$cc" CXX=: AUTOCONF=false MAKEINFO=: "$src/configure" --host="$host" --build="$(gcc -dumpmachine)" \
			--prefix=/usr --with-headers="$obj/include" $([ "$floor" = default ] || echo "--enable-kernel=$floor")
		m() { nice -n 10 make -r -C "$src/$1" objdir="$obj" -j"$(nproc)" "${@:2}"; }
		m csu "$obj/csu/version.o"
		m misc "$obj/misc/bits/syscall.h"
		m nptl subdir_lib
		for r in $routines; do m "${r%%/*}" "$obj/$r.o" "$obj/$r.os"; done
		m support "$obj/support/support_block_syscalls.o"
		for t in $tests; do m "${t%%/*}" "$obj/$t.o"; done
	) >>"$log" 2>&1 || return 1
	n=$(find "$obj/nptl" -name '*.os' | wc -l)
	echo "$n nptl shared objects" >>"$log"
	[ "$n" -gt 100 ]
}

while IFS=$'\t' read -r abi host cc bits _; do
	case $abi in '#'* | abi | '') continue ;; esac
	[ -z "$only" ] || [[ " $only " == *" $abi "* ]] || continue
	command -v "${cc%% *}" >/dev/null || {
		not_ok "$abi: ${cc%% *} is there" "make glibc-abis-check installs it (data/glibc-abis.tsv)"
		continue
	}
	for floor in default $([ "$bits" = 32 ] && echo 5.1); do
		start=$(date +%s)
		if build "$abi" "$host" "$cc" "$bits" "$floor"; then
			pass "$abi, kernel floor $floor: nptl and every object the series changes build with -Werror ($(($(date +%s) - start)) s)"
		else
			not_ok "$abi, kernel floor $floor: nptl and every object the series changes build with -Werror" \
				"$(grep -m3 -E 'error:|Error [0-9]' "$out/$abi-$floor.log" || tail -3 "$out/$abi-$floor.log") (log: $out/$abi-$floor.log)"
		fi
		[ -n "${KEEP:-}" ] || rm -rf "$work/$abi-$floor"
	done
done <"$abis"
tap_end
