#!/usr/bin/env bash
# stamp-fix-check.sh - the series' first patch, measured both ways (make
# boot-check): SIOCGSTAMP_OLD and SIOCGSTAMPNS_OLD on i386 with
# COMPAT_32BIT_TIME=n, from legacy glibc and as raw syscalls.
#
#   tests/run/stamp-fix-check.sh UNPATCHED_RUN PATCHED_RUN
#
# Without the series the kernel writes 16 bytes into the 8-byte struct (the
# guard bytes after it are overwritten); with it, the 8-byte old layout, its
# tv_sec wrapped past 2038, and nothing after it.
set -uo pipefail
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
unpatched=$1 patched=$2
cells() {	# RUN: "abi case observed detail", i386 compat32-n, legacy and raw32
	jq -r '.[] | select(.machine == "i386" and .config == "compat32-n" and .boot == "i386-compat32-n"
		and (.case == "siocgstamp" or .case == "siocgstampns") and (.abi == "legacy" or .abi == "raw32"))
		| "\(.abi) \(.case) \(.observed) \(.patches) \(.detail)"' "$1/results.json"
}
for run in unpatched patched; do
	dir=${!run}
	got=$(cells "$dir")
	same "stamp fix, $run: the four cells were measured" "$(echo "$got" | grep -c .)" 4
	while read -r abi case observed patches detail; do
		[ -n "$abi" ] || continue
		if [ "$run" = unpatched ]; then
			expect "stamp fix, unpatched ($patches): $abi $case overruns the 8-byte struct (WRONG)" \
				test "$observed" = WRONG -a -n "$(grep -o 'wrote 16 bytes into the 8-byte struct' <<<"$detail")"
		else
			expect "stamp fix, patched ($patches): $abi $case writes the old layout, wrapped (WRAP), and no more" \
				test "$observed" = WRAP -a -z "$(grep -o 'wrote 16 bytes' <<<"$detail")"
		fi
	done <<<"$got"
done
tap_end
