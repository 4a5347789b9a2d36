#!/usr/bin/env bash
# lava-server.sh - make lava-server-check's LAVA lab stops what it started
# and nothing else (host-tools/engines/lava-server.sh stop), tested without
# LAVA on processes of this test's own: a service it started is stopped
# with every process of its session and under it, even when its leader is
# gone (a check killed with SIGKILL leaves its setsid'd services running);
# a pid that is another program's since (its start time differs), or that
# was recorded before this machine's last boot, is left alone and named.
# make lava-server-check stops a real one, after a start killed midway.
#
#   tests/unit/lava-server.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

server=$top/host-tools/engines/lava-server.sh
state=$work/state
mkdir -p "$state/logs"
echo 'what the services wrote' >"$state/logs/lava-worker.log"
pids=()
trap '{ kill -KILL "${pids[@]}"; wait; } 2>/dev/null; rm -rf "$work"' EXIT
boot=$(cat /proc/sys/kernel/random/boot_id)
# start_time PID: its start, in clock ticks after boot (/proc/PID/stat's 22nd field)
start_time() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
alive() { [ -e "/proc/$1" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" != Z ]; }

# What a killed check left: gunicorn, a session of its own; the worker's
# session, whose leader died and whose children (lava-run, its QEMU) live
# on; a scheduler pid that another program has now; and a worker recorded
# before the last boot.
setsid sleep 1000 &
gunicorn=$!
setsid bash -c 'sleep 1000 & sleep 1000 & wait' &
leader=$!
pids+=("$gunicorn" "$leader")
for _ in $(seq 50); do [ "$(pgrep -s "$leader" -x sleep | wc -l)" = 2 ] && break; sleep 0.1; done
orphans=$(pgrep -s "$leader" -x sleep | tr '\n' ' ')
sleep 1000 &
other=$!
# shellcheck disable=SC2206
pids+=("$other" $orphans)
printf '%s\n' "gunicorn $gunicorn $(start_time "$gunicorn") $boot" \
	"worker $leader $(start_time "$leader") $boot" \
	"scheduler $other $(($(start_time "$other") - 100)) $boot" \
	"postgres $other $(start_time "$other") 00000000-0000-0000-0000-000000000000" >"$state/processes"
kill -KILL "$leader"
wait "$leader" 2>/dev/null
# What lava-server.sh kept before it recorded what identifies a process.
printf 'pg_port=\ngunicorn=%s\nscheduler=%s\nworker=%s\nurl=http://127.0.0.1:1\n' "$gunicorn" "$other" "$leader" >"$state/server.env"

"$server" stop "$state" >"$work/stop.out" 2>&1
expect "stop: what it started is stopped (gunicorn, pid $gunicorn)" test "$(alive "$gunicorn" && echo alive)" = ""
same "stop: ... and what a service whose leader died left in its session (the worker's, pids $orphans)" \
	"$(for p in $orphans; do alive "$p" && echo "$p"; done)" ""
expect "stop: a pid another program has now is left alone (pid $other)" alive "$other"
same "stop: ... and it says which, and why" \
	"$(grep -E 'left alone|before this machine' "$work/stop.out")" \
	"  LAVA     pid $other is not the scheduler started here any more (another program since): left alone
  LAVA     postgres (pid $other) was started before this machine's last boot: nothing of it is left"
expect "stop: the state is gone, its logs kept" test ! -e "$state" -a -d "$state.logs"
tap_end
