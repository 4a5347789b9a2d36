#!/usr/bin/env bash
# boot.sh - boot one lab guest at the rollover and keep everything it left.
#
#   boot.sh plan=FILE out=DIR [KEY=VALUE...]
#     plan=FILE               the boot's plan, as make writes it (boot.mk: a
#                             boot record, host-tools/boot/boot-record.h, of
#                             the keys below), kept as DIR/plan as the boot
#                             starts; KEY=VALUE arguments say the same
#                             without a plan, and win over it
#     out=DIR                 the boot's folder in the run (created)
#     machine_env=FILE        the machine's facts (build/machines/M.env: its
#                             QEMU, board, console and TAP devices, accel)
#     config= run_id=         recorded in DIR/meta
#     kind=KIND               the kind of boot (boot.mk's BOOT_KINDS: matrix, ...), recorded
#     distro=NAME             the distribution whose root it carries (demo boots; default -)
#     kernel_env=FILE         written by kernel.sh (image, version, patches)
#     initrd=FILE scenarios=a,b,c   (no FILE: FILE.error says why, if anything)
#     memory=MIB              more memory than the machine's (a kind of boot)
#     rtc_base=ISO-8601       the guest's RTC at power-on
#     guest_timeout=S         per scenario, enforced inside the guest
#     boot_timeout=S          for the whole guest, enforced here (a plan's timeout_s)
#     probe=PROGRAM cache=DIR kvm-probe, and where its verdict is kept
#     extra_append=ARGS       more kernel command line (tests provoke faults)
#     disk=FILE               a raw disk image on the board's virtio block
#                             device (a distribution's root: validate-distro);
#                             disk_writes=keep writes to it, else QEMU keeps
#                             the writes aside and drops them at the end
#     disks=FILE,FILE         more raw disk images on virtio block devices,
#                             each with its name (FILE's, without .img) as
#                             the device's serial, the guest's way to tell
#                             them apart; their writes are dropped at the end
#     KEY=VALUE               any of the machine's facts, overridden (tests
#                             provoke faults: qemu_extra=-S, accel=tcg)
#     total=N                 boots in the run, for the progress line (optional)
#     session=ID              the make that starts them (BOOT_SESSION), for that line
#     timed=yes|no            a kind whose cases have a moment to meet (default
#                             yes): it boots only when one of this machine's
#                             timed_guests slots is free (below)
#     timed_guests=N          how many timed guests this machine runs at once
#                             (make's TIMED_GUESTS; default: what make bench
#                             measured here, else one per core)
#     alone=yes               a boot again of one whose case missed its moment
#                             (retry-late.sh): it takes every slot, so that no
#                             other timed guest of any run shares the machine
#
# Leaves DIR/console.log, DIR/tap.log, DIR/qemu.log, DIR/qemu.cmd and
# DIR/meta (the boot record: host-tools/boot/boot-record.h). skip="reason"
# records a machine this host cannot provide, without booting anything. A
# guest that hangs, panics or never starts is a result, not an error: this
# exits 0 whenever it could record what happened.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=host-tools/boot/guest-cmdline.sh
. "$(dirname "$0")/guest-cmdline.sh"
run_id= distro=- disk= disks= disk_writes=drop timed=yes timed_guests= alone= plan= extra_append=
# The plan's keys that say something (an empty one leaves the machine's).
planned=()
kv_args "$@"
if [ -n "$plan" ]; then
	[ -r "$plan" ] || die "no plan $plan"
	mapfile -t planned < <(grep -v '^[a-z_]*=$' "$plan")
	kv_args "${planned[@]}"
	boot_timeout=${boot_timeout:-${timeout_s:-}}
fi
need out machine_env config kind scenarios
machine_facts "$machine_env"
# the plan, then what the caller says, win over the machine's facts
kv_args ${planned[@]+"${planned[@]}"} "$@"

mkdir -p "$out"
# One boot of this folder at a time: a resumed run that finds a boot of an
# interrupted one still going (make killed, its boot.sh not) waits for it,
# and keeps what it recorded.
exec 7>"$out/.lock"
flock 7
if [ -n "$(find "$out/meta" -newer "$out/.lock" 2>/dev/null)" ]; then
	say KEPT "$machine $config: $out was booted by the run this one resumes"
	exit 0
fi
# What every record of this boot says, whatever became of it; and its plan,
# kept as it starts, so that a boot that never ended still says what it was.
facts=(run_id="$run_id" kind="$kind" machine="$machine" karch="$karch" userland="$userland"
	distro="$distro" config="$config" scenarios="$scenarios")
boot_record "$out/plan" "${facts[@]}" machine_env="$machine_env" kernel_env="${kernel_env:-}" \
	initrd="${initrd:-}" disk="$disk" disk_writes="$disk_writes" disks="$disks" memory="$memory" \
	rtc_base="${rtc_base:-}" guest_timeout="${guest_timeout:-}" timeout_s="${boot_timeout:-}" \
	extra_append="$extra_append" timed="$timed"
# A machine this host cannot provide is recorded as skipped, with the reason.
if [ -n "${skip:-}" ]; then
	boot_record "$out/meta" "${facts[@]}" qemu_status=skipped skip_reason="$skip"
	say SKIP "$machine $config: $skip"
	exit 0
fi
need kernel_env initrd rtc_base guest_timeout boot_timeout probe cache
KERNEL_ERROR=
# A kernel description that does not read cleanly is no kernel: say so, and
# let the run go on.
if ! err=$( (set -e; . "$kernel_env") 2>&1 >/dev/null) || [ -n "$err" ]; then
	KERNEL_ERROR="$kernel_env does not read as KEY=VALUE: ${err:-empty}"
else
	# shellcheck source=/dev/null
	. "$kernel_env"
fi
BOOT_ERROR=${KERNEL_ERROR:+no kernel: $KERNEL_ERROR}
if [ -z "$BOOT_ERROR" ] && [ ! -s "$initrd" ]; then
	BOOT_ERROR="no initramfs $initrd: $(head -c 300 "$initrd.error" 2>/dev/null | tr '\n' ' ' || true)"
	[ -s "$initrd.error" ] || BOOT_ERROR+="it was not made"
fi
if [ -z "$BOOT_ERROR" ] && [ -n "$disk" ] && [ ! -s "$disk" ]; then
	BOOT_ERROR="no disk $disk: $(head -c 300 "$disk.error" 2>/dev/null | tr '\n' ' ' || true)"
	[ -s "$disk.error" ] || BOOT_ERROR+="it was not made"
fi
for d in ${disks//,/ }; do
	[ -z "$BOOT_ERROR" ] && [ ! -s "$d" ] || continue
	BOOT_ERROR="no disk $d: $(head -c 300 "$d.error" 2>/dev/null | tr '\n' ' ' || true)"
	[ -s "$d.error" ] || BOOT_ERROR+="it was not made"
done
if [ -n "$BOOT_ERROR" ]; then
	boot_record "$out/meta" "${facts[@]}" qemu_status=failed error="$BOOT_ERROR"
	say ERROR "$machine $config: cannot boot: $BOOT_ERROR"
	exit 0
fi

# Everything a guest of this machine needs but its command line.
qemu_base() {
	local dir=$1
	echo "$qemu $(qemu_options file "$dir")" \
		"-kernel $KERNEL_IMAGE -initrd $initrd -rtc base=$rtc_base"
}

# This host's TSC rate (kvm-probe --tsc-khz), measured once per host boot
# and kept beside the KVM verdict; nothing on a host without one.
host_tsc_khz() {
	local file
	case $append in *@HOST_TSC_KHZ@*) ;; *) return 0 ;; esac
	file=$(host_fact_file "$cache" tsc-khz)
	mkdir -p "$cache/accel"
	if [ ! -s "$file" ] && "$probe" --tsc-khz >"$file.$$" 2>/dev/null; then
		mv "$file.$$" "$file"
	fi
	rm -f "$file.$$"
	cat "$file" 2>/dev/null || true
}

# KVM is used only after it booted this very guest here; the verdict is kept
# per host boot, qemu binary and machine, so it is paid for once.
choose_accel() {
	local a verdict file dir
	for a in $accel; do
		[ "$a" = kvm ] || { echo "$a"; return; }
		file=$(host_fact_file "$cache" "$machine-$(basename "$qemu")")
		mkdir -p "$cache/accel"
		# parallel boots of one machine probe once; the others wait for it
		exec 8>"$file.lock"
		flock 8
		if [ ! -f "$file" ]; then
			if ! verdict=$("$probe"); then
				:
			else
				dir=$(mktemp -d)
				# shellcheck disable=SC2046
				if timeout -k 2 15 $(qemu_base "$dir") -accel kvm \
					-append "$(guest_cmdline "$console" "" "$tap_dev" "" "$(machine_append "$(host_tsc_khz)")")" \
					>"$dir/qemu.log" 2>&1 && grep -q '^TAP version 13' "$dir/tap.log"; then
					verdict=kvm
				else
					verdict="tcg: kvm-probe ran a guest instruction, but this kernel did not boot under KVM within 15 s"
				fi
				rm -rf "$dir"
			fi
			echo "$verdict" >"$file"
		fi
		exec 8>&-
		verdict=$(cat "$file")
		if [ "$verdict" = kvm ]; then
			echo kvm
			return
		fi
		echo "$verdict" >"$out/accel-note"
	done
	echo tcg
}

acc=$(choose_accel)
append=$(machine_append "$(host_tsc_khz)")
cmdline=$(guest_cmdline "$console" "$scenarios" "$tap_dev" "$guest_timeout" "$append${extra_append:+ $extra_append}")
cmd="$(qemu_base "$out") -accel $acc"
printf '%s -append "%s"\n' "$cmd" "$cmdline" >"$out/qemu.cmd"

write_meta() {
	boot_record "$out/meta" "${facts[@]}" kernel="$KERNEL_VERSION" kernel_source="$KERNEL_SOURCE" \
		patches="$KERNEL_PATCHES" kernel_flavour="${KERNEL_FLAVOUR:-lab}" accel="$acc" rtc_base="$rtc_base" qemu_status="$1" \
		qemu_exit="$2" wall_s="$3" timeout_s="$boot_timeout" \
		accel_note="$(cat "$out/accel-note" 2>/dev/null || true)"
}

# The record is written when the boot has ended, never before: a run that
# is interrupted (Ctrl-C, kill -9 of make or QEMU) leaves no record of a
# boot it did not finish, so make boots it again when the run is resumed
# (make run RUN_ID=...), and keeps every boot that did finish.
rm -f "$out/meta"
interrupted() {
	say STOPPED "$machine $config: interrupted; nothing recorded (resume: make run RUN_ID=$run_id)"
	exit 130
}
trap interrupted INT TERM HUP
# A timed guest (its cases meet moments before and across the overflow)
# boots when one of this machine's timed_guests slots is free: TCG runs a
# guest on a host thread, and more guests than the machine keeps up with
# make their cases miss their moments (LATE). The slots are the cache's, so
# that every run on this machine shares them; a slot is held (fd 9, or every
# one for a boot again alone) until this script ends. One slot per core
# unless make bench measured how many this machine runs without a case's
# start slipping (bench.sh: guests at once).
take_slots() {
	local dir=$cache/host/timed-slots k fd
	mkdir -p "$dir"
	if [ -z "$timed_guests" ]; then
		timed_guests=$(cat "$(timed_guests_file "$cache")" 2>/dev/null || nproc)
	fi
	if [ "$alone" = yes ]; then
		for k in $(seq 1 "$timed_guests"); do
			exec {fd}>"$dir/$k"
			flock "$fd"
		done
		return
	fi
	while :; do
		for k in $(seq 1 "$timed_guests"); do
			exec 9>"$dir/$k"
			flock -n 9 && return
		done
		exec 9>&-
		sleep 0.2
	done
}
[ "$timed" = no ] || take_slots

# How far along the run is: this boot's place among those this make started
# (session=: a run finished later by another make counts its own), each
# taking the next number with an atomic mkdir (two boots start at once; the
# host columns are not boots).
step=
if [ "$alone" = yes ]; then
	step=" (again, alone)"
elif [ -n "${total:-}" ]; then
	n=1
	while ! mkdir "$out/../.started-${session:-0}-$n" 2>/dev/null; do n=$((n + 1)); done
	step=" (boot $n of $total)"
fi
say BOOT "$machine $config ($acc): $scenarios$step"
start=$(date +%s.%N)
rc=0
# shellcheck disable=SC2086
timeout -k 5 "$boot_timeout" $cmd -append "$cmdline" >"$out/qemu.log" 2>&1 || rc=$?
wall=$(echo "$(date +%s.%N) - $start" | bc)
wall=$(printf '%.2f' "$wall")
case $rc in
129 | 130 | 143 | 137)
	# hung up, interrupted, terminated or killed, but not by our timeout:
	# somebody stopped the run
	[ "${wall%.*}" -ge $((boot_timeout - 1)) ] || interrupted ;;
esac
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	status=timeout
elif [ $rc -ne 0 ] && [ ! -s "$out/console.log" ]; then
	status=failed
else
	status=exited
fi
write_meta "$status" "$rc" "$wall"
say DONE "$machine $config: qemu $status (exit $rc) after $wall s"
