#!/usr/bin/env bash
# musl-libc.sh - the lab's musl for time64-only kernels on made-up input:
# musl.sh built= makes the specs the programs compile with from a build as
# musl-build.sh leaves it, and names it; and musl-build.sh, cached by its
# recipe, says what decides a build and refuses what it cannot build
# (no cross build here: make libc builds it, make run boots it); and
# make musl-libc-test's verdict on real boots.
#
#   tests/unit/musl-libc.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"
t=i386-linux-musl

# A build as musl-build.sh leaves it: root/ laid out as musl-dev, its name.
built=$work/cache/musl/i386-0123456789ab
mkdir -p "$built/root/usr/lib/$t" "$built/root/usr/include/$t"
printf '%s\n' '*cpp_options:' "-nostdinc -isystem /usr/include/$t -isystem include%s" \
	'*link_libgcc:' "-L/usr/lib/$t -L .%s" >"$built/root/usr/lib/$t/musl-gcc.specs"
echo musl-1.2.5-time64fallback >"$built/libc"
out=$work/build/i386/musl-time64only
"$top/host-tools/initramfs/musl.sh" built="$built" target=$t cross=i686-linux-gnu- out="$out" >"$work/musl.out" 2>&1
rc=$?
if [ -d /usr/i686-linux-gnu/include/asm ]; then
	expect "musl.sh built=: made the specs (exit $rc: $(head -c 200 "$work/musl.out"))" test "$rc" = 0 -a -f "$out/musl.specs"
	same "musl.sh built=: the libc is the build's name" "$(cat "$out/libc" 2>/dev/null)" musl-1.2.5-time64fallback
	expect "musl.sh built=: the specs point into the build, and at the cross toolchain's kernel headers" \
		grep -qF -- "-isystem $out/root/usr/include/$t -isystem $out/include" "$out/musl.specs"
	expect "musl.sh built=: its root is the build's" test "$(readlink "$out/root")" = "$built/root"
else
	skip "musl.sh built=" "no i686-linux-gnu kernel headers (apt-get install libc6-dev-i386-cross)"
fi
rm -f "$built/libc"
"$top/host-tools/initramfs/musl.sh" built="$built" target=$t cross=i686-linux-gnu- out="$out" >"$work/musl.out" 2>&1
same "musl.sh built=: a folder that is no build is refused, naming it" "$?: $(cat "$work/musl.out")" \
	"1: musl.sh: built=$built is no musl the lab built (no $built/libc)"

# musl-build.sh plan: a recipe never built is "build 0"; its recipe names
# the source, the series, the compiler, the flags and configure's options.
mb=$top/host-tools/libc/musl-build.sh
args=(cache="$work/cache" suite=trixie version=1.2.5-3.1~deb13u1 arch=i386 triplet=i686-linux-gnu target=$t
	series="$top/patches/musl/series" name=musl-1.2.5-time64fallback out=/dev/null)
if command -v i686-linux-gnu-gcc >/dev/null; then
	plan=$("$mb" plan "${args[@]}" 2>&1)
	expect "musl-build.sh plan: a recipe never built here ($plan)" grep -qx "build 0 $work/cache/musl/i386-[0-9a-f]\{12\}" <<<"$plan"
	other=$("$mb" plan "${args[@]}" series=none 2>&1)
	expect "musl-build.sh plan: without the series, another build ($other)" \
		test "${other#build 0 }" != "${plan#build 0 }" -a "${other#build 0 $work/cache/musl/i386-}" != "$other"
	mkdir -p "${plan#build 0 }" && echo musl-1.2.5-time64fallback >"${plan#build 0 }/libc"
	same "musl-build.sh plan: a recipe built is reused" "$("$mb" plan "${args[@]}" 2>&1)" "reuse ${plan#build 0 }"
else
	skip "musl-build.sh plan" "no i686-linux-gnu-gcc (apt-get install gcc-i686-linux-gnu)"
fi
"$mb" build "${args[@]}" version= >"$work/mb.out" 2>&1
same "musl-build.sh: no version is refused, saying where it comes from" "$?: $(cat "$work/mb.out")" \
	"1: musl-build.sh: version= is required: the distribution's musl_source (distros/*.mk)"

# make musl-libc-test's verdict (libc-test/verdict.sh) on real boots of
# make try (tests/fixtures/musl-libc-test/: run m50-libctest2, i386):
# Debian's musl fails the test on =n only, the lab's passes everywhere.
# (its TAP counts are its own, not make check's: COUNTS='', as other tests
# of a TAP script do)
verdict() { COUNTS='' "$top/host-tools/libc/libc-test/verdict.sh" "$@"; }
lt=$fixtures/musl-libc-test
# (the exit status is kept before the name's $(...) runs: "$?" after it
# would be tail's)
verdict "$lt/musl-1.2.5" musl-1.2.5 fail-without-time32 compat32-n >"$work/v.out" 2>&1
rc=$?
same "verdict.sh: Debian's musl fails on =n and passes on =y ($(tail -1 "$work/v.out"))" "$rc" 0
verdict "$lt/musl-1.2.5-time64fallback" musl-1.2.5-time64fallback pass compat32-n >"$work/v.out" 2>&1
rc=$?
same "verdict.sh: the lab's musl passes in every phase ($(tail -1 "$work/v.out"))" "$rc" 0
verdict "$lt/musl-1.2.5" musl-1.2.5 pass compat32-n >"$work/v.out" 2>&1
rc=$?
expect "verdict.sh: a libc that must pass and fails on =n fails the verdict, naming the errno (exit $rc)" \
	test "$rc" = 1 -a "$(grep -c '^not ok .* compat32-n, .*: exit 0$' "$work/v.out")" = 3 -a "$(grep -c 'got:  ENOSYS: exit 1' "$work/v.out")" = 3
verdict "$lt/musl-1.2.5-time64fallback" musl-1.2.5-time64fallback fail-without-time32 compat32-n >"$work/v.out" 2>&1
rc=$?
expect "verdict.sh: a libc that should fail on =n and passes there fails the verdict (exit $rc)" \
	test "$rc" = 1 -a "$(grep -c 'exits 0 where it should fail' "$work/v.out")" = 3
mkdir -p "$work/no-boots"
verdict "$work/no-boots" musl-1.2.5 pass compat32-n >"$work/v.out" 2>&1
rc=$?
expect "verdict.sh: a run without boots fails, saying so (exit $rc)" test "$rc" = 1 && grep -q "no boot of make try" "$work/v.out"
tap_end
