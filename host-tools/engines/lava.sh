#!/usr/bin/env bash
# lava.sh - the lab's matrix cells as LAVA jobs (lava-dispatcher's qemu
# device type), checked and run with Debian's lava-run, and their results
# brought back as a boot of the lab's own.
#
#   lava.sh job out=DIR machine_env=FILE config= kernel_env= initrd=
#               scenarios=a,b,... rtc_base= guest_timeout= boot_timeout=
#               [images=URL console_file=FILE run_id= boot= tags=a,b series=]
#       writes DIR/job.yaml (the job a LAVA lab is given: its context carries
#       the machine's QEMU, its metadata what the lab records of a boot) and
#       DIR/device.yaml (the device dictionary rendered for this job and
#       this machine's QEMU, which a LAVA server renders itself from
#       qemu.jinja2 and the job's context). images=: the URL of a folder
#       with the kernel and initramfs (default: their files here);
#       console_file=: the kernel console's file on the worker (/dev/null)
#   lava.sh validate DIR...
#       every job against lava-common's strict job schema, then lava-run
#       --validate with its device (images must exist: lava-run checks them)
#   lava.sh run DIR BOOT_DIR run_id=ID
#       runs the job through lava-run here, then imports its log
#   lava.sh import DIR LOG BOOT_DIR run_id=ID
#       a finished job's log (lava-run's, or a LAVA server's output.yaml) as
#       BOOT_DIR, written as boot.sh would (meta, tap.log, console.log when
#       the console file is here), plus lava.log and lava-cases.tsv (the test
#       cases LAVA itself recorded)
#
# lava-log.py runs with Debian's /usr/bin/python3, where lava-common is.
# A job boots the lab's kernel and initramfs with the lab's kernel command
# line and -rtc base. The guest's TAP port is QEMU's stdio, which is what a
# LAVA device's serial connection reads; the kernel console goes to a file
# (LAVA's monitors must see TAP lines whole, never mixed with printk). Each
# scenario program is one LAVA test suite (a monitor), each of its cases one
# LAVA test case: pass for PASS, skip for SKIP, fail for any other outcome.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=host-tools/boot/guest-cmdline.sh
. "$LAB_TOP/host-tools/boot/guest-cmdline.sh"
# YAML single-quoted scalar
q() { printf "'%s'" "${1//\'/\'\'}"; }

write_job() {
	local images='' console_file=/dev/null run_id='' boot='' tags='' series=''
	kv_args "$@"
	need out machine_env config kernel_env initrd scenarios rtc_base guest_timeout
	machine_facts "$machine_env"
	KERNEL_ERROR=
	# shellcheck disable=SC1090
	. "$kernel_env"
	[ -z "$KERNEL_ERROR" ] || die "$machine $config: no kernel: $KERNEL_ERROR"
	[ -f "$KERNEL_IMAGE" ] || die "$machine $config: $KERNEL_IMAGE is missing"
	[ -f "$initrd" ] || die "$machine $config: $initrd is missing"
	mkdir -p "$out"
	out=$(realpath "$out")
	boot=${boot:-$machine-$config}
	# The images: where the worker fetches them (images=URL: a folder
	# holding both under their own names), else this machine's files.
	local kernel_url ramdisk_url
	if [ -n "$images" ]; then
		kernel_url=${images%/}/$(basename "$KERNEL_IMAGE") ramdisk_url=${images%/}/$(basename "$initrd")
	else
		kernel_url=file://$KERNEL_IMAGE ramdisk_url=file://$(realpath "$initrd")
	fi
	# The lab's own command line (boot.sh's).
	local cmdline
	cmdline=$(guest_cmdline "$console" "$scenarios" "$tap_dev" "$guest_timeout" "$(machine_append)")
	# The lab's own limit on a boot (BOOT_TIMEOUT), in LAVA's whole minutes.
	local minutes=$(((${boot_timeout:-300} + 59) / 60))
	# A LAVA server renders its qemu device type's template with the job's
	# context: the machine's board, CPU and memory, then the lab's QEMU
	# options (qemu_options: the TAP port on stdio, which LAVA reads, and
	# the console in console_file on the worker) and its RTC. The board and
	# CPU are qemu_args', the CPU lava_cpu where qemu_args names none.
	local a prev='' board_opt='' cpu_opt=''
	for a in $qemu_args; do
		case $prev in
		-M | -machine) board_opt=$a ;;
		-cpu) cpu_opt=$a ;;
		esac
		prev=$a
	done
	cpu_opt=${lava_cpu:-$cpu_opt}

	{
		echo "# y2038-lab: $machine $config, $KERNEL_SOURCE $KERNEL_VERSION, patches $KERNEL_PATCHES"
		echo "# written by host-tools/engines/lava.sh for LAVA's qemu device type"
		echo "device_type: qemu"
		echo "job_name: $(q "y2038-lab ${run_id:+$run_id }$machine ${config/-/=} $KERNEL_SOURCE $KERNEL_VERSION ($KERNEL_PATCHES)")"
		echo "visibility: public"
		echo "priority: medium"
		if [ -n "$tags" ]; then
			echo "tags:"
			for a in ${tags//,/ }; do echo "- $(q "$a")"; done
		fi
		echo "timeouts:"
		echo "  job: {minutes: $((minutes + 4))}"	# plus deploy and boot
		echo "  action: {minutes: $minutes}"
		echo "  connection: {minutes: 2}"
		echo "context:"
		echo "  arch: $lava_arch"
		echo "  no_kvm: true"
		[ -z "$board_opt" ] || echo "  machine: $(q "$board_opt")"
		[ -z "$cpu_opt" ] || echo "  cpu: $(q "$cpu_opt")"
		echo "  memory: $memory"
		echo "  extra_options: [$(q "$(qemu_options stdio "$out" "$console_file") -accel tcg"), $(q "-rtc base=$rtc_base")]"
		# What the lab records of a boot (boot-record.h), so that
		# lava.sh collect makes it one from the server's copy alone.
		echo "metadata:"
		echo "  y2038.lab: y2038-lab"
		[ -z "$run_id" ] || echo "  y2038.run_id: $(q "$run_id")"
		echo "  y2038.boot: $(q "$boot")"
		echo "  y2038.machine: $machine"
		echo "  y2038.karch: $karch"
		echo "  y2038.userland: $userland"
		echo "  y2038.config: $config"
		echo "  y2038.kernel_source: $KERNEL_SOURCE"
		echo "  y2038.kernel: $(q "$KERNEL_VERSION")"
		echo "  y2038.patches: $(q "$KERNEL_PATCHES")"
		[ -z "$series" ] || echo "  y2038.series: $(q "$series")"
		echo "  y2038.scenarios: $(q "$scenarios")"
		echo "  y2038.rtc_base: $(q "$rtc_base")"
		echo "  y2038.console: $(q "$console_file")"
		echo "actions:"
		echo "- deploy:"
		echo "    to: tmpfs"
		echo "    timeout: {minutes: 2}"
		echo "    images:"
		echo "      kernel:"
		echo "        url: $kernel_url"
		echo "        image_arg: $(q "-kernel {kernel} -append \"$cmdline\"")"
		echo "      ramdisk:"
		echo "        url: $ramdisk_url"
		echo "        image_arg: -initrd {ramdisk}"
		echo "- boot:"
		echo "    method: qemu"
		echo "    media: tmpfs"
		echo "    timeout: {minutes: 2}"
		echo "- test:"
		echo "    timeout: {minutes: $minutes}"
		echo "    monitors:"
		local s
		for s in ${scenarios//,/ }; do
			echo "    - name: $s"
			echo "      start: $(q "# selftests: y2038: $s")"
			echo "      end: $(q "ok [0-9]+ selftests: y2038: $s")"
			# "# ok 3 legacy clock_gettime before # PASS ...", nested under
			# the program; the right-most of "# SKIP", "# not ok", "# ok"
			# is the result (one named group), the ABI, case and phase the id.
			echo "      pattern: $(q '(?m)^(?=[^\r\n]*(?P<result>(?<=# )SKIP|^# not ok|^# ok))# (?:not ok|ok) [0-9]+ (?P<test_case_id>[^#\r\n]+?) #[^\r\n]*\r?\n')"
			echo "      fixupdict: {'# ok': pass, '# not ok': fail, SKIP: skip}"
		done
	} >"$out/job.yaml"

	{
		echo "# y2038-lab: the qemu device dictionary rendered for $out/job.yaml:"
		echo "# machines/$machine.mk's QEMU, the job's context (extra_options, no_kvm)"
		echo "constants:"
		echo "  failure_retry: 1"
		echo "  boot_retry:"
		echo "parameters:"
		echo "  pass:"
		echo "available_architectures: [$lava_arch]"
		echo "actions:"
		echo "  deploy:"
		echo "    methods:"
		echo "      image:"
		echo "  boot:"
		echo "    connections:"
		echo "      serial:"
		echo "    methods:"
		echo "      qemu:"
		echo "        parameters:"
		echo "          command: $qemu"
		echo "          options:"
		echo "          - $(q "$(qemu_options stdio "$out") -accel tcg")"
		echo "          extra: [$(q "-rtc base=$rtc_base")]"
		echo "timeouts:"
		echo "  actions: {}"
		echo "  connections: {}"
	} >"$out/device.yaml"
	# What the lab's boot.sh would have recorded, for lava.sh run.
	printf '%s=%q\n' machine "$machine" karch "$karch" userland "$userland" config "${config/-/=}" \
		kernel "$KERNEL_VERSION" kernel_source "$KERNEL_SOURCE" patches "$KERNEL_PATCHES" \
		scenarios "$scenarios" rtc_base "$rtc_base" >"$out/cell"
	# The images here, for lava.sh submit to hand to the worker.
	printf '%s\n' "$KERNEL_IMAGE" "$(realpath "$initrd")" >"$out/images"
	say LAVA "$out/job.yaml"
}

validate() {
	local d rc=0 n=0
	for d in "$@"; do
		n=$((n + 1))
		if ! err=$("$here/lava-log.py" schema "$d/job.yaml" "$d/device.yaml" 2>&1); then
			echo "lava.sh: $d/job.yaml: schema: $err" >&2
			rc=1
			continue
		fi
		rm -rf "$d/validate"
		if ! lava-run --validate --job-id "y2038-validate-$$-$n" --output-dir "$d/validate" \
			--device "$d/device.yaml" "$d/job.yaml" >"$d/validate.log" 2>&1; then
			echo "lava.sh: $d/job.yaml: lava-run --validate failed:" >&2
			grep -E '"lvl": "(error|exception)"' "$d/validate.log" | head -5 >&2 || tail -5 "$d/validate.log" >&2
			rc=1
			continue
		fi
		say VALID "$d/job.yaml (strict schema, lava-run --validate)"
	done
	return $rc
}

# import JOB_DIR LOG BOOT_DIR run_id= [exit= wall=]: a finished job's log
# (lava-run's stderr, or a LAVA server's output.yaml) as a boot of the lab's.
import_log() {
	local d=$1 log=$2 b=$3
	shift 3
	local exit=- wall=-
	kv_args "$@"
	need run_id
	[ -f "$d/cell" ] || die "$d: no job written here (make lava)"
	[ -f "$log" ] || die "$log: no such log"
	# shellcheck disable=SC1091
	. "$d/cell"
	mkdir -p "$b"
	[ "$(realpath "$log")" = "$(realpath -m "$b/lava.log")" ] || cp "$log" "$b/lava.log"
	cp "$d/job.yaml" "$d/device.yaml" "$b/"
	# The console is a file on the worker: here only when lava-run ran here.
	[ ! -f "$d/console.log" ] || cp "$d/console.log" "$b/console.log"
	"$here/lava-log.py" split "$b/lava.log" "$b/tap.log" "$b/lava-cases.tsv" "$b/lava-job.txt"
	local job status
	job=$(cat "$b/lava-job.txt")
	case $job in
	pass) status=exited ;;
	*) status=failed ;;
	esac
	boot_record "$b/meta" run_id="$run_id" machine="$machine" karch="$karch" userland="$userland" \
		kernel="$kernel" kernel_source="$kernel_source" config="$config" patches="$patches" accel=tcg \
		scenarios="$scenarios" rtc_base="$rtc_base" qemu_status="$status" qemu_exit="$exit" \
		wall_s="$wall" timeout_s=- \
		accel_note="tcg: a LAVA qemu device without KVM (no_kvm); lava-dispatcher $(dpkg-query -W -f '${Version}' lava-dispatcher 2>/dev/null || echo '?'), job $job, $(wc -l <"$b/lava-cases.tsv") test cases"
	say DONE "$machine $config through LAVA: job $job, $(wc -l <"$b/lava-cases.tsv") test cases, $wall s"
}

# run JOB_DIR BOOT_DIR run_id=: the job through lava-run here, then imported.
run_job() {
	local d b rc=0 start wall
	d=$(realpath "$1") b=$2
	shift 2
	kv_args "$@"
	need run_id
	mkdir -p "$b"
	rm -rf "$d/console.log" "$d/output"
	say LAVA "lava-run: $(basename "$d") (log: $b/lava.log)"
	start=$(date +%s.%N)
	lava-run --job-id "y2038-$run_id" --output-dir "$d/output" --device "$d/device.yaml" \
		"$d/job.yaml" 2>"$b/lava.log" >/dev/null || rc=$?
	wall=$(printf '%.2f' "$(echo "$(date +%s.%N) - $start" | bc)")
	import_log "$d" "$b/lava.log" "$b" run_id="$run_id" exit="$rc" wall="$wall"
	[ "$rc" -eq 0 ]
}

cmd=${1:-}
shift || true
case $cmd in
job) write_job "$@" ;;
validate) validate "$@" ;;
run) [ $# -ge 3 ] || die "usage: lava.sh run JOB_DIR BOOT_DIR run_id=ID"; run_job "$@" ;;
import) [ $# -ge 4 ] || die "usage: lava.sh import JOB_DIR LOG BOOT_DIR run_id=ID"; import_log "$@" ;;
*) die "usage: lava.sh job|validate|run|import ..." ;;
esac
