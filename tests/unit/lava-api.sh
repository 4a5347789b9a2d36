#!/usr/bin/env bash
# lava-api.sh - make lava-submit's and make lava-collect's side of a LAVA
# server (host-tools/engines/lava-api.py, lava.sh submit and collect)
# against a fake one (tests/lib/fake-lava.py: canned REST answers on the
# loopback), so that what a job's every ending gives is tested without
# LAVA: a job that completed is the boot its log shows, cell for cell; one
# the server canceled, one that was incomplete, one whose worker went
# offline, one that never finished and one the server does not know each
# make their cells ERROR saying so; a submission the server refuses fails.
# And what a server says is data: jobs of the run's id that the run did not
# submit, or whose metadata names a path for their boot or their console,
# change nothing outside the run and are ignored, saying why. The token
# goes to LAVA_URL's host only, never on a command line. A worker checks
# the images it fetches (sha256sum), which are served from here for their
# files alone, until a deadline of the server's own.
# make lava-server-check does the same against a real LAVA server.
#
#   tests/unit/lava-api.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

api=$top/host-tools/engines/lava-api.py
lava=$top/host-tools/engines/lava.sh
machine_env=$build/machines/i386.env
fixture=$fixtures/boot-i386-compat32-y
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$work"' EXIT
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
	skip "lava-api: every check" "Debian's python3-yaml is not installed (lava-log.py reads LAVA's logs with it)"
	tap_end
	exit
fi

# Jobs as the lab writes them (lava.sh job), for the fixture's kernel: its
# boot record's facts, the same patches so the same rows judge it.
printf 'KERNEL_IMAGE=%s\nKERNEL_SOURCE=linux-source-6.1\nKERNEL_VERSION=6.1.192-3\nKERNEL_PATCHES=%q\n' \
	"$work/bzImage" "$(sed -n 's/^patches=//p' "$fixture/meta")" >"$work/kernel.env"
printf 'a kernel' >"$work/bzImage"
printf 'an initramfs' >"$work/initramfs.cpio"
run=$work/run
# job BOOT CONFIG: the definition of the run's job for BOOT
job() {
	"$lava" job out="$run/lava/$1" machine_env="$machine_env" config="$2" kernel_env="$work/kernel.env" \
		initrd="$work/initramfs.cpio" scenarios=clock-legacy,clock-time64 rtc_base=2038-01-19T03:13:55 \
		guest_timeout=60 boot_timeout=300 images=@IMAGES@/"$1" run_id=R1 boot="$1" tags=y2038-i386 >/dev/null
	sed "s|@IMAGES@|http://127.0.0.1:1|" "$run/lava/$1/job.yaml" >"$run/lava/$1/submitted.yaml"
	cat "$run/lava/$1/submitted.yaml"
}
job i386-compat32-y compat32-y >"$work/job.out" 2>"$work/job.err"
same "lava.sh job: a job written says nothing on stderr (a boot that is no kind's has no disks=)" \
	"$(cat "$work/job.err")" ""
expect "lava.sh job: a job's metadata carries the boot's record (run id, boot, machine, config, scenarios)" \
	grep -qx "  y2038.run_id: 'R1'" "$work/job.out"
expect "lava.sh job: ... its context the machine's board and CPU, the lab's QEMU options and RTC" \
	test "$(grep -E '^  (machine|cpu|memory):' "$run/lava/i386-compat32-y/job.yaml" | tr -d "'\n")" = "  machine: pc  cpu: qemu32  memory: 128"
expect "lava.sh job: ... its images at images=, named as the files are" \
	grep -q '^        url: @IMAGES@/i386-compat32-y/bzImage$' "$run/lava/i386-compat32-y/job.yaml"
same "lava.sh job: ... each with its SHA-256, which the worker checks" \
	"$(grep -A1 '^        url: ' "$run/lava/i386-compat32-y/job.yaml" | sed -n 's/^        sha256sum: //p')" \
	"$(sha256sum "$work/bzImage" "$work/initramfs.cpio" | cut -d' ' -f1)"

# The fixture's TAP as a LAVA server's log (output.yaml: "- {dt, lvl, msg}"
# per line, the serial connection's lines as "target"), the job's result
# last; the first LINES lines only, and no result, for a job cut short.
as_log() {
	/usr/bin/python3 - "$fixture/tap.log" "${1:-0}" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
n = int(sys.argv[2]) or len(lines)
for l in lines[:n]:
    print("- " + json.dumps({"dt": "2026-12-06T10:00:01.000000", "lvl": "target", "msg": l}))
print("- " + json.dumps({"dt": "2026-12-06T10:00:02.000000", "lvl": "results",
      "msg": {"definition": "clock-legacy", "case": "legacy_time_before", "result": "pass",
              "extra": {"test_case_id": "legacy time before"}}}))
if n == len(lines):
    print("- " + json.dumps({"dt": "2026-12-06T10:00:03.000000", "lvl": "results",
          "msg": {"definition": "lava", "case": "job", "result": "pass"}}))
EOF
}
# A job of run R1 as someone may have put it on the server: the lab's job
# for i386-compat32-y, its metadata's boot and console replaced.
# hostile BOOT CONSOLE
hostile() {
	sed -e "s|^  y2038.boot: .*|  y2038.boot: '$1'|" -e "s|^  y2038.console: .*|  y2038.console: '$2'|" \
		"$run/lava/i386-compat32-y/submitted.yaml"
}
# What they aim at outside the run: a folder beside it, and one reached
# from / (as /etc/cron.d would be), each with a file in it.
mkdir -p "$work/canary" "$work/canary-deep"
echo keep >"$work/canary/file"
echo keep >"$work/canary-deep/file"
outside() { find "$work/canary" "$work/canary-deep" -printf '%p %s\n' | sort; }
outside_before=$(outside)
# The world: job 1 complete, 2 canceled by the server before it ran, 3
# incomplete after 12 lines of the guest's TAP (LAVA timed out: the guest
# hung), 4 running on a worker gone offline, 5 never scheduled, 6
# incomplete before the guest ran (its kernel could not be fetched); 99
# submitted from here and unknown to the server. Then jobs with run R1's
# id that R1 did not submit: 20 by another user, a boot of the lab's name
# and /etc/shadow as its console; 21, 22 and 23 by the same user as R1's,
# their boots paths out of the run ($run/boots/../../canary, .., and
# enough .. to reach / then the other canary); 25 by the same user, /etc/shadow as its
# console. And 24, submitted by R1, whose definition on the server now
# names /etc/shadow as its console (a man in the middle, or the server).
/usr/bin/python3 - "$work/world.json" \
	"$(job i386-compat32-y compat32-y)" "$(job i386-compat32-n compat32-n)" \
	"$(job i386-compat32-y-hung compat32-y)" "$(job i386-compat32-n-offline compat32-n)" \
	"$(job i386-compat32-y-queued compat32-y)" "$(job i386-compat32-n-nokernel compat32-n)" \
	"$(as_log)" "$(as_log 12)" \
	"$(hostile i386-compat32-y /etc/shadow)" "$(hostile ../../canary /dev/null)" "$(hostile .. /dev/null)" \
	"$(hostile "../../../../../../../../../../../../../../..$work/canary-deep" /dev/null)" \
	"$(job i386-compat32-n-mitm compat32-n | sed "s|^  y2038.console: .*|  y2038.console: '/etc/shadow'|")" \
	"$(hostile i386-compat32-y /etc/shadow)" <<'EOF'
import json, sys
out, d1, d2, d3, d4, d5, d6, log, cut, d20, d21, d22, d23, d24, d25 = sys.argv[1:]
tests = [{"suite": "clock-legacy", "name": n, "result": "pass"} for n in ("legacy_time_before", "legacy_clock_gettime_before")]
tests.append({"suite": "clock-time64", "name": "time64_time_after", "result": "pass"})
json.dump({
    "jobs": {
        "1": {"state": "Finished", "health": "Complete", "definition": d1, "log": log + "\n",
              "tests": tests, "actual_device": "qemu-01"},
        "2": {"state": "Finished", "health": "Canceled", "definition": d2},
        "3": {"state": "Finished", "health": "Incomplete", "definition": d3, "log": cut + "\n",
              "failure_comment": "lava-test-monitor timed out after 300 seconds", "actual_device": "qemu-01"},
        "4": {"state": "Running", "health": "Unknown", "definition": d4, "actual_device": "qemu-02"},
        "5": {"state": "Submitted", "health": "Unknown", "definition": d5},
        "6": {"state": "Finished", "health": "Incomplete", "definition": d6, "actual_device": "qemu-01",
              "log": '- {"dt": "2026-12-06T10:00:00.1", "lvl": "error", "msg": "404 Not Found"}\n',
              "failure_comment": "Unable to fetch http://192.0.2.1/bzImage: 404 Not Found"},
        "20": {"state": "Finished", "health": "Complete", "definition": d20, "log": log + "\n",
               "actual_device": "qemu-01", "submitter": "someone-else"},
        "21": {"state": "Finished", "health": "Canceled", "definition": d21},
        "22": {"state": "Finished", "health": "Canceled", "definition": d22},
        "23": {"state": "Finished", "health": "Canceled", "definition": d23},
        "24": {"state": "Finished", "health": "Complete", "definition": d24, "log": log + "\n",
               "actual_device": "qemu-01"},
        "25": {"state": "Finished", "health": "Complete", "definition": d25, "log": log + "\n",
               "actual_device": "qemu-01"},
    },
    "devices": {"qemu-01": "w-alive", "qemu-02": "w-dead"},
    "workers": {"w-alive": "Online", "w-dead": "Offline"},
    "tokens": {"secret": "y2038-lab", "other-secret": "someone-else"},
}, open(out, "w"))
EOF
job i386-compat32-y-lost compat32-y >/dev/null
# What lava.sh submit recorded of run R1: each cell's job id.
printf '%s\t%s\n' i386-compat32-y 1 i386-compat32-n 2 i386-compat32-y-hung 3 i386-compat32-n-offline 4 \
	i386-compat32-y-queued 5 i386-compat32-n-nokernel 6 i386-compat32-n-mitm 24 i386-compat32-y-lost 99 >"$run/lava/jobs.tsv"
rm -rf "$run/lava/i386-compat32-y-hung" "$run/lava/i386-compat32-n-offline" "$run/lava/i386-compat32-y-queued" \
	"$run/lava/i386-compat32-n-nokernel"

# A token of the lab's user that nothing else on this machine spells.
token=y2038-unit-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
jq --arg t "$token" '.tokens[$t] = "y2038-lab"' "$work/world.json" >"$work/world.tmp" && mv "$work/world.tmp" "$work/world.json"
printf '%s\n' "$token" >"$work/token"

# start_fake WORLD [ADDRESS NAME]: a fake server (NAME: its files' names,
# NAME.port and NAME.log, default requests); sets $url
start_fake() {
	local name=${3:-requests}
	rm -f "$work/$name.port"
	/usr/bin/python3 "$top/tests/lib/fake-lava.py" "$1" "$work/$name.port" "$work/$name.log" ${2:+"$2"} &
	pids+=($!)
	for _ in $(seq 50); do [ -s "$work/$name.port" ] || sleep 0.1; done
	url=http://${2:-127.0.0.1}:$(cat "$work/$name.port")
}
start_fake "$work/world.json"

# --- collect: each job's ending, as the collector sees it
LAVA_TOKEN=secret "$lava" collect "$run" url="$url" run_id=R1 wait=3 offline_grace=0 cancel_grace=2 poll=0.5 \
	>"$work/collect.out" 2>&1
expect "collect: every job the run submitted (lava/jobs.tsv), and no other" \
	test "$(ls "$run/lava/jobs" | sort -n | tr '\n' ' ')" = "1 2 3 4 5 6 24 99 "
same "collect: the jobs of the run's id that it did not submit are ignored, each saying why" \
	"$(grep -oE 'job (20|21|22|23|25): ignored: .*' "$work/collect.out")" \
	"$(for j in 20 21 22 23 25; do
		echo "job $j: ignored: run R1 did not submit it (it is not in $run/lava/jobs.tsv; its submitter: $([ $j = 20 ] && echo someone-else || echo y2038-lab))"
	done)"
# what a collect may have written: the run, and nothing outside it
shadow=$(sha256sum </etc/shadow)
copies_of_shadow() { find "$@" -type f -exec sha256sum {} + 2>/dev/null | grep -c "^${shadow%% *} "; }
same "collect: ... nothing outside the run changed (the folders their boots named are as they were)" \
	"$(outside)" "$outside_before"
same "collect: ... the run keeps every boot of its own, and has no other" \
	"$(ls "$run/boots" 2>/dev/null | tr '\n' ' ')" \
	"i386-compat32-n i386-compat32-n-mitm i386-compat32-n-nokernel i386-compat32-n-offline i386-compat32-y i386-compat32-y-hung i386-compat32-y-lost i386-compat32-y-queued "
same "collect: ... and the console a server's definition names is never read (no copy of /etc/shadow in the run)" \
	"$(copies_of_shadow "$run")" 0
"$host/y2038-collect" "$top/expectations.tsv" "$run" >"$work/verdicts.out" 2>&1
# the boot's record's error, and the cells of a boot: observed and detail
error_of() { sed -n 's/^error=//p' "$run/boots/$1/meta"; }
cells_of() { jq -r --arg b "$1" '.[] | select(.boot == $b) | "\(.observed): \(.detail)"' "$run/results.json" | sort | uniq -c | sed 's/^ *//'; }
ncells=$(jq '[.[] | select(.boot == "i386-compat32-y")] | length' "$run/results.json")

# The completed job is the fixture's boot, verdict for verdict.
mkdir -p "$work/direct/boots"
cp -r "$fixture" "$work/direct/boots/i386-compat32-y"
"$host/y2038-collect" "$top/expectations.tsv" "$work/direct" >/dev/null 2>&1
verdicts() { jq -r '.[] | select(.boot == "i386-compat32-y") | [.scenario, .case, .abi, .phase, .observed, .verdict] | @tsv' "$1/results.json" | sort; }
expect "collect: a complete job's boot has the verdicts of the boot its log shows ($ncells cells)" \
	diff <(verdicts "$work/direct") <(verdicts "$run")
expect "collect: ... its boot record says where it ran, and no error" \
	test "$(grep -c '^error=' "$run/boots/i386-compat32-y/meta") $(grep -o 'LAVA job 1 on qemu-01' "$run/boots/i386-compat32-y/meta")" = "0 LAVA job 1 on qemu-01"
expect "collect: ... the test results the API gives (two pages), beside the cases its log recorded" \
	test "$(cut -f2 "$run/boots/i386-compat32-y/lava-results.tsv" | tr '\n' ' ')" = "legacy_time_before legacy_clock_gettime_before time64_time_after "
same "collect: a job the server canceled: every cell ERROR, saying so" \
	"$(cells_of i386-compat32-n)" "$ncells ERROR: LAVA job 2 was canceled by the server"
expect "collect: a job incomplete after its guest began: what its TAP shows is kept ..." \
	test "$(jq -r '.[] | select(.boot == "i386-compat32-y-hung" and .abi == "legacy" and .case == "time" and .phase == "before") | .observed' "$run/results.json")" = PASS
expect "collect: ... the rest the guest's own ending, as a lab's boot records it (LAVA timed out: TIMEOUT), no error" \
	test "$(cells_of i386-compat32-y-hung | grep -c ': guest did not end within 300 s$') $(grep -c '^error=' "$run/boots/i386-compat32-y-hung/meta")" = "1 0"
expect "collect: ... LAVA's reason kept in its boot record" \
	grep -q "LAVA job 3 was incomplete: lava-test-monitor timed out after 300 seconds$" "$run/boots/i386-compat32-y-hung/meta"
same "collect: a job incomplete before its guest ran: every cell ERROR with LAVA's reason" \
	"$(cells_of i386-compat32-n-nokernel)" "$ncells ERROR: LAVA job 6 was incomplete: Unable to fetch http://192.0.2.1/bzImage: 404 Not Found"
expect "collect: a job whose worker went offline: every cell ERROR, saying so" \
	grep -qE "^$ncells ERROR: LAVA job 4: its worker w-dead went offline; failed by lava-collect after [0-9]+ s$" <(cells_of i386-compat32-n-offline)
same "collect: a job never scheduled: canceled at the deadline, every cell ERROR, saying so" \
	"$(cells_of i386-compat32-y-queued)" "$ncells ERROR: LAVA job 5 did not finish within 3 s (it was Submitted): canceled by lava-collect"
expect "collect: a job the server does not know: its cells (from the job as submitted) ERROR, saying so" \
	grep -qE "^$ncells ERROR: LAVA job 99: the server does not know it \(HTTP 404" <(cells_of i386-compat32-y-lost)
same "collect: it canceled what it gave up, and nothing else, with the token" \
	"$(grep -o 'GET /api/v0.2/jobs/[0-9]*/cancel/ Token secret' "$work/requests.log" | tr '\n' ' ')" \
	"GET /api/v0.2/jobs/4/cancel/ Token secret GET /api/v0.2/jobs/5/cancel/ Token secret "
expect "collect: the collector counts those cells as not as expected (exit 1)" \
	grep -q "not$" <(tail -1 "$work/verdicts.out")

# --- collect elsewhere: a run collected where it was not submitted (no
# lava/jobs.tsv) is the jobs of the token's user whose boots are the lab's
# own names (boots=, make's), their consoles not fetched: nothing the
# server says is a path here.
away=$work/away
"$lava" collect "$away" url="$url" run_id=R1 wait=3 poll=0.5 boots="i386-compat32-y i386-compat32-n" \
	>"$work/away-anonymous.out" 2>&1
expect "collect elsewhere: without a token it takes no job, and says why" \
	test "$?:$(ls "$away/boots" 2>/dev/null | wc -l):$(grep -c 'without a token .* none is collected' "$work/away-anonymous.out")" = "1:0:1"
LAVA_TOKEN=secret "$lava" collect "$away" url="$url" run_id=R1 wait=3 offline_grace=0 cancel_grace=2 poll=0.5 \
	boots="i386-compat32-y i386-compat32-n" >"$work/away.out" 2>&1
same "collect elsewhere: the jobs of the token's user whose boots are the lab's, and no other" \
	"$(ls "$away/boots" 2>/dev/null | tr '\n' ' ')" "i386-compat32-n i386-compat32-y i386-compat32-y-lava25 "
same "collect elsewhere: ... the others ignored, each saying why" \
	"$(grep -oE 'job [0-9]+: ignored: .*' "$work/away.out")" \
	"$(for j in 3:i386-compat32-y-hung 4:i386-compat32-n-offline 5:i386-compat32-y-queued 6:i386-compat32-n-nokernel \
		20: 21:../../canary 22:.. 23:../../../../../../../../../../../../../../..$work/canary-deep 24:i386-compat32-n-mitm; do
		if [ "${j#*:}" ]; then
			echo "job ${j%%:*}: ignored: its boot, '${j#*:}', is none of the lab's"
		else
			echo "job ${j%%:*}: ignored: someone-else submitted it, not y2038-lab (the token's user)"
		fi
	done)"
same "collect elsewhere: ... nothing outside the run changed" "$(outside)" "$outside_before"
same "collect elsewhere: ... no console is fetched from where a server's definition says (no copy of /etc/shadow)" \
	"$(copies_of_shadow "$away") $(ls "$away/boots/i386-compat32-y-lava25/console.log" 2>/dev/null)" "0 "

# A server whose job list ignores the search (an older one, or one in the
# middle) lists the token's user's jobs of every run: a job's own metadata
# decides its run, not the server's search.
r9=$(sed "s/^  y2038.run_id: .*/  y2038.run_id: 'R9'/" "$run/lava/i386-compat32-y/submitted.yaml")
jq -n --arg r1 "$(cat "$run/lava/i386-compat32-y/submitted.yaml")" --arg r9 "$r9" --arg log "$(as_log)" \
	'{jobs: {"41": {state: "Finished", health: "Complete", definition: $r9, log: $log},
	         "42": {state: "Finished", health: "Complete", definition: $r1, log: $log}},
	  devices: {}, workers: {}, unfiltered: true}' >"$work/unfiltered.json"
world_url=$url
start_fake "$work/unfiltered.json" 127.0.0.1 unfiltered
unfiltered=$url url=$world_url
LAVA_TOKEN=secret "$lava" collect "$work/unfiltered" url="$unfiltered" run_id=R1 wait=3 poll=0.5 \
	boots="i386-compat32-y" >"$work/unfiltered.out" 2>&1
same "collect elsewhere, a server ignoring the search: the run's job only, the other run's ignored, saying why" \
	"$(ls "$work/unfiltered/lava/jobs" 2>/dev/null | tr '\n' ' ')| $(grep -oE 'job [0-9]+: ignored: .*' "$work/unfiltered.out")" \
	"42 | job 41: ignored: its run id, 'R9', is not 'R1'"

# --- submit: the server's answer, refused or not
job i386-compat32-y compat32-y >/dev/null
id=$(LAVA_TOKEN=secret "$api" submit "$url" "$run/lava/i386-compat32-y/submitted.yaml" 2>"$work/submit.err")
same "submit: an accepted job prints its id (the next after the last, 25)" "$id" 26
sed -i 's/^priority: medium$/reject-me: 1\n&/' "$run/lava/i386-compat32-y/submitted.yaml"
LAVA_TOKEN=secret "$api" submit "$url" "$run/lava/i386-compat32-y/submitted.yaml" >"$work/submit.out" 2>"$work/submit.err"
expect "submit: a job the server refuses fails with the server's reason (lavacli would exit 0)" \
	test "$?: $(grep -c 'HTTP 400 .*reject-me is no key' "$work/submit.err")" = "1: 1"
LAVA_TOKEN=wrong "$api" submit "$url" "$run/lava/i386-compat32-y/job.yaml" >/dev/null 2>"$work/submit.err"
expect "submit: ... as does a wrong token (HTTP 401)" grep -q 'HTTP 401' "$work/submit.err"

# --- The token: to LAVA_URL's host only. A server whose job list's next
# page, or whose answer to a cancel, points at another host (127.0.0.2,
# another fake that logs what it is sent) has it followed without the token.
home=$url
echo '{"jobs": {}, "devices": {}, "workers": {}}' >"$work/elsewhere.json"
start_fake "$work/elsewhere.json" 127.0.0.2 elsewhere
elsewhere=$url
definition=$(sed "s/^  y2038.run_id: .*/  y2038.run_id: 'R2'/" "$run/lava/i386-compat32-n/submitted.yaml")
jq -n --arg d "$definition" --arg next "$elsewhere/api/v0.2/jobs/?offset=100" --arg to "$elsewhere/api/v0.2/jobs/31/cancel/" \
	'{jobs: {"31": {state: "Running", health: "Unknown", definition: $d}}, devices: {}, workers: {},
	  next: $next, redirects: {"/api/v0.2/jobs/31/cancel/": $to}}' >"$work/leaky.json"
start_fake "$work/leaky.json" 127.0.0.1 leaky
leaky=$url url=$home
LAVA_TOKEN=$token "$api" cancel "$leaky" 31 >"$work/leak.out" 2>&1
expect "token: a redirect to another host is not followed with it, and says so" \
	test "$?:$(grep -c 'redirected to http://127.0.0.2:.*another host than 127.0.0.1.*not followed with the token' "$work/leak.out")" = "1:1"
LAVA_TOKEN=$token "$api" collect "$leaky" R2 "$work/leak-jobs" wait=3 poll=0.5 >"$work/leak.out" 2>&1
expect "token: ... nor a job list's next page on another host" \
	test "$?:$(grep -c 'next page is on another host.*not asked with the token' "$work/leak.out")" = "1:1"
same "token: ... the other host was never sent it" "$(cat "$work/elsewhere.log" 2>/dev/null | grep -c "$token")" 0
"$lava" collect "$work/plain" url=http://0.0.0.0:1 run_id=R3 wait=3 poll=0.5 >"$work/plain.out" 2>&1
expect "token: a plain http:// LAVA_URL off this machine is warned of (the token crosses the network in clear)" \
	grep -q '^  WARN     http://0.0.0.0:1 is plain HTTP: the token and every answer' "$work/plain.out"
expect "token: ... and one on the loopback is not" test "$(grep -c 'WARN' "$work/collect.out")" = 0
# make: the token in a file (LAVA_TOKEN_FILE=), never on make's command
# line; no process's command line ever holds it (watched all along).
make -C "$top" --no-print-directory lava-collect LAVA_URL="$url" RUN_ID=R1 LAVA_TOKEN=secret LAVA_WAIT=3 LAVA_POLL=0.5 \
	BUILD="$build" RESULTS="$work/mk" >"$work/mk-cmdline.out" 2>&1
expect "make: LAVA_TOKEN= on its command line is refused, saying why and what to give instead" \
	test "$?:$(grep -c 'LAVA_TOKEN= on make.s command line .*LAVA_TOKEN_FILE=' "$work/mk-cmdline.out"):$(ls "$work/mk" 2>/dev/null | wc -l)" = "2:1:0"
"$top/tests/lib/argv-watch.py" "$work/argv.stop" "$work/token" >"$work/argv.seen" &
watcher=$!
LAVA_TOKEN_FILE=$work/token make -C "$top" --no-print-directory lava-collect LAVA_URL="$url" RUN_ID=R1 LAVA_WAIT=3 LAVA_POLL=0.5 \
	BUILD="$build" RESULTS="$work/mk-file" >"$work/mk.out" 2>&1
touch "$work/argv.stop"
wait $watcher
same "make lava-collect LAVA_TOKEN_FILE=: the run collected elsewhere with the token (its user's jobs)" \
	"$(ls "$work/mk-file/R1/boots" 2>/dev/null | tr '\n' ' ')$(grep -c "whoami/ Token $token" "$work/requests.log")" \
	"i386-compat32-n i386-compat32-y i386-compat32-y-lava25 i386-compat32-y-lava26 1"
same "make lava-collect LAVA_TOKEN_FILE=: ... and no command line held the token" "$(cat "$work/argv.seen")" ""

# --- serve and check: the images, handed out until each was fetched whole
mkdir -p "$work/art/cell"
head -c 100000 /dev/urandom >"$work/art/cell/bzImage"
/usr/bin/python3 "$api" serve "$work/art" 127.0.0.1 0 "$work/art.port" "$work/fetched" 5 2>"$work/serve.log" &
server=$!
pids+=($server)
for _ in $(seq 50); do [ -s "$work/art.port" ] || sleep 0.1; done
art=http://127.0.0.1:$(cat "$work/art.port")
expect "check: an image that is there answers" "$api" check "$art/cell/bzImage"
expect "check: ... and a missing one fails, named" \
	grep -q "HTTP 404 from $art/cell/initramfs.cpio" <("$api" check "$art/cell/bzImage" "$art/cell/initramfs.cpio" 2>&1)
same "serve: a HEAD is not a fetch" "$(cat "$work/fetched" 2>/dev/null)" ""
/usr/bin/python3 -c 'import sys, urllib.request; sys.exit(len(urllib.request.urlopen(sys.argv[1]).read()) != 100000)' \
	"$art/cell/bzImage"
same "serve: a file sent whole is logged as fetched" "$(cat "$work/fetched")" "/cell/bzImage"
status() { /usr/bin/python3 -c 'import sys, urllib.request, urllib.error
try: print(urllib.request.urlopen(sys.argv[1]).status)
except urllib.error.HTTPError as e: print(e.code)
except OSError as e: print(type(e).__name__)' "$1"; }
same "serve: no folder is listed, nor anything but an image" \
	"$(status "$art/") $(status "$art/cell/") $(status "$art/cell/bzImage?x")" "404 404 200"
for _ in $(seq 100); do kill -0 $server 2>/dev/null || break; sleep 0.1; done
same "serve: it ends by itself at its deadline (5 s), whoever started it" \
	"$(kill -0 $server 2>/dev/null && echo running || echo ended)" ended

# --- LAVA_SERVE=::1: an IPv6 address, with or without its port, served
# and named in the jobs as [::1].
if ! /usr/bin/python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
	skip "submit serve=::1: the images served on IPv6's loopback, the jobs' URLs [::1]" "this host has no IPv6 loopback (::1)"
else
	LAVA_TOKEN=secret "$lava" submit "$run" url="$url" serve=::1 wait=30 i386-compat32-n >"$work/v6.out" 2>&1 &
	submitter=$!
	for _ in $(seq 100); do grep -q "^i386-compat32-n	[0-9]*[1-9][0-9]$" <(tail -1 "$run/lava/jobs.tsv") && break; sleep 0.1; done
	id=$(tail -1 "$run/lava/jobs.tsv" | cut -f2)
	urls=$(/usr/bin/python3 -c 'import json, sys, urllib.request
print(json.load(urllib.request.urlopen(sys.argv[1]))["original_definition"])' "$url/api/v0.2/jobs/$id/" | sed -n 's/^        url: //p')
	fetched=$(for u in $urls; do /usr/bin/python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())' "$u" 2>&1 | tail -1; done)
	wait $submitter
	same "submit serve=::1: the jobs' images at [::1], served there" \
		"$(sed -E 's/\]:[0-9]+/]:PORT/' <<<"$urls" | tr '\n' ' ')| $(tr '\n' ' ' <<<"$fetched")" \
		"http://[::1]:PORT/i386-compat32-n/bzImage http://[::1]:PORT/i386-compat32-n/initramfs.cpio | a kernel an initramfs "
	expect "submit serve=::1: ... until every job had its own" grep -q 'every job has its images: stopped serving' "$work/v6.out"
fi
tap_end
