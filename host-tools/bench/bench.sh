#!/usr/bin/env bash
# bench.sh - the lab's speed, measured and printed beside its targets. No
# test asserts a time: this prints figures, and keeps them in OUT.
#
#   bench.sh out=DIR cache=DIR machines="i386 armv7" cold=yes|no check=yes|no \
#            clock=yes|no|only guests=yes|no|only kunit_machine=i386 one_machine=i386 \
#            with_time32=CONFIG without_time32=CONFIG
#
# Run by make bench, which passes MAKE and the variables make needs. Each
# figure is measured with the lab's own commands:
#   cold run           make run with an empty cache and build folder (the
#                      Debian packages are installed already): its kernels
#                      from nothing, its first matrix block, its end; each
#                      machine's second config against its first
#   no-op              make kernels inputs again with everything built
#   warm run           make run with every kernel built: where the time goes,
#                      per boot (QEMU start to power-off), per program in
#                      guest time, and per host column
#   make check         on an empty cache (check=yes only: an hour)
#   kunit.py exec      the kernel's own KUnit runner booting its test kernel
#                      (built by make kunit first), for comparison
#   clock read         what one read of the wall clock costs, each way, on
#                      7.2 and 7.3, both configs (make bench-clock-boots,
#                      clock-cost.sh): clock=no leaves it out, clock=only
#                      measures it alone
#   guests at once     how many timed guests this machine boots at once
#                      before a case's start slips: 1 to 4 matrix boots at
#                      once; the most that keep within half the across lead
#                      is kept for boot.sh (make run's TIMED_GUESTS):
#                      guests=no leaves it out, guests=only measures it alone
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cold=yes check=no clock=yes guests=yes kunit_machine='' one_machine=''
kv_args "$@"
need out cache machines kunit_machine one_machine with_time32 without_time32
MAKE=${MAKE:-make}
mkdir -p "$out"
out=$(realpath "$out")
figures=$out/figures.tsv
log=$out/bench.log
: >"$figures"
: >"$log"
now() { date +%s.%N; }
# The latest any case began after its clock was set, in ms, over the
# harness's closing comments on stdin (boot_notes).
latest_case_start() { sed -n 's/^harness: a case began at most \([0-9.]*\) ms.*/\1/p' | sort -n | tail -1; }
since() { printf '%.2f' "$(echo "$(now) - $1" | bc)"; }
# figure NAME MEASURED UNIT TARGET NOTE: one row of the table
figure() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$figures"; say FIGURE "$1: $2 $3 (target $4)${5:+; $5}"; }
lab() { "$MAKE" --no-print-directory "$@" >>"$log" 2>&1; }
minutes() { awk -v s="$1" 'BEGIN { printf "%d min %02d s", s / 60, s % 60 }'; }
# The figures as a table, where they are kept.
finish() {
	echo
	column -t -s "$(printf '\t')" -N figure,measured,unit,target,note "$figures" | tee "$out/bench.txt"
	echo "bench: $out/bench.txt (figures.tsv, bench.log)"
}

# --- What one clock read costs, each way a 32-bit program reads it, on 7.2
# and 7.3, both configs (clock-cost.sh: its table, and a figure per cell).
# No target: under TCG the ns are the emulator's, to compare side by side.
clock_costs() {
	local dir=$out/clock source kernel config machine abi way ns rounds how
	rm -f "$dir/clock-cost.tsv" "$dir/clock-cost.txt"
	lab bench-clock-boots BENCH_CLOCK_OUT="$dir" || true	# its failed rows say why
	if [ ! -s "$dir/clock-cost.tsv" ]; then
		figure "clock read costs" failed - - "make bench-clock-boots gave no $dir/clock-cost.tsv: see $log"
		return
	fi
	while IFS=$'\t' read -r source kernel config machine abi way ns rounds how; do
		if [[ $ns =~ ^[0-9.]+$ ]]; then
			figure "clock read, ${source#linux-source-} $config $machine: $abi $way" "$ns" ns - \
				"$how; the fastest of the boots' $rounds; $kernel"
		else
			figure "clock read, ${source#linux-source-} $config $machine: $abi $way" "$ns" - - "$how; $kernel"
		fi
	done < <(tail -n +2 "$dir/clock-cost.tsv")
	cat "$dir/clock-cost.txt"
}
if [ "$clock" = only ]; then
	clock_costs
	finish
	exit 0
fi

# --- How many timed guests this machine boots at once before a case's
# start slips: K matrix boots at once (i386's and armv7's, both configs),
# K = 1 to 4, and the latest any case of theirs began after its clock was
# set (the harness's closing line). The across cases have a 50 ms lead; the
# most guests whose latest start stays within half of it, each K up to it
# included, is what boot.sh's timed slots allow (timed_guests_file), unless
# make is told TIMED_GUESTS. Side by side, one K after another, nothing else
# running but what the machine runs anyway.
GUESTS_BOOTS=("i386-$with_time32" "armv7-$with_time32" "i386-$without_time32" "armv7-$without_time32")
GUESTS_LIMIT_MS=25
guests_at_once() {
	local k best=0 slip run fact vars=(BOOT_KINDS=matrix MACHINES="i386 armv7" FAKETIME=no RESULTS="$out/guests")
	fact=$(timed_guests_file "$cache")
	lab kernels inputs "${vars[@]}"
	for k in 1 2 3 4; do
		run=$out/guests/guests-$k
		rm -rf "$run"
		"$MAKE" --no-print-directory -j"$k" RUN_ID="guests-$k" TIMED_GUESTS="$k" "${vars[@]}" \
			$(printf "$run/boots/%s/meta " "${GUESTS_BOOTS[@]:0:$k}") >>"$log" 2>&1
		slip=$(for b in "$run"/boots/*/; do boot_notes "$b"; done | latest_case_start)
		figure "guests at once: $k matrix boots" "${slip:-?}" ms "< $GUESTS_LIMIT_MS" \
			"the latest case start after its clock was set, over $k boots booted together (the across lead is 50 ms)"
		if [ "$best" = $((k - 1)) ] && [ -n "$slip" ] && awk -v s="$slip" -v l="$GUESTS_LIMIT_MS" 'BEGIN { exit !(s < l) }'; then
			best=$k
		fi
	done
	if [ "$best" -gt 0 ]; then
		mkdir -p "$(dirname "$fact")"
		echo "$best" >"$fact"
		figure "timed guests at once (boot.sh's slots)" "$best" - - "kept in $fact; make run TIMED_GUESTS=N says otherwise"
	else
		figure "timed guests at once (boot.sh's slots)" "not kept" - - "even one guest's case started $GUESTS_LIMIT_MS ms late or more: boot.sh keeps one per core"
	fi
}
if [ "$guests" = only ]; then
	guests_at_once
	finish
	exit 0
fi

# --- A cold run: an empty cache and build folder, as on a fresh machine
# whose packages are installed. The first block is the first machine's
# verdicts (results/<run>/blocks/<machine>, written as it is printed).
if [ "$cold" = yes ]; then
	scratch=$out/cold
	rm -rf "$scratch"
	mkdir -p "$scratch"
	say COLD "make run on an empty cache ($scratch): every kernel from nothing (log: $scratch/run.log)"
	start=$(date +%s)
	rc=0
	"$MAKE" --no-print-directory run MACHINES="$machines" CACHE="$scratch/cache" BUILD="$scratch/build" \
		RESULTS="$scratch/results" RUN_ID=cold >"$scratch/run.log" 2>&1 || rc=$?
	end=$(date +%s)
	first=$(ls -tr --time-style=+%s -l "$scratch/results/cold/blocks/" 2>/dev/null | awk 'NR > 1 { print $6; exit }')
	if [ -n "$first" ]; then
		figure "cold make run, to the first matrix block" "$(minutes $((first - start)))" - "<= 12 min" \
			"$(ls -tr "$scratch/results/cold/blocks" | head -1); packages installed already"
	else
		figure "cold make run, to the first matrix block" failed - "<= 12 min" "no block printed; see $scratch/run.log"
	fi
	# The first verdict: the first matrix boot's cells, against the first
	# kernel's build time alone (make run starts it before anything else).
	# A kernel build's record: SECONDS RECOMPILED OBJECTS FLAVOUR MACHINE
	# CONFIG (kernel.sh).
	verdict=$(for b in "$scratch"/results/cold/boots/*/; do
		[ "$(boot_field "$b" kind)" = matrix ] && stat -c %Y "$b/meta"; done 2>/dev/null | sort -n | head -1)
	kfirst=$(for f in "$scratch"/cache/build/*/*/.y2038-build; do
		[ -f "$f" ] && echo "$(stat -c %Y "$f") $(cut -d' ' -f1 "$f")"; done | sort -n | awk 'NR == 1 { print $2 }')
	if [ -n "$verdict" ] && [ -n "$kfirst" ]; then
		figure "cold make run, its first verdict after the first kernel's build time" \
			"$((verdict - start - ${kfirst%.*}))" s "<= 120" \
			"first verdict at $(minutes $((verdict - start))), the first kernel built in ${kfirst%.*} s; packages installed already"
	else
		figure "cold make run, its first verdict after the first kernel's build time" failed - "<= 120" "no matrix boot or no kernel built"
	fi
	figure "cold make run, to the end" "$(minutes $((end - start)))" - "<= 30 min" \
		"exit $rc; $(grep -E '^[0-9]+ cells, ' "$scratch/run.log" | tail -1)"
	# Each machine's two kernels: the second config (without the time32
	# calls) built from the tree the first (with them) left.
	cat "$scratch"/cache/build/*/*/.y2038-build 2>/dev/null |
		awk -v y="$with_time32" -v n="$without_time32" '$4 == "lab" && $6 == y { first[$5] = $0 } $4 == "lab" && $6 == n { second[$5] = $0 }
			END { for (m in first) if (m in second) print m "\t" first[m] "\t" second[m] }' |
	while IFS=$'\t' read -r m first second; do
		read -r ys yr yo _ <<<"$first"
		read -r ns nr no _ <<<"$second"
		figure "second config / first config build time, $m" "$(echo "scale=2; $ns / $ys" | bc)" - "<= 0.15" \
			"$with_time32 $ys s ($yr of $yo objects compiled, empty ccache), then $without_time32 $ns s ($nr of $no recompiled)"
	done
fi

# --- No-op: everything built, so make only checks.
lab kernels inputs	# make sure it is all built first
start=$(now)
"$MAKE" --no-print-directory kernels inputs >"$out/noop.log" 2>&1
figure "no-op make (kernels and inputs, all built)" "$(since "$start")" s "<= 2" \
	"$(grep -c . "$out/noop.log") lines printed"

# --- The warm run, as make run boots it, and where its time goes.
rm -rf "$out/warm"
start=$(now)
rc=0
"$MAKE" --no-print-directory run RESULTS="$out/warm" RUN_ID=warm >"$out/warm.log" 2>&1 || rc=$?
wall=$(since "$start")
run=$out/warm/warm
# Its budget, decided for every axis beside the matrix (the libc column,
# the apps and their runtimes, filesystems): the whole default warm run at
# or under 300 s on this machine; a new axis fits by making others cheaper.
figure "warm make run (every kernel built)" "$wall" s "<= 300" \
	"$(find "$run/boots" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l) boots and host columns, LAB_JOBS=${LAB_JOBS:-$(nproc)}; $(grep -E '^[0-9]+ cells, ' "$out/warm.log" | tail -1) (exit $rc)"
# Per kind of boot: how many, and their summed wall time (two run at once).
for b in "$run"/boots/*/; do
	printf '%s\t%s\n' "$(boot_field "$b" kind)" "$(boot_field "$b" wall_s)"
done | awk -F'\t' '{ n[$1]++; s[$1] += $2 } END { for (k in n) printf "%s\t%d\t%.1f\n", k, n[k], s[k] }' |
	sort >"$out/warm-kinds.tsv"
total=$(awk -F'\t' '{ s += $3 } END { print s }' "$out/warm-kinds.tsv")
while IFS=$'\t' read -r kind n secs; do
	figure "  warm run: $kind boots" "$secs" s - \
		"$n of them, wall time summed: $(echo "$secs $total" | awk '{ printf "%.0f", 100 * $1 / $2 }')% of the boots' $total s"
done <"$out/warm-kinds.tsv"
# Per program, in guest time, summed over the matrix boots; and the
# harness's latest case start over every boot: the boots' TAP comments, as
# the collector reads them (lib.sh's boot_notes).
for b in "$run"/boots/*/; do
	[ "$(boot_field "$b" kind)" = matrix ] && boot_notes "$b"
done >"$out/warm-matrix-notes.txt"
sed -n 's/^y2038-init: \(.*\) took \([0-9.]*\) s$/\1\t\2/p' "$out/warm-matrix-notes.txt" |
	sed 's/-[a-z0-9]*\t/\t/' |	# NAME-KIND: the family
	awk -F'\t' '{ s[$1] += $2 } END { for (k in s) printf "%s\t%.1f\n", k, s[k] }' | sort -t$'\t' -k2 -rn |
	while IFS=$'\t' read -r family secs; do
		figure "  warm run: the $family programs" "$secs" s - "guest time, every ABI, every matrix boot"
	done
init=$(sed -n 's/^y2038-init: started \([0-9.]*\) s after the kernel/\1/p' "$out/warm-matrix-notes.txt" |
	awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n }')
figure "  warm run: kernel boot to init" "${init:-?}" s - "guest time, the mean of the matrix boots"
late=$(for b in "$run"/boots/*/; do boot_notes "$b"; done | latest_case_start)
figure "  warm run: latest case start" "${late:-?}" ms "< 50" "after its clock was set, over every program (the across lead is 50 ms)"
# The narrowed run a user makes while working on one family: one machine,
# one config, the matrix only.
narrowed=(MACHINES=$one_machine CONFIGS=$with_time32 BOOT_KINDS=matrix FAKETIME=no)
start=$(now)
rc=0
"$MAKE" --no-print-directory run "${narrowed[@]}" RESULTS="$out/warm" RUN_ID=narrowed >"$out/narrowed.log" 2>&1 || rc=$?
figure "narrowed warm make run" "$(since "$start")" s "<= 20" \
	"make run ${narrowed[*]}; the boot $(boot_field "$(echo "$out"/warm/narrowed/boots/*/)" wall_s) s of it (exit $rc)"
# KVM: only where boot.sh's probe let a guest run under it.
note=$(cat "$run"/boots/*/accel-note 2>/dev/null | sort -u | head -1 || true)
if for b in "$run"/boots/*/; do boot_field "$b" accel; done | grep -qx kvm; then
	figure "  warm run under KVM" "see the boots marked kvm" - - ""
else
	figure "  warm run under KVM" "not measured" - - "KVM does not work here: ${note:-no kvm candidate}"
fi

# --- make check on an empty cache, when asked: it takes most of an hour.
if [ "$check" = yes ]; then
	scratch=$out/check
	rm -rf "$scratch"
	start=$(date +%s)
	rc=0
	"$MAKE" --no-print-directory check CACHE="$scratch/cache" BUILD="$scratch/build" >"$scratch.log" 2>&1 || rc=$?
	figure "make check on an empty cache" "$(minutes $(($(date +%s) - start)))" - "<= 50 min" \
		"exit $rc; $(tail -1 "$scratch.log"); packages installed already"
else
	figure "make check on an empty cache" "not measured" - "<= 50 min" "make bench BENCH_CHECK=yes measures it"
fi

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

[ "$guests" = no ] || guests_at_once
[ "$clock" = no ] || clock_costs
finish
