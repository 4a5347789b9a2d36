#!/usr/bin/env bash
# host-untouched.sh - the lab must leave this machine's clock and kernel as it
# found them (make boot-check runs the whole lab between the two calls).
#
#   tests/run/host-untouched.sh snapshot FILE
#   tests/run/host-untouched.sh compare FILE
#
# The snapshot holds the running kernel, its loaded modules, the binfmt_misc
# handlers and how far CLOCK_REALTIME is ahead of CLOCK_BOOTTIME. Nobody
# setting the clock keeps that difference within NTP's slewing; a step of a
# second or more means the clock was set.
set -uo pipefail

# realtime - boottime, in seconds, read back to back.
clock_offset() {
	python3 -c 'import time; print("%.3f" % (time.clock_gettime(time.CLOCK_REALTIME) - time.clock_gettime(time.CLOCK_BOOTTIME)))'
}
state() {
	echo "kernel $(uname -r) $(uname -v)"
	echo "modules $(cut -d' ' -f1 /proc/modules 2>/dev/null | sort | tr '\n' ' ')"
	echo "binfmt $(ls /proc/sys/fs/binfmt_misc 2>/dev/null | sort | tr '\n' ' ')"
}

case ${1:-} in
snapshot)
	{ state; echo "offset $(clock_offset)"; } >"$2"
	;;
compare)
	# shellcheck source=host-tools/tap.sh
	. "$(dirname "$0")/../../host-tools/tap.sh"
	before=$(grep -v '^offset ' "$2")
	now=$(state)
	then_offset=$(sed -n 's/^offset //p' "$2")
	now_offset=$(clock_offset)
	expect "host untouched: the same kernel, modules and binfmt handlers as before the run" \
		test "$before" = "$now"
	expect "host untouched: the clock was not set (realtime - boottime: $then_offset s before, $now_offset s after)" \
		python3 -c "import sys; sys.exit(abs($now_offset - $then_offset) >= 1.0)"
	tap_end
	;;
*)
	echo "usage: host-untouched.sh snapshot|compare FILE" >&2
	exit 2
	;;
esac
