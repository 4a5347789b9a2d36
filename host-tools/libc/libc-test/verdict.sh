#!/usr/bin/env bash
# verdict.sh - make musl-libc-test's verdict on one libc's make try run:
# each boot's phases (before, across and after the overflow) passed or
# failed as that libc should, read through the collector (LAB_COLLECT).
#
#   verdict.sh RUN_DIR LIBC pass|fail-without-time32 WITHOUT_TIME32
#
# pass: every phase of every boot exits 0 (the lab's musl, with the
# series). fail-without-time32: every phase exits 0 on the config with the
# time32 syscalls and not on WITHOUT_TIME32, the config without them (make's
# WITHOUT_TIME32; Debian's musl: what shows that the test finds the problem
# the series fixes). Prints TAP; its exit status is tap_end's.
set -euo pipefail
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../tap.sh"
run=$1 libc=$2 want=$3 without_time32=${4:?verdict.sh: WITHOUT_TIME32, the config without the time32 syscalls, is required}
case $want in pass | fail-without-time32) ;; *) echo "verdict.sh: want pass or fail-without-time32, not \"$want\"" >&2; exit 2 ;; esac
boots=("$run"/boots/*-try)
[ -d "${boots[0]}" ] || { not_ok "$libc: no boot of make try in $run/boots"; tap_end; }
for b in "${boots[@]}"; do
	json=$("${LAB_COLLECT:?make exports LAB_COLLECT, the collector}" --boot "$b" --json)
	config=$(jq -r '.record.config' <<<"$json")
	# each phase: "PHASE ok" where the command exited 0, else "PHASE CLASS:
	# DETAIL" (its exit status or how it ended, and its first line). The
	# session cannot know what is right for a user's program: a case says
	# how the command ended in its detail, not in its ok.
	mapfile -t phases < <(jq -r '.tap.programs[]?.cases[]? |
		"\(.phase) \(if (.detail | startswith("exit 0 ")) and (.class | IN("CRASH", "TIMEOUT", "ERROR") | not)
			then "ok" else "\(.class): \(.detail | sub("; time32: .*"; ""))" end)"' <<<"$json")
	[ "${#phases[@]}" -gt 0 ] || { not_ok "$libc on $(basename "$b"): the guest ran no phase"; continue; }
	ok=yes
	[ "$want" = fail-without-time32 ] && [ "$config" = "$without_time32" ] && ok=no
	for p in "${phases[@]}"; do
		phase=${p%% *} got=${p#* }
		if [ "$ok" = yes ]; then
			same "$libc on $config, $phase: exit 0" "$got" ok
		elif [ "$got" = ok ]; then
			not_ok "$libc on $config, $phase: exits 0 where it should fail (the test no longer shows the problem)"
		else
			pass "$libc on $config, $phase: fails, as without the series ($got)"
		fi
	done
done
tap_end
