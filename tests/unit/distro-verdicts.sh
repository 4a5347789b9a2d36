#!/usr/bin/env bash
# distro-verdicts.sh - host-tools/distro/distro-verdicts.py, the verdicts
# on make validate-distro's and make try's boots (the init boots are
# distro-init.sh's), through the scripts that call it:
#   - the programs a smoke session runs (validate-distro.sh session);
#   - the answer (validate-distro.sh verdict) on tests/fixtures/distro-verdict/:
#     the scan of a root of eleven programs, and its smoke boots with =y
#     (census), =n and past the overflow, written as the session prints
#     them (touch gets ENOSYS with =n, perl's wait does not wait, chcon
#     makes a time32 call with =y only, groupmems fails with =y already,
#     dash fails past the overflow, du prints tabs), each break's cause, by
#     kind, and DISTRO_LIBC's two answers; then =n as good as =y,
#     an =n boot cut short, and a boot past the overflow that never ran;
#   - the setup boot (validate-distro.sh setup-done);
#   - make try's report (try.sh report) on tests/fixtures/try/: a legacy
#     program on i386 with =y and =n, then every way a phase can end.
#
#   tests/unit/distro-verdicts.sh HOST_TOOLS_DIR BUILD
# shellcheck disable=SC2016 # the $names in jq's programs are jq's
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"
dv=$top/host-tools/distro/distro-verdicts.py
vd=$top/host-tools/distro/validate-distro.sh
fv=$fixtures/distro-verdict
root=$(jq -r .scanned "$fv/inputs.json")
jqe() { jq -e "$@" >/dev/null; }
# the case lines of a smoke boot's TAP
cases() { grep -c '^# \(not \)\{0,1\}ok [0-9]* distro ' "$1/tap.log"; }


# --- The programs: one list for the session and the verdict.
"$dv" programs "$fv/scan.json" "$root" >"$work/programs.tsv"
same "programs: the executables in bin and sbin, by their path in the root (no library, nothing in libexec or lib, no unreadable file)" \
	"$(cut -f1 "$work/programs.tsv" | tr '\n' ' ')" \
	"/usr/bin/cat /usr/bin/chcon /usr/bin/dash /usr/bin/date /usr/bin/du /usr/bin/lastlog /usr/bin/perl /usr/bin/touch /usr/sbin/groupmems /usr/sbin/killall5 /usr/sbin/ldconfig "
d=$work/vd
mkdir -p "$d"
cp "$fv/inputs.json" "$fv/config.json" "$fv/scan.json" "$d/"
"$vd" session "$d/scan.json" "$root" "$fv/smoke-data.tsv" "$d/smoke.tsv" 3 i386
same "session: a smoke test for every program the verdict judges, but the one its data skips" \
	"$(grep -v '^#' "$d/smoke.tsv" | cut -f2)" "$(cut -f1 "$work/programs.tsv" | grep -vx /usr/sbin/killall5)"
same "session: ... the skipped one with its reason" \
	"$(cat "$d/smoke.tsv.skipped")" "/usr/sbin/killall5	$(awk -F'\t' '$1 == "killall5" { sub(/^SKIP: /, "", $3); print $3 }' "$fv/smoke-data.tsv")"
out=$("$vd" session "$d/scan.json" "$root" "$fv/smoke-data.tsv" "$work/arm.tsv" 40 armhf 2>&1)
expect "session: a root of another machine's programs is refused, naming what they are" \
	test "$?:$out" = "1:validate-distro.sh: the programs in $root are i386 programs (ELF machine 3), not armhf's (ELF machine 40): give the DISTRO_ARCH of the root"


# --- The answer, with the root's own init (the boots of distro-init.sh).
"$vd" verdict "$d" "$fv/boots/y" "$fv/boots/n" "$fv/boots/past" \
	"$fixtures/distro-init/ok" "$fixtures/distro-init/pid1-died" "$fixtures/distro-init/across" >"$work/vd.out" 2>"$work/vd.err"
v=$d/verdict.json
expect "verdict: exit 0, and what it prints is report.txt" \
	test "$?:$(cat "$work/vd.err")" = "0:" -a -s "$work/vd.out" -a "$(cmp "$work/vd.out" "$d/report.txt" && echo same)" = same
expect "verdict: every program judged, every one that ran reported on both kernels" \
	jqe --argjson n "$(wc -l <"$work/programs.tsv")" '.programs == $n and .programs_not_reported == [] and .boot_problems == []' "$v"
expect "verdict: NO, touch and perl break with =n" \
	jqe '.can_turn_off == "no" and [.break[].path] == ["/usr/bin/perl", "/usr/bin/touch"]' "$v"
expect "verdict: touch: ENOSYS with =n where it passed with =y, both details given" \
	jqe '.break[] | select(.path == "/usr/bin/touch") | .why
		| test("^with =n: ENOSYS exit 1: .*Function not implemented.* \\(with =y: PASS exit 0 in 0.09 s: \"touched\"\\)$")' "$v"
expect "verdict: perl passes with =n but 1 s sooner: its wait (smoke-data.tsv: takes 1) did not wait" \
	jqe '(.[] | select(.path == "/usr/bin/perl") | .shorter and .takes == 1)
		and ([.[] | select(.shorter) | .path] == ["/usr/bin/perl"])' "$d/programs.json"
expect "verdict: ... said so: \"with =n it ends 1 s of waiting sooner\"" \
	jqe '.break[] | select(.path == "/usr/bin/perl") | .why | startswith("with =n it ends 1 s of waiting sooner: exit 0 in 0.29 s")' "$v"
expect "verdict: chcon passed with =n but made a time32 call with =y (census): listed, not a break" \
	jqe '[.census_only[].path] == ["/usr/bin/chcon"] and (.census_only[0].why | test("used clock_gettime32 with =y"))' "$v"
expect "verdict: groupmems failed with =y already: its smoke test proves nothing" \
	jqe '[.programs_inconclusive[].path] == ["/usr/sbin/groupmems"] and (.programs_inconclusive[0].why | startswith("its smoke test proves nothing: with =y WRONG"))' "$v"
expect "verdict: killall5 not run, with the session's reason" \
	jqe --arg why "$(cut -f2 "$d/smoke.tsv.skipped")" '.programs_not_run == [{path: "/usr/sbin/killall5", reason: $why}]' "$v"
expect "verdict: past the overflow, dash fails (time32 in the scan); perl's TIMEOUT there proves nothing" \
	jqe --argjson n "$(cases "$fv/boots/past")" '.programs_past_reported == $n and [.break_2038[].path] == ["/usr/bin/dash"]
		and (.break_2038[0].why | test("^past the overflow: EOVERFLOW .*; scan: time32$"))' "$v"
expect "verdict: the census of the =y boot, per program" \
	test "$(jq -r 'to_entries[] | "\(.key) \(.value)"' "$d/census.json")" = \
	"$(sed -n 's/^# # census: program [0-9]* //p' "$fv/boots/y/tap.log")"
expect "verdict: a detail keeps all of what the program printed, its tabs too (du)" \
	test "$(jq -r '.["/usr/bin/du"].detail' "$d/smoke-y.json")" = \
	"$(sed -n 's|^# ok [0-9]* distro /usr/bin/du now # PASS ||p' "$fv/boots/y/tap.log")"
expect "verdict: the files: time32 ones (a library too), static, unreadable" \
	jqe '.time32_files == ["/usr/bin/dash", "/usr/lib/i386-linux-gnu/libselinux.so.1"]
		and [.static_files[].path] == ["/usr/sbin/ldconfig"] and .unreadable_files == [{path: "/usr/bin/broken", detail: "not an ELF file (bad magic)"}]' "$v"
expect "verdict: the root is cut from a file's detail, though its name has a regex's character (+)" \
	jqe --arg root "$root" '.mixed_files[0].detail | (contains($root) | not) and endswith("loads time32 libraries: /usr/lib/i386-linux-gnu/libselinux.so.1")' "$v"
expect "verdict: its own init breaks with =n (PID 1 died, systemd crashed) and across the overflow (journald, udevd)" \
	jqe '.init_y_up and (.init_breaks | any(test("^the boot with =n: PID 1 DIED \\(with =y: OK\\)$")) and any(test("^systemd crashed with =n: traps: ")))
		and ([.init_breaks_2038[] | capture("^(?<c>[^ ]+) crashed across").c] == ["systemd-journald", "systemd-udevd"])' "$v"
expect "verdict: init-boots.json holds the three init boots, as the answer has them" \
	test "$(jq -c '[.[].verdict]' "$d/init-boots.json")" = '["OK","PID 1 DIED","DEGRADED"]' -a \
	"$(jq -c .init_boots "$v")" = "$(jq -c . "$d/init-boots.json")"
r=$d/report.txt
expect "report: the answer's line, with what its own init did" \
	grep -qxF "  NO: 2 of $(jq .programs "$v") programs break with COMPAT_32BIT_TIME=n; and its own init: $(jq -r '.init_breaks | join("; ")' "$v")." "$r"
expect "report: every program that breaks, with its evidence, under its count" \
	test "$(sed -n '/^Programs that break with COMPAT_32BIT_TIME=n (2):$/,/^$/p' "$r" | grep -c '^  /usr/bin/[a-z]*: with =n')" = 2
expect "report: past the overflow, dash" \
	grep -q '^  /usr/bin/dash: past the overflow: EOVERFLOW' "$r"
expect "report: each init boot's verdict, the kernel's last words of the one whose PID 1 died" \
	test "$(grep -c '^  DISTRO_RTC, COMPAT_32BIT_TIME=n: PID 1 DIED: PID 1 died: Kernel panic' "$r"):$(grep -c '^      console: .*Attempted to kill init' "$r")" = 1:1
expect "report: the evidence, the init boots' too" \
	test "$(grep -c "^Evidence: $d/config.txt" "$r"):$(grep -c "^  and of its own init: $d/init-boots.json" "$r")" = 1:1

expect "verdict: each break has its cause: neither touch nor perl made a time32 syscall the census saw" \
	jqe '[.break[].cause_kind] == ["unseen", "unseen"] and .break_causes == {static: 0, own: 0, libc: 0, unseen: 2}' "$v"
expect "report: ... their causes, counted and per program" \
	test "$(grep -c '^  Their causes: 2 no time32 syscall in the census with =y$' "$r"):$(grep -c '^    /usr/bin/perl: no time32 syscall in the census' "$r")" = 1:1

# The cause of a break, by kind: touch with a census entry with =y is its
# libc's with the root's own libc, and its own with the lab's time64-only
# libc in the root (DISTRO_LIBC: inputs.json names it).
mkdir -p "$work/y-census"
cp "$fv/boots/y/"* "$work/y-census/"
# (a census line of the session's own, before its last one: a comment after
# the session's end is no longer the session's)
sed -i 's|^# # census: unattributed|# # census: program 240 /usr/bin/touch utimensat_time32\n&|' "$work/y-census/tap.log"
# The lab's Debian-floor libc makes the time32 call first (libc_time32
# "first"): there the census may be the libc's.
for libc in "" glibc-2.41-time64only:none glibc-2.41-debian-fallback:first; do
	dc=$work/vd-cause${libc%:*}
	mkdir -p "$dc"
	cp "$d"/{config.json,scan.json,smoke.tsv,smoke.tsv.skipped} "$dc/"
	jq --arg libc "${libc%:*}" --arg t32 "${libc#*:}" 'if $libc != "" then .libc = $libc | .libc_time32 = $t32 else . end' \
		"$d/inputs.json" >"$dc/inputs.json"
	"$vd" verdict "$dc" "$work/y-census" "$fv/boots/n" >/dev/null 2>&1
done
expect "verdict: touch with utimensat_time32 in the census, the root's own libc: its libc's time32 syscalls" \
	jqe '.break[] | select(.path == "/usr/bin/touch") | .cause_kind == "libc" and (.cause | endswith("(census with =y: utimensat_time32)"))' "$work/vd-cause/verdict.json"
expect "verdict: ... with the lab's time64-only libc: its own, since that libc makes none" \
	jqe '.libc == "glibc-2.41-time64only" and (.break[] | select(.path == "/usr/bin/touch")
		| .cause_kind == "own" and (.cause | test("utimensat_time32, with glibc-2.41-time64only, which makes none")))' "$work/vd-causeglibc-2.41-time64only/verdict.json"
expect "verdict: ... with the lab's Debian-floor libc, which makes the time32 call first: its libc's, or its own" \
	jqe '.libc == "glibc-2.41-debian-fallback" and (.break[] | select(.path == "/usr/bin/touch")
		| .cause_kind == "libc" and (.cause | test("utimensat_time32, with glibc-2.41-debian-fallback, which makes the time32 call first")))' \
	"$work/vd-causeglibc-2.41-debian-fallback/verdict.json"
"$dv" answers "$d" "$work/vd-causeglibc-2.41-time64only" glibc-2.41-time64only >"$work/answers.out" 2>&1
expect "answers: as shipped and with the libc, each the answer's own sentence, also in answers.txt" \
	test "$(cat "$work/answers.out")" = "As shipped: $(sed -n 2p "$r" | sed 's/^  //')
With glibc-2.41-time64only: $(sed -n 2p "$work/vd-causeglibc-2.41-time64only/report.txt" | sed 's/^  //')" -a \
	"$(cat "$work/vd-causeglibc-2.41-time64only/answers.txt")" = "$(cat "$work/answers.out")"
mkdir -p "$work/vd-nolibc"
echo "glibc.sh: the glibc build for armhf failed: error: no" >"$work/vd-nolibc/error"
expect "answers: a libc that could not be put there: UNKNOWN, and why" \
	test "$("$dv" answers "$d" "$work/vd-nolibc" glibc-2.41-time64only | sed -n 2p)" = \
	"With glibc-2.41-time64only: UNKNOWN: glibc.sh: the glibc build for armhf failed: error: no"

# =n as good as =y, no init boots: YES, as far as the programs that passed
# with =y show. Its cat printed a first line that session.c cut (it keeps
# 120 bytes) in the middle of a character: still a result.
d2=$work/vd-yes
mkdir -p "$d2" "$work/n-as-y"
cp "$d"/{inputs.json,config.json,scan.json,smoke.tsv,smoke.tsv.skipped} "$d2/"
cp "$fv/boots/y/"* "$work/n-as-y/"
sed -i "s|^\(# ok [0-9]* distro /usr/bin/cat now # PASS exit 0 in [0-9.]* s: \"\).*|\1$(printf 'caf\303')|" "$work/n-as-y/tap.log"
"$vd" verdict "$d2" "$fv/boots/y" "$work/n-as-y" >"$work/yes.out" 2>&1
expect "verdict: =n as good as =y: YES, nothing breaks" \
	jqe '.can_turn_off == "yes" and .break == [] and .init_boots == [] and .past_boot_problems == [] and .programs_past_reported == 0' "$d2/verdict.json"
expect "verdict: ... a result whose detail ends in half a character is read (cat: PASS, its detail as far as it goes)" \
	jqe '.["/usr/bin/cat"].class == "PASS" and (.["/usr/bin/cat"].detail | endswith("\"caf\ufffd"))' "$d2/smoke-n.json"
expect "report: ... YES, as far as the programs that passed with =y show" \
	grep -qx "  YES, as far as the $(grep -c '^# ok [0-9]* distro ' "$fv/boots/y/tap.log") programs whose smoke test means something show: none broke with COMPAT_32BIT_TIME=n." "$work/yes.out"
expect "report: ... without init boots, no word of them" \
	test "$(grep -c 'own init' "$work/yes.out")" = 0

# The =n boot cut short (before lastlog): those it did not reach make the answer unknown.
d3=$work/vd-cut
mkdir -p "$d3" "$work/n-cut"
cp "$d"/{inputs.json,config.json,scan.json,smoke.tsv,smoke.tsv.skipped} "$d3/"
sed '/ lastlog -u root$/,$d' "$fv/boots/n/tap.log" >"$work/n-cut/tap.log"
sed 's/^qemu_status=.*/qemu_status=timeout/' "$fv/boots/n/meta" >"$work/n-cut/meta"
"$vd" verdict "$d3" "$fv/boots/y" "$work/n-cut" >"$work/cut.out" 2>&1
missing=$(comm -23 <(grep -v '^#' "$d3/smoke.tsv" | cut -f2 | sort) <(sed -n 's/^# .*ok [0-9]* distro \([^ ]*\) now .*/\1/p' "$work/n-cut/tap.log" | sort))
expect "verdict: =n cut short: UNKNOWN, the programs it did not reach not reported" \
	jqe --arg m "$missing" '.can_turn_off == "unknown" and .programs_not_reported == ($m | split("\n")) and .boot_problems == []' "$d3/verdict.json"
expect "report: ... saying how many did not report, and which" \
	test "$(grep -c "^  UNKNOWN: nothing broke, but $(wc -l <<<"$missing") programs did not report$" "$work/cut.out"):$(grep -c "^Did not report (the session or the guest ended first): $(tr '\n' ' ' <<<"$missing" | sed 's/ $//')$" "$work/cut.out")" = 1:1

# A boot past the overflow that never ran: not measured, and why.
mkdir -p "$work/past-none"
printf 'qemu_status=failed\nerror=no kernel build/kernels/i386-distro/bzImage\n' >"$work/past-none/meta"
"$vd" verdict "$d3" "$fv/boots/y" "$fv/boots/n" "$work/past-none" >"$work/past.out" 2>&1
expect "verdict: a boot past the overflow that never ran: its problem, and nothing judged there" \
	jqe '.past_boot_problems == ["past-none: the smoke session did not run: error=no kernel build/kernels/i386-distro/bzImage"]
		and .programs_past_reported == 0 and .break_2038 == []' "$d3/verdict.json"
expect "report: ... \"Past the overflow: not measured\", with it" \
	grep -qx 'Past the overflow: not measured: past-none: the smoke session did not run: error=no kernel build/kernels/i386-distro/bzImage' "$work/past.out"


# --- The setup boot: did debootstrap's second stage finish?
s=$work/setup
mkdir -p "$s/done" "$s/failed" "$s/lost"
{ head -n 40 "$fixtures/distro-init/ok/console.log"; printf 'y2038-second-stage: exit 0\r\n'; } >"$s/done/console.log"
{ head -n 40 "$fixtures/distro-init/ok/console.log"; printf 'y2038-second-stage: exit 1\r\n[   98.7] reboot: Power down\r\n'; } >"$s/failed/console.log"
printf 'qemu_status=timeout\nqemu_exit=-\n' >"$s/lost/meta"
same "setup boot: the second stage finished: nothing to say" "$("$dv" setup-boot "$s/done"; echo "rc=$?")" "rc=0"
"$dv" setup-boot "$s/failed" >"$s/failed.why"
same "setup boot: it failed: its exit line, then the console's last 15 lines" \
	"$(tr -d '\r' <"$s/failed.why")" \
	"$(printf "debootstrap's second stage did not finish in the setup boot (%s):\ny2038-second-stage: exit 1\n" "$s/failed"; tail -n 15 "$s/failed/console.log" | tr -d '\r')"
echo "$s/made.img" >"$s/root.img.cached"
"$vd" setup-done "$s/root.img" "$s/lost" >"$s/lost.out" 2>"$s/lost.err"
expect "setup-done: a setup boot that left no console: exit 1, the disk not kept" \
	test "$?" = 1 -a ! -e "$s/made.img"
expect "setup-done: ... root.img.error says why (QEMU's status), and so does stderr" \
	test "$(sed -n 2p "$s/root.img.error")" = "its console has no exit line (qemu: qemu_status=timeout)" -a \
	"$(cat "$s/lost.err")" = "$(cat "$s/root.img.error")"


# --- make try's report.
try=$top/host-tools/distro/try.sh
t=$work/try
cp -r "$fixtures/try" "$t"
"$try" report "$t" >"$t/report.txt" 2>"$t/err"
expect "try report: exit 0, nothing on stderr" test "$?:$(cat "$t/err")" = 0:
# header RUN BOOT: the line a boot's part starts with, from its record
header() { echo "== $2  ($(sed -n 's/^kernel=//p' "$1/boots/$2-try/meta"), $(sed -n 's/^accel=//p' "$1/boots/$2-try/meta"))"; }
same "try report: one part per boot, in name order, each with its kernel and accel" \
	"$(grep '^== ' "$t/report.txt")" "$(header "$t" i386-compat32-n; header "$t" i386-compat32-y)"
# section BOOT: the report's lines for one boot
section() { sed -n "/^== $1 /,/^== /{/^== $1 /d;/^== /d;p}" "$2"; }
same "try report: =n: each phase ended by exit 0 after the program printed ENOSYS's message (its nanosleep)" \
	"$(section i386-compat32-n "$t/report.txt" | grep -- '->')" \
	"$(printf '  -> %s: exit 0, printed the ENOSYS message\n' before across after)"
same "try report: =y: each phase, how it ended, no errno message; the census of time32 calls is not part of it" \
	"$(section i386-compat32-y "$t/report.txt" | grep -- '->')" \
	"$(sed -n 's/^# not ok [0-9]* user tryme \([a-z]*\) # WRONG \(exit 0 in [0-9.]* s\): .*/  -> \1: \2/p' "$t/boots/i386-compat32-y-try/tap.log")"
same "try report: the transcript: each command with its clock, then what the program printed" \
	"$(section i386-compat32-y "$t/report.txt" | grep -v -- '->')" \
	"$(sed -n -e 's/^# # \(\[.*\)/  \1/p' -e 's/^# #   /      /p' "$t/boots/i386-compat32-y-try/tap.log")"
expect "try report: both guests finished" test "$(grep -c 'did not finish' "$t/report.txt")" = 0

# Every way a phase ends: the =y boot's phases as a crash, a timeout, and a
# 1901 date, and the guest cut off before its end; the =n boot's as a crash
# the shell saw, a command the session could not run, and EOVERFLOW's
# message; and an x86_64 boot that could not boot.
t2=$work/try2
cp -r "$fixtures/try" "$t2"
y=$t2/boots/i386-compat32-y-try n=$t2/boots/i386-compat32-n-try
sed -i -e 's/^\(# not ok 1 user tryme before # \).*/\1CRASH killed by signal 11 (SIGSEGV): "time() = 2147483640"/' \
	-e 's/^\(# not ok 2 user tryme across # \).*/\1TIMEOUT did not end within 10 s: ""/' \
	-e 's/^\(# not ok 3 user tryme after # \).*/\1WRAP exit 0 in 0.12 s: "Fri Dec 13 20:45:52 UTC 1901"/' \
	-e '/^# y2038-init: done/d' "$y/tap.log"
sed -i 's/^qemu_status=.*/qemu_status=timeout/' "$y/meta"
sed -i -e 's/^\(# not ok 1 user tryme before # \).*/\1CRASH exit 139: the shell saw signal 11 (SIGSEGV): "time() = 2147483640"/' \
	-e 's/^\(# not ok 2 user tryme across # \).*/\1ERROR the session could not run it: pipe\/fork: errno 12 ENOMEM/' \
	-e 's/^\(# not ok 3 user tryme after # \).*/\1EOVERFLOW exit 1: "tryme: Value too large for defined data type"/' "$n/tap.log"
mkdir -p "$t2/boots/x86_64-compat32-y-try"
printf 'machine=x86_64\nkernel=6.1.192-3\naccel=tcg\nqemu_status=failed\nerror=no kernel build/kernels/x86_64/bzImage\n' >"$t2/boots/x86_64-compat32-y-try/meta"
"$try" report "$t2" >"$t2/report.txt" 2>&1
same "try report: a crash, a timeout, a 1901 date; a guest that did not finish, with QEMU's status" \
	"$(section i386-compat32-y "$t2/report.txt" | grep -e '->' -e 'did not finish')" \
	"  -> before: CRASH killed by signal 11 (SIGSEGV)
  -> across: TIMEOUT did not end within 10 s
  -> after: exit 0 in 0.12 s, printed a 1901 date
  the guest did not finish: qemu_status=timeout"
same "try report: a crash the shell saw, a command the session could not run (ERROR, nothing printed), EOVERFLOW's message" \
	"$(section i386-compat32-n "$t2/report.txt" | grep -e '->')" \
	"  -> before: CRASH exit 139: the shell saw signal 11 (SIGSEGV)
  -> across: ERROR the session could not run it: pipe/fork: errno 12 ENOMEM
  -> after: exit 1, printed the EOVERFLOW message"
same "try report: a boot that could not boot: why, and no transcript" \
	"$(sed -n '/^== x86_64-compat32-y /,$p' "$t2/report.txt")" \
	"$(header "$t2" x86_64-compat32-y)
error=no kernel build/kernels/x86_64/bzImage"
# A program too big for the guest: the kernel could not unpack all of the
# initramfs, said on the console; the report says so before the transcript.
t4=$work/try4
cp -r "$fixtures/try" "$t4"
printf 'Unpacking initramfs...\nInitramfs unpacking failed: write error\nFreeing unused kernel image memory\n' \
	>"$t4/boots/i386-compat32-n-try/console.log"
"$try" report "$t4" >"$t4/report.txt" 2>&1
same "try report: an initramfs the guest could not unpack: the kernel's words and why, before the transcript" \
	"$(section i386-compat32-n "$t4/report.txt" | sed -n 1p)" \
	"  the guest could not unpack all of its initramfs (\"Initramfs unpacking failed: write error\"): the program and its libraries do not fit in make try's guest memory (try.memory, host-tools/boot/boot.mk); what follows ran without some of it"
expect "try report: ... and nothing about it for the boot whose initramfs unpacked" \
	test "$(section i386-compat32-y "$t4/report.txt" | grep -c 'could not unpack')" = 0
mkdir -p "$work/try3/boots"
out=$("$try" report "$work/try3" 2>&1 >"$work/try3.out")
expect "try report: a run without a boot of make try: an error naming the folder, no report" \
	test "$?:$out:$(wc -c <"$work/try3.out")" = "1:distro-verdicts.py: no boot of make try in $work/try3/boots:0"

tap_end
