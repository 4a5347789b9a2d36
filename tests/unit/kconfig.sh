#!/usr/bin/env bash
# kconfig.sh - y2038-kconfig on small configs written here, on broken
# input, and (where make fetched them) on Debian bookworm's i386 and armhf
# configs.
#
#   tests/unit/kconfig.sh HOST_TOOLS_DIR BUILD
#
# BUILD/debian/bookworm holds config.i386_none_686-pae and config.armhf_none_armmp,
# uncompressed, from the linux-config-6.1 packages.
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

debian=$build/debian/bookworm
[ -e "$debian/config.i386_none_686-pae" ] || debian=
tool=$host/y2038-kconfig
rules=$top/data/kconfig-y2038.tsv


# run NAME CONFIG [OPTION...]: the report in $work/NAME.out, .err, .rc
run() {
	local name=$1 config=$2
	shift 2
	"$tool" --rules "$rules" "$@" "$config" >"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.rc"
}
rc() { cat "$work/$1.rc"; }
err() { cat "$work/$1.err"; }
# verdict NAME SYMBOL: the verdict of the report line for CONFIG_SYMBOL
verdict() { awk -F'\t' -v s="CONFIG_$2" 'index($2, s "=") == 1 { print $1 }' "$work/$1.out"; }
# verdicts NAME SYMBOL...: their verdicts, space-separated
verdicts() { local n=$1 s; shift; for s; do verdict "$n" "$s"; done | paste -sd' '; }
reason() { awk -F'\t' -v s="CONFIG_$2" 'index($2, s "=") == 1 { print $3 }' "$work/$1.out"; }
summary() { sed -n 's/^summary\t//p' "$work/$1.out"; }
# Every line but the last is VERDICT<TAB>CONFIG_X=value<TAB>reason; the last is the summary.
well_formed() {
	head -n -1 "$work/$1.out" | grep -vqP '^(ok|warn|fail|info)\tCONFIG_[A-Za-z0-9_]+=[^\t]+\t[^\t]+$' && return 1
	tail -1 "$work/$1.out" | grep -qP '^summary\t[^\t]+$'
}
json() { jq -r "$2" "$work/$1.json"; }
json_matches_text() {
	test "$(json "$1" '.checks[] | [.verdict, .symbol + "=" + (.value // "(absent)"), .reason] | @tsv')" = \
		"$(head -n -1 "$work/$1.out")" &&
	test "$(json "$1" .summary)" = "$(summary "$1")"
}


# --- A 32-bit ARM board that dropped the time32 syscalls.
cat >"$work/arm32.config" <<'EOF'
#
# Automatically generated file; DO NOT EDIT.
#
CONFIG_ARM=y
CONFIG_MMU=y
# CONFIG_COMPAT_32BIT_TIME is not set
CONFIG_RTC_CLASS=y
CONFIG_RTC_HCTOSYS=y
CONFIG_RTC_HCTOSYS_DEVICE="rtc0"
CONFIG_RTC_DRV_PL031=y
CONFIG_RTC_DRV_Y2038_LAB_TEST=m
CONFIG_RTC_DRV_DS3232_HWMON=y
CONFIG_EXT4_FS=y
# CONFIG_XFS_FS is not set
EOF
run arm32 "$work/arm32.config" --json "$work/arm32.json"
expect "arm32: the report is made (exit 0)" test "$(rc arm32)" = 0
expect "arm32: every line is VERDICT, CONFIG_X=value, reason; then the summary" well_formed arm32
expect "arm32: CONFIG_ARM=y makes it a 32-bit kernel, said first" \
	test "$(head -1 "$work/arm32.out")" = $'info\tCONFIG_ARM=y\t32-bit ARM kernel (armhf/armel)'
expect "arm32: COMPAT_32BIT_TIME=n is ok" test "$(verdict arm32 COMPAT_32BIT_TIME)" = ok
expect "arm32: RTC_HCTOSYS=y on 32-bit ARM fails, naming rtc_hctosys()" \
	test "$(verdict arm32 RTC_HCTOSYS) $(reason arm32 RTC_HCTOSYS | grep -c 'rtc_hctosys() refuses')" = "fail 1"
expect "arm32: ... and the lab's RTC_HCTOSYS_Y2038 is reported missing" \
	test "$(grep -c $'^info\tCONFIG_RTC_HCTOSYS_Y2038=(absent)\t' "$work/arm32.out")" = 1
expect "arm32: RTC_HCTOSYS_DEVICE is reported with its string value" \
	grep -q $'^info\tCONFIG_RTC_HCTOSYS_DEVICE="rtc0"\t' "$work/arm32.out"
expect "arm32: RTC_DRV_PL031 is ok until 2106" \
	test "$(verdict arm32 RTC_DRV_PL031) $(reason arm32 RTC_DRV_PL031 | grep -o 2106-02-07)" = "ok 2106-02-07"
expect "arm32: an RTC driver not in the table is info, range not known" \
	test "$(verdict arm32 RTC_DRV_Y2038_LAB_TEST): $(reason arm32 RTC_DRV_Y2038_LAB_TEST)" = "info: range not known to the lab"
expect "arm32: an RTC_DRV_ option that is no driver is not reported" \
	test "$(grep -c RTC_DRV_DS3232_HWMON "$work/arm32.out")" = 0
expect "arm32: EXT4_FS warns, giving 2038 and 2446" \
	test "$(verdict arm32 EXT4_FS) $(reason arm32 EXT4_FS | grep -oE '2038-01-19|2446' | tr '\n' ' ')" = "warn 2446 2038-01-19 "
expect "arm32: a filesystem that is not set is not reported" \
	test "$(grep -c CONFIG_XFS_FS "$work/arm32.out")" = 0
expect "arm32: the summary says time32 is already off" \
	test "$(summary arm32 | cut -d: -f1-2)" = "COMPAT_32BIT_TIME=n: already off"
expect "arm32: --json is valid JSON with arch_bits 32" test "$(json arm32 .arch_bits)" = 32
expect "arm32: ... and holds the same checks and summary as the text" json_matches_text arm32
expect "arm32: ... and names the config" test "$(json arm32 .config)" = "$work/arm32.config"

# The same board on 7.3 and on 6.1, as their .config headers say: what =n
# removes depends on the version (7.3 takes gettimeofday and the vDSO's
# time32 entries too); a config without a header gets the answer for both.
sed '2a # Linux/arm 7.3.0-rc7 Kernel Configuration' "$work/arm32.config" >"$work/arm32-73.config"
sed '2a # Linux/arm 6.1.192 Kernel Configuration' "$work/arm32.config" >"$work/arm32-61.config"
run arm32-73 "$work/arm32-73.config" --json "$work/arm32-73.json"
run arm32-61 "$work/arm32-61.config"
expect "arm32 on 7.3: COMPAT_32BIT_TIME=n takes gettimeofday() and the vDSO's time32 entries, citing 7.3's lines" \
	test "$(reason arm32-73 COMPAT_32BIT_TIME | grep -c 'gettimeofday() (kernel/time/time.c:147-148) and the vDSO')" = 1
expect "arm32 on 6.1: ... they remain" \
	test "$(reason arm32-61 COMPAT_32BIT_TIME | grep -c 'until 7.3, gettimeofday(), the vDSO')" = 1
expect "arm32 without a version: ... the answer for both" \
	test "$(reason arm32 COMPAT_32BIT_TIME | grep -c 'before 7.3 .*from 7.3')" = 1
expect "arm32 on 7.3: --json says the kernel version, 7.3; without a header, null" \
	test "$(json arm32-73 .kernel_version) $(json arm32 .kernel_version)" = "7.3 null"
sed 's/^CONFIG_RTC_HCTOSYS=y$/&\nCONFIG_RTC_HCTOSYS_Y2038=y/' "$work/arm32.config" >"$work/arm32-lab.config"
run arm32-lab "$work/arm32-lab.config"
expect "arm32 with the lab's RTC_HCTOSYS_Y2038=y: RTC_HCTOSYS is ok" \
	test "$(verdicts arm32-lab RTC_HCTOSYS RTC_HCTOSYS_Y2038)" = "ok ok"

# --- 64-bit kernels: x86_64 running i386 programs, arm64 running none.
cat >"$work/x86_64.config" <<'EOF'
CONFIG_64BIT=y
CONFIG_X86_64=y
CONFIG_ACPI=y
CONFIG_IA32_EMULATION=y
CONFIG_COMPAT=y
CONFIG_COMPAT_32BIT_TIME=y
CONFIG_RTC_CLASS=y
CONFIG_RTC_HCTOSYS=y
CONFIG_RTC_DRV_CMOS=y
CONFIG_XFS_FS=m
EOF
run x86_64 "$work/x86_64.config" --json "$work/x86_64.json"
expect "x86_64: the report is made (exit 0), well formed" test "$(rc x86_64)" = 0 -a "$(well_formed x86_64 && echo y)" = y
expect "x86_64: CONFIG_X86_64=y makes it 64-bit (text and JSON)" \
	test "$(head -1 "$work/x86_64.out" | cut -f1,2) $(json x86_64 .arch_bits)" = $'info\tCONFIG_X86_64=y 64'
expect "x86_64: RTC_HCTOSYS=y is ok on 64-bit" test "$(verdict x86_64 RTC_HCTOSYS)" = ok
expect "x86_64: COMPAT_32BIT_TIME=y warns, for the compat programs" \
	test "$(verdict x86_64 COMPAT_32BIT_TIME) $(reason x86_64 COMPAT_32BIT_TIME | grep -c compat)" = "warn 1"
expect "x86_64: IA32_EMULATION and COMPAT are reported" test "$(verdicts x86_64 IA32_EMULATION COMPAT)" = "info info"
expect "x86_64: RTC_DRV_CMOS with ACPI is ok; XFS_FS warns" test "$(verdicts x86_64 RTC_DRV_CMOS XFS_FS)" = "ok warn"
expect "x86_64: the summary is about 32-bit (compat) programs" \
	test "$(summary x86_64 | grep -c '^COMPAT_32BIT_TIME=y: time32 syscalls are present for 32-bit (compat) programs')" = 1

cat >"$work/arm64.config" <<'EOF'
CONFIG_64BIT=y
CONFIG_ARM64=y
# CONFIG_COMPAT is not set
# CONFIG_COMPAT_32BIT_TIME is not set
EOF
run arm64 "$work/arm64.config"
expect "arm64 without COMPAT: 64-bit, COMPAT_32BIT_TIME ok, nothing to turn off" \
	test "$(head -1 "$work/arm64.out" | cut -f2) $(verdict arm64 COMPAT_32BIT_TIME) $(summary arm64)" = \
	"CONFIG_ARM64=y ok COMPAT_32BIT_TIME=n: no 32-bit programs run on this kernel: there is nothing to turn off"

printf 'CONFIG_EXT4_FS=y\n' >"$work/fragment.config"
run fragment "$work/fragment.config" --json "$work/fragment.json"
expect "a config that names no architecture: report made, word size unknown, arch_bits null" \
	test "$(rc fragment) $(verdict fragment 64BIT) $(json fragment .arch_bits)" = "0 warn null"

# --- Input that is no .config: exit 1, the file (and line) named, no report.
# refused NAME CONTENT WHAT ERROR: CONTENT (printf's) as NAME.config is
# refused with "y2038-kconfig: ERROR" ($f: the file) and no report.
refused() {
	local f=$work/$1.config
	[ "$1" = missing ] && f=$work/no-such.config || printf "$2" >"$f"
	run "$1" "$f"
	expect "$3: exit 1, the file named, no report" \
		test "$(rc "$1"): $(err "$1"): $(wc -c <"$work/$1.out")" = "1: y2038-kconfig: ${4//\$f/$f}: 0"
}
refused broken 'CONFIG_A=y\nthis is not kconfig\n' "a garbage line" '$f:2: not a config line: "this is not kconfig"'
refused empty '' "an empty file" '$f: no CONFIG_ lines: not a kernel .config'
refused comments '#\n# just comments\n#\n' "a file without CONFIG_ lines" '$f: no CONFIG_ lines: not a kernel .config'
refused binary '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000\002\000\003\000' "binary garbage" \
	'$f:1: line too long or not text'
refused missing '' "a missing file" '$f: No such file or directory'
run nojson "$work/arm32.config" --json "$work/no-such-dir/out.json"
expect "a --json file that cannot be written: exit 1, naming it" \
	test "$(rc nojson) $(grep -c "$work/no-such-dir/out.json" "$work/nojson.err")" = "1 1"

# --- Usage and rules.
"$tool" >/dev/null 2>&1
r1=$?
"$tool" --bogus "$work/arm32.config" >/dev/null 2>&1
r2=$?
"$tool" "$work/arm32.config" "$work/arm32.config" >/dev/null 2>&1
r3=$?
"$tool" --json >/dev/null 2>&1
expect "usage errors exit 2 (no config, unknown option, two configs, option without value)" \
	test "$r1 $r2 $r3 $?" = "2 2 2 2"
cmp -s "$work/arm32.out" <(cd "$top" && "$tool" "$work/arm32.config" 2>&1)
expect "without --rules the tool finds data/kconfig-y2038.tsv" test $? = 0
# rules_refused NAME RULES: the tool's exit and its error with the rules
# file NAME (RULES, printf's format) on the arm32 config
rules_refused() {
	printf "$2" >"$work/$1.tsv"
	"$tool" --rules "$work/$1.tsv" "$work/arm32.config" >/dev/null 2>"$work/rules.err"
	echo "$?: $(cat "$work/rules.err")"
}
expect "a rule with an unknown verdict: exit 1, file and line named" \
	test "$(rules_refused bad-verdict 'EXT4_FS\t*\ty\tsevere\tbad verdict\n')" = \
	"1: y2038-kconfig: $work/bad-verdict.tsv:1: unknown verdict \"severe\""
expect "a rule with a bad condition, even one behind a false one: exit 1, line named" \
	test "$(rules_refused bad-when '# rules\nEXT4_FS\t32,X86_32\ty\twarn\tbad condition\n')" = \
	"1: y2038-kconfig: $work/bad-when.tsv:2: bad condition \"32,X86_32\""
expect "a rule with a version bound that is not X.Y: exit 1, line named" \
	test "$(rules_refused bad-version '# rules\nEXT4_FS\t32,>=7\ty\twarn\tbad version\n')" = \
	"1: y2038-kconfig: $work/bad-version.tsv:2: bad condition \"32,>=7\""
expect "a rule without five fields: exit 1, line named" \
	test "$(rules_refused bad-fields 'EXT4_FS\t*\twarn\tfour fields\n')" = \
	"1: y2038-kconfig: $work/bad-fields.tsv:1: want 5 tab-separated fields"

# --- Debian bookworm's own kernels (linux-config-6.1).
i386=$debian/config.i386_none_686-pae
armhf=$debian/config.armhf_none_armmp
# Every RTC driver the config enables has a verdict from the table.
rtc_all_known() {
	local enabled reported
	enabled=$(grep -cE '^CONFIG_RTC_DRV_[A-Z0-9_]+=[ym]$' "$2")
	reported=$(grep -cP '^(ok|warn|fail)\tCONFIG_RTC_DRV_' "$work/$1.out")
	[ "$enabled" -gt 0 ] && [ "$enabled" = "$reported" ] && ! grep -q 'range not known' "$work/$1.out"
}
# debian_common NAME CONFIG ARCH_SYMBOL: what every 32-bit Debian config shows
debian_common() {
	local n=$1 config=$2 arch=$3
	run "$n" "$config" --json "$work/$n.json"
	$check "debian $n: report made, well formed, valid JSON like the text" \
		test "$(rc "$n") $(well_formed "$n" && json_matches_text "$n" && echo y)" = "0 y"
	$check "debian $n: 32-bit from CONFIG_$arch=y" \
		test "$(head -1 "$work/$n.out" | cut -f1,2) $(json "$n" .arch_bits)" = $'info\tCONFIG_'"$arch=y 32"
	$check "debian $n: COMPAT_32BIT_TIME=y reported (warn)" test "$(verdict "$n" COMPAT_32BIT_TIME)" = warn
	$check "debian $n: every enabled RTC driver has a verdict from the table" rtc_all_known "$n" "$config"
}
debian_checks() {
	debian_common i386 "$i386" X86_32
	$check "debian i386: RTC_HCTOSYS=y warns (x86 reads CMOS itself), CMOS driver ok" \
		test "$(verdict i386 RTC_HCTOSYS) $(reason i386 RTC_HCTOSYS | grep -c timekeeping_init) $(verdict i386 RTC_DRV_CMOS)" = "warn 1 ok"
	$check "debian i386: XFS, REISERFS, EXT4 modules reported" \
		test "$(grep -cP '^(ok|warn|fail)\tCONFIG_(XFS_FS|REISERFS_FS|EXT4_FS)=m\t' "$work/i386.out")" = 3
	$check "debian i386: the summary: time32 syscalls present, scan the userspace" \
		test "$(summary i386)" = "COMPAT_32BIT_TIME=y: time32 syscalls are present; turning them off is safe only if no program uses them (scan the userspace)"

	debian_common armhf "$armhf" ARM
	$check "debian armhf: RTC_HCTOSYS=y fails" test "$(verdict armhf RTC_HCTOSYS)" = fail
	$check "debian armhf: sun6i RTC (to 2033) fails, PL031 ok" \
		test "$(verdicts armhf RTC_DRV_SUN6I RTC_DRV_PL031)" = "fail ok"
	$check "debian armhf: XFS warn, REISERFS ok, EXT4 warn, as modules" \
		test "$(grep -oP '^(ok|warn|fail)\tCONFIG_(XFS_FS|REISERFS_FS|EXT4_FS)=m' "$work/armhf.out" | tr '\t\n' ' ')" = \
		"warn CONFIG_EXT4_FS=m warn CONFIG_XFS_FS=m ok CONFIG_REISERFS_FS=m "
}
# Without the configs, the same checks, each reported as skipped.
skip_check() { skip "$1" "no Debian configs given"; }
if [ -n "$debian" ]; then check=expect; else check=skip_check; fi
debian_checks 2>/dev/null

# --- The same tool under ASan and UBSan: warning-free, and the same answers.
asan=$work/y2038-kconfig-asan
if gcc -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$asan" "$top/host-tools/distro/y2038-kconfig.c" "$top/host-tools/kernel/kconfig-parse.c" 2>"$work/asan.err"; then
	diffs=
	for c in arm32 x86_64 arm64 fragment broken empty binary missing ${debian:+i386 armhf}; do
		cfg=$work/$c.config
		[ "$c" = i386 ] && cfg=$i386
		[ "$c" = armhf ] && cfg=$armhf
		[ "$c" = missing ] && cfg=$work/no-such.config
		"$asan" --rules "$rules" --json "$work/$c.asan.json" "$cfg" >"$work/$c.asan.out" 2>"$work/$c.asan.err"
		r=$?
		"$tool" --rules "$rules" "$cfg" >"$work/$c.plain.out" 2>/dev/null
		[ "$r" = $? ] && cmp -s "$work/$c.asan.out" "$work/$c.plain.out" &&
			! grep -q Sanitizer "$work/$c.asan.err" || diffs="$diffs $c"
	done
	expect "ASan/UBSan build: same reports and exit codes, no sanitizer report" test -z "$diffs"
else
	not_ok "ASan/UBSan build compiles warning-free" "$(head -20 "$work/asan.err")"
fi

tap_end
