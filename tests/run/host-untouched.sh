#!/usr/bin/env bash
# host-untouched.sh - the lab must leave this machine's clock and kernel as it
# found them, and its configuration: no systemd unit enabled, no user added,
# nothing in /etc changed (make boot-check runs the whole lab between the
# two calls, make lava-server-check a LAVA lab of its own).
#
#   tests/run/host-untouched.sh snapshot FILE
#   tests/run/host-untouched.sh compare FILE [SINCE]
#
# SINCE: a later snapshot to compare the configuration with (make
# lava-server-check's, once the packages it installs are: installing them
# adds their users and files, loading nothing and setting no clock).
# The snapshot holds the running kernel, its loaded modules, the binfmt_misc
# handlers and how far CLOCK_REALTIME is ahead of CLOCK_BOOTTIME. Nobody
# setting the clock keeps that difference within NTP's slewing; a step of a
# second or more means the clock was set. Then the enabled systemd units
# (the links in /etc/systemd/system), the users and groups, each file of /etc
# (its type, mode, owner, size, link and SHA-256: the file is root's alone),
# and dpkg's status: when packages were installed or removed meanwhile (by
# another run of this machine's), what changed in /etc may be theirs, and
# those checks are skipped, saying so.
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
# What a run could change of the machine's configuration, one line each.
config() {
	find /etc/systemd/system -type l -printf 'unit %P -> %l\n' 2>/dev/null | sort
	getent passwd | cut -d: -f1 | sed 's/^/user /' | sort
	getent group | cut -d: -f1 | sed 's/^/group /' | sort
	find /etc -xdev -printf 'etc %p %y %m %u %g %s %l\n' 2>/dev/null | sort
	find /etc -xdev -type f -exec sha256sum {} + 2>/dev/null | sed 's/^\([0-9a-f]*\)  /etc-sha256 \1 /' | sort -k3
	echo "dpkg $(sha256sum </var/lib/dpkg/status)"
}
# lines FILE KEY: the snapshot's lines of KEY, without it
lines() { sed -n "s/^$2 //p" "$1"; }

case ${1:-} in
snapshot)
	(umask 077 && { state; config; echo "offset $(clock_offset)"; } >"$2")
	;;
compare)
	# shellcheck source=host-tools/tap.sh
	. "$(dirname "$0")/../../host-tools/tap.sh"
	now=$(mktemp)
	trap 'rm -f "$now"' EXIT
	(umask 077 && { state; config; } >"$now")
	since=${3:-$2}
	then_offset=$(sed -n 's/^offset //p' "$2")
	now_offset=$(clock_offset)
	expect "host untouched: the same kernel, modules and binfmt handlers as before the run" \
		test "$(grep -E '^(kernel|modules|binfmt) ' "$2")" = "$(state)"
	expect "host untouched: the clock was not set (realtime - boottime: $then_offset s before, $now_offset s after)" \
		python3 -c "import sys; sys.exit(abs($now_offset - $then_offset) >= 1.0)"
	if [ "$(lines "$since" dpkg)" != "$(lines "$now" dpkg)" ]; then
		why="packages were installed or removed meanwhile (dpkg's status changed): what changed in /etc may be theirs"
		skip "host untouched: no systemd unit enabled or disabled" "$why"
		skip "host untouched: no user or group added or removed" "$why"
		skip "host untouched: nothing in /etc changed" "$why"
	else
		units=$(diff <(lines "$since" unit) <(lines "$now" unit) | sed -n 's/^> /enabled: /p; s/^< /disabled: /p')
		if [ -z "$units" ]; then pass "host untouched: no systemd unit enabled or disabled"
		else mapfile -t l <<<"$units"; not_ok "host untouched: no systemd unit enabled or disabled" "${l[@]}"; fi
		users=$(diff <(grep -E '^(user|group) ' "$since") <(grep -E '^(user|group) ' "$now") |
			sed -n 's/^> /added: /p; s/^< /removed: /p')
		if [ -z "$users" ]; then pass "host untouched: no user or group added or removed"
		else mapfile -t l <<<"$users"; not_ok "host untouched: no user or group added or removed" "${l[@]}"; fi
		files=$(diff <(grep -E '^etc(-sha256)? ' "$since") <(grep -E '^etc(-sha256)? ' "$now") |
			sed -n 's/^[<>] etc \(\/[^ ]*\) .*/\1/p; s/^[<>] etc-sha256 [0-9a-f]* //p' | sort -u | sed 's/^/changed: /')
		if [ -z "$files" ]; then pass "host untouched: nothing in /etc changed"
		else mapfile -t l <<<"$files"; not_ok "host untouched: nothing in /etc changed" "${l[@]}"; fi
	fi
	tap_end
	;;
*)
	echo "usage: host-untouched.sh snapshot|compare FILE" >&2
	exit 2
	;;
esac
