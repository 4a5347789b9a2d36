#!/usr/bin/env bash
# retry-late.sh - boot again, alone and once, each boot of a run with a case
# that missed its moment (observed LATE: the machine's load, not the
# overflow; scenarios/harness/cases.h, guest-init/moment.h).
#
#   retry-late.sh collect=Y2038_COLLECT expectations=TSV run_dir=DIR -- COMMAND...
#
# Run by make run's lab (verdicts.mk) once every boot of the run has ended,
# so that the boot again has the machine to itself. For each boot that
# y2038-collect --late names, it says so in one line, keeps the first boot
# aside as DIR/boots/.late/BOOT (nothing measured is lost; the collector
# reads no folder whose name begins with a dot), and runs COMMAND with the
# boot's record appended (DIR/boots/BOOT/meta: make, with BOOT_RETRY=yes),
# which boots it again there. A boot late again stays late: its cells are
# no verdict, counted apart in the closing line.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
[ "${1:-}" = -- ] && [ $# -ge 2 ] || die "usage: retry-late.sh collect= expectations= run_dir= -- COMMAND..."
shift
kv_args "${args[@]}"
need collect expectations run_dir

late=$("$collect" --late "$expectations" "$run_dir")
[ -n "$late" ] || exit 0
while IFS=$'\t' read -r boot n first; do
	[ -d "$run_dir/boots/$boot" ] || die "the collector named $boot, which is no boot of $run_dir"
	cases="$n case$([ "$n" = 1 ] || echo s)"
	say RETRY "$boot: $cases missed $([ "$n" = 1 ] && echo its || echo their) moment (${first%% (was: *}); booting it again, alone"
	mkdir -p "$run_dir/boots/.late"
	rm -rf "$run_dir/boots/.late/$boot"
	mv "$run_dir/boots/$boot" "$run_dir/boots/.late/$boot"
	"$@" "$run_dir/boots/$boot/meta" </dev/null || die "booting $boot again failed (its first boot: $run_dir/boots/.late/$boot)"
done <<<"$late"
