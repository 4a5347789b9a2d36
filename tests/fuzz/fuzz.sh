#!/usr/bin/env bash
# fuzz.sh - run the libFuzzer targets of the parsers that read untrusted input
# (tests/fuzz/fuzz-*.c: the guest's TAP, .config files, the expectations
# table, ELF files, boot records, paths inside a root), under ASan and UBSan.
#
#   tests/fuzz/fuzz.sh FUZZ_DIR SECONDS TARGET...
#
# FUZZ_DIR holds the built targets (fuzz-NAME). Each target starts from its
# corpus in tests/fuzz/corpus/NAME/ (never written to: what a run finds goes
# to FUZZ_DIR/corpus-NAME/, to copy in by hand) and runs SECONDS. A crash,
# leak or sanitizer report fails it and leaves the input as
# FUZZ_DIR/crash-NAME-*; one TAP line per target says how many inputs ran.
set -uo pipefail

dir=$1 seconds=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$top/host-tools/tap.sh"

for t in "$@"; do
	bin=$dir/fuzz-$t
	if [ ! -x "$bin" ]; then
		not_ok "fuzz $t: $bin was not built"
		continue
	fi
	mkdir -p "$dir/corpus-$t"
	rm -f "$dir"/crash-"$t"-*
	Y2038_SYMBOLS=$top/data/time-symbols.tsv "$bin" -max_total_time="$seconds" -rss_limit_mb=1024 \
		-timeout=10 -artifact_prefix="$dir/crash-$t-" "$dir/corpus-$t" "$top/tests/fuzz/corpus/$t" \
		>"$dir/log-$t" 2>&1
	rc=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$dir/log-$t")
	crashes=$(ls "$dir"/crash-"$t"-* 2>/dev/null | wc -l)
	expect "fuzz $t: ${runs:-no} inputs in ${seconds} s, $crashes crashes (log: $dir/log-$t)" \
		test "$rc:$crashes" = 0:0 -a -n "$runs"
done
tap_end
