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

# The columns of glibc's programs (the vocabulary's kinds whose libc is
# glibc): the boots carry the musl column's programs too, on their own libc.
columns=$("${LAB_COLLECT:?make exports LAB_COLLECT, the collector}" --vocabulary |
	jq -c '[.kinds[] | select(.libc == "glibc") | .column]')
glibc_cells() {	# FILTER: jq applied to the glibc programs' cells of those boots
	jq -e --arg k "$kind" --argjson c "$columns" \
		"[.[] | select((.boot | endswith(\"-\\(\$k)\")) and (.column as \$col | \$c | index(\$col)))] | $1" \
		"$run/results.json"
}
cells=$(glibc_cells length)
expect "the $kind boots gave cells of glibc's programs ($cells)" test "${cells:-0}" -gt 0
# every cell of those programs carries NAME as its libc
expect "every one of them names the libc $name" glibc_cells "all(.libc == \"$name\")"
for b in "$run"/boots/*-"$kind"; do
	expect "$(basename "$b"): its programs reported $name (the TAP the init relays)" grep -qxF "# # libc: $name" "$b/tap.log"
done
tap_end
