#!/usr/bin/env bash
# host-column-ways.sh - i386's host (libfaketime) columns, dynamic and
# static, both ways a host can run them, side by side on this one (make
# boot-check): natively, as an x86-64
# kernel with IA32 emulation does, and under qemu-i386, as a host whose
# kernel refuses i386 programs does (machines/i386.mk: faketime). Every cell
# must be as expected both ways, and the cells whose outcome the way changes
# must be exactly those the table expects to change (its rows keyed on
# accel).
#
#   tests/run/host-column-ways.sh BUILD_DIR HOST_TOOLS_DIR MACHINE_ENV
set -uo pipefail
build=$(realpath "$1") host=$(realpath "$2") facts=$3
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
tap_scratch

# Both columns: the dynamic programs with libfaketime preloaded, and the
# guest's static clock programs with LD_PRELOAD set (host-tools/boot/boot.mk).
dynamic=$(cd "$build/i386/dynamic" 2>/dev/null && ls | paste -sd,)
static=clock-legacy,clock-time64
if [ -z "$dynamic" ] || [ ! -d "$build/i386/libfaketime" ] || [ ! -x "$build/i386/scenarios/clock-legacy" ]; then
	skip "host column: i386's programs run natively and under qemu-i386" \
		"no i386 host column programs in $build/i386 (dynamic/, libfaketime/, scenarios/clock-legacy): the i386 column was not built here"
	tap_end
	exit
fi
refusal=$(/usr/i686-linux-gnu/lib/ld-linux.so.2 --help 2>&1 >/dev/null) || true
for way in native qemu-i386; do
	if [ "$way" = native ] && [ -n "$refusal" ]; then
		skip "host columns natively" "this host cannot run i386 programs: ${refusal##*: }"
		continue
	fi
	accel=$([ "$way" = native ] && echo native || echo qemu-user)
	for link in dynamic static; do
		name=i386-libfaketime$([ "$link" = static ] && echo -static)-$way
		"$top/host-tools/boot/faketime.sh" out="$work/run/boots/$name" run_id=ways \
			machine_env="$facts" libc=/usr/i686-linux-gnu/lib libfaketime="$build/i386/libfaketime" \
			runner="$host/y2038-run" link=$link scenarios="${!link}" ways="$way" \
			bins="$build/i386/$([ "$link" = static ] && echo scenarios || echo dynamic)" >"$work/$name.log" 2>&1
		expect "host column ($link), $way: accel is recorded as $accel" \
			grep -qx "accel=$accel" "$work/run/boots/$name/meta"
		expect "host column ($link), $way: all its programs ran to their totals" \
			test "$(grep -c '^# # Totals:' "$work/run/boots/$name/tap.log")" = "$(tr , '\n' <<<"${!link}" | grep -c .)"
	done
done
"$host/y2038-collect" "$top/expectations.tsv" "$work/run" >"$work/out" 2>&1
rc=$?
cells=$(jq length "$work/run/results.json" 2>/dev/null || echo 0)
expect "host column: every cell as expected, each way it ran ($cells cells)" test "$rc:$(jq '[.[] | select(.verdict != "match")] | length' "$work/run/results.json")" = 0:0
[ "$rc" = 0 ] || grep MISMATCH "$work/out" | head -10 | sed 's/^/#   /'

if [ -z "$refusal" ]; then
	# The cells whose outcome differs between the two ways, and the cells
	# whose expectation does: the table must foresee every difference.
	differ() {
		jq -r --arg k "$1" 'group_by([.config, .scenario, .case, .phase, .abi])[]
			| select(length == 2 and .[0][$k] != .[1][$k])
			| .[0] | "\(.config) \(.scenario) \(.case) \(.phase) \(.abi)"' "$work/run/results.json" | sort
	}
	observed=$(differ observed) expected=$(differ expected)
	same "host column: the cells qemu-i386 changes are those the table expects it to ($(grep -c . <<<"$observed"))" \
		"$observed" "$expected"
else
	skip "host column: the cells qemu-i386 changes" "no native column to set them beside: this host cannot run i386 programs"
fi
tap_end
