#!/usr/bin/env bash
# bench.sh - the lab's speed, measured and printed beside issue 8's targets.
# No test asserts a time: this prints figures, and keeps them in OUT.
#
#   bench.sh out=DIR machines="i386 armv7" families="clock files ..." \
#            cold=yes|no [cold_machines="i386"] kunit_machine=i386
#
# Run by make bench, which passes MAKE and the variables make needs. Each
# figure is measured with the lab's own commands:
#   cold kernel build  make inputs for one machine's compat32-y kernel with a
#                      fresh build directory (KERNEL_BUILDS=), the unpacked
#                      source reused: configure and compile, nothing cached
#   no-op re-run       make inputs again with every input already built
#   boot-to-verdict    one guest per (machine, scenario family): QEMU start
#                      to power-off, both ABIs' programs, from boot.sh's meta
#   warm matrix        make lab, every machine, config, boot kind and host
#                      column, kernels and images already built
#   kunit.py exec      the kernel's own KUnit runner booting its test kernel
#                      (built by make kunit first), for comparison
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
: "${out:?}" "${machines:?}" "${families:?}" "${cold:=yes}" "${kunit_machine:=i386}"
: "${cold_machines:=$machines}"
MAKE=${MAKE:-make}
mkdir -p "$out"
out=$(realpath "$out")
figures=$out/figures.tsv
log=$out/bench.log
: >"$figures"
: >"$log"
now() { date +%s.%N; }
since() { printf '%.2f' "$(echo "$(now) - $1" | bc)"; }
# figure NAME MEASURED UNIT TARGET NOTE: one row of the table
figure() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$figures"; say FIGURE "$1: $2 $3 (target $4)${5:+; $5}"; }
lab() { "$MAKE" --no-print-directory "$@" >>"$log" 2>&1; }
meta() { sed -n "s/^$2=//p" "$1/meta"; }

# --- Cold kernel builds: a scratch build directory and an empty compiler
# cache, removed afterwards. compat32-y first, then compat32-n, which finds
# the first's objects in ccache as make run's builds do.
if [ "$cold" = yes ]; then
	for m in $cold_machines; do
		scratch=$out/cold-$m
		rm -rf "$scratch"
		say COLD "$m: both kernels from scratch, one after the other (log: $log)"
		start=$(now)
		rc=0
		lab inputs MACHINES="$m" CONFIGS="compat32-y compat32-n" BOOT_KINDS=rtc-after FAKETIME=no \
			KERNEL_BUILDS="$scratch/build" KERNEL_CCACHE="$scratch/ccache" \
			KERNEL_ENVS="$scratch/env" LAB_JOBS=1 || rc=$?
		wall=$(since "$start")
		for c in compat32-y compat32-n; do
			env=$scratch/env/$m-$c.env
			# kernel.sh's own count: configure and compile, without make's checks
			built=$(sed -n 's/^KERNEL_BUILD_SECONDS=//p' "$env" 2>/dev/null || true)
			if [ -z "$built" ] || grep -q '^KERNEL_ERROR=' "$env"; then
				figure "cold kernel build, $m $c" failed s "<= 130" "make exit $rc; see $log"
				continue
			fi
			objects=$(find "$scratch/build" -path "*/$m-$c-*" -name '*.o' | wc -l)
			case $c in
			compat32-y) how="empty ccache" ;;
			*) how="ccache holding compat32-y's objects: $(CCACHE_DIR=$scratch/ccache ccache -s 2>/dev/null | sed -n 's/^ *Hits: *\([0-9]*\) *\/ *\([0-9]*\).*/\1 of \2 compiles hit/p' | head -1)" ;;
			esac
			figure "cold kernel build, $m $c" "$built" s "<= 130" "$objects objects; $how"
		done
		# Where a build's objects are: what the scenarios' needs cost.
		(cd "$scratch/build"/*/"$m-compat32-y-"*/ && find . -name '*.o' ! -name '*.mod.o' |
			awk -F/ '{ a = $2 "/" ($3 ~ /\.o$/ ? "" : $3); n[a]++ } END { for (a in n) print n[a], a }' |
			sort -rn | head -8 | paste -sd ',' - | sed 's/,/, /g') >"$out/objects-$m.txt" || true
		say OBJECTS "$m compat32-y, largest parts: $(cat "$out/objects-$m.txt")"
		say COLD "$m: make inputs took $wall s for both"
		rm -rf "$scratch"
	done
fi

# --- No-op re-run: everything built, so make only checks.
lab inputs	# make sure it is all built first
start=$(now)
"$MAKE" --no-print-directory inputs >"$out/noop.log" 2>&1
figure "no-op re-run (make inputs, all built)" "$(since "$start")" s "<= 2" \
	"$(grep -c REUSE "$out/noop.log") kernels reused, $(grep -vc REUSE "$out/noop.log") other lines"

# --- Boot-to-verdict: one guest per machine and scenario family.
boots=$out/boots
rm -rf "$boots"
for m in $machines; do
	for f in $families; do
		run=$m-$f
		lab boots MACHINES="$m" CONFIGS=compat32-y BOOT_KINDS=matrix FAKETIME=no \
			RESULTS="$boots" RUN_ID="$run" matrix.bins="$f-legacy $f-time64" || true
		b=$boots/$run/boots/$m-compat32-y
		if [ ! -f "$b/meta" ] || [ "$(meta "$b" qemu_status)" != exited ]; then
			figure "boot-to-verdict, $m $f ($(meta "$b" accel 2>/dev/null || echo '?'))" failed s "<= 2" "see $b"
			continue
		fi
		init=$(sed -n 's/^# y2038-init: started \([0-9.]*\) s after the kernel/\1/p' "$b/tap.log")
		took=$(sed -n 's/^# y2038-init: \(.*\) took \([0-9.]*\) s$/\1 \2 s/p' "$b/tap.log" | paste -sd ',' - | sed 's/,/, /g')
		late=$(sed -n 's/^# # harness: a case began at most \([0-9.]*\) ms.*/\1/p' "$b/tap.log" | sort -n | tail -1)
		figure "boot-to-verdict, $m $f ($(meta "$b" accel))" "$(meta "$b" wall_s)" s "<= 2" \
			"init after ${init:-?} s; $took; latest case start ${late:-?} ms"
	done
done
# KVM: only where boot.sh's probe let a guest run under it.
note=$(cat "$boots"/*/boots/*/accel-note 2>/dev/null | sort -u | head -1 || true)
if grep -qx 'accel=kvm' "$boots"/*/boots/*/meta 2>/dev/null; then
	figure "boot-to-verdict, KVM" "see the rows above marked kvm" s "<= 1" ""
else
	figure "boot-to-verdict, KVM" "not measured" - "<= 1" "KVM does not work here: ${note:-no kvm candidate}"
fi

# --- The whole warm matrix, as make run boots it.
lab inputs
start=$(now)
rc=0
lab lab RESULTS="$out/matrix" || rc=$?
wall=$(since "$start")
verdict=$(grep -E '^[0-9]+ cells, ' "$log" | tail -1)
figure "whole warm matrix (make lab, LAB_JOBS=${LAB_JOBS:-$(nproc)})" "$wall" s "<= 60" \
	"$(find "$out/matrix/latest/boots" -mindepth 1 -maxdepth 1 | wc -l) boots and host columns; ${verdict:-no verdict line} (exit $rc)"

# --- For comparison: kunit.py exec on the same arch, test kernel built.
if lab "kunit-$kunit_machine" MACHINES="$kunit_machine"; then
	start=$(now)
	if lab kunit-"$kunit_machine" MACHINES="$kunit_machine" KUNIT_ACTION=exec; then
		figure "kunit.py exec, $kunit_machine (the lab's KUnit tests)" "$(since "$start")" s "-" \
			"$(grep -o '[0-9]* test cases passed' "$log" | tail -1)"
	else
		figure "kunit.py exec, $kunit_machine" failed s "-" "see $log"
	fi
else
	figure "kunit.py exec, $kunit_machine" "not measured" - "-" "make kunit-$kunit_machine failed: see $log"
fi

echo
column -t -s "$(printf '\t')" -N figure,measured,unit,target,note "$figures" | tee "$out/bench.txt"
echo "bench: $out/bench.txt (figures.tsv, bench.log)"
