# lib.sh - the one shell library of the lab's host tools. Sourced, never run:
#
#   . "$(dirname "$0")/../lib.sh"       (a tool one folder below host-tools/)
#
#   kv_args "$@"            KEY=VALUE arguments into shell variables
#   need KEY...             die naming the first KEY that is empty
#   say TAG TEXT            the lab's progress line ("  TAG      text")
#   die TEXT                "tool: TEXT" on stderr, exit 1
#   machine_facts FILE      a machine's facts (build/machines/M.env) as variables
#   qemu_options TAP DIR [CONSOLE]
#                           a machine's QEMU options but what boots it: its
#                           board, the console in DIR/console.log (or the
#                           file CONSOLE), and TAP to DIR/tap.log (TAP=file)
#                           or stdio (TAP=stdio)
#   machine_append [KHZ]    what its kernel command line adds
#   boot_record FILE K=V... a boot's record (meta), with the keys of
#                           host-tools/boot/boot-record.h only, written whole
#   cache_entry DIR CHECK FILL...
#                           an entry of the cache made once, whole: see below
#   timed_guests_file CACHE where make bench keeps how many timed guests
#                           this machine boots at once (boot.sh reads it)
#   no_module_loading DIR   stand-ins for modprobe and insmod in DIR, which
#                           say what they were asked and load nothing: DIR
#                           goes first in PATH where Debian's maintainer
#                           scripts run (deps.sh)
#   no_service_starts DIR   stand-ins for invoke-rc.d and deb-systemd-invoke
#                           in DIR, which say what they were asked and start
#                           nothing (deps.sh, beside no_module_loading's)
LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_TOOL=${LAB_TOOL:-$(basename "$0")}

say() { printf '  %-8s %s\n' "$1" "$2"; }
die() { echo "$LAB_TOOL: $*" >&2; exit 1; }

# Each KEY=VALUE sets the caller's variable KEY (a name of letters, digits
# and underscores); anything else is a usage error.
kv_args() {
	local kv
	for kv in "$@"; do
		case $kv in
		[a-z_]*=*)
			[[ ${kv%%=*} =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "$LAB_TOOL: not KEY=VALUE: $kv" >&2; exit 2; }
			printf -v "${kv%%=*}" '%s' "${kv#*=}" ;;
		*) echo "$LAB_TOOL: not KEY=VALUE: $kv" >&2; exit 2 ;;
		esac
	done
}

need() {
	local k
	for k in "$@"; do
		[ -n "${!k:-}" ] || { echo "$LAB_TOOL: $k= is required" >&2; exit 2; }
	done
}

# The facts of machines/M.mk (over machines/defaults.mk), as make wrote them
# for the shell: one home, read here, never copied into a script.
machine_facts() {
	[ -r "$1" ] || die "no machine facts $1 (make writes them from machines/*.mk)"
	# shellcheck source=/dev/null
	. "$1"
}

# The boot record's keys: host-tools/boot/boot-record.h, which the
# collector reads too.
BOOT_RECORD_KEYS=$(sed -n 's/^[[:space:]]*X(\([a-z_]*\),.*/\1/p' "$LAB_TOP/host-tools/boot/boot-record.h")

# The QEMU options of a machine's guest but for what boots it (kernel,
# initramfs, command line, RTC) and its accelerator: its board, CPU and
# memory (MiB), what every guest of the lab has, its console in
# DIR/console.log and its TAP channel: a file, DIR/tap.log (the lab's
# boots: boot.sh), or stdio (LAVA's, which reads the guest's results there:
# lava.sh); then its disks, if the caller set disk= (a distribution's root:
# its writes kept where disk_writes=keep, else dropped) or disks= (more
# images, each with its name as the device's serial), on the board's
# virtio_blk. The one builder of both. A LAVA job for a worker elsewhere
# names its console's file there (CONSOLE: /dev/null when the lab has no
# folder on it); its board, CPU and memory are its device template's, told
# them as keys (qemu_wiring: all but those three).
qemu_options() {
	printf '%s' "-M $qemu_machine${qemu_cpu:+ -cpu $qemu_cpu} -m $memory $(qemu_wiring "$@")"
}
qemu_wiring() {
	local channel=$1 dir=$2 console=${3:-$2/console.log} tap d n=0
	case $channel in
	file) tap="file,path=$dir/tap.log" ;;
	stdio) tap=stdio ;;
	*) die "qemu_options: the TAP channel is file or stdio, not \"$channel\"" ;;
	esac
	printf '%s' "-nodefaults -display none -no-reboot" \
		" ${console_qemu//@FILE@/$console} ${tap_qemu//@TAP@/$tap}"
	if [ -n "${disk:-}" ]; then
		[ -n "$virtio_blk" ] || die "machine $machine: no virtio_blk for its disk (machines/defaults.mk)"
		# cache=unsafe: the guest's flushes cost no host sync; a disk that is
		# kept is kept only after its boot ended well (validate-distro.sh)
		printf ' %s' "-drive file=$disk,format=raw,if=none,id=root,cache=unsafe$([ "${disk_writes:-drop}" = keep ] || echo ,snapshot=on)" \
			"-device $virtio_blk,drive=root"
	fi
	for d in ${disks:+${disks//,/ }}; do
		[ -n "$virtio_blk" ] || die "machine $machine: no virtio_blk for its disks (machines/defaults.mk)"
		n=$((n + 1))
		printf ' %s' "-drive file=$d,format=raw,if=none,id=disk$n,cache=unsafe,snapshot=on" \
			"-device $virtio_blk,drive=disk$n,serial=$(basename "$d" .img)"
	done
	printf '%s' "${qemu_extra:+ $qemu_extra}"
}

# How many timed guests this machine boots at once without a case's start
# slipping, as make bench measured it (bench.sh: guests at once), in the
# cache ($1): a fact of the machine (its cores and CPU), not of its boot.
timed_guests_file() {
	printf '%s/host/timed-guests-%s' "$1" \
		"$( (nproc; grep -m1 '^model name' /proc/cpuinfo) | md5sum | cut -c1-12)"
}

host_fact_file() {
	printf '%s/accel/%s-%s' "$1" "$2" "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)"
}

# What the machine's kernel command line adds (append, machines/*.mk), with
# this host's TSC rate in kHz for @HOST_TSC_KHZ@ ($1; without it, the words
# that ask for it are left out: a LAVA job runs on another host).
machine_append() {
	if [ -n "${1:-}" ]; then
		printf '%s' "${append//@HOST_TSC_KHZ@/$1}"
	else
		sed 's/[^ ]*@HOST_TSC_KHZ@[^ ]*//g; s/  */ /g; s/^ //; s/ $//' <<<"$append"
	fi
}

# boot_record FILE KEY=VALUE...: written to FILE.tmp and renamed, so a
# reader never sees half a record. A value's newlines become spaces.
boot_record() {
	local file=$1 kv
	shift
	for kv in "$@"; do
		grep -qx "${kv%%=*}" <<<"$BOOT_RECORD_KEYS" ||
			die "boot record: \"${kv%%=*}\" is not a key of host-tools/boot/boot-record.h"
	done
	printf '%s\n' "${@//$'\n'/ }" >"$file.tmp"
	mv "$file.tmp" "$file"
}

# pivot HEADER: lines "ROW FIELD...<TAB>COLUMN<TAB>CELL" as a table: a row
# per ROW, a column per COLUMN, each in the order first seen, "-" where a
# row has no cell; HEADER names the row's fields (tab-separated). Tabs
# between the fields: column -t -s $'\t' aligns it (make bench's tables).
pivot() {
	awk -F'\t' -v header="$1" '
	{
		row = $1
		for (i = 2; i <= NF - 2; i++) row = row "\t" $i
		col = $(NF - 1)
		if (!(row in seen_row)) { seen_row[row] = 1; rows[++nrows] = row }
		if (!(col in seen_col)) { seen_col[col] = 1; cols[++ncols] = col }
		cell[row, col] = $NF
	}
	END {
		printf "%s", header
		for (c = 1; c <= ncols; c++) printf "\t%s", cols[c]
		printf "\n"
		for (r = 1; r <= nrows; r++) {
			printf "%s", rows[r]
			for (c = 1; c <= ncols; c++) printf "\t%s", ((rows[r], cols[c]) in cell) ? cell[rows[r], cols[c]] : "-"
			printf "\n"
		}
	}'
}

# boot_planned PLAN KEY=VALUE... -- ARG...: a boot of a tool's own (not a
# run's), booted as make boots one: its plan written to PLAN (boot-plan.sh,
# the record's keys only: boot_timeout is the plan's timeout_s), then
# boot.sh reads it; the ARGs (out=, the host's accel=, probe=, cache=, or a
# fault a test provokes) go to boot.sh and win over the plan.
boot_planned() {
	local plan=$1 keys=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in
		boot_timeout=*) keys+=("timeout_s=${1#*=}") ;;
		*) keys+=("$1") ;;
		esac
		shift
	done
	shift || true
	"$LAB_TOP/host-tools/boot/boot-plan.sh" "$plan" "${keys[@]}"
	"$LAB_TOP/host-tools/boot/boot.sh" plan="$plan" "$@"
}

# boot_fields BOOT_DIR KEY...: keys of a boot's record, as the collector
# reads it (boot-record.h is its one home; make exports LAB_COLLECT), one
# line each, in order (an empty line where the boot has no such key), from
# one read of the boot; boot_field BOOT_DIR KEY: one of them. boot_notes
# BOOT_DIR: the comments of its TAP, as the collector read them (the
# runner's, then each program's), one line each, so that no tool reads a
# boot's files itself.
boot_fields() {
	local dir=$1
	shift
	"${LAB_COLLECT:?make exports LAB_COLLECT, the collector}" --boot "$dir" --json 2>/dev/null |
		jq -r '.record as $r | $ARGS.positional[] | $r[.] // ""' --args "$@" 2>/dev/null || true
}
boot_field() { boot_fields "$1" "$2"; }
boot_notes() {
	"${LAB_COLLECT:?make exports LAB_COLLECT, the collector}" --boot "$1" --json 2>/dev/null |
		jq -r '[.tap.notes[], (.tap.programs[].notes[])] | sort_by(.line)[] | .text' 2>/dev/null || true
}

# cache_entry DIR CHECK FILL...: make DIR, an entry of the cache, unless
# CHECK (a command, given DIR) says it is there. Under DIR.lock, so that
# runs at once never fetch one entry twice nor remove it under each
# other: the second waits, then finds it made. FILL... (a command, given
# DIR.new as its last argument) makes it beside, and it is renamed into
# place whole; a FILL that fails leaves nothing at DIR.
cache_entry() {
	local dir=$1 check=$2 lock rc=0
	shift 2
	mkdir -p "$(dirname "$dir")"
	exec {lock}>"$dir.lock"
	flock "$lock"
	if ! "$check" "$dir"; then
		rm -rf "$dir.new"
		if "$@" "$dir.new"; then
			rm -rf "$dir"
			mv "$dir.new" "$dir"
		else
			rc=$?
			rm -rf "$dir.new"
		fi
	fi
	exec {lock}>&-
	return $rc
}

no_module_loading() {
	local tool
	for tool in modprobe insmod; do
		printf '#!/bin/sh\necho "y2038-lab: %s $* not run: the lab loads nothing into this machine'"'"'s kernel" >&2\nexit 0\n' \
			"$tool" >"$1/$tool"
		chmod 755 "$1/$tool"
	done
}

# What a policy-rc.d that refuses everything makes of a maintainer script's
# service start (both tools then exit 0), without writing the host's
# /usr/sbin/policy-rc.d: a run killed with SIGKILL would leave that behind,
# refusing every service start of the host, and runs at once would remove
# it under each other.
no_service_starts() {
	local tool
	for tool in invoke-rc.d deb-systemd-invoke; do
		printf '#!/bin/sh\necho "y2038-lab: %s $* not run: the lab starts no service while it installs" >&2\nexit 0\n' \
			"$tool" >"$1/$tool"
		chmod 755 "$1/$tool"
	done
}

# patch_anonymous FILE: a git format-patch with no identity (its From line
# has git's zero hash, and no From: or Signed-off-by:): whoever sends the
# lab's upstream patches signs them off.
patch_anonymous() {
	head -1 "$1" | grep -q '^From 0\{40\} ' && ! grep -qE '^(From|Signed-off-by):' "$1"
}
