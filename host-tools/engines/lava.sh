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
#   lava.sh submit RUN_DIR url= [artifacts=URL serve=HOST[:PORT] wait=S] CELL...
#       RUN_DIR/lava/CELL/job.yaml to a LAVA server (the token: the file
#       $LAVA_TOKEN_FILE, else $LAVA_TOKEN; lava-api.py reads it),
#       the images served from here until fetched, or at artifacts=
#   lava.sh collect RUN_DIR url= run_id= [boots="NAME ..." wait= offline_grace= ...]
#       the run's jobs, waited for and fetched through the REST API
#       (lava-api.py), each as a boot of the run: RUN_DIR/boots/<boot>/.
#       The run's jobs are those lava.sh submit recorded; a run submitted
#       elsewhere, the token's user's whose boot is one of boots= (the
#       lab's names): nothing a server says is a path here
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

# A plain http:// LAVA_URL off this machine: the token and every answer
# cross the network in clear, for anyone on the way to read or change.
plain_http_warning() {
	local host=${1#http://}
	[ "$host" != "$1" ] || return 0
	host=${host%%/*}
	host=${host##*@}
	case $host in 127.* | localhost | localhost:* | '[::1]' | '[::1]:'*) return 0 ;; esac
	say WARN "$1 is plain HTTP: the token and every answer cross the network unencrypted, for anyone on the way to read or change: use https://" >&2
}

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
	local kernel_url ramdisk_url kernel_sha ramdisk_sha
	# what the worker checks each download against (sha256sum: LAVA's)
	kernel_sha=$(sha256sum <"$KERNEL_IMAGE") ramdisk_sha=$(sha256sum <"$initrd")
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
	# context: the machine's board, CPU and memory (its qemu_machine,
	# qemu_cpu and memory), then the lab's other QEMU options (qemu_wiring:
	# the TAP port on stdio, which LAVA reads, and the console in
	# console_file on the worker) and its RTC.
	local a

	{
		echo "# y2038-lab: $machine $config, $KERNEL_SOURCE $KERNEL_VERSION, patches $KERNEL_PATCHES"
		echo "# written by host-tools/engines/lava.sh for LAVA's qemu device type"
		echo "device_type: qemu"
		echo "job_name: $(q "y2038-lab ${run_id:+$run_id }$machine $config $KERNEL_SOURCE $KERNEL_VERSION ($KERNEL_PATCHES)")"
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
		echo "  machine: $(q "$qemu_machine")"
		[ -z "$qemu_cpu" ] || echo "  cpu: $(q "$qemu_cpu")"
		echo "  memory: $memory"
		echo "  extra_options: [$(q "$(qemu_wiring stdio "$out" "$console_file") -accel tcg"), $(q "-rtc base=$rtc_base")]"
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
		echo "        sha256sum: ${kernel_sha%% *}"
		echo "        image_arg: $(q "-kernel {kernel} -append \"$cmdline\"")"
		echo "      ramdisk:"
		echo "        url: $ramdisk_url"
		echo "        sha256sum: ${ramdisk_sha%% *}"
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
	printf '%s=%q\n' machine "$machine" karch "$karch" userland "$userland" config "$config" \
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
		# lava-run keeps a job's scratch folder under /var/lib/lava, named
		# by its id, even for --validate: removed here, as lava-run would
		# at the end of a job it ran.
		if ! lava-run --validate --job-id "y2038-validate-$$-$n" --output-dir "$d/validate" \
			--device "$d/device.yaml" "$d/job.yaml" >"$d/validate.log" 2>&1; then
			rm -rf "/var/lib/lava/dispatcher/tmp/y2038-validate-$$-$n"
			echo "lava.sh: $d/job.yaml: lava-run --validate failed:" >&2
			grep -E '"lvl": "(error|exception)"' "$d/validate.log" | head -5 >&2 || tail -5 "$d/validate.log" >&2
			rc=1
			continue
		fi
		rm -rf "/var/lib/lava/dispatcher/tmp/y2038-validate-$$-$n"
		say VALID "$d/job.yaml (strict schema, lava-run --validate)"
	done
	return $rc
}

# import JOB_DIR LOG BOOT_DIR run_id= [exit= wall= status= timeout= error=
# note= server=]: a finished job's log (lava-run's stderr, or a LAVA
# server's output.yaml) as a boot of the lab's. JOB_DIR/cell says what the
# boot was (lava.sh job wrote it, or lava-api.py collect from the job's
# metadata). status= is how the guest ended (default: exited when LAVA's
# job passed); error= why the job did not complete, which the collector
# gives every cell its TAP does not show; note= what LAVA said besides.
import_log() {
	local d=$1 log=$2 b=$3
	shift 3
	local exit=- wall=- status='' timeout=- error='' note='' server='' console='' lava_job='' lava_device=''
	kv_args "$@"
	need run_id
	[ -f "$d/cell" ] || die "$d: no job written here (make lava)"
	[ -f "$log" ] || die "$log: no such log"
	# shellcheck disable=SC1091
	. "$d/cell"
	mkdir -p "$b"
	[ "$(realpath "$log")" = "$(realpath -m "$b/lava.log")" ] || cp "$log" "$b/lava.log"
	cp "$d/job.yaml" "$b/"
	[ ! -f "$d/device.yaml" ] || cp "$d/device.yaml" "$b/"
	[ ! -f "$d/lava-results.tsv" ] || cp "$d/lava-results.tsv" "$b/"
	# The console is a file on the worker: here when lava-run ran here, or
	# when the job's console file (LAVA_CONSOLE) is on this machine.
	if [ -f "$d/console.log" ]; then
		cp "$d/console.log" "$b/console.log"
	elif [ -n "$console" ] && [ "$console" != /dev/null ] && [ -f "$console" ]; then
		cp "$console" "$b/console.log"
	fi
	"$here/lava-log.py" split "$b/lava.log" "$b/tap.log" "$b/lava-cases.tsv" "$b/lava-job.txt"
	local job where
	job=$(cat "$b/lava-job.txt")
	if [ -z "$status" ]; then
		case $job in
		pass) status=exited ;;
		*) status=failed ;;
		esac
	fi
	[ -z "$error" ] || status=failed
	if [ -n "$lava_job" ]; then
		where="LAVA job $lava_job on $lava_device, $server"
	else
		where="lava-dispatcher $(dpkg-query -W -f '${Version}' lava-dispatcher 2>/dev/null || echo '?') here"
	fi
	local why=()
	[ -z "$error" ] || why=(error="$error")
	boot_record "$b/meta" run_id="$run_id" kind=lava machine="$machine" karch="$karch" userland="$userland" \
		kernel="$kernel" kernel_source="$kernel_source" config="$config" patches="$patches" accel=tcg \
		scenarios="$scenarios" rtc_base="$rtc_base" qemu_status="$status" qemu_exit="$exit" \
		wall_s="$wall" timeout_s="$timeout" "${why[@]}" \
		accel_note="tcg: a LAVA qemu device without KVM (no_kvm); $where, job $job, $(wc -l <"$b/lava-cases.tsv") test cases${note:+; $note}"
	say DONE "$machine $config through LAVA${lava_job:+ (job $lava_job)}: ${error:-job $job, $(wc -l <"$b/lava-cases.tsv") test cases, $wall s}"
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

# submit RUN_DIR url= [artifacts=URL] [serve=HOST[:PORT]] [wait=S] CELL...
# RUN_DIR/lava/CELL/job.yaml (make lava-submit wrote them) to the LAVA
# server at url=, as the user whose token is $LAVA_TOKEN_FILE's, each id in
# RUN_DIR/lava/jobs.tsv. The images: at
# artifacts= (RUN_DIR/lava/artifacts/ put there by the user: each URL is
# checked first), else served from here on serve= (default 127.0.0.1, any
# free port; an IPv6 address bare or as [ADDRESS]:PORT) until every job
# has fetched its own, or ended, or wait= s; the server ends by itself a
# minute after that, should this script be killed.
submit_jobs() {
	local run=$1 url='' artifacts='' serve=127.0.0.1 wait=3600 a cells=()
	shift
	for a in "$@"; do
		case $a in
		*=*) kv_args "$a" ;;
		*) cells+=("$a") ;;
		esac
	done
	need url
	[ -n "${LAVA_TOKEN_FILE:-}${LAVA_TOKEN:-}" ] ||
		die "submit: a token of the user the jobs are submitted as is required: LAVA_TOKEN_FILE=<a file holding it>"
	[ ${#cells[@]} -gt 0 ] || die "submit: no cells"
	plain_http_warning "$url"
	local lava=$run/lava root=$run/lava/artifacts c f base
	# The images of each cell under its own folder, as the jobs name them.
	for c in "${cells[@]}"; do
		[ -f "$lava/$c/job.yaml" ] || die "$lava/$c/job.yaml: no such job"
		mkdir -p "$root/$c"
		while read -r f; do ln -sfn "$f" "$root/$c/$(basename "$f")"; done <"$lava/$c/images"
	done
	local pid='' fetched=$lava/fetched
	if [ -n "$artifacts" ]; then
		base=${artifacts%/}
		local urls=()
		for c in "${cells[@]}"; do
			while read -r f; do urls+=("$base/$c/$(basename "$f")"); done <"$lava/$c/images"
		done
		"$here/lava-api.py" check "${urls[@]}" ||
			die "the images are not at $base: put $root/ there first (its links followed: rsync -rL $root/ ...)"
	else
		local host=$serve port=0
		case $serve in
		\[*\]:*) host=${serve%%]:*} host=${host#[} port=${serve##*]:} ;;
		\[*\]) host=${serve#[} host=${host%]} ;;
		*:*:*) ;;	# an IPv6 address, no port
		*:*) host=${serve%:*} port=${serve##*:} ;;
		esac
		rm -f "$lava/port" "$fetched"
		: >"$fetched"
		setsid "$here/lava-api.py" serve "$root" "$host" "$port" "$lava/port" "$fetched" $((wait + 60)) \
			2>>"$lava/serve.log" &
		pid=$!
		# shellcheck disable=SC2064
		trap "kill $pid 2>/dev/null; wait $pid 2>/dev/null" EXIT
		for a in $(seq 50); do [ -s "$lava/port" ] || sleep 0.2; done
		[ -s "$lava/port" ] || die "the HTTP server for the images did not start: $(tail -3 "$lava/serve.log")"
		case $host in *:*) base=http://[$host]:$(cat "$lava/port") ;; *) base=http://$host:$(cat "$lava/port") ;; esac
		say SERVE "$root/ at $base/ (log: $lava/serve.log)"
	fi
	local id ids=()
	for c in "${cells[@]}"; do
		sed "s|@IMAGES@|$base|g" "$lava/$c/job.yaml" >"$lava/$c/submitted.yaml"
		id=$("$here/lava-api.py" submit "$url" "$lava/$c/submitted.yaml") || die "$c: the server refused the job"
		printf '%s\t%s\n' "$c" "$id" >>"$lava/jobs.tsv"
		ids+=("$c:$id")
		say SUBMIT "$c: LAVA job $id ($url/scheduler/job/$id)"
	done
	if [ -n "$pid" ]; then
		# Serve until each job has its kernel and initramfs, or has ended.
		local deadline=$((SECONDS + wait)) left cid
		while :; do
			left=()
			for cid in "${ids[@]}"; do
				c=${cid%%:*} id=${cid##*:}
				local all=1
				while read -r f; do
					grep -qxF "/$c/$(basename "$f")" "$fetched" || all=0
				done <"$lava/$c/images"
				[ $all -eq 1 ] && continue
				[[ "$("$here/lava-api.py" state "$url" "$id" 2>/dev/null)" == Finished* ]] && continue
				left+=("$cid")
			done
			ids=("${left[@]}")
			[ ${#ids[@]} -gt 0 ] || break
			[ $SECONDS -lt $deadline ] || break
			sleep 5
		done
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		trap - EXIT
		if [ ${#ids[@]} -eq 0 ]; then
			say SERVE "every job has its images: stopped serving"
		else
			say SERVE "stopped serving after $wait s: ${ids[*]} never fetched their images"
		fi
	fi
}

# collect RUN_DIR url= run_id= [boots= wait= offline_grace= cancel_grace= poll=]:
# every job of the run on the server (lava-api.py collect: those
# RUN_DIR/lava/jobs.tsv lists, else the token's user's of the run's id
# whose boot is one of boots=), as it ends, as a boot of the run in
# RUN_DIR/boots/<its boot>; a job that did not complete is one whose cells
# the collector makes ERROR with the reason. What it gives up it cancels
# with the token, if there is one.
collect_jobs() {
	local run=$1 url='' run_id='' boots='' wait=3600 offline_grace=300 cancel_grace=150 poll=10
	shift
	kv_args "$@"
	need url run_id
	plain_http_warning "$url"
	local out=$run/lava/jobs
	rm -rf "$out"
	"$here/lava-api.py" collect "$url" "$run_id" "$out" jobs="$run/lava/jobs.tsv" boots="$boots" wait="$wait" \
		offline_grace="$offline_grace" cancel_grace="$cancel_grace" poll="$poll" || return
	local d boot
	local -A taken=()
	for d in $(find "$out" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -n); do
		d=$out/$d
		# shellcheck disable=SC1091
		boot=$(. "$d/cell" && echo "$boot")
		# lava-api.py named it (a cell of the run's, or one of boots=): a
		# folder of boots/, never a path
		case $boot in '' | . | .. | */*) die "job $(basename "$d"): \"$boot\" is no boot's name" ;; esac
		# a cell submitted twice: the later job's boot has its id
		[ -z "${taken[$boot]:-}" ] || boot=$boot-lava$(basename "$d")
		taken[$boot]=1
		rm -rf "${run:?}/boots/$boot"
		# shellcheck disable=SC1091
		(. "$d/outcome" && import_log "$d" "$d/output.yaml" "$run/boots/$boot" run_id="$run_id" \
			wall="$wall_s" status="$status" timeout="$timeout_s" error="$error" note="$note" server="$url")
	done
}

cmd=${1:-}
shift || true
case $cmd in
job) write_job "$@" ;;
validate) validate "$@" ;;
run) [ $# -ge 3 ] || die "usage: lava.sh run JOB_DIR BOOT_DIR run_id=ID"; run_job "$@" ;;
import) [ $# -ge 4 ] || die "usage: lava.sh import JOB_DIR LOG BOOT_DIR run_id=ID"; import_log "$@" ;;
submit) [ $# -ge 3 ] || die "usage: lava.sh submit RUN_DIR url= CELL..."; submit_jobs "$@" ;;
collect) [ $# -ge 3 ] || die "usage: lava.sh collect RUN_DIR url= run_id="; collect_jobs "$@" ;;
*) die "usage: lava.sh job|validate|run|import|submit|collect ..." ;;
esac
