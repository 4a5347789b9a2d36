#!/usr/bin/env bash
# facts.sh - the facts make reads from the lab's other files, read once
# into a make file of their own (build/facts.mk) when one of those files
# changed, instead of a sed or awk call per fact in every make of a run
# (issue 49: about 30 processes per parse, ten makes a run).
#
#   facts.sh OUT SOURCE...    (the SOURCEs *.patch: musl's libc-test's)
#
# Nothing is done when OUT is newer than every SOURCE (one test per file).
# The rows written are the sources' own, in their order: make picks from
# them (Makefile: result-kinds, config-of-role, kernel-sources-where, ...).
set -euo pipefail
out=$1
shift
if [ -s "$out" ]; then
	fresh=yes
	for f in "$@"; do [ "$f" -nt "$out" ] && fresh=no && break; done
	[ "$fresh" = no ] || exit 0
fi
top=$(cd "$(dirname "$0")/.." && pwd)
record=$top/host-tools/verdicts/results-record.h
mkdir -p "$(dirname "$out")"
# NAME SED-SCRIPT FILE...: the line "NAME := " and each word the script
# prints of the files (" WORD" per match), in their order
words() {
	local name=$1 script=$2
	shift 2
	printf '%s :=' "$name"
	sed -n "$script" "$@" | tr -d '\n'
	echo
}
patches=()
for f in "$@"; do case $f in *.patch) patches+=("$f") ;; esac; done
{
	echo "# Written by host-tools/facts.sh from the files it names: do not edit."
	# the overflow: scenarios/harness/syscalls.h's Y2038_LAST_SEC
	sed -n 's/^#define Y2038_LAST_SEC[[:space:]]*\([0-9]*\)LL.*/Y2038_LAST_SEC := \1/p' \
		"$top/scenarios/harness/syscalls.h"
	# results-record.h: each KIND(kind, libc, libc ABI, raw ABI, column, ...)
	# as kind/libc/libc_abi/raw_abi/column; each CONFIG(config, where, role,
	# ...) as config/where/role; each KERNEL_PROGRAM(name, when, ...) as name/when.
	words RESULT_KIND_ROWS 's|^[[:space:]]*KIND[^A-Za-z_]\([^,]*\), \([^,]*\), \([^,]*\), \([^,]*\), \([^,]*\),.*| \1/\2/\3/\4/\5|p' "$record"
	words RESULT_CONFIG_ROWS 's|^[[:space:]]*CONFIG[^A-Za-z_]\([^,]*\), \([^,]*\), \([^,]*\),.*| \1/\2/\3|p' "$record"
	words RESULT_KERNEL_PROGRAM_ROWS 's|^[[:space:]]*KERNEL_PROGRAM[^A-Za-z_]\([^,]*\), \([^,]*\),.*| \1/\2|p' "$record"
	# data/kernel-sources.tsv: each kernel's row, its fields joined by "/"
	# (an empty field as "-")
	printf 'KERNEL_SOURCE_ROWS :='
	awk -F'\t' '/^[a-z0-9]/ { r = $1; for (i = 2; i <= NF; i++) r = r "/" ($i == "" ? "-" : $i); printf " %s", r }' \
		"$top/data/kernel-sources.tsv"
	echo
	# scenarios/files.c: the DISK lines' image names, the T_* moments
	words FS_IMAGES 's/^[[:space:]]*DISK[^A-Za-z0-9_][a-z0-9_]*, "\([^"]*\)",.*/ \1/p' "$top/scenarios/files.c"
	words FS_POINTS 's/^#define T_[0-9A-Z]*[[:space:]]*\([0-9]*\)LL.*/ \1/p' "$top/scenarios/files.c"
	# musl's libc-test: the sources its patches (the SOURCEs *.patch) add
	words LIBC_TEST_SOURCES 's|^+++ b/\(src/.*\.c\)$| \1|p' /dev/null ${patches[@]+"${patches[@]}"}
} >"$out.$$"
mv "$out.$$" "$out"
