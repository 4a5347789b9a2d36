#!/usr/bin/env bash
# fault-boots.sh - provoke each fault for real and check that it becomes a
# clear verdict, with what was measured before it kept.
#
#   tests/run/fault-boots.sh BUILD_DIR HOST_TOOLS_DIR CACHE_DIR KERNEL_ENV MACHINE_ENV
#
# Boots the lab's i386 compat32-y kernel and initramfs (make lab built them)
# five ways: a kernel that panics, a scenario that hangs (tests/run/fault-hang.c)
# which the guest must time out, a guest that never ends (its CPU never
# starts) which the host must kill, a QEMU that cannot start, and no kernel
# at all. Then the host (libfaketime)
# column without its library, with a program that crashes (each way the
# column can run, on any host: natively, under qemu-i386, and natively
# refused), and with one that holds CAP_SYS_TIME.
set -uo pipefail

build=$(realpath "$1") host=$(realpath "$2") cache=$3
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../../host-tools/lib.sh"
tap_scratch

env=$4 facts=$5	# i386's kernel, and its facts (machines/i386.mk as make writes them)
if [ ! -f "$env" ] || [ ! -f "$build/i386/initramfs.cpio" ] || [ ! -f "$facts" ]; then
	skip "fault boots: a panic, a hang, a QEMU failure and no kernel, each a clear verdict" \
		"no i386 kernel, initramfs or machine facts ($env, $build/i386/initramfs.cpio, $facts): i386 was not built or booted here"
	tap_end
	exit
fi

# A boot of i386 running one scenario, planned as make plans one (its plan
# in the run's plans/); the arguments provoke the fault, over the plan.
boot() {
	local name=$1; shift
	boot_planned "$work/run/plans/$name" run_id=test machine_env="$facts" config=compat32-y kind=fault \
		kernel_env="$env" initrd="$build/i386/initramfs.cpio" scenarios=clock-legacy \
		rtc_base=2038-01-19T03:13:55 guest_timeout=60 boot_timeout=120 -- \
		out="$work/run/boots/$name" accel=tcg probe="$host/kvm-probe" cache="$cache" "$@" >/dev/null
}
boot panic extra_append="rdinit=/no-such-init"
# A scenario that hangs for real: clock-legacy behind tests/run/fault-hang.c,
# which relays its first two cases and then spins. The overlay replaces it in
# the lab's own initramfs (later cpio members win).
mkdir -p "$work/hang/scenarios"
i686-linux-gnu-gcc -O2 -static -o "$work/hang/scenarios/clock-legacy" "$top/tests/run/fault-hang.c"
(cd "$work" && cpio -i --quiet --to-stdout scenarios/clock-legacy <"$build/i386/initramfs.cpio" \
	>"$work/hang/scenarios/clock-legacy.real")
chmod 755 "$work/hang/scenarios/clock-legacy.real"
"$top/host-tools/initramfs/overlay-cpio.sh" "$work/hang.cpio" "$build/i386/initramfs.cpio" "$work/hang"
boot scenario-timeout guest_timeout=2 initrd="$work/hang.cpio"
boot host-timeout boot_timeout=3 qemu_extra=-S	# -S: the CPU never starts
boot qemu-fails qemu_machine=no-such-board
printf 'KERNEL_ERROR=%q\n' "i386 compat32-y: provoked by the test" >"$work/broken.env"
boot no-kernel kernel_env="$work/broken.env"
# host_column NAME LIBFAKETIME_DIR BINS_DIR [faketime.sh KEY=VALUE...]: i386's
# host column, clock-legacy only.
host_column() {
	local name=$1 libfaketime=$2 bins=$3
	shift 3
	"$top/host-tools/boot/faketime.sh" out="$work/run/boots/$name" run_id=test machine_env="$facts" \
		libc=/usr/i686-linux-gnu/lib libfaketime="$libfaketime" runner="$host/y2038-run" \
		bins="$bins" scenarios=clock-legacy "$@" >/dev/null 2>&1
}
# No libfaketime fetched (a failed download).
host_column no-libfaketime "$work/no-such-dir" "$build/i386/dynamic"
# A program that dies of a signal, run each way the column can go, on any
# host: the machine's own choice (native where this kernel runs i386
# programs), qemu-i386 alone, and a kernel that refuses the native way (its
# probe is a file no kernel executes: Exec format error, exit 126, as an
# x86-64 kernel without IA32 emulation answers the i386 loader), where
# qemu-i386 takes over. Refused with no other way, the column is skipped.
mkdir -p "$work/crasher"
chmod 755 "$work" "$work/crasher"	# the column runs as nobody
echo 'int main(void) { *(volatile int *)0 = 1; return 0; }' >"$work/crasher.c"
i686-linux-gnu-gcc -o "$work/crasher/clock-legacy" "$work/crasher.c"
{ printf '\177ELF'; head -c 60 /dev/zero; } >"$work/refused-loader"
chmod 755 "$work/refused-loader"
host_column host-crash "$build/i386/libfaketime" "$work/crasher"
host_column host-crash-qemu "$build/i386/libfaketime" "$work/crasher" ways=qemu-i386
host_column host-crash-refused "$build/i386/libfaketime" "$work/crasher" native_probe="$work/refused-loader"
host_column host-refused "$build/i386/libfaketime" "$work/crasher" ways=native native_probe="$work/refused-loader"

"$host/y2038-collect" "$top/expectations.tsv" "$work/run" >"$work/out" 2>&1
rc=$?
expect "faults: the collector reports them as contradicting the table (exit 1, not 2)" test $rc = 1
cell() { jq -r --arg b "$1" --arg c "$2" --arg p "$3" \
	'.[] | select(.boot==$b and .abi=="legacy" and .case==$c and .phase==$p) | .observed + ": " + .detail' \
	"$work/run/results.json"; }

expect "panic: every cell is CRASH, quoting the kernel" \
	grep -q '^CRASH: kernel panic: Kernel panic - not syncing' <<<"$(cell panic time before)"
expect "scenario timeout: guest-init kills it, the cells become TIMEOUT" \
	test "$(cell scenario-timeout clock_nanosleep_rel across)" = "TIMEOUT: scenario killed: TIMEOUT 2 seconds"
expect "scenario timeout: the cases it reported first are kept" \
	test "$(jq -r '[.[] | select(.boot=="scenario-timeout" and .abi=="legacy" and .case=="time")
		| .phase + " " + .verdict] | sort | join(", ")' "$work/run/results.json")" = "after match, before match"
expect "host timeout: a guest that never ends is killed and its cells are TIMEOUT" \
	test "$(cell host-timeout time before)" = "TIMEOUT: guest did not end within 3 s"
expect "host timeout: qemu was killed by the timeout" \
	grep -qx 'qemu_status=timeout' "$work/run/boots/host-timeout/meta"
expect "qemu fails: every cell is ERROR, pointing at qemu.log" \
	test "$(cell qemu-fails time before)" = "ERROR: qemu failed to start (exit 1): see qemu.log"
expect "qemu fails: qemu.log says why" grep -q 'unsupported machine type' "$work/run/boots/qemu-fails/qemu.log"
expect "no kernel: every cell is ERROR, naming the cause" \
	test "$(cell no-kernel time before)" = "ERROR: no kernel: i386 compat32-y: provoked by the test"
expect "host column without libfaketime: every cell is ERROR, naming the cause" \
	grep -q '^ERROR: no libfaketime for i386 in .*no-such-dir' <<<"$(cell no-libfaketime time before)"
# Whether this host's kernel runs i386 programs: the machine's own choice
# of way is native where it does, qemu-i386 where it refuses them.
refusal=$(/usr/i686-linux-gnu/lib/ld-linux.so.2 --help 2>&1 >/dev/null) || true
meta() { sed -n "s/^$2=//p" "$work/run/boots/$1/meta"; }
expect "host column, its own way: a program killed by SIGSEGV is CRASH, naming the signal ($(meta host-crash accel))" \
	grep -q '^CRASH: .*CRASH signal 11 (SIGSEGV)$' <<<"$(cell host-crash time before)"
expect "host column, its own way: native where this kernel runs i386 programs, else qemu-user" \
	test "$(meta host-crash accel)" = "$([ -z "$refusal" ] && echo native || echo qemu-user)"
expect "host column under qemu-i386: the same CRASH, the same words" \
	grep -q '^CRASH: .*CRASH signal 11 (SIGSEGV)$' <<<"$(cell host-crash-qemu time before)"
expect "host column under qemu-i386: accel is qemu-user" test "$(meta host-crash-qemu accel)" = qemu-user
expect "host column, native refused: qemu-i386 takes over, and the cells are measured (CRASH)" \
	test "$(meta host-crash-refused accel):$(cell host-crash-refused time before | cut -d: -f1)" = qemu-user:CRASH
expect "host column, native refused: the record says why not native" \
	grep -q '^this host (Linux .*) cannot run i386 programs natively: Exec format error$' <<<"$(meta host-crash-refused accel_note)"
expect "host column, native refused with no other way: its cells are SKIP, quoting why" \
	grep -q '^SKIP: machine skipped: this host .* cannot run i386 programs natively: Exec format error' \
	<<<"$(cell host-refused time before)"

# A host-column program holding CAP_SYS_TIME must refuse to start. In a user
# namespace of its own it holds every capability, yet the kernel still
# refuses it the real clock (capable() asks the initial namespace), so a
# regression here cannot move the host's clock. Natively where this kernel
# runs i386 programs, and under qemu-i386 on every host.
faked=$build/i386/dynamic/clock-legacy
capable() {
	(cd "$work" && unshare --user --map-root-user env -i Y2038_HOST=libfaketime \
		"$@" /usr/i686-linux-gnu/lib/ld-linux.so.2 --library-path /usr/i686-linux-gnu/lib "$faked" 2>&1)
}
for way in native qemu-i386; do
	if [ "$way" = native ] && [ -n "$refusal" ]; then
		skip "host column, natively: a program that holds CAP_SYS_TIME bails out" "this host cannot run i386 programs: ${refusal##*: }"
		continue
	fi
	if [ "$way" = native ]; then
		out=$(capable)
	else
		out=$(capable qemu-i386 -L /usr/i686-linux-gnu)
	fi
	rc=$?
	expect "host column, $way: a program that holds CAP_SYS_TIME bails out (exit 1) before any case" \
		test "$rc:$(grep -c '^ok\|^not ok' <<<"$out")" = "1:0"
	expect "host column, $way: it says why" grep -q '^Bail out! Y2038_HOST=libfaketime with CAP_SYS_TIME' <<<"$out"
done
tap_end
