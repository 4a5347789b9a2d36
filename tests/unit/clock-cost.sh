#!/usr/bin/env bash
# Tests of make bench's clock part (host-tools/bench/clock-cost.sh) on real
# boots' TAP: armv7 on 7.3, compat32-y and =n, two rounds each (tests/
# fixtures/clock-cost/, from a make bench of 2026-12-06), and a boot that
# had no kernel. In a copy of the tools whose boot.sh is a stand-in that
# puts the fixture boot in its place (its kernel_env= names the fixture),
# or records the boot that could not start, as boot.sh does.
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

tools=$work/tools
mkdir -p "$tools/host-tools/bench" "$tools/host-tools/boot"
cp "$top/host-tools/lib.sh" "$tools/host-tools/"
cp "$top/host-tools/boot/boot-record.h" "$tools/host-tools/boot/"
cp "$top/host-tools/bench/clock-cost.sh" "$tools/host-tools/bench/"
cp "$top/host-tools/boot/boot-plan.sh" "$tools/host-tools/boot/"
cat >"$tools/host-tools/boot/boot.sh" <<'SH'
#!/usr/bin/env bash
# a stand-in for boot.sh: its plan's kernel_env= names a fixture boot, its
# round's folder (-rN, as the boot's out= ends) put in out=; or there is none
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
mapfile -t planned <"$plan"
kv_args "${planned[@]}" "$@"
mkdir -p "$out"
if [ -d "$kernel_env-r${out##*-r}" ]; then
	cp "$kernel_env-r${out##*-r}"/* "$out"/
else
	boot_record "$out/meta" run_id="$run_id" kind="$kind" machine=i386 config="$config" scenarios="$scenarios" \
		qemu_status=failed error="no kernel: $kernel_env does not read as KEY=VALUE: empty"
fi
SH
chmod +x "$tools/host-tools/boot/boot.sh"

programs=clock-cost-legacy,clock-cost-time64,clock-cost-musl
out=$work/clock
"$tools/host-tools/bench/clock-cost.sh" out="$out" run_id=unit rounds=2 cache="$work/cache" probe=/bin/false \
	rtc_base=2038-01-19T03:13:55 guest_timeout=60 boot_timeout=300 boots="$(for c in y n; do
		printf 'linux-source-7.3:armv7:compat32-%s:%s:-:-:%s ' $c "$fixtures/clock-cost/armv7-compat32-$c" $programs; done)
		linux-source-7.3:i386:compat32-y:$work/no-kernel.env:-:-:$programs" >"$work/out.txt"
rc=$?
same "clock-cost.sh: a boot without a kernel fails the part" "$rc" 1
# row: kernel_source kernel config machine abi way cost_ns rounds_ns how
row() { awk -F'\t' -v c="$1" -v m="$2" -v a="$3" -v w="$4" '$3 == c && $4 == m && $5 == a && $6 == w' "$out/clock-cost.tsv"; }
same "a way's cost is its fastest boot's, each boot's kept in turn, the path one call took beside it" \
	"$(row compat32-y armv7 musl clock_gettime | cut -f1-)" \
	"$(printf 'linux-source-7.3\t7.3~rc7-1~exp1\tcompat32-y\tarmv7\tmusl\tclock_gettime\t134.2\t369.8 134.2\tvDSO __vdso_clock_gettime64')"
same "... musl's on compat32-n: the clock_gettime64 syscall, every call" \
	"$(row compat32-n armv7 musl clock_gettime | cut -f7-)" "$(printf '10777.2\t11007.0 10777.2\tsyscall clock_gettime64')"
same "a raw way's ABI is its own: raw32 __vdso_clock_gettime on compat32-y" \
	"$(row compat32-y armv7 raw32 __vdso_clock_gettime | cut -f7,9)" "$(printf '100.0\tvDSO __vdso_clock_gettime')"
same "an entry the vDSO does not export is absent, saying what it does export" \
	"$(row compat32-n armv7 raw32 __vdso_clock_gettime | cut -f7-)" \
	"$(printf 'absent\t-\tabsent: __vdso_clock_gettime is not in the vDSO (__vdso_clock_getres_time64 __vdso_clock_gettime64)')"
same "a syscall the kernel lacks is ENOSYS, naming it" \
	"$(row compat32-n armv7 raw32 syscall-gettimeofday | cut -f7)" ENOSYS
expect "... with its errno" grep -q $'\tENOSYS\t-\tENOSYS: syscall gettimeofday: errno 38 ENOSYS' "$out/clock-cost.tsv"
same "a boot without a kernel: one failed row a program, naming the boot and how it ended" \
	"$(row compat32-y i386 legacy - | cut -f7,9)" \
	"$(printf 'failed\tno result from clock-cost-legacy in boot %s/boots/i386-compat32-y-7.3-r1: no kernel: %s/no-kernel.env does not read as KEY=VALUE: empty' "$out" "$work")"
same "every boot's rows are kept: 12 ways, 2 configs, 2 rounds, and a failed row a round for each program of the boot without a kernel" \
	"$(tail -n +2 "$out/clock-cost-boots.tsv" | wc -l)" 54
# The table: a column per kernel and config, in the order booted.
same "the table's columns" "$(head -1 "$out/clock-cost.txt" | tr -s ' ')" \
	"machine abi way 7.3 compat32-y 7.3 compat32-n"
same "the table's musl row: the ns and the path, shortened" \
	"$(grep '^armv7 *musl *clock_gettime' "$out/clock-cost.txt" | tr -s ' ')" "armv7 musl clock_gettime 134 v64 10777 s64"
same "... a raw32 row on compat32-n: absent" \
	"$(grep '^armv7 *raw32 *__vdso_gettimeofday' "$out/clock-cost.txt" | tr -s ' ')" \
	"armv7 raw32 __vdso_gettimeofday 98 vtod absent"
expect "... the failed boot's column says so" grep -q '^i386 *legacy *- *failed *-$' "$out/clock-cost.txt"
expect "... and what decided the costs: each boot's clocksource and vDSO" \
	grep -qx '7.3 compat32-n armv7: clocksource: arch_sys_counter; vDSO: __vdso_clock_getres_time64 __vdso_clock_gettime64' "$out/clock-cost.txt"
expect "the table is printed" grep -q '^armv7 *musl *gettimeofday' "$work/out.txt"
tap_end
