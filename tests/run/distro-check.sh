#!/usr/bin/env bash
# distro-check.sh - make validate-distro and make try, run for real on i386
# (make boot-check), and what they must refuse.
#
#   tests/run/distro-check.sh BUILD
#
# Boots the lab's i386 kernels (already built by the boot check) with
# Debian bookworm's minimal root and with a program built here.
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

# --- Bad input: a clear error, nothing booted.
printf 'CONFIG_COMPAT_32BIT_TIME=y\nthis is not a config line\n' >"$work/broken.config"
out=$(mk validate-distro DISTRO_CONFIG="$work/broken.config" RESULTS="$work/r" 2>&1)
expect "validate-distro: a broken .config is refused, naming the file and line" \
	grep -q "broken.config:2" <<<"$out"
expect "validate-distro: ... and nothing was booted" test ! -d "$work/r/latest/boots"
out=$(mk validate-distro DISTRO_ARCH=mips RESULTS="$work/r" 2>&1)
expect "validate-distro: an unknown DISTRO_ARCH is refused, naming the known ones" \
	grep -q 'DISTRO_ARCH=mips: the lab validates armhf i386' <<<"$out"

# --- make try: a legacy program of ours, across the overflow.
cat >"$work/tryme.c" <<'EOF'
#include <stdio.h>
#include <time.h>
int main(void)
{
	struct timespec ts = { 0, 100000000 };
	time_t t = time(NULL);

	if (nanosleep(&ts, NULL))
		perror("nanosleep");
	printf("time() = %lld\n", (long long)t);
	return 0;
}
EOF
if i686-linux-gnu-gcc -O2 -o "$work/tryme" "$work/tryme.c"; then
	mk try BIN="$work/tryme" RESULTS="$work/try" >"$work/try.out" 2>&1
	rc=$?
	report=$work/try/latest/try/report.txt
	expect "try: runs on every i386-userland machine and config (exit 0)" \
		test "$rc:$(grep -c '^== ' "$report")" = "0:4"
	expect "try: legacy time() after the overflow is -1, as printed" \
		grep -q 'time() = -1' "$report"
	expect "try: with =n, nanosleep's ENOSYS message is reported for each phase" \
		test "$(sed -n '/^== i386-compat32-n/,/^==/p' "$report" | grep -c 'printed the ENOSYS message')" = 3
	expect "try: with =y, the program ends with exit 0 and no errno message" \
		test "$(sed -n '/^== i386-compat32-y /,/^==/p' "$report" | grep -c -- '-> [a-z]*: exit 0 in')" = 3
else
	not_ok "try: i686-linux-gnu-gcc cannot build the test program"
fi
printf 'not an ELF file\n' >"$work/garbage"
out=$(mk try BIN="$work/garbage" RESULTS="$work/try2" 2>&1)
expect "try: a file that is not ELF is refused with the scanner's reason" \
	grep -q "BIN=$work/garbage: .*ELF" <<<"$out"
out=$(mk try BIN=/bin/true RESULTS="$work/try2" 2>&1)
expect "try: a 64-bit x86 program is refused: the lab runs 32-bit programs" \
	grep -q 'is a 64-bit x86_64 program: the lab runs 32-bit i386 and armhf programs' <<<"$out"

tap_end
