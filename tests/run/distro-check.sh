#!/usr/bin/env bash
# distro-check.sh - make validate-distro and make try, run for real on i386
# (make boot-check), and what they must refuse.
#
#   tests/run/distro-check.sh BUILD
#
# Boots Debian bookworm's minimal root with systemd on the lab's i386
# distro kernels (built here), and a program built here on the lab's i386
# kernels (already built by the boot check). make check leaves trixie armhf
# out: its distro kernels and its setup boot would take a cold make check
# past its hour (README); make validate-distro DISTRO=trixie does it.
set -uo pipefail

build=$(realpath "$1")
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
tap_scratch
mk() { make -C "$top" --no-print-directory "$@"; }
# try_run DIR ARG...: make try ARG... into $work/DIR (its output in
# $work/DIR.out); sets rc and report, its report.txt.
try_run() {
	local dir=$1
	shift
	mk try RESULTS="$work/$dir" "$@" >"$work/$dir.out" 2>&1
	rc=$?
	report=$work/$dir/latest/try/report.txt
}
# ran_on_both WHAT: the last try_run ended with exit 0 and a part of its
# report for each config.
ran_on_both() { expect "$1" test "$rc:$(grep -c '^== ' "$report")" = "0:2"; }


# --- validate-distro on Debian bookworm i386 with Debian's own config, the
# whole path once: debootstrap's first stage here, its second stage in a
# setup boot (on a cold cache), the root as the guest's root on the lab's
# distro kernels, the smoke tests, and the root's own init (systemd) at
# the three moments. Debian's minbase with systemd-sysv and udev is the
# smallest root with an init of its own.
results=$build/check-distro
# Held 30 s past the overflow, not 70: journald breaks at 03:14:08.
mk validate-distro DISTRO_ARCH=i386 DISTRO_INIT=yes DISTRO_ACROSS_HOLD=60 RESULTS="$results" >"$work/vd.out" 2>&1
rc=$?
v=$results/latest/distro/verdict.json
boots=$results/latest/boots
expect "validate-distro: runs to its verdict (exit 0)" test "$rc" = 0
expect "validate-distro: Debian bookworm i386 cannot turn COMPAT_32BIT_TIME off" \
	test "$(jq -r .can_turn_off "$v")" = no
expect "validate-distro: its config has COMPAT_32BIT_TIME=y, reported as such" \
	test "$(jq -r .compat_32bit_time_now "$v")" = y
expect "validate-distro: the root the guest booted is configured: its second stage ran (no /debootstrap, an /etc/shadow)" \
	test -n "$(jq -r '.scanned | select(endswith(".img.root"))' "$v")" -a \
	! -e "$(jq -r .scanned "$v")/debootstrap" -a -s "$(jq -r .scanned "$v")/etc/shadow"
expect "validate-distro: every boot ran the lab's distro kernel (kernel_flavour=distro)" \
	test "$(cat "$boots"/*-distro*/meta | grep -c '^kernel_flavour=distro$')" = \
	"$(ls -d "$boots"/*-distro* | wc -l)"
expect "validate-distro: the smoke tests saw the root's own /etc (ls -l /etc/passwd passes with =y)" \
	grep -q '^# ok [0-9]* distro /usr/bin/ls now # PASS' "$boots/i386-compat32-y-distro/tap.log"
expect "validate-distro: at most 2% of the programs' smoke tests prove nothing" \
	jq -e '(.programs_inconclusive | length) * 50 <= .programs' "$v"
expect "validate-distro: touch breaks: utimensat_time32 for UTIME_NOW, ENOSYS with =n" \
	jq -e '.break[] | select(.path == "/usr/bin/touch" and (.why | test("ENOSYS.*utimensat_time32")))' "$v"
expect "validate-distro: apt-get aborts in glibc's futex with =n (exit 134)" \
	jq -e '.break[] | select(.path == "/usr/bin/apt-get" and (.why | test("exit 134.*futex_time32")))' "$v"
expect "validate-distro: a program that needs no time32 call does not break (cat)" \
	jq -e '[.break[].path] | index("/usr/bin/cat") == null' "$v"
expect "validate-distro: every program tested reported on both kernels" \
	test "$(jq '.programs_not_reported | length' "$v")" = 0
expect "validate-distro: dash is a time32 program, date a time64 one, ldconfig static" \
	jq -e '(.time32_files | index("/usr/bin/dash")) and ([.static_files[].path] | index("/usr/sbin/ldconfig"))
		and (.time32_files | index("/usr/bin/date") | not)' "$v"
expect "validate-distro: the report names every breaking program" \
	test "$(grep -c '^  /usr/.*: with =n' "$results/latest/distro/report.txt")" = "$(jq '.break | length' "$v")"
expect "validate-distro: the smoke tests ran again past the overflow (=y), every program reporting" \
	test "$(jq '.past_boot_problems | length' "$v")" = 0 -a \
	"$(jq '.programs_past_reported' "$v")" = "$(jq '.programs - (.programs_not_run | length)' "$v")"
expect "validate-distro: the report lists what breaks past the overflow, with the evidence" \
	test "$(grep -c '^  /usr/.*: past the overflow: ' "$results/latest/distro/report.txt")" = "$(jq '.break_2038 | length' "$v")"
# The root's own init: what bookworm i386's systemd does, measured.
expect "validate-distro init =y: systemd comes up (running), a login prompt, a clean shutdown" \
	jq -e '.init_boots[0] | .verdict == "OK" and .state == "running" and .login_prompt and .shutdown_asked and .restart_reached' "$v"
expect "validate-distro init =n: PID 1 dies, and the report keeps the kernel's last words" \
	jq -e '.init_boots[1] | .verdict == "PID 1 DIED" and any(.last_words[]; test("futex facility returned an unexpected error"))
		and any(.last_words[]; test("Attempted to kill init"))' "$v"
expect "validate-distro init =n: that is a reason the answer is no" \
	jq -e 'any(.init_breaks[]; test("PID 1 DIED"))' "$v"
expect "validate-distro init across: the boot ran on past the overflow, and the probe read the clock there" \
	jq -e '.init_boots[2] | .probe_ran and .clock > "2038-01-19T03:14:08Z"' "$v"
# (udevd aborts the same way, but only when it next handles an event: in
# the runs held to 100 s, at the forced reboot; not always within 60 s.)
expect "validate-distro init across: journald aborts at the overflow (clock_gettime assertion), named with the console's evidence" \
	jq -e 'any(.init_breaks_2038[]; test("^systemd-journald crashed across the overflow: .*clock_gettime"))' "$v"
# A boot that hangs: the same init boot with 8 s to live ends in TIMEOUT,
# with its console, and the smoke tests measured before it stay.
mk boots BOOT_KINDS=distro-init CONFIGS=compat32-y MACHINES=i386 KERNEL_FLAVOUR=distro DISTRO_ARCH=i386 \
	DISTRO_INIT_TIMEOUT=8 RESULTS="$results" RUN_ID=hang >"$work/hang.out" 2>&1
hang=$results/hang/boots/i386-compat32-y-distro-init
cp -r "$results/latest/distro" "$work/hang-distro"
"$top/host-tools/distro/validate-distro.sh" verdict "$work/hang-distro" "$boots/i386-compat32-y-distro" \
	"$boots/i386-compat32-n-distro" "$boots/i386-compat32-y-distro-past" "$hang" \
	"$boots/i386-compat32-n-distro-init" "$boots/i386-compat32-y-distro-across" >"$work/hang-report.txt" 2>&1
expect "validate-distro: an init boot that does not end in time is a TIMEOUT, with its console kept" \
	jq -e '.init_boots[0] | .verdict == "TIMEOUT" and (.console_tail | length) > 0' "$work/hang-distro/verdict.json"
expect "validate-distro: ... and what the other boots measured is still in the answer" \
	test "$(jq '.break | length' "$work/hang-distro/verdict.json")" = "$(jq '.break | length' "$v")" -a \
	"$(jq -r '.init_boots[1].verdict' "$work/hang-distro/verdict.json")" = "PID 1 DIED"
expect "validate-distro: ... and with =y not up, the answer for the boot is unknown, not a pass" \
	grep -q "its own boot with =y did not come up (TIMEOUT)" "$work/hang-report.txt"

# --- Bad input: a clear error, nothing booted.
printf 'CONFIG_COMPAT_32BIT_TIME=y\nthis is not a config line\n' >"$work/broken.config"
out=$(mk validate-distro DISTRO_CONFIG="$work/broken.config" RESULTS="$work/r" 2>&1)
expect "validate-distro: a broken .config is refused, naming the file and line" \
	grep -q "broken.config:2" <<<"$out"
expect "validate-distro: ... and nothing was booted" test ! -d "$work/r/latest/boots"
expect "validate-distro: ... nor a root fetched for it (no debootstrap)" \
	test "$(grep -c DEBOOT <<<"$out")" = 0
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
	try_run try BIN="$work/tryme" ARGS="$args" MACHINES=i386
	ran_on_both "try: runs on the i386 machine named, on both configs (exit 0)"
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
	try_run trydir-run BIN="$work/trydir" ARGS=./helper MACHINES=i386
	expect "try: a directory runs the command in it, and finds the helper beside it (exit 0)" \
		test "$rc:$(grep -c 'argv\[1\] = <from the helper>' "$report")" = "0:6"
	# A program that needs inotify, which the matrix kernels leave out: on
	# the distro kernels (built above for validate-distro) make try runs it.
	cat >"$work/tryinotify.c" <<'EOF'
#include <stdio.h>
#include <sys/inotify.h>

int main(void)
{
	int fd = inotify_init1(IN_NONBLOCK);

	if (fd < 0 || inotify_add_watch(fd, ".", IN_CREATE) < 0) {
		perror("inotify");
		return 1;
	}
	printf("inotify: watching .\n");
	return 0;
}
EOF
	if i686-linux-gnu-gcc -O2 -o "$work/tryinotify" "$work/tryinotify.c"; then
		out=$(mk try BIN="$work/tryinotify" MACHINES=i386 RESULTS="$work/try-matrix" TRY_CONFIGS=compat32-y 2>&1)
		expect "try: a program that imports inotify_init1 is told which kernels lack CONFIG_INOTIFY_USER, and runs" \
			test "$(grep -c 'INOTIFY_USER' <<<"$out"):$(grep -c 'inotify: Function not implemented' "$work/try-matrix/latest/try/report.txt")" = "1:3"
		try_run try-distro KERNEL_FLAVOUR=distro BIN="$work/tryinotify" MACHINES=i386
		expect "try KERNEL_FLAVOUR=distro: a program that needs inotify boots on the distro kernels, both configs (exit 0)" \
			test "$rc:$(grep -c '^== ' "$report"):$(grep -l '^kernel_flavour=distro' "$work"/try-distro/latest/boots/i386-compat32-[yn]-try/meta 2>/dev/null | wc -l)" = "0:2:2"
		expect "try KERNEL_FLAVOUR=distro: ... and its watch is set in every phase of both (6 of 6)" \
			test "$(grep -c 'inotify: watching' "$report")" = 6
	else
		not_ok "try: i686-linux-gnu-gcc cannot build the inotify test program"
	fi
	# A static Go program (the apps family's, built by the boot check with
	# trixie's Go) on the matrix kernels, which have what Go's runtime needs
	# (epoll, eventfd): it reads 2038 after the overflow on =y, and dies at
	# its start on =n (futex_time32).
	gotime=$build/i386/trixie-go/gotime
	try_run try-go BIN="$gotime" ARGS=now MACHINES=i386
	ran_on_both "try: a static Go program runs on the matrix kernels, both configs (exit 0)"
	expect "try: ... it reads the clock past the overflow on =y" \
		grep -qE 'go1\.[0-9.]+ linux/386: 21474836[5-9][0-9] 2038-01-19T03:14' "$report"
	# a phase counts once: more than one of the runtime's threads may say it
	expect "try: ... and dies at its start on =n, its futex_time32 gone (3 phases)" \
		test "$(awk '/^  \[/ { hit = 0 } /futexwakeup addr=.* returned -38/ { hit = 1 }
			/^  -> / { n += hit; hit = 0 } END { print n + 0 }' "$report")" = 3
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
	grep -q 'is a 64-bit x86_64 program: the lab runs 32-bit armhf and i386 programs (machines/\*.mk)' <<<"$out"

tap_end
