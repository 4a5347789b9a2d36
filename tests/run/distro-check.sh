#!/usr/bin/env bash
# distro-check.sh - make validate-distro and make try, run for real on i386
# (make boot-check), and what they must refuse.
#
#   tests/run/distro-check.sh BUILD
#
# Boots the lab's i386 kernels (already built by the boot check) with
# Debian bookworm's minimal root and with a program built here, and the
# armv7 ones with Debian trixie's armhf root (time64, glibc 2.41).
set -uo pipefail

build=$(realpath "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
mk() { make -C "$top" --no-print-directory "$@"; }


# --- validate-distro on Debian bookworm i386 with Debian's own config.
results=$build/check-distro
mk validate-distro DISTRO_ARCH=i386 RESULTS="$results" >"$work/vd.out" 2>&1
rc=$?
v=$results/latest/distro/verdict.json
expect "validate-distro: runs to its verdict (exit 0)" test "$rc" = 0
expect "validate-distro: Debian bookworm i386 cannot turn COMPAT_32BIT_TIME off" \
	test "$(jq -r .can_turn_off "$v")" = no
expect "validate-distro: its config has COMPAT_32BIT_TIME=y, reported as such" \
	test "$(jq -r .compat_32bit_time_now "$v")" = y
expect "validate-distro: touch breaks: utimensat_time32 for UTIME_NOW, ENOSYS with =n" \
	jq -e '.break[] | select(.path == "/usr/bin/touch" and (.why | test("ENOSYS.*utimensat_time32")))' "$v"
expect "validate-distro: apt aborts in glibc's futex with =n (exit 134)" \
	jq -e '.break[] | select(.path == "/usr/bin/apt-get" and (.why | test("exit 134.*futex_time32")))' "$v"
expect "validate-distro: a program that needs no time32 call does not break (cat)" \
	jq -e '[.break[].path] | index("/usr/bin/cat") == null' "$v"
expect "validate-distro: busybox's sleep that returns at once with =n breaks it (EARLY)" \
	jq -e '.break[] | select(.path == "/usr/bin/busybox" and (.why | test("^with =n: EARLY")))' "$v"
expect "validate-distro: every program tested reported on both kernels" \
	test "$(jq '.programs_not_reported | length' "$v")" = 0
expect "validate-distro: dash is a time32 program, date a time64 one, busybox static" \
	jq -e '(.time32_files | index("/usr/bin/dash")) and ([.static_files[].path] | index("/usr/bin/busybox"))
		and (.time32_files | index("/usr/bin/date") | not)' "$v"
expect "validate-distro: the report names every breaking program" \
	test "$(grep -c '^  /usr/.*: with =n' "$results/latest/distro/report.txt")" = "$(jq '.break | length' "$v")"
expect "validate-distro: the smoke tests ran again past the overflow (=y), every program reporting" \
	test "$(jq '.past_boot_problems | length' "$v")" = 0 -a \
	"$(jq '.programs_past_reported' "$v")" = "$(jq '.programs - (.programs_not_run | length)' "$v")"
expect "validate-distro: the report lists what breaks past the overflow, with the evidence" \
	test "$(grep -c '^  /usr/.*: past the overflow: ' "$results/latest/distro/report.txt")" = "$(jq '.break_2038 | length' "$v")"

# --- validate-distro on Debian trixie armhf: a time64 distribution (glibc
# 2.41), its own armmp config, booted on the lab's armv7 kernels.
results=$build/check-distro-trixie
if ! command -v qemu-system-arm >/dev/null; then
	skip "validate-distro trixie armhf" "qemu-system-arm is not installed: the armv7 machine is not ready"
else
mk validate-distro DISTRO=trixie DISTRO_ARCH=armhf RESULTS="$results" >"$work/vdt.out" 2>&1
rc=$?
v=$results/latest/distro/verdict.json
expect "validate-distro trixie armhf: runs to its verdict (exit 0)" test "$rc" = 0
expect "validate-distro trixie armhf: the scan finds no time32 program (a time64 userland)" \
	test "$(jq '.time32_files | length' "$v")" = 0
expect "validate-distro trixie armhf: it still cannot turn COMPAT_32BIT_TIME off" \
	test "$(jq -r .can_turn_off "$v")" = no
expect "validate-distro trixie armhf: touch (time64) breaks: glibc 2.41 sends UTIME_NOW to utimensat_time32" \
	jq -e '.break[] | select(.path == "/usr/bin/touch" and (.why | test("ENOSYS.*utimensat_time32")))' "$v"
expect "validate-distro trixie armhf: every program reported on the three boots" \
	test "$(jq '(.programs_not_reported | length) + (.past_boot_problems | length)' "$v")" = 0
fi

# --- Bad input: a clear error, nothing booted.
printf 'CONFIG_COMPAT_32BIT_TIME=y\nthis is not a config line\n' >"$work/broken.config"
out=$(mk validate-distro DISTRO_CONFIG="$work/broken.config" RESULTS="$work/r" 2>&1)
expect "validate-distro: a broken .config is refused, naming the file and line" \
	grep -q "broken.config:2" <<<"$out"
expect "validate-distro: ... and nothing was booted" test ! -d "$work/r/latest/boots"
out=$(mk validate-distro DISTRO_ARCH=mips RESULTS="$work/r" 2>&1)
expect "validate-distro: an unknown DISTRO_ARCH is refused, naming the known ones" \
	grep -q 'DISTRO_ARCH=mips: the lab validates armhf i386' <<<"$out"

# --- make try: a legacy program of ours, across the overflow, with a command
# line a shell would take (quotes, parentheses, $ and ;), and a directory
# holding a test that runs its helper, as kselftest's set-2038 does.
cat >"$work/tryme.c" <<'EOF'
#include <stdio.h>
#include <time.h>
int main(int argc, char **argv)
{
	struct timespec ts = { 0, 100000000 };
	time_t t = time(NULL);
	int i;

	if (nanosleep(&ts, NULL))
		perror("nanosleep");
	printf("time() = %lld\n", (long long)t);
	for (i = 1; i < argc; i++)
		printf("argv[%d] = <%s>\n", i, argv[i]);
	return 0;
}
EOF
cat >"$work/helper.c" <<'EOF'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	char *argv[] = { "./tryme", "from the helper", NULL };

	/* as set-2038 runs ./nanosleep: a program beside it, by relative path */
	execv(argv[0], argv);
	perror("execv ./tryme");
	return 1;
}
EOF
mkdir -p "$work/trydir"
if i686-linux-gnu-gcc -O2 -o "$work/tryme" "$work/tryme.c" && cp "$work/tryme" "$work/trydir/tryme" &&
   i686-linux-gnu-gcc -O2 -o "$work/trydir/helper" "$work/helper.c"; then
	# what a user types: make try BIN=... ARGS='"a b" '(c)' '$HOME' ";" ; echo "after ;"'
	args='"a b" '"'"'(c)'"'"' '"'"'$HOME'"'"' ";" ; echo "after ;"'
	# on i386 only: x86_64 runs it too (make try's default), but its
	# kernels are make run's, and check builds the 32-bit ones only
	mk try BIN="$work/tryme" ARGS="$args" MACHINES=i386 RESULTS="$work/try" >"$work/try.out" 2>&1
	rc=$?
	report=$work/try/latest/try/report.txt
	expect "try: runs on the i386 machine named, on both configs (exit 0)" \
		test "$rc:$(grep -c '^== ' "$report")" = "0:2"
	expect "try: legacy time() after the overflow is -1, as printed" \
		grep -q 'time() = -1' "$report"
	expect "try: with =n, nanosleep's ENOSYS message is reported for each phase" \
		test "$(sed -n '/^== i386-compat32-n/,/^==/p' "$report" | grep -c 'printed the ENOSYS message')" = 3
	expect "try: with =y, the program ends with exit 0 and no errno message" \
		test "$(sed -n '/^== i386-compat32-y /,/^==/p' "$report" | grep -c -- '-> [a-z]*: exit 0 in')" = 3
	expect "try: the command line reaches the guest as typed" \
		grep -qF "/try/tryme $args" "$work/try/latest/boots/i386-compat32-y-try/tap.log"
	expect "try: ... and the guest's shell reads it as a shell would (quotes, parentheses, \$, ;)" \
		test "$(sed -n '/^== i386-compat32-y /,/^==/p' "$report" | grep -m4 -o 'argv\[[0-9]\] = <.*>' | tr '\n' '|')" = \
		'argv[1] = <a b>|argv[2] = <(c)>|argv[3] = <$HOME>|argv[4] = <;>|'
	expect "try: ... and runs what follows the ; as its own command" \
		grep -q 'after ;' "$report"
	mk try BIN="$work/trydir" ARGS=./helper MACHINES=i386 RESULTS="$work/trydir-run" >"$work/trydir.out" 2>&1
	rc=$?
	report=$work/trydir-run/latest/try/report.txt
	expect "try: a directory runs the command in it, and finds the helper beside it (exit 0)" \
		test "$rc:$(grep -c 'argv\[1\] = <from the helper>' "$report")" = "0:6"
	out=$(mk try BIN="$work/tryme" MACHINES=armv7 RESULTS="$work/try3" 2>&1)
	expect "try: MACHINES= naming none of the program's machines is refused, naming them" \
		grep -q "the program is i386, and MACHINES= names none of the machines that run it (i386 x86_64)" <<<"$out"
else
	not_ok "try: i686-linux-gnu-gcc cannot build the test programs"
fi
out=$(mk try BIN="$work/trydir" RESULTS="$work/try2" 2>&1)
expect "try: a directory without ARGS is refused, saying what ARGS is for" \
	grep -q "BIN=$work/trydir is a directory: ARGS= is the command to run in it" <<<"$out"
printf 'not an ELF file\n' >"$work/garbage"
out=$(mk try BIN="$work/garbage" RESULTS="$work/try2" 2>&1)
expect "try: a file that is not ELF is refused with the scanner's reason" \
	grep -q "BIN=$work/garbage: .*ELF" <<<"$out"
out=$(mk try BIN=/bin/true RESULTS="$work/try2" 2>&1)
expect "try: a 64-bit x86 program is refused: the lab runs 32-bit programs" \
	grep -q 'is a 64-bit x86_64 program: the lab runs 32-bit i386 and armhf programs' <<<"$out"

tap_end
