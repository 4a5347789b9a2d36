#!/usr/bin/env bash
# host-untouched.sh - tests/run/host-untouched.sh sees what a run could do
# to this machine beyond its clock and kernel: a systemd unit enabled, a
# user added, a file of /etc changed. Each is done for real, in a mount
# namespace of this test's own (the host's /etc is never written): the
# comparison run there must fail, naming each; run here, it passes.
#
#   tests/unit/host-untouched.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

untouched=$top/tests/run/host-untouched.sh
if [ "$(id -u)" != 0 ]; then
	skip "host-untouched: a unit enabled, a user added and /etc changed are each seen" "not root: no mount namespace of its own"
	tap_end
	exit
fi
"$untouched" snapshot "$work/before"
# compare's own TAP, its counts kept out of make check's
COUNTS='' "$untouched" compare "$work/before" >"$work/same.tap" 2>&1
expect "host-untouched: nothing done, nothing seen ($(tail -1 "$work/same.tap"))" grep -q '^[0-9]* passed, 0 failed' "$work/same.tap"
# shellcheck disable=SC2016
COUNTS='' unshare -m --propagation private bash -c '
	set -e
	work=$1 untouched=$2
	# a user added
	cp /etc/passwd "$work/passwd"
	echo "y2038-intruder:x:4242:4242::/nonexistent:/usr/sbin/nologin" >>"$work/passwd"
	mount --bind "$work/passwd" /etc/passwd
	# a unit enabled: /etc/systemd/system with one link more
	if [ -d /etc/systemd/system ]; then
		mkdir -p "$work/system"
		cp -a /etc/systemd/system/. "$work/system/"
		mkdir -p "$work/system/multi-user.target.wants"
		ln -s /lib/systemd/system/y2038-intruder.service "$work/system/multi-user.target.wants/y2038-intruder.service"
		mount --bind "$work/system" /etc/systemd/system
	fi
	exec "$untouched" compare "$work/before"' _ "$work" "$untouched" >"$work/touched.tap" 2>&1
expect "host-untouched: a user added is seen, named" \
	grep -q '^not ok .* no user or group added or removed' "$work/touched.tap"
if [ -d /etc/systemd/system ]; then
	expect "host-untouched: ... as is a systemd unit enabled, named" \
		grep -qx '#   enabled: multi-user.target.wants/y2038-intruder.service -> /lib/systemd/system/y2038-intruder.service' "$work/touched.tap"
else
	skip "host-untouched: ... as is a systemd unit enabled, named" "this host has no /etc/systemd/system to enable one in"
fi
expect "host-untouched: ... and the file of /etc that changed, named" \
	grep -qx '#   changed: /etc/passwd' "$work/touched.tap"
expect "host-untouched: ... and its kernel, modules, binfmt and clock checks still pass" \
	test "$(grep -c '^ok .*\(same kernel\|clock was not set\)' "$work/touched.tap")" = 2
tap_end
