#!/usr/bin/env bash
# distro-init.sh - the verdict on a boot of a distribution's own init
# (DISTRO_INIT=yes), host-tools/distro/distro-verdicts.py init-boot, on
# three boots recorded from Debian bookworm i386 with systemd on the lab's
# distro kernels (tests/fixtures/distro-init/): =y at 2026-06-01 (it comes
# up and shuts down cleanly), =n (systemd dies as PID 1 in glibc's futex),
# and =y across the overflow (journald and udevd abort on clock_gettime,
# systemctl cannot reach PID 1, the probe forces the reboot). Then the same
# boots with what a hang, a failed unit, a probe that never reported and a
# lost record leave, and a root whose setup failed (validate-distro.sh
# prepare and verdict).
#
#   tests/unit/distro-init.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"
vd=$top/host-tools/distro/validate-distro.sh
dv=$top/host-tools/distro/distro-verdicts.py
f=$fixtures/distro-init
jqe() { jq -e "$@" >/dev/null; }

"$dv" init-boot "$f/ok" ordinary >"$work/ok.json"
expect "init boot =y: OK, systemd running, a login prompt, a clean shutdown, nothing failed" \
	jqe '.verdict == "OK" and .state == "running" and .ready_at_s == 14 and .login_prompt
		and .shutdown_asked and .restart_reached and (.shutdown_forced | not)
		and .failed_units == [] and .crashed == [] and .probe_errors == []' "$work/ok.json"
expect "init boot =y: the probe's journal lines are kept" \
	jqe '.journal | length > 0 and any(.[]; test("autofs4"))' "$work/ok.json"

"$dv" init-boot "$f/pid1-died" "=n" >"$work/n.json"
expect "init boot =n: PID 1 DIED, a verdict and not a lost boot" \
	jqe '.verdict == "PID 1 DIED" and .pid1_died and (.probe_ran | not)' "$work/n.json"
expect "init boot =n: the kernel's last words, glibc's futex message among them" \
	jqe '(.last_words[-1] | test("Attempted to kill init")) and any(.last_words[]; test("futex facility"))' "$work/n.json"
expect "init boot =n: systemd named as what crashed, with the console's line" \
	jqe '.crashed == ["systemd"] and (.crashes[0] | test("general protection fault"))' "$work/n.json"

"$dv" init-boot "$f/across" across >"$work/across.json"
expect "init boot across: DEGRADED, the clock read past the overflow" \
	jqe '.verdict == "DEGRADED" and .clock == "2038-01-19T03:15:18Z"' "$work/across.json"
expect "init boot across: journald and udevd crashed (clock_gettime assertion), from the console" \
	jqe '.crashed == ["systemd-journald", "systemd-udevd"] and all(.crashes[]; test("clock_gettime"))' "$work/across.json"
expect "init boot across: systemctl's own failure is reported, not read as a failed unit" \
	jqe '.failed_units == [] and any(.probe_errors[]; test("systemctl list-units --failed: Failed to connect to bus"))' "$work/across.json"
expect "init boot across: the shutdown init could not do is reported as forced" \
	jqe '.shutdown_forced and .restart_reached and (.summary | test("shutdown: forced"))' "$work/across.json"

# A hang: the same =y boot, cut off by the host (qemu_status=timeout), its
# console ending before the probe reported.
mkdir -p "$work/hang"
head -n 150 "$f/ok/console.log" >"$work/hang/console.log"
: >"$work/hang/tap.log"
sed 's/^qemu_status=.*/qemu_status=timeout/' "$f/ok/meta" >"$work/hang/meta"
"$dv" init-boot "$work/hang" hang >"$work/hang.json"
expect "init boot cut off: TIMEOUT, with the console's last lines kept" \
	jqe '.verdict == "TIMEOUT" and (.console_tail | length) == 15' "$work/hang.json"
# A unit that failed where only the console says so (systemd's status line).
mkdir -p "$work/failed"
cp "$f/ok/tap.log" "$f/ok/meta" "$work/failed/"
awk '/Debian GNU\/Linux 12/ && !done { print "[\033[0;1;31mFAILED\033[0m] Failed to start smoke.service - Smoke."; done = 1 } 1' \
	"$f/ok/console.log" >"$work/failed/console.log"
"$dv" init-boot "$work/failed" failed >"$work/failed.json"
expect "init boot: a [FAILED] line on the console makes it DEGRADED, named in the summary" \
	jqe '.verdict == "DEGRADED" and .console_failures == ["Failed to start smoke.service - Smoke."]
		and (.summary | test("the console: Failed to start smoke.service"))' "$work/failed.json"
# A boot that ended (qemu_status=exited) before the probe reported a thing.
mkdir -p "$work/noprobe"
cp "$f/ok/console.log" "$f/ok/meta" "$work/noprobe/"
: >"$work/noprobe/tap.log"
"$dv" init-boot "$work/noprobe" noprobe >"$work/noprobe.json"
expect "init boot whose probe never reported: NO PROBE, with what the console saw" \
	jqe '.verdict == "NO PROBE" and (.probe_ran | not) and .login_prompt and .restart_reached
		and (.summary | test("^the boot ended before the probe ran; login prompt: yes; shutdown: reached, not asked by the probe"))' "$work/noprobe.json"
mkdir -p "$work/none"
"$dv" init-boot "$work/none" none >"$work/none.json"
expect "init boot with no record at all: NOT BOOTED, saying so" \
	jqe '.verdict == "NOT BOOTED" and (.summary | test("no boot record"))' "$work/none.json"

# A root whose second stage failed: no disk for any boot. prepare leaves
# what the verdict reads, and the answer is UNKNOWN, giving the reason,
# not a crash of the verdict nor a "yes".
mkdir -p "$work/fail/dir" "$work/fail/stage"
jq -n '{name: "a root whose setup failed", root: "/nonexistent", config: "none"}' >"$work/fail/dir/inputs.json"
jq -n '{summary: "(a config)", checks: []}' >"$work/fail/dir/config.json"
printf '%s=%q\n' dir "$work/fail/dir" root /nonexistent elf_machine 3 arch i386 host "$host" session - init - \
	disk "$work/fail/root.img" >"$work/fail/stage/prepare.env"
echo "debootstrap's second stage did not finish in the setup boot: y2038-second-stage: exit 1" >"$work/fail/root.img.error"
"$vd" prepare "$work/fail/stage" 2>/dev/null
for b in y n past init-y init-n across; do
	mkdir -p "$work/fail/$b"
	printf 'qemu_status=failed\nerror=no disk %s: the second stage failed\n' "$work/fail/root.img" >"$work/fail/$b/meta"
done
"$vd" verdict "$work/fail/dir" "$work/fail/y" "$work/fail/n" "$work/fail/past" \
	"$work/fail/init-y" "$work/fail/init-n" "$work/fail/across" >"$work/fail/report.txt" 2>&1
expect "a root that could not be set up: the verdict still comes (exit 0), UNKNOWN" \
	test "$?:$(jq -r .can_turn_off "$work/fail/dir/verdict.json")" = "0:unknown"
expect "... giving the reason: no disk, the second stage failed" \
	grep -q "UNKNOWN: .*error=no disk .*: the second stage failed" "$work/fail/report.txt"
expect "... and every init boot NOT BOOTED with it" \
	jqe '[.init_boots[].verdict] == ["NOT BOOTED", "NOT BOOTED", "NOT BOOTED"]' "$work/fail/dir/verdict.json"

tap_end
