#!/usr/bin/env bash
# new-kind.sh - a boot kind is one data file: in a copy of the tree, a kind
# copied from rtc-after under a name of its own and another RTC (a device
# that powers on in 2040), booted for real by make run with nothing else
# told: its plan says what the file says, and its cells are as expected.
#
#   tests/run/new-kind.sh WORK_DIR BUILD_DIR CACHE_DIR MACHINE CONFIG
#
# The copy keeps every file's time (tar), and its make uses this tree's
# BUILD, whose kernels and initramfs make check's run built: only the boot
# is new.
set -uo pipefail
work=$(realpath -m "$1") build=$(realpath "$2") cache=$(realpath -m "$3") machine=$4 config=$5
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$top/host-tools/tap.sh"

rm -rf "$work"
mkdir -p "$work/tree"
git -C "$top" ls-files -z --cached --others --exclude-standard | (cd "$top" && xargs -0 tar -cf -) | tar -xf - -C "$work/tree"
sed -e 's/^rtc-after\./rtc-2040./' -e 's/$(RTC_AFTER_BASE)/2040-01-01T00:00:00/' \
	-e '/\.default /d' "$top/kinds/rtc-after.mk" >"$work/tree/kinds/rtc-2040.mk"
make -C "$work/tree" --no-print-directory run BOOT_KINDS=rtc-2040 MACHINES="$machine" CONFIGS="$config" FAKETIME=no \
	BUILD="$build" CACHE="$cache" RESULTS="$work/results" RUN_ID=new-kind >"$work/run.log" 2>&1
rc=$?
boot=$work/results/new-kind/boots/$machine-$config-rtc-2040
expect "a new kind, one data file: make run boots it (exit $rc)" test "$rc" = 0 -a -s "$boot/meta"
expect "... its plan is the file's: its kind, its RTC, its program" \
	test "$(grep -E '^(kind|rtc_base|scenarios)=' "$boot/plan" 2>/dev/null | tr '\n' ' ')" = "kind=rtc-2040 scenarios=rtc-kernel rtc_base=2040-01-01T00:00:00 "
expect "... and every cell of it is as expected, the clock at boot read in 2040" \
	grep -qE '^[1-9][0-9]* cells, ([0-9]+) as expected, 0 not$' "$work/results/new-kind/summary.txt"
tap_end
