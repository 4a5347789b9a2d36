#!/usr/bin/env bash
# plan.sh - what a run will build, and roughly how long it will take, said
# in the first lines of a run that has kernels to build.
#
#   plan.sh KERNEL.SH_ARGS [run_flavour=NAME] -- MACHINE:CONFIG:FLAVOUR:MACHINE_ENV:FRAGMENTS...
#
# Asks kernel.sh (plan=yes) for each kernel: reuse, build (from nothing) or
# rebuild (from its machine's tree, where the other config was built). A
# full build's time is what one took here last, else the estimate below.
# The kernels come in the queue's order: the run's own flavour's first
# (run_flavour, default lab: the first verdicts wait for its first
# machine's), then other flavours'.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"

# A full build of one lab kernel compiles about 800 objects (NET, INET and
# ext4 for the scenarios), measured at 500 to 900 s on 2 cores (make bench);
# a second config from the first's tree recompiles a few dozen
# and relinks.
FULL_CORE_SECONDS=1300
REBUILD_SECONDS=90

args=() run_flavour=lab
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	run_flavour=*) run_flavour=${1#run_flavour=} ;;	# the run's own: its first verdicts
	*) args+=("$1") ;;
	esac
	shift
done
shift || true
cores=$(nproc)
full=0 rebuild=0 total=0 first=0 machines=() prev= first_machine= others=0 other_flavours=()
for k in "$@"; do
	IFS=: read -r m c f env frags <<<"$k"
	# its last line: the first plan may unpack the source, and says so first
	read -r what secs < <({ "$LAB_TOP/host-tools/kernel/kernel.sh" "${args[@]}" plan=yes \
		flavour="$f" machine_env="$env" config="$c" fragments="$frags" out=/dev/null 2>/dev/null ||
		echo "unknown 0"; } | tail -1)
	# a machine's second config is built from the tree its first one leaves
	[ "$what" = build ] && [ "$m:$f" = "$prev" ] && what=rebuild
	case $what in
	build)	[ "${secs:-0}" -gt 0 ] || secs=$((FULL_CORE_SECONDS / cores))
		full=$((full + 1)) ;;
	rebuild) secs=$REBUILD_SECONDS
		rebuild=$((rebuild + 1)) ;;
	*) continue ;;
	esac
	total=$((total + secs))
	[[ " ${machines[*]} " == *" $m "* ]] || machines+=("$m")
	prev=$m:$f
	if [ "$f" = "$run_flavour" ]; then
		# the first machine's verdicts come after its own kernels
		first_machine=${first_machine:-$m}
		[ "$m" != "$first_machine" ] || first=$((first + secs))
	else
		others=$((others + 1))
		[[ " ${other_flavours[*]} " == *" $f "* ]] || other_flavours+=("$f")
	fi
done
[ $((full + rebuild)) -gt 0 ] || exit 0
say PLAN "$((full + rebuild)) kernels to build for ${machines[*]}: about $(((total + 59) / 60)) min on this machine's $cores cores, one machine at a time."
[ "$full" -eq 0 ] || say PLAN "$full compiled from the source package (about 800 objects each: the scenarios need NET, INET and ext4),"
[ "$rebuild" -eq 0 ] || say PLAN "$rebuild rebuilt from their machine's other config (kbuild recompiles only what COMPAT_32BIT_TIME touches)."
[ "$others" -eq 0 ] || say PLAN "$others of them the ${other_flavours[*]} flavour's (host-tools/kernel/kernel.mk)$([ "$others" -eq $((full + rebuild)) ] || echo ", built after the others"): their boots come last."
[ -z "$first_machine" ] || say PLAN "The first verdicts ($first_machine's matrix) print as soon as its kernels are built: in about $(((first + 59) / 60 + 1)) min."
