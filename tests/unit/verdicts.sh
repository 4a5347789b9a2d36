#!/usr/bin/env bash
# verdicts.sh - TAP -> verdicts -> report, on real boots (tests/fixtures/)
# and on broken ones: y2038-collect (every cell a record, what was measured
# kept, every failure a verdict), the report (host-tools/report/report.py)
# and make repeat's comparison (host-tools/bench/repeat.sh).
#
#   tests/unit/verdicts.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"


# --- The collector is rebuilt when a header it includes changes: make
# keeps the compiler's list of them (compile-deps in the Makefile). Built
# here in a folder of its own: up to date at once, out of date once
# results-record.h changed (make -W: as if it had just been written).
mk() { make -C "$top" --no-print-directory BUILD="$work/build" "$@"; }
mk -s "$work/build/host/y2038-collect" >/dev/null 2>&1
expect "build: the collector just built is up to date (make -q)" mk -q "$work/build/host/y2038-collect"
expect "build: ... and is built again when results-record.h changes" \
	test "$(mk -q -W host-tools/verdicts/results-record.h "$work/build/host/y2038-collect"; echo $?)" = 1


# --- The collector on a real boot and on broken ones.
# new_run NAME [BOOT]: a run folder holding one copy of a fixture boot
# (tests/fixtures/boot-BOOT; by default the i386 compat32-y matrix boot).
new_run() {
	local run=$work/runs/$1 boot=${2:-i386-compat32-y}
	mkdir -p "$run/boots"
	cp -r "$fixtures/boot-$boot" "$run/boots/$boot"
	echo "$run"
}
boot_of() { echo "$1/boots/${2:-i386-compat32-y}"; }
collect() { "$host/y2038-collect" "${2:-$top/expectations.tsv}" "$1" >"$1/out" 2>"$1/err"; echo $? >"$1/rc"; }
rc_is() { [ "$(cat "$1/rc")" = "$2" ]; }
# cell RUN ABI CASE PHASE FIELD: one field of one record of results.json.
cell() { jq -r --arg a "$2" --arg c "$3" --arg p "$4" \
	".[] | select(.abi==\$a and .case==\$c and .phase==\$p) | .$5" "$1/results.json"; }
# outcome RUN ABI CASE PHASE: "OBSERVED: DETAIL" of that cell
outcome() { echo "$(cell "$@" observed): $(cell "$@" detail)"; }
# keep the fixture TAP up to and including the first line matching $2
cut_tap() { sed -i "/$2/q" "$(boot_of "$1")/tap.log"; }

# The fixture reports every cell it has: one case line per cell.
ncells=$(grep -cE '^# (not )?ok [0-9]+ (legacy|time64|raw32|raw64) ' "$fixtures/boot-i386-compat32-y/tap.log")
run=$(new_run good)
collect "$run"
expect "collector: a complete boot matches every expectation (exit 0)" rc_is "$run" 0
expect "collector: one record per cell ($ncells)" \
	test "$(jq length "$run/results.json")" = "$ncells"
expect "collector: every record carries the fields users rely on" \
	test "$(jq '[.[] | select(has("machine") and has("karch") and has("kernel") and has("config") and has("patches") and has("abi") and has("scenario") and has("case") and has("expected") and has("observed") and has("detail") and has("accel") and has("libc") and has("distro"))] | length' "$run/results.json")" = "$ncells"
# The libc a program names ("# libc: ..." after its TAP version) is its cells';
# a raw cell has none; a program that said nothing (older ones) has unknown.
lrun=$(new_run libc)
sed -i '/^# selftests: y2038: clock-time64$/,/^# # libc: /{/^# # libc: /d}' "$(boot_of "$lrun")/tap.log"
collect "$lrun"
expect "collector: a libc program's cells carry the libc it named, a raw cell -, an unnamed one unknown" \
	test "$(cell "$lrun" legacy time after libc) $(cell "$lrun" raw32 time after libc) $(cell "$lrun" time64 time after libc) $(cell "$lrun" legacy time after distro)" = "glibc-2.36 - unknown -"
# --boots: the blocks of the boots named, printed as they end (make run's
# first boots, then each machine's), and nothing written. A name is a whole
# folder name: i386-compat32-y does not select i386-compat32-y-copy.
brun=$(new_run boots)
cp -r "$(boot_of "$brun")" "$brun/boots/i386-compat32-y-copy"
blocks() { "$host/y2038-collect" --boots "$1" "$top/expectations.tsv" "$brun" 2>&1 | grep -c '^i386 compat32-y  kernel '; }
expect "collector --boots: one boot named, one block; a name that prefixes another selects only itself" \
	test "$(blocks i386-compat32-y-copy) $(blocks i386-compat32-y) $(blocks i386-compat32-y,i386-compat32-y-copy)" = "1 1 2"
expect "collector --boots: ... and it writes nothing into the run" test ! -e "$brun/results.json"
# A musl program (NAME-musl: time64, its libc cases only) beside glibc's, in
# its own column, judged by the rows naming its libc first.
mrun=$(new_run musl)
tap=$(boot_of "$mrun")/tap.log
sed -i -e 's/selftests: y2038: clock-time64/selftests: y2038: clock-musl/' \
	-e '/^# selftests: y2038: clock-musl$/,/^# # libc: /s/^# # libc: .*/# # libc: musl-1.2.5/' -e '/^# .*ok [0-9]* raw64 /d' "$tap"
sed -i 's/^scenarios=.*/scenarios=clock-legacy,clock-musl/' "$(boot_of "$mrun")/meta"
{ printf 'clock\ttime\tafter\ttime64\tmusl-*\t*\t*\t*\t*\t*\tWRAP\ta row for musl alone\n'; grep -v '^#' "$top/expectations.tsv"; } >"$work/musl.tsv"
collect "$mrun" "$work/musl.tsv"
expect "collector: a musl program's cells are time64, libc musl-1.2.5, no raw64 cells" \
	test "$(jq -c '[.[] | select(.libc == "musl-1.2.5") | .abi] | unique' "$mrun/results.json") $(jq '[.[] | select(.abi == "raw64")] | length' "$mrun/results.json")" = '["time64"] 0'
expect "collector: ... judged by the row naming musl (MISMATCH there only), named musl in the TAP" \
	test "$(jq -c '[.[] | select(.verdict == "MISMATCH") | [.abi, .libc, .case, .phase, .expected]]' "$mrun/results.json") $(grep -c ' i386 compat32-y musl clock\.' "$mrun/results.tap")" = \
	"[[\"time64\",\"musl-1.2.5\",\"time\",\"after\",\"WRAP\"]] $(grep -c '^# .*ok [0-9]* time64 ' "$tap")"
# A glibc program that says it has no raw cases (the lab's programs on a
# distribution's libc) has its libc cells only, none missing.
lorun=$(new_run libc-only)
sed -i -e '/^# selftests: y2038: clock-time64$/{n;s/$/\n# # raw cases: none (the libc'"'"'s cases only)/}' -e '/^# .*ok [0-9]* raw64 /d' "$(boot_of "$lorun")/tap.log"
collect "$lorun"
expect "collector: a program without raw cases has no raw cells, and nothing is missing (exit 0)" \
	test "$(jq '[.[] | select(.abi == "raw64")] | length' "$lorun/results.json") $(cat "$lorun/rc")" = "0 0"
# A session (the apps family) has its file's cases, which differ by
# distribution: one that reported all its plan lacks none of the table's
# other cases; one that ended early has them as CRASH.
session_run() {
	local run=$work/runs/$1 b=$work/runs/$1/boots/i386-compat32-y-bookworm-apps
	mkdir -p "$b"
	sed -e 's/^kind=.*/kind=bookworm-apps/' -e 's/^scenarios=.*/scenarios=apps-legacy/' \
		"$fixtures/boot-i386-compat32-y/meta" >"$b/meta"
	printf '%s\n' 'TAP version 13' '1..1' '# selftests: y2038: apps-legacy' '# TAP version 13' \
		"# # raw cases: none (the programs' own)" "# # cases: the session's own (/y2038/apps-legacy.tsv)" \
		'# ok 1 legacy a_now after # PASS exit 0' "$2" '# # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0' \
		'ok 1 selftests: y2038: apps-legacy' '# y2038-init: done' >"$b/tap.log"
	: >"$b/console.log"
	echo "$run"
}
printf 'apps\t%s\tafter\t*\t*\t*\t*\t*\t*\t*\tPASS\tcase %s\n' a_now a b_now b >"$work/apps.tsv"
srun=$(session_run session-done '# 1..1')
collect "$srun" "$work/apps.tsv"
expect "collector: a session that reported all its plan has its own cases, none missing (exit 0)" \
	test "$(jq -c '[.[] | .case]' "$srun/results.json") $(cat "$srun/rc")" = '["a_now"] 0'
srun=$(session_run session-cut '# no plan: the session died')
collect "$srun" "$work/apps.tsv"
expect "collector: ... one that ended before its plan has the table's other cases, CRASH" \
	test "$(cell "$srun" legacy b_now after observed) $(cat "$srun/rc")" = 'CRASH 1'
expect "collector: ... and shown in the block's musl column" \
	grep -qE '^  clock +time +after +EOVERFLOW +- +PASS!=WRAP ' "$mrun/out"
expect "collector: raw32 time after the overflow is WRAP, with its 1901 date" \
	test "$(cell "$run" raw32 time after observed) $(cell "$run" raw32 time after detail | grep -c 1901)" = "WRAP 1"
expect "collector: legacy clock_gettime after is EOVERFLOW, and expected so" \
	test "$(cell "$run" legacy clock_gettime after observed)/$(cell "$run" legacy clock_gettime after verdict)" = "EOVERFLOW/match"
expect "collector: results.tap has a line per cell, all ok" \
	test "$(grep -c '^ok ' "$run/results.tap")" = "$ncells"
expect "collector: the matrix is printed" grep -q 'clock    time                   after   EOVERFLOW' "$run/out"

run=$(new_run contradiction)
sed -i 's/^# not ok \([0-9]*\) legacy time after # EOVERFLOW.*/# ok \1 legacy time after # PASS time = 2147483648/' "$(boot_of "$run")/tap.log"
collect "$run"
expect "collector: an observation against its expectation exits 1" rc_is "$run" 1
expect "collector: ... and is a MISMATCH record, the others still match" \
	test "$(jq '[.[] | select(.verdict=="MISMATCH")] | map(.abi+" "+.case+" "+.phase+" "+.observed+"!="+.expected) | join(",")' "$run/results.json")" = '"legacy time after PASS!=EOVERFLOW"'
expect "collector: ... and the summary names it with its reason" \
	grep -q 'MISMATCH legacy clock.time.after: observed PASS, expected EOVERFLOW (legacy glibc' "$run/out"

# A case that missed its moment (LATE) is no verdict: neither as expected
# nor not, counted apart, named, and the run exits 0 for it; --late lists
# its boot, the one make run boots again alone.
run=$(new_run late)
sed -i 's/^# ok \([0-9]*\) legacy clock_nanosleep_rel across # PASS \(.*\)/# not ok \1 legacy clock_nanosleep_rel across # LATE clock_nanosleep_rel began 12.0 ms past the overflow, its clock set 50 ms before it: it did not cross it (was: PASS \2)/' "$(boot_of "$run")/tap.log"
collect "$run"
expect "collector: a LATE cell is no mismatch (exit 0)" rc_is "$run" 0
expect "collector: ... its verdict is late, the others still match" \
	test "$(jq -c '[.[] | select(.verdict!="match")] | map(.abi+" "+.case+" "+.observed+" "+.verdict)' "$run/results.json")" = '["legacy clock_nanosleep_rel LATE late"]'
expect "collector: ... it is counted apart in the closing line, which says it will be booted again" \
	grep -qxF "$ncells cells, $((ncells - 1)) as expected, 0 not, 1 late (no verdict: missed their moment; make run boots them again alone)" "$run/out"
expect "collector: ... named under its block" \
	grep -q '^  LATE     legacy clock.clock_nanosleep_rel.across: no verdict, it missed its moment (expected PASS): clock_nanosleep_rel began 12.0 ms past' "$run/out"
expect "collector: ... a TAP skip in results.tap, saying why" \
	grep -q '^ok [0-9]* i386 compat32-y legacy clock.clock_nanosleep_rel.across # SKIP LATE, no verdict: clock_nanosleep_rel began 12.0 ms' "$run/results.tap"
"$host/y2038-collect" --late "$top/expectations.tsv" "$run" >"$run/late" 2>&1
expect "collector --late: the boot with a late cell, how many, the first" \
	test "$(cat "$run/late")" = "$(printf 'i386-compat32-y\t1\tlegacy clock.clock_nanosleep_rel.across: clock_nanosleep_rel began 12.0 ms past the overflow, its clock set 50 ms before it: it did not cross it (was: PASS clock_nanosleep waited 0.335 s of 0.100 s)')"
"$host/y2038-collect" --late "$top/expectations.tsv" "$(new_run notlate)" >"$work/notlate" 2>&1
expect "collector --late: nothing for a run with no late cell" test ! -s "$work/notlate"

# retry-late.sh: the late boot is booted again (here: a fixture copied in,
# as make's boot rule would write it), its first boot kept aside, one line
# said; a run with no late cell boots nothing again.
run=$(new_run retry)
cp -r "$(boot_of "$(new_run retry-src)")" "$work/fresh-boot"
sed -i 's/^# ok \([0-9]*\) legacy clock_nanosleep_rel across # PASS \(.*\)/# not ok \1 legacy clock_nanosleep_rel across # LATE clock_nanosleep_rel began 12.0 ms past the overflow, its clock set 50 ms before it: it did not cross it (was: PASS \2)/' "$(boot_of "$run")/tap.log"
cat >"$work/reboot" <<EOF2
#!/bin/sh
echo "\$@" >>"$work/reboots"
mkdir -p "\$(dirname "\$1")" && cp "$work/fresh-boot"/* "\$(dirname "\$1")/"
EOF2
chmod +x "$work/reboot"
retry() { "$top/host-tools/verdicts/retry-late.sh" collect="$host/y2038-collect" expectations="$top/expectations.tsv" run_dir="$1" -- "$work/reboot"; }
retry "$run" >"$run/retry.out" 2>&1
same "retry-late: one line for the late boot, naming the case and by how much" "$(cat "$run/retry.out")" \
	"  RETRY    i386-compat32-y: 1 case missed its moment (legacy clock.clock_nanosleep_rel.across: clock_nanosleep_rel began 12.0 ms past the overflow, its clock set 50 ms before it: it did not cross it); booting it again, alone"
same "retry-late: ... it is booted again into its own folder" "$(cat "$work/reboots")" "$run/boots/i386-compat32-y/meta"
expect "retry-late: ... its first boot is kept aside, LATE and all" grep -q 'LATE clock_nanosleep_rel began' "$run/boots/.late/i386-compat32-y/tap.log"
collect "$run"
expect "retry-late: ... and the run is collected from the boot again alone: as expected, nothing late" \
	grep -qE "^$ncells cells, $ncells as expected, 0 not$" "$run/out"
cp "$run/boots/.late/i386-compat32-y/tap.log" "$run/boots/i386-compat32-y/tap.log"
collect "$run"
expect "retry-late: a boot late again stays late, and the closing line says what to do" \
	grep -qE "^$ncells cells, $((ncells - 1)) as expected, 0 not, 1 late \(no verdict: missed their moment even when booted again alone; fewer guests at once: .* TIMED_GUESTS=1\)$" "$run/out"
: >"$work/reboots"
retry "$run" >"$run/retry.out" 2>&1
expect "retry-late: ... and is not booted again a second time (a run resumed: once is once)" \
	test ! -s "$run/retry.out" -a ! -s "$work/reboots"
cp "$work/fresh-boot/tap.log" "$run/boots/i386-compat32-y/tap.log"
: >"$work/reboots"
retry "$run" >"$run/retry.out" 2>&1
expect "retry-late: a run with no late cell boots nothing again, and says nothing" \
	test ! -s "$run/retry.out" -a ! -s "$work/reboots"
run=$(new_run retry-fails)
sed -i 's/^# ok \([0-9]*\) legacy clock_nanosleep_rel across # PASS \(.*\)/# not ok \1 legacy clock_nanosleep_rel across # LATE x (was: PASS \2)/' "$(boot_of "$run")/tap.log"
"$top/host-tools/verdicts/retry-late.sh" collect="$host/y2038-collect" expectations="$top/expectations.tsv" run_dir="$run" -- false >"$run/retry.out" 2>&1
expect "retry-late: a boot again that fails is an error naming the first boot, which is kept" \
	test "$?:$(tail -1 "$run/retry.out")" = "1:retry-late.sh: booting i386-compat32-y again failed (its first boot: $run/boots/.late/i386-compat32-y)"

run=$(new_run truncated)
cut_tap "$run" '^# ok [0-9]* legacy clock_gettime before'
collect "$run"
expect "collector: truncated TAP keeps what was measured" \
	test "$(cell "$run" legacy clock_gettime before observed)" = PASS
expect "collector: ... and calls the rest CRASH, truncated" \
	test "$(cell "$run" legacy clock_gettime after observed): $(cell "$run" time64 time before detail)" = \
	"CRASH: guest TAP ends early (truncated) after 1 of 2 scenarios"
expect "collector: ... and exits 1" rc_is "$run" 1

run=$(new_run panic)
cut_tap "$run" '^# ok [0-9]* legacy clock_gettime before'
echo "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b" >>"$(boot_of "$run")/console.log"
collect "$run"
expect "collector: a kernel panic is CRASH, quoting the panic" \
	test "$(outcome "$run" raw64 time after)" = \
	"CRASH: kernel panic: Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
expect "collector: ... cells before the panic are kept" \
	test "$(cell "$run" legacy time before observed)" = PASS

# --boot DIR --json: one boot as the collector reads it, for the other
# tools: its record, every case line and comment with its line, the panic.
"$host/y2038-collect" --boot "$(boot_of "$run")" --json >"$work/boot.json"
expect "collector --boot --json: the record as meta has it, the cases before the panic, the panic line" \
	test "$(jq -r '[.record.config, .record.kind, ([.tap.programs[].cases[]] | length), .panic] | join(" ")' "$work/boot.json")" = \
	"compat32-y matrix $(grep -c '^# \(not \)\{0,1\}ok [0-9]* [a-z0-9]* ' "$(boot_of "$run")/tap.log") Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
"$host/y2038-collect" --boot "$fixtures/boot-i386-compat32-y" --json >"$work/boot.json"
expect "collector --boot --json: every case line of the fixture, with its line in tap.log" \
	test "$(jq -r '.tap.programs[].cases[] | "\(.line) \(if .ok then "ok" else "not ok" end) \(.number) \(.abi) \(.case) \(.phase) # \(.class) \(.detail)"' "$work/boot.json" | md5sum)" = \
	"$(grep -n '^# \(not \)\{0,1\}ok [0-9]* \(legacy\|time64\|raw32\|raw64\) ' "$fixtures/boot-i386-compat32-y/tap.log" | sed 's/^\([0-9]*\):# /\1 /' | md5sum)"
# A program's result line not in the lab's form (a kselftest's own, as make
# hrtimer-check boots one) is kept with its comments; and a boot that never
# ended says what it was from its plan, meta's keys over the plan's.
kboot=$work/kselftest-boot
mkdir -p "$kboot"
printf 'TAP version 13\n1..1\n# selftests: y2038: settime-abs-sleep\n# TAP version 13\n# 1..1\n# ok 1 3 of 400 absolute sleeps ended early\n' >"$kboot/tap.log"
printf 'kind=hrtimer\nmachine=i386\nconfig=compat32-y\ninitrd=/x.cpio\n' >"$kboot/plan"
"$host/y2038-collect" --boot "$kboot" --json >"$work/kboot.json"
expect "collector --boot --json: a kselftest's own result line is kept whole with its program's comments" \
	test "$(jq -r '.tap.programs[0].notes[] | select(.text | startswith("ok 1")) | .text' "$work/kboot.json")" = "ok 1 3 of 400 absolute sleeps ended early"
expect "collector --boot --json: a boot with a plan and no meta: the plan's keys" \
	test "$(jq -c '[.record.kind, .record.machine, .record.initrd, .record.qemu_status]' "$work/kboot.json")" = '["hrtimer","i386","/x.cpio",null]'
printf 'machine=x86_64\nqemu_status=exited\n' >"$kboot/meta"
expect "collector --boot --json: ... and with a meta, meta's keys over the plan's" \
	test "$("$host/y2038-collect" --boot "$kboot" --json | jq -c '[.record.kind, .record.machine, .record.qemu_status]')" = '["hrtimer","x86_64","exited"]'
expect "collector --boot --json: a folder with nothing in it is an empty boot, not an error" \
	test "$("$host/y2038-collect" --boot "$work/no-such-boot" --json | jq -c '[.record, .tap.plan, .tap.programs, .panic]')" = '[{},-1,[],null]'

run=$(new_run no-plan)
sed -i '/^1\.\.2$/d' "$(boot_of "$run")/tap.log"
cut_tap "$run" '^# ok [0-9]* legacy time before'
collect "$run"
expect "collector: TAP without a plan is ERROR for what is missing" \
	test "$(outcome "$run" raw32 time after)" = \
	"ERROR: guest TAP has no plan: init never ran or its output was lost"

run=$(new_run empty)
: >"$(boot_of "$run")/tap.log"
: >"$(boot_of "$run")/console.log"
collect "$run"
expect "collector: an empty boot is $ncells ERROR cells, not zero cells" \
	test "$(jq '[.[] | select(.observed=="ERROR")] | length' "$run/results.json")" = "$ncells"

run=$(new_run qemu-failed)
rm "$(boot_of "$run")"/{tap.log,console.log}
sed -i 's/^qemu_status=.*/qemu_status=failed/; s/^qemu_exit=.*/qemu_exit=1/' "$(boot_of "$run")/meta"
collect "$run"
expect "collector: a qemu that never started is ERROR, naming qemu" \
	test "$(cell "$run" time64 time before detail)" = "qemu failed to start (exit 1): see qemu.log"

run=$(new_run hung-guest)
cut_tap "$run" '^# selftests: y2038: clock-time64'
sed -i 's/^qemu_status=.*/qemu_status=timeout/; s/^qemu_exit=.*/qemu_exit=124/' "$(boot_of "$run")/meta"
collect "$run"
expect "collector: a guest killed by the host timeout is TIMEOUT" \
	test "$(outcome "$run" time64 time before)" = "TIMEOUT: guest did not end within 300 s"
expect "collector: ... and the binary that finished keeps its cells" \
	test "$(cell "$run" raw32 clock_nanosleep_abs across observed)" = EINVAL

run=$(new_run scenario-crash)
sed -i '/^# not ok [0-9]* raw32 clock_nanosleep_abs/,/^not ok 1 selftests/c\
not ok 1 selftests: y2038: clock-legacy # CRASH signal 11 (SIGSEGV)' "$(boot_of "$run")/tap.log"
collect "$run"
expect "collector: a scenario killed by a signal is CRASH for its missing cells" \
	test "$(outcome "$run" raw32 clock_nanosleep_rel across)" = "CRASH: scenario died: CRASH signal 11 (SIGSEGV)"
expect "collector: ... its earlier cells and the next binary are kept" \
	test "$(cell "$run" raw32 gettimeofday after observed) $(cell "$run" time64 time after observed)" = "WRAP PASS"

run=$(new_run scenario-timeout)
sed -i 's/^not ok 1 selftests: y2038: clock-legacy # exit=1/not ok 1 selftests: y2038: clock-legacy # TIMEOUT 60 seconds/; /^# ok [0-9]* raw32 clock_nanosleep_rel/d' "$(boot_of "$run")/tap.log"
collect "$run"
expect "collector: a scenario the guest timed out is TIMEOUT" \
	test "$(cell "$run" raw32 clock_nanosleep_rel across observed)" = TIMEOUT

run=$(new_run unlisted)
sed -i 's/^# ok [0-9]* legacy clock_nanosleep_rel across/# ok 99 legacy brand_new before # PASS new\n&/' "$(boot_of "$run")/tap.log"
collect "$run"
expect "collector: a case missing from the table is UNLISTED, a mismatch" \
	test "$(cell "$run" legacy brand_new before expected) $(cat "$run/rc")" = "UNLISTED 1"

run=$(new_run bad-table)
printf 'clock\ttime\tafter\t*\t*\t*\t*\t*\t*\t*\tPASS\tfits\nclock\ttime\tafter\traw32\t*\t*\t*\t*\t*\t*\tWRAP\tshadowed\n' >"$work/bad.tsv"
collect "$run" "$work/bad.tsv"
expect "collector: an expectation no cell can reach is rejected (exit 2, line named)" \
	test "$(cat "$run/rc"): $(cat "$run/err")" = \
	"2: y2038-collect: $work/bad.tsv:2: never used: line 1 already matches every cell it would"
mkdir -p "$work/runs/none"
collect "$work/runs/none"
expect "collector: a run without boots is exit 2" rc_is "$work/runs/none" 2

# --- A scenario that judges the kernel (NAME-kernel): a real unpatched armv7
# boot with the RTC past 2038, whose clock stays in 1970.
rtc_run() { new_run "$1" armv7-compat32-y-rtc-after; }
rtc_boot() { boot_of "$1" armv7-compat32-y-rtc-after; }
run=$(rtc_run rtc-unpatched)
collect "$run"
expect "collector: rtc-kernel cells take the phase the guest found (after)" \
	test "$(jq -r '[.[] | .case+" "+.abi+" "+.phase+" "+.observed+" "+.verdict] | join(",")' "$run/results.json")" = \
	"clock_at_boot kernel after UNSET match,hctosys kernel after UNSET match"
expect "collector: ... and records the boot's RTC base" \
	test "$(jq -r '.[0].rtc_base' "$run/results.json")" = "2038-01-20T00:00:00"
run=$(rtc_run rtc-patched)
sed -i 's/^patches=none$/patches=6 patches @ 0123456789ab/' "$(rtc_boot "$run")/meta"
collect "$run"
expect "collector: the same clock from a patched kernel is a MISMATCH (patches column)" \
	test "$(rc_is "$run" 1 && jq -r '[.[] | select(.verdict=="MISMATCH") | .case] | join(",")' "$run/results.json")" = "clock_at_boot,hctosys"
run=$(rtc_run rtc-crashed)
sed -i '/^# selftests: y2038: rtc-kernel/q' "$(rtc_boot "$run")/tap.log"
collect "$run"
expect "collector: an rtc-kernel that reported nothing still has a cell per case, phase unknown" \
	test "$(jq -r '[.[] | .case+" "+.phase+" "+.observed] | join(",")' "$run/results.json")" = \
	"clock_at_boot - CRASH,hctosys - CRASH"
# A kernel binary that reported its whole plan has the cases it reported:
# the census of a boot that ran clock-legacy and clock-time64, and no musl
# program, has no clock_musl case; one cut short has its missing cases.
census_run() {
	local run boot
	run=$(rtc_run "$1")
	boot=$(rtc_boot "$run")
	sed -i -e 's/^scenarios=.*/scenarios=clock-legacy,clock-time64,census-kernel/' \
		-e 's/^patches=none$/patches=8 patches @ 0123456789ab/' "$boot/meta"
	printf '%s\n' 'TAP version 13' '1..1' '# selftests: y2038: census-kernel' '# TAP version 13' '# 1..3' \
		'# ok 1 legacy clock run # LISTED /scenarios/clock-legacy (pid 9) used clock_gettime32' \
		'# ok 2 time64 clock run # LISTED /scenarios/clock-time64 (pid 10) used clock_nanosleep_time32' \
		'# ok 3 kernel others run # PASS the census names no program the lab did not run' \
		'ok 1 selftests: y2038: census-kernel' '# y2038-init: done' >"$boot/tap.log"
	echo "$run"
}
run=$(census_run census-whole)
sed -i 's/^scenarios=.*/scenarios=census-kernel/' "$(rtc_boot "$run")/meta"
collect "$run"
expect "collector: a census that reported its whole plan has just its cases (no clock_musl)" \
	test "$(jq -r '[.[] | .case+" "+.abi+" "+.observed+" "+.verdict] | join(",")' "$run/results.json")" = \
	"clock legacy LISTED match,clock time64 LISTED match,others kernel PASS match"
run=$(census_run census-cut)
sed -i -e 's/^scenarios=.*/scenarios=census-kernel/' "$(rtc_boot "$run")/meta"
sed -i -e '/ok 3 kernel others/d' -e 's/^ok 1 selftests: y2038: census-kernel$/not ok 1 selftests: y2038: census-kernel # CRASH signal 11/' "$(rtc_boot "$run")/tap.log"
collect "$run"
expect "collector: ... one cut short has a CRASH cell for each case it did not report" \
	test "$(jq '[.[] | select(.observed == "CRASH")] | length' "$run/results.json")" -ge 5

# --- The bookworm demo: Debian's programs, only the ABIs its rows name.
run=$(new_run bookworm i386-compat32-n-bookworm)
collect "$run"
expect "collector: the bookworm demo boot matches every expectation, with no raw32/raw64 cells" \
	test "$(rc_is "$run" 0 && jq -r '[.[] | .abi] | unique | join(",")' "$run/results.json")" = "legacy,time64"
expect "collector: busybox sleep that returns at once on =n is EARLY, as expected" \
	test "$(jq -r '.[] | select(.scenario=="bookworm" and .abi=="legacy" and .case=="sleep") | .observed+" "+.verdict' "$run/results.json")" = "EARLY match"
run=$(new_run bookworm-tampered i386-compat32-n-bookworm)
sed -i 's/^# not ok 5 legacy sleep across # EARLY exit 0 in [0-9.]* s[^:]*/# ok 5 legacy sleep across # PASS exit 0 in 1.00 s/' \
	"$(boot_of "$run" i386-compat32-n-bookworm)/tap.log"
collect "$run"
expect "collector: ... and a busybox sleep that waited on =n would be a MISMATCH" \
	test "$(rc_is "$run" 1 && jq -r '[.[] | select(.verdict=="MISMATCH") | .abi+" "+.case] | join(",")' "$run/results.json")" = "legacy sleep"
sed -i '/^# ok 7 legacy test_e/d; /^# not ok 7 legacy test_e/d' "$(boot_of "$run" i386-compat32-n-bookworm)/tap.log"
collect "$run"
expect "collector: a demo case the guest never reported is still a cell, a MISMATCH saying so" \
	test "$(jq -r '.[] | select(.case=="test_e") | .observed+" "+.verdict+": "+.detail' "$run/results.json")" = \
	"CRASH MISMATCH: scenario ended (exit=1) without reporting this case"


# --- The report, from the collector's results of the good fixture run.
run=$(new_run report)
collect "$run"
python3 "$top/host-tools/report/report.py" "$run" >/dev/null 2>&1
expect "report: the page has one cell per record, none marked a mismatch" \
	test "$(grep -o 'class="cell' "$run/report.html" | wc -l):$(grep -c 'mismatch"' "$run/report.html")" = "$(jq length "$run/results.json"):0"
expect "report: the Markdown summary counts the cells" \
	grep -qx "$(jq length "$run/results.json") cells, $(jq length "$run/results.json") as expected, 0 not." "$run/report.md"
run=$(new_run report-mismatch)
sed -i 's/^# ok \([0-9]*\) legacy time before # PASS/# not ok \1 legacy time before # WRAP/' "$(boot_of "$run")/tap.log"
collect "$run"
python3 "$top/host-tools/report/report.py" "$run" >/dev/null 2>&1
expect "report: a mismatch is marked on the page and listed in the summary" \
	test "$(grep -o 'class="cell o-WRAP mismatch"' "$run/report.html" | wc -l):$(grep -o 'WRAP≠PASS</td>' "$run/report.html" | wc -l):$(grep -c '| legacy | clock.time.before | WRAP | PASS |' "$run/report.md")" = "1:1:1"
run=$(new_run report-late)
sed -i 's/^# ok \([0-9]*\) legacy clock_nanosleep_rel across # PASS \(.*\)/# not ok \1 legacy clock_nanosleep_rel across # LATE clock_nanosleep_rel began 12.0 ms past the overflow (was: PASS \2)/' "$(boot_of "$run")/tap.log"
collect "$run"
python3 "$top/host-tools/report/report.py" "$run" >/dev/null 2>&1
expect "report: a late cell is shown as late, not a mismatch, and listed apart with its detail" \
	test "$(grep -c 'mismatch"' "$run/report.html"):$(grep -o 'class="hm t-late"' "$run/report.html" | wc -l):$(grep -c '^| i386-compat32-y | legacy | clock.clock_nanosleep_rel.across | PASS | clock_nanosleep_rel began 12.0 ms' "$run/report.md"):$(grep -c 'contradict' "$run/report.md")" = "0:1:1:0"
expect "report: ... and counted apart" grep -qx "$(jq length "$run/results.json") cells, $(( $(jq length "$run/results.json") - 1 )) as expected, 0 not, 1 late (missed their moment: no verdict)." "$run/report.md"
# The clock timeline of a real i386 compat32-n boot, plotted: the clock
# scenario's comments, where it prints them (inside its own TAP).
run=$(new_run report-timeline)
sed -i -e '/^# # timeline /d' -e "/^# selftests: y2038: clock-legacy\$/r $fixtures/timeline-i386-compat32-n.txt" "$(boot_of "$run")/tap.log"
collect "$run"
python3 "$top/host-tools/report/report.py" "$run" >/dev/null 2>&1
expect "report: the timeline plots every reader: on =n raw32 gettimeofday wraps to 1901 and legacy time fails at 03:14:08" \
	test "$(grep -c '<svg' "$run/report.html"):$(grep -c '<polyline' "$run/report.html"):$(grep -c '<title>raw32 gettimeofday at 2147483648: -2147483648</title>' "$run/report.html"):$(grep -c '<title>legacy time at 2147483648: EOVERFLOW</title>' "$run/report.html")" = "1:10:1:1"
# The first screen's three questions: the fixture run has no distribution's
# programs and no validate-distro beside it; then one beside it answers.
run=$work/runs/report
expect "report: with no distribution's programs, the old-binaries list says so" \
	grep -q "<li>No distribution's programs in this run.</li>" "$run/report.html"
expect "report: with no validate-distro run beside it, the distributions' list says how to get one" \
	grep -q '<li>No distribution validated beside this run: <code>make validate-distro</code>' "$run/report.html"
mkdir -p "$work/runs/vd1/distro"
echo '{"distribution": "Debian bookworm i386", "can_turn_off": "no"}' >"$work/runs/vd1/distro/verdict.json"
printf 'Can Debian bookworm i386 turn COMPAT_32BIT_TIME off?\n  NO: 17 of 339 programs break with COMPAT_32BIT_TIME=n.\n' \
	>"$work/runs/vd1/distro/report.txt"
python3 "$top/host-tools/report/report.py" "$run" >/dev/null 2>&1
expect "report: a validate-distro run beside it gives the distribution's answer, with its run id" \
	grep -q '<li class="f-bad"><b>Debian bookworm i386 (run vd1).</b> NO: 17 of 339 programs break' "$run/report.html"
sed 's/"column":"[^"]*",//' "$run/results.json" >"$work/no-column.json"
mkdir -p "$work/runs/old" && cp "$work/no-column.json" "$work/runs/old/results.json"
expect "report: records whose keys are not results-record.h's are refused, naming the difference" \
	grep -q "a record's keys are not those of host-tools/verdicts/results-record.h (column)" \
	<<<"$(python3 "$top/host-tools/report/report.py" "$work/runs/old" 2>&1)"
expect "report: no results.json is a clear error" \
	test "$(python3 "$top/host-tools/report/report.py" "$work/no-such-run" 2>&1)" = "report.py: no $work/no-such-run/results.json: collect the run first"

# --- make repeat's comparison (host-tools/bench/repeat.sh) of the runs above.
expect "repeat: two runs with the same cells are identical (exit 0)" \
	test "$("$top/host-tools/bench/repeat.sh" "$work/runs/report" "$work/runs/report-timeline" >/dev/null; echo $?)" = 0
out=$("$top/host-tools/bench/repeat.sh" "$work/runs/report" "$work/runs/report-mismatch")
rc=$?
expect "repeat: a cell whose outcome changed is named with both outcomes (exit 1)" \
	test "$rc:$(grep -c '^  i386-compat32-y clock.time.before legacy [a-z0-9.-]*: PASS (.*) | WRAP (' <<<"$out")" = "1:1"
# --details: a detail that changed, numbers aside, is a difference; one
# whose numbers alone changed is not. --common: a cell one run lacks is
# counted, not compared.
jq '(.[] | select(.abi == "legacy" and .case == "time" and .phase == "before") | .detail) |= sub("2147483647"; "2147483646")' \
	"$work/runs/report/results.json" >"$work/numbers.json"
mkdir -p "$work/runs/numbers" "$work/runs/worded" "$work/runs/fewer"
cp "$work/numbers.json" "$work/runs/numbers/results.json"
jq '(.[] | select(.abi == "legacy" and .case == "time" and .phase == "before") | .detail) |= "said otherwise"' \
	"$work/runs/report/results.json" >"$work/runs/worded/results.json"
jq 'map(select(.case != "time"))' "$work/runs/report/results.json" >"$work/runs/fewer/results.json"
repeat() { "$top/host-tools/bench/repeat.sh" "$@" >"$work/repeat.out" 2>&1; echo $?; }
expect "repeat --details: only a detail's numbers changed: identical (exit 0); by default, the outcome alone" \
	test "$(repeat --details "$work/runs/report" "$work/runs/numbers") $(repeat "$work/runs/report" "$work/runs/worded")" = "0 0"
expect "repeat --details: a detail's words changed: that cell, both details (exit 1)" \
	test "$(repeat --details "$work/runs/report" "$work/runs/worded"):$(grep -c '^  i386-compat32-y clock.time.before legacy .*| PASS (said otherwise)$' "$work/repeat.out")" = "1:1"
expect "repeat --common: the cells one run lacks are counted by scenario, the rest compared (exit 0)" \
	test "$(repeat --common "$work/runs/report" "$work/runs/fewer"):$(grep -c ' cells only in report: clock [0-9]*$' "$work/repeat.out")" = "0:1"
expect "repeat: without --common, a cell one run lacks differs (exit 1)" \
	test "$(repeat "$work/runs/report" "$work/runs/fewer")" = 1
expect "repeat: a run without results is an error (exit 2)" \
	test "$("$top/host-tools/bench/repeat.sh" "$work/runs/report" "$work/no-such-run" >/dev/null 2>&1; echo $?)" = 2

tap_end
