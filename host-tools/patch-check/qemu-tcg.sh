#!/usr/bin/env bash
# qemu-tcg.sh - QEMU ($Y2038_QEMU) with the arguments it is given, but for
# "-accel kvm" and "-accel hvf": what kunit.sh puts first in kunit.py's
# PATH under the machine's QEMU name when KVM did not boot that machine's
# guest here (boot.sh's choose_accel). From 7.3 on kunit.py asks for
# "-accel kvm -accel hvf -accel tcg" (tools/testing/kunit/kunit_kernel.py),
# and where /dev/kvm opens but a guest never runs QEMU takes KVM and the
# test kernel prints nothing.
set -euo pipefail
[ -n "${Y2038_QEMU:-}" ] || { echo "qemu-tcg.sh: Y2038_QEMU names no QEMU" >&2; exit 2; }
args=()
while [ $# -gt 0 ]; do
	if [ "$1" = -accel ] && [ $# -gt 1 ] && { [ "$2" = kvm ] || [ "$2" = hvf ]; }; then
		shift 2
		continue
	fi
	args+=("$1")
	shift
done
exec "$Y2038_QEMU" "${args[@]}"
