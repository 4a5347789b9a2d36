#!/usr/bin/env bash
# hrtimer-check.sh - 7.2's hrtimer fix (patches/7.2/0009) measured by its
# kselftest (patches/7.2/0010, settime-abs-sleep), booted on the machine's
# Linux 7.2 kernel without the fix and with it (make hrtimer-check).
#
#   hrtimer-check.sh out=DIR run_id=ID machine_env=FILE initrd=CPIO cache=DIR
#       probe=KVM_PROBE test_patch=FILE without=KERNEL_ENV with=KERNEL_ENV config=CONFIG
#
# The test is built from its patch, as it is sent (the new file's lines),
# against the pristine 7.2 tree's kselftest.h, static, for the machine's
# userland, and put on the lab's initramfs; each kernel boots it once at
# RTC_DATE. What it prints is its own verdict (kselftest's "ok 1 N of M
# ..."): this prints both lines and their counts, and DIR/hrtimer-check.txt.
# Exit 1 when a boot gave no verdict or the fix's boot had an early sleep.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
need out run_id machine_env initrd cache probe test_patch without with config
machine_facts "$machine_env"
RTC_DATE=2026-06-01T00:00:00
# The race shows in low-resolution mode (run hrtimer4: the TSC marked
# unstable, clocksource pit, hres never on). PC boots now trust the TSC
# (tsc=reliable) and run in high resolution, where no sleep ends early
# with the fix or without it (runs hrtimer72, hrtimer73): ask for low
# resolution, as such a machine had it.
HRTIMER_APPEND=highres=off

version=$(. "$with" && echo "${KERNEL_VERSION:-}")
source=$(. "$with" && echo "${KERNEL_SOURCE:-}")
[ -n "$version" ] || die "$with: no kernel (KERNEL_ERROR: $(. "$with" && echo "${KERNEL_ERROR:-?}"))"
pristine=$cache/src/$source-$version
[ -r "$pristine/tools/testing/selftests/kselftest.h" ] || die "$pristine: not an unpacked kernel source"

stage=$out/stage
rm -rf "$stage" && mkdir -p "$stage/scenarios"
awk '/^\+\+\+ b\/tools\/testing\/selftests\/timers\/settime-abs-sleep\.c$/ { on = 1; next }
	on && /^diff --git / { exit }
	on && /^\+/ { print substr($0, 2) }' "$test_patch" >"$out/settime-abs-sleep.c"
[ -s "$out/settime-abs-sleep.c" ] || die "$test_patch: no tools/testing/selftests/timers/settime-abs-sleep.c in it"
say CC "settime-abs-sleep ($userland, from $(basename "$test_patch"))"
"${ucross}gcc" -O2 -Wall -static -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64 \
	-I "$pristine/tools/testing/selftests" -I "$pristine" \
	-o "$stage/scenarios/settime-abs-sleep" "$out/settime-abs-sleep.c"
"$LAB_TOP/host-tools/initramfs/overlay-cpio.sh" "$out/hrtimer.cpio" "$initrd" "$stage"

# How a boot without a verdict ended: its record's error, else how QEMU did.
ended() {
	local error status
	error=$(boot_field "$1" error)
	status=$(boot_field "$1" qemu_status)
	echo "${error:-qemu ${status:-left no record}}"
}
# The kselftest's own result line of a boot (kept by the collector with its
# program's comments: it is not in the lab's form), and its count of early
# sleeps.
result() { boot_notes "$1" | grep -m1 '^\(not \)\{0,1\}ok 1 .*absolute sleeps' || true; }
for kernel in without with; do
	boot=$out/boots/$machine-$config-$kernel-0009
	boot_planned "$out/plans/${boot##*/}" run_id="$run_id" machine_env="$machine_env" config="$config" kind=hrtimer \
		kernel_env="${!kernel}" initrd="$out/hrtimer.cpio" scenarios=settime-abs-sleep \
		rtc_base="$RTC_DATE" guest_timeout=600 boot_timeout=900 extra_append="$HRTIMER_APPEND" -- \
		out="$boot" probe="$probe" cache="$cache" >/dev/null
	line=$(result "$boot")
	early=$(sed -n 's/^\(not \)\{0,1\}ok 1 \([0-9]*\) of \([0-9]*\) .*/\2 of \3/p' <<<"$line")
	printf '%s 0009 (%s): %s\n' "$kernel" "$(. "${!kernel}" && echo "$KERNEL_PATCHES")" \
		"${early:-no verdict: $(ended "$boot")} early"
done | tee "$out/hrtimer-check.txt.tmp"
mv "$out/hrtimer-check.txt.tmp" "$out/hrtimer-check.txt"
rc=0
grep -q '^without 0009 .*: [0-9]* of [0-9]* early$' "$out/hrtimer-check.txt" &&
	grep -q '^with 0009 .*: 0 of [0-9]* early$' "$out/hrtimer-check.txt" || rc=1
say RESULT "$source $version on $machine, settime-abs-sleep: $out/hrtimer-check.txt (run $run_id)"
exit $rc
