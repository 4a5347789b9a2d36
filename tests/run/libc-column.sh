#!/usr/bin/env bash
# libc-column.sh - the libc column of a run of one of the lab's glibc boot
# kinds (make libc-check: time64only, debian-fallback): each boot's
# programs ran on the libc the lab put there, and said so, so that its
# cells are judged as that libc's.
#
#   tests/run/libc-column.sh RUN_DIR LIBC_NAME [KIND]   (KIND: time64only)
set -uo pipefail
run=$1 name=$2 kind=${3:-time64only}
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"

cells=$(jq --arg k "$kind" '[.[] | select(.boot | endswith("-\($k)"))] | length' "$run/results.json")
expect "the $kind boots gave cells ($cells)" test "${cells:-0}" -gt 0
# all_named NAME: every cell of those boots carries NAME as its libc
all_named() {
	jq -e --arg n "$1" --arg k "$kind" '[.[] | select(.boot | endswith("-\($k)"))] | all(.libc == $n)' \
		"$run/results.json" >/dev/null
}
expect "every one of them names the libc $name" all_named "$name"
for b in "$run"/boots/*-"$kind"; do
	expect "$(basename "$b"): its programs reported $name (the TAP the init relays)" grep -qxF "# # libc: $name" "$b/tap.log"
done
tap_end
