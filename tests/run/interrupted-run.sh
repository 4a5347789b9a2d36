#!/usr/bin/env bash
# interrupted-run.sh - a make run stopped at any point and started again
# loses nothing already built or measured, and leaves no stale lock.
#
#   tests/run/interrupted-run.sh RESULTS_DIR BUILD CACHE
#
# With i386's kernel and initramfs built (make check runs this after its
# real runs), a run of three boots (the matrix, which make run boots first
# by itself, then the short rtc-after one beside trixie's longer demo) is
# stopped three ways once the short boot has finished and the demo's
# guest is running: Ctrl-C (SIGINT to make's process group), kill -9 of
# QEMU, kill -9 of every make of the run. Then the run is resumed with its
# run id (make run RUN_ID=...): the boot that had finished is kept as it
# was, the interrupted one is booted again (or, when only make was killed,
# the guest that went on is kept), every cell is as expected, and no lock
# of the lab's is left held.
set -uo pipefail

results=$(realpath -m "$1") build=$(realpath -m "$2") cache=$(realpath -m "$3")
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$top/host-tools/tap.sh"
rm -rf "$results"
mkdir -p "$results"
vars=(MACHINES=i386 CONFIGS=compat32-y "BOOT_KINDS=matrix rtc-after trixie" FAKETIME=no RESULTS="$results"
	BUILD="$build" CACHE="$cache")
short=i386-compat32-y-rtc-after long=i386-compat32-y-trixie

# until SECONDS COMMAND...: 0 as soon as the command succeeds, 1 if it
# never did within SECONDS.
until_true() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		"${@:2}" && return 0
		sleep 0.1
	done
	return 1
}
guest_running() { pgrep -f "qemu-system-i386 .*$1/boots/$long/" >/dev/null; }
# Every lock file of the lab's can be taken at once: none is left held.
no_lock_held() {
	local f
	for f in "$build/.inputs.lock" "$1"/boots/*/.lock "$cache"/build/*/*.lock "$cache"/src/.lock; do
		[ -e "$f" ] || continue
		flock -n "$f" true || { echo "#   held: $f"; return 1; }
	done
}

for how in ctrl-c kill-qemu kill-make; do
	id=interrupted-$how run=$results/interrupted-$how
	# A job of its own (job control on): its own process group, led by
	# make, which Ctrl-C reaches whole. SIGINT as at a terminal: a shell
	# started in the background without job control (a CI runner, nohup
	# cmd &) ignores it, and passes that on to make, which set -m cannot undo.
	set -m
	env --default-signal=INT make -C "$top" --no-print-directory run RUN_ID="$id" "${vars[@]}" >"$results/$id.log" 2>&1 &
	pid=$!
	set +m
	if ! until_true 300 test -f "$run/boots/$short/meta" || ! until_true 60 guest_running "$run"; then
		not_ok "$how: the run got to its short boot's end with the long one running" "$(tail -5 "$results/$id.log")"
		kill -KILL -- -"$pid" 2>/dev/null
		continue
	fi
	kept=$(stat -c '%Y %s' "$run/boots/$short/meta")
	case $how in
	ctrl-c) kill -INT -- -"$pid" ;;
	kill-qemu) pkill -KILL -f "qemu-system-i386 .*$run/boots/$long/" ;;
	kill-make) pkill -KILL -g "$pid" -x make ;;
	esac
	wait "$pid"
	rc=$?
	expect "$how: the run stops, failing (exit $rc)" [ "$rc" -ne 0 ]
	if [ "$how" = kill-make ]; then
		# the guest it had started goes on; the resumed run waits for it
		expect "$how: its guest goes on without make" guest_running "$run"
	else
		expect "$how: the interrupted boot left no record" test ! -e "$run/boots/$long/meta"
		expect "$how: no lock is left held" no_lock_held "$run"
	fi
	make -C "$top" --no-print-directory run RUN_ID="$id" "${vars[@]}" >"$results/$id-resumed.log" 2>&1
	rc=$?
	expect "$how: the resumed run finishes (exit $rc)" [ "$rc" -eq 0 ]
	expect "$how: the boot that had finished was kept as it was" \
		test "$(stat -c '%Y %s' "$run/boots/$short/meta")" = "$kept"
	expect "$how: the interrupted boot is complete now" grep -qx 'qemu_status=exited' "$run/boots/$long/meta"
	expect "$how: every cell of the run is as expected" \
		grep -qE '^[1-9][0-9]* cells, [0-9]+ as expected, 0 not' "$run/summary.txt"
	expect "$how: no lock is left held afterwards" no_lock_held "$run"
done
tap_end
