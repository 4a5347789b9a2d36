#!/usr/bin/env bash
# lava-server-check.sh - the matrix through a real LAVA server on this
# machine, as a user with a LAVA lab runs it: make lava-submit, then make
# lava-collect, and the verdicts must equal the lab's own boots of the same
# cells, cell for cell. Then the ways a job fails to complete, for real: a
# job the server cancels, and one whose worker dies under it, each a clear
# verdict for its cells. Jobs with the run's id that it did not submit,
# another user's and its own user's with paths in their metadata, are
# ignored, saying why, and change nothing outside the run, whether the run
# is collected where it was submitted or elsewhere (with the token). Last,
# the server is gone and left nothing behind.
# First, a start killed midway (a check killed with SIGKILL): the next one
# stops what it left, and says so.
#
#   tests/run/lava-server-check.sh STATE RESULTS LAB_RUN "MACHINES" "CONFIGS"
#
# STATE: the server's folder (lava-server.sh start), RESULTS: where the
# LAVA runs go, LAB_RUN: the lab's own run of the same cells (make run
# BOOT_KINDS=matrix). make lava-server-check runs it, between the host's
# snapshot and its comparison (host-untouched.sh).
set -uo pipefail
state=$1 results=$2 lab=$3 machines=$4 configs=$5
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$top/host-tools/tap.sh"
server=$top/host-tools/engines/lava-server.sh
api=$top/host-tools/engines/lava-api.py
make=${MAKE:-make}
run_id=$(basename "$(realpath "$lab")")
lava_run=$run_id-lava faults=$run_id-lava-faults
mkdir -p "$results"
results=$(realpath "$results")

# What LAVA leaves on a machine: its folders, lava-run's scratch folders.
lava_files() {
	find /etc/lava-server /etc/lava-dispatcher /var/lib/lava-server /var/lib/lava /var/log/lava-server \
		/var/log/lava-dispatcher /tmp/lava.events \( -type f -printf '%p %s\n' \) -o -printf '%p\n' 2>/dev/null | sort
}
lava_files >"$results/lava-files-before"
# Debian enables a package's services as it installs it: LAVA's would start
# at the next boot, lava-worker as root (lava-server.sh install disables them).
same "LAVA's install left none of its services enabled to start at boot" \
	"$(find /etc/systemd/system -type l -path '*.wants/lava-*' -printf '%f ' 2>/dev/null)" ""
stopped=0
stop() { [ $stopped -eq 1 ] || "$server" stop "$state"; stopped=1; }
trap stop EXIT

# --- A start killed with SIGKILL once its database and services run
# (the worker recorded): they live on, each in a session of its own, as
# after a killed check.
rm -f "$results/killed-start.processes"
setsid "$server" start "$state" machines="$machines" >"$results/killed-start.log" 2>&1 &
killed=$!
for _ in $(seq 1200); do [ "$(cat "$state/processes" 2>/dev/null | wc -l)" -ge 4 ] && break; sleep 0.1; done
kill -KILL -- "-$killed" 2>/dev/null
wait $killed 2>/dev/null
cp "$state/processes" "$results/killed-start.processes" 2>/dev/null
# alive_of FILE: the recorded processes still running as started ("NAME PID")
alive_of() {
	local name pid start boot now
	while read -r name pid start boot; do
		now=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1,20)
		[ "$boot" != "$(cat /proc/sys/kernel/random/boot_id)" ] || [ "${now#* }" != "$start" ] ||
			[ "${now%% *}" = Z ] || echo "$name $pid"
	done <"$1"
}
left=$(alive_of "$results/killed-start.processes" 2>/dev/null | tr '\n' ' ')
expect "a start killed with SIGKILL midway leaves its services running (${left:-none}: log $results/killed-start.log)" \
	test "$(wc -w <<<"$left")" -eq 8

# The start watched: no secret of it on any command line, which ps shows
# to every user (tests/lib/argv-watch.py, given them once start made them).
rm -f "$results/argv.stop"
"$top/tests/lib/argv-watch.py" "$results/argv.stop" "$state/check-secrets" '(^| )--passwd( |$)' "PASSWORD '" \
	>"$results/argv-during-start.txt" &
watch=$!
if ! "$server" start "$state" machines="$machines" > >(tee "$results/start.log"); then
	touch "$results/argv.stop"
	not_ok "a LAVA server, its PostgreSQL and a worker with a qemu device per machine, on the loopback" \
		"lava-server.sh start failed: logs in $state/logs/"
	tap_end
	exit 1
fi
pass "a LAVA server, its PostgreSQL and a worker with a qemu device per machine ($machines), on the loopback"
same "... the start before it, killed, had its services stopped by this one, which said so" \
	"$(grep -c 'an earlier start left .*: stopping what it left' "$results/start.log") $(alive_of "$results/killed-start.processes" | tr '\n' ' ')" "1 "
# its secrets: the tokens, and the database's password and Django's key
# from the server's settings (in a file only root reads, with the state)
(
	umask 077
	cat "$state/token" "$state/worker-token" >"$state/check-secrets"
	/usr/bin/python3 -c 'import base64, json, sys
s = json.loads(base64.b64decode(open(sys.argv[1]).read().split("=", 1)[1]))
print(s["DATABASES"]["default"]["PASSWORD"]); print(s["SECRET_KEY"])' "$state/settings.env" >>"$state/check-secrets"
)
touch "$results/argv.stop"
wait $watch
same "... no secret of it was ever on a command line (tokens, the database's password, Django's key, --passwd)" \
	"$(cat "$results/argv-during-start.txt")" ""
if command -v setpriv >/dev/null; then
	same "... its state is private: another user lists none of it and reads no token, password or pid" \
		"$(for f in . token worker-token settings.env server.env processes check-secrets logs/django.log; do
			setpriv --reuid=65534 --regid=65534 --clear-groups cat "$state/$f" >/dev/null 2>&1 && echo "$f"
			[ "$f" != . ] || ! setpriv --reuid=65534 --regid=65534 --clear-groups ls "$state" >/dev/null 2>&1 || echo "(its folder, listed)"
		done)" ""
else
	skip "... its state is private: another user lists none of it and reads no token, password or pid" \
		"setpriv (util-linux) is missing: no other user to try as"
fi
# shellcheck disable=SC1091
. "$state/server.env"	# url, pg_port
export LAVA_TOKEN_FILE=$state/token
lava_make() {
	"$make" --no-print-directory -C "$top" RESULTS="$results" LAVA_URL="$url" LAVA_TAGS=y2038-% \
		LAVA_CONSOLE="$state/console" LAVA_POLL=5 "$@"
}

# --- The matrix: submitted, scheduled, collected.
lava_make lava-submit RUN_ID="$lava_run" MACHINES="$machines" CONFIGS="$configs" >"$results/$lava_run.submit.log" 2>&1
cells=""
for m in $machines; do for c in $configs; do cells+=" $m-$c"; done; done
expect "make lava-submit: $(wc -w <<<"$cells") jobs submitted, each fetched its images from here (log: $results/$lava_run.submit.log)" \
	test "$(grep -c '^  SUBMIT ' "$results/$lava_run.submit.log") $(grep -c '^  SERVE    every job has its images' "$results/$lava_run.submit.log")" = "$(wc -w <<<"$cells") 1"
lava_make lava-collect RUN_ID="$lava_run" LAVA_WAIT=1800 >"$results/$lava_run.collect.log" 2>&1
lrun=$results/$lava_run
same "make lava-collect: one boot per job, named as the lab names its boots" \
	"$(cd "$lrun/boots" 2>/dev/null && ls | tr '\n' ' ')" "$(tr ' ' '\n' <<<"$cells" | sed '/^$/d' | sort | tr '\n' ' ')"
expect "make lava-collect: every job completed on the server (no boot record with an error)" \
	test -z "$(grep -l '^error=' "$lrun"/boots/*/meta 2>/dev/null)"
for cell in $cells; do
	b=$lrun/boots/$cell
	# What LAVA should have recorded, from the TAP it read (as lava-check.sh).
	awk -F'\t' 'BEGIN { OFS = "\t" }
		/^# selftests: y2038: / { suite = $0; sub(/^# selftests: y2038: /, "", suite); next }
		/^# (not )?ok [0-9]+ / {
			line = $0; sub(/^# (not )?ok [0-9]+ /, "", line)
			id = line; sub(/ #.*/, "", id); gsub(/ /, "_", id)
			class = line; sub(/^[^#]*# /, "", class); sub(/ .*/, "", class)
			print suite, id, (class == "PASS" ? "pass" : class == "SKIP" ? "skip" : "fail")
		}' "$b/tap.log" 2>/dev/null | sort >"$b/expected-results.tsv"
	n=$(wc -l <"$b/expected-results.tsv")
	expect "$cell: the test results the REST API gives are the cases its TAP shows, with their results ($n)" \
		diff "$b/expected-results.tsv" <(sort "$b/lava-results.tsv")
	expect "$cell: ... and more than a handful ($n)" [ "$n" -gt 100 ]
	expect "$cell: its kernel console came back too (LAVA_CONSOLE, a folder of this machine)" \
		grep -q 'Linux version' "$b/console.log"
done
# The verdicts, cell for cell, against the lab's own boots of the same
# cells: the details carry timings, so the outcome and verdict are compared.
verdicts() {
	jq -r --arg cells "$cells" '($cells | split(" ")) as $want | .[] | select(.boot as $b | $want | index($b))
		| [.boot, .scenario, .case, .abi, .phase, .observed, .verdict] | @tsv' "$1/results.json" 2>/dev/null | sort
}
verdicts "$lab" >"$results/lab-cells.tsv"
verdicts "$lrun" >"$results/lava-cells.tsv"
diff "$results/lab-cells.tsv" "$results/lava-cells.tsv" >"$results/lava-server-diff.txt"
n=$(wc -l <"$results/lab-cells.tsv")
expect "the LAVA server's verdicts equal the lab's own boots, cell for cell ($n cells; diff: $results/lava-server-diff.txt)" \
	test "$n" -gt 0 -a ! -s "$results/lava-server-diff.txt"
expect "... every one of them as expected" \
	test "$(jq '[.[] | select(.verdict != "match")] | length' "$lrun/results.json")" = 0
expect "... the same report: $lrun/report.html" test -s "$lrun/report.html"

# --- A job the server cancels, and one whose worker dies under it.
frun=$results/$faults
first=${machines%% *} last=${machines##* }
cancel_cell=$last-${configs%% *} dead_cell=$first-${configs%% *}
# Cancel it as soon as it is submitted, while make lava-submit serves its images.
lava_make lava-submit RUN_ID="$faults" MACHINES="$last" CONFIGS="${configs%% *}" >"$results/$faults.submit.log" 2>&1 &
submit=$!
for _ in $(seq 600); do [ -s "$frun/lava/jobs.tsv" ] && break; sleep 0.2; done
canceled=$(cut -f2 "$frun/lava/jobs.tsv" 2>/dev/null | head -1)
[ -z "$canceled" ] || "$api" cancel "$url" "$canceled"
wait $submit
for _ in $(seq 60); do [[ "$("$api" state "$url" "$canceled" 2>/dev/null)" == "Finished Canceled" ]] && break; sleep 2; done
same "a job canceled through the API: the server ends it Canceled (job ${canceled:-none})" \
	"$("$api" state "$url" "${canceled:-0}" 2>&1)" "Finished Canceled"
# The other runs; its worker dies with it: the worker, lava-run and QEMU
# killed at once, as a machine that loses power.
lava_make lava-submit RUN_ID="$faults" MACHINES="$first" CONFIGS="${configs%% *}" >>"$results/$faults.submit.log" 2>&1
dead=$(sed -n 2p "$frun/lava/jobs.tsv" | cut -f2)
for _ in $(seq 60); do [[ "$("$api" state "$url" "$dead" 2>/dev/null)" == Running* ]] && break; sleep 1; done
sleep 5
qemus() { pgrep -f "$state/console/$faults-$dead_cell.log" | tr '\n' ' '; }
before=$(qemus | xargs)
"$server" kill-worker "$state"
sleep 1
expect "a job whose worker dies: the worker, lava-run and QEMU killed while it ran (job ${dead:-none}, QEMU ${before:-none} then ${qemus:-none})" \
	test -n "$dead" -a -n "$before" -a -z "$(qemus)"
# Jobs of run $faults it did not submit: another user's (a boot of the
# lab's name, /etc/shadow its console), and its own user's from elsewhere
# whose metadata names, for their boots, .. four times then etc/cron.d,
# .., a canary's path through /, or /etc/shadow for its console. Canceled at once:
# they need not run to be collected.
canary=$results/canary
rm -rf "$canary" && mkdir -p "$canary" && echo keep >"$canary/file"
# what they aim at: the canary, the run's parent, /etc/cron.d, and where
# .. four times then etc/cron.d leads from the run's boots
aimed=("$canary" "$(realpath -m "$frun/boots/../../../../etc/cron.d")" /etc/cron.d "$lrun")
fingerprint() { find "${aimed[@]}" -printf '%p %s %T@\n' 2>/dev/null | sort | sha256sum; }
before_hostile=$(fingerprint)
# hostile_job TOKEN_FILE BOOT CONSOLE: the job of $cancel_cell as submitted, its
# metadata's boot and console replaced, submitted and canceled; its id
hostile_job() {
	local f id
	f=$(mktemp "$results/hostile.XXXXXX.yaml")
	sed -e "s|^  y2038.boot: .*|  y2038.boot: '$2'|" -e "s|^  y2038.console: .*|  y2038.console: '$3'|" \
		"$frun/lava/$cancel_cell/submitted.yaml" >"$f"
	id=$(LAVA_TOKEN_FILE=$1 "$api" submit "$url" "$f") || return
	LAVA_TOKEN_FILE=$1 "$api" cancel "$url" "$id" >/dev/null
	echo "$id"
}
hostile="$(hostile_job "$state/other-token" "$dead_cell" /etc/shadow) $(hostile_job "$state/token" ../../../../etc/cron.d /dev/null)"
hostile+=" $(hostile_job "$state/token" .. /dev/null) $(hostile_job "$state/token" "../../../../../../../../../../../..$canary" /dev/null)"
hostile+=" $(hostile_job "$state/token" "$cancel_cell" /etc/shadow)"
read -r h_other h_crond h_up h_canary h_shadow <<<"$hostile"
expect "five jobs of run $faults that it did not submit, on the server: $hostile" test "$(wc -w <<<"$hostile")" = 5
lava_make lava-collect RUN_ID="$faults" LAVA_WAIT=600 LAVA_OFFLINE_GRACE=0 >"$results/$faults.collect.log" 2>&1
expect "make lava-collect: a run with jobs that did not complete exits non-zero (log: $results/$faults.collect.log)" \
	test $? -ne 0
error_of() { sed -n 's/^error=//p' "$frun/boots/$1/meta" 2>/dev/null; }
same "the canceled job's boot record says so" "$(error_of "$cancel_cell")" "LAVA job $canceled was canceled by the server"
expect "the dead worker's job's boot record says so: $(error_of "$dead_cell")" \
	grep -qE "^LAVA job $dead: its worker y2038-lab-worker went offline; failed by lava-collect after [0-9]+ s$" <<<"$(error_of "$dead_cell")"
# Every cell of theirs is what the TAP it sent showed, or ERROR with that
# reason; a reported cell keeps its verdict.
for cell in $cancel_cell $dead_cell; do
	why=$(error_of "$cell")
	total=$(jq --arg b "$cell" '[.[] | select(.boot == $b)] | length' "$frun/results.json")
	errors=$(jq --arg b "$cell" --arg why "$why" '[.[] | select(.boot == $b and .observed == "ERROR" and .detail == $why)] | length' "$frun/results.json")
	other=$(jq --arg b "$cell" --arg why "$why" '[.[] | select(.boot == $b and .detail != $why and .verdict != "match")] | length' "$frun/results.json")
	expect "$cell: $errors of its $total cells ERROR with that reason, the other $((total - errors)) as its TAP showed them, as expected" \
		test "$errors" -gt 0 -a "$other" -eq 0
done
expect "the report names them: $frun/report.md" grep -q "went offline" "$frun/report.md"
"$top/host-tools/engines/kcidb.sh" "$frun" >/dev/null
expect "KCIDB: those cells are tests of status ERROR, with the reason as their comment" \
	test "$(jq --arg why "$(error_of "$dead_cell")" '[.tests[] | select(.status == "ERROR" and .comment == $why)] | length' "$frun/kcidb.json")" -gt 0

# --- The jobs it did not submit: ignored, each saying why; nothing
# outside the run changed, and /etc/shadow was copied nowhere.
shadow=$(sha256sum </etc/shadow)
shadow_copies() { find "$results" -type f -exec sha256sum {} + 2>/dev/null | grep -c "^${shadow%% *} "; }
ignored=$(grep -oE 'job [0-9]+: ignored: .*' "$results/$faults.collect.log")
sed 's/^/# /' <<<"$ignored"
same "make lava-collect: each job of its run's id that it did not submit is ignored, saying why" \
	"$ignored" "$(for j in $hostile; do
		echo "job $j: ignored: run $faults did not submit it (it is not in $frun/lava/jobs.tsv; its submitter: $([ "$j" = "$h_other" ] && echo y2038-lab-other || echo y2038-lab))"
	done)"
same "... the run has its own two boots and nothing else (no boots/.. import: no $frun/meta)" \
	"$(cd "$frun/boots" && ls | tr '\n' ' ')$(ls "$frun/meta" 2>/dev/null)" "$(printf '%s\n' "$cancel_cell" "$dead_cell" | sort | tr '\n' ' ')"
same "... nothing outside the run changed (the canary, /etc/cron.d, where ../../../../etc/cron.d leads, the other run)" \
	"$(fingerprint)" "$before_hostile"
same "... and /etc/shadow was copied nowhere in the results" "$(shadow_copies)" 0
# Collected elsewhere (a fresh results folder: no jobs.tsv), with the token.
away=$results/away
lava_make lava-collect RESULTS="$away" RUN_ID="$faults" LAVA_WAIT=30 LAVA_CANCEL_GRACE=5 LAVA_OFFLINE_GRACE=0 \
	>"$results/$faults.away.log" 2>&1
ignored=$(grep -oE 'job [0-9]+: ignored: .*' "$results/$faults.away.log")
sed 's/^/# /' <<<"$ignored"
same "collected elsewhere: the token's user's jobs whose boots are the lab's names, and no other" \
	"$(cd "$away/$faults/boots" 2>/dev/null && ls | tr '\n' ' ')" \
	"$(printf '%s\n' "$cancel_cell" "$cancel_cell-lava$h_shadow" "$dead_cell" | sort | tr '\n' ' ')"
same "collected elsewhere: ... the others ignored, each saying why" "$ignored" \
	"job $h_other: ignored: y2038-lab-other submitted it, not y2038-lab (the token's user)
job $h_crond: ignored: its boot, '../../../../etc/cron.d', is none of the lab's
job $h_up: ignored: its boot, '..', is none of the lab's
job $h_canary: ignored: its boot, '../../../../../../../../../../../..$canary', is none of the lab's"
same "collected elsewhere: ... nothing outside the run changed, no console fetched, /etc/shadow copied nowhere" \
	"$(fingerprint) $(ls "$away/$faults/boots/$cancel_cell-lava$h_shadow/console.log" 2>/dev/null) $(shadow_copies)" "$before_hostile  0"

# --- Gone: every process it started, the database, its files.
pids=$(awk '{ print $2 }' "$state/processes" | tr '\n' ' ')
kids=""
for p in $pids; do kids+=" $(ps -o pid= --ppid "$p" 2>/dev/null | tr '\n' ' ')"; done
stop
alive=""
# alive: a zombie has ended (kill -0 still finds it until init reaps it,
# which a container's init may do late: run of 22:40, postgres and gunicorn)
for p in $pids $kids; do
	s=$(ps -o stat= -p "$p" 2>/dev/null) && [ "${s#Z}" = "$s" ] && alive+=" $p"
done
same "stopped: no process it started is left (database, server, scheduler, worker and theirs)" "$alive" ""
expect "stopped: nothing answers on the server's and the database's ports any more" \
	/usr/bin/python3 -c 'import socket, sys
for p in sys.argv[1:]:
    try: socket.create_connection(("127.0.0.1", int(p)), 1).close(); sys.exit(1)
    except OSError: pass' "${url##*:}" "$pg_port"
lava_files >"$results/lava-files-after"
expect "stopped: LAVA's folders on this machine are as they were before (/etc/lava-server, /var/lib/lava*, ...)" \
	diff "$results/lava-files-before" "$results/lava-files-after"
expect "stopped: its own folder is gone (logs kept: $state.logs/)" test ! -e "$state"
tap_end
