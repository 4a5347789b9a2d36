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
{
	echo "# Written by host-tools/facts.sh from the files it names: do not edit."
	# the overflow: scenarios/harness/syscalls.h's Y2038_LAST_SEC
	sed -n 's/^#define Y2038_LAST_SEC[[:space:]]*\([0-9]*\)LL.*/Y2038_LAST_SEC := \1/p' \
		"$top/scenarios/harness/syscalls.h"
	# results-record.h: each KIND(kind, libc, libc ABI, raw ABI, column, ...)
	# as kind/libc/libc_abi/raw_abi/column; each CONFIG(config, where, role,
	# ...) as config/where/role; each KERNEL_PROGRAM(name, when, ...) as name/when.
	printf 'RESULT_KIND_ROWS :='
	sed -n 's|^[[:space:]]*KIND[^A-Za-z_]\([^,]*\), \([^,]*\), \([^,]*\), \([^,]*\), \([^,]*\),.*| \1/\2/\3/\4/\5|p' "$record" | tr -d '\n'
	printf '\nRESULT_CONFIG_ROWS :='
	sed -n 's|^[[:space:]]*CONFIG[^A-Za-z_]\([^,]*\), \([^,]*\), \([^,]*\),.*| \1/\2/\3|p' "$record" | tr -d '\n'
	printf '\nRESULT_KERNEL_PROGRAM_ROWS :='
	sed -n 's|^[[:space:]]*KERNEL_PROGRAM[^A-Za-z_]\([^,]*\), \([^,]*\),.*| \1/\2|p' "$record" | tr -d '\n'
	# data/kernel-sources.tsv: each kernel's row, its fields joined by "/"
	# (an empty field as "-")
	printf '\nKERNEL_SOURCE_ROWS :='
	awk -F'\t' '/^[a-z0-9]/ { r = $1; for (i = 2; i <= NF; i++) r = r "/" ($i == "" ? "-" : $i); printf " %s", r }' \
		"$top/data/kernel-sources.tsv"
	# scenarios/files.c: the DISK lines' image names, the T_* moments
	printf '\nFS_IMAGES :='
	sed -n 's/^[[:space:]]*DISK[^A-Za-z0-9_][a-z0-9_]*, "\([^"]*\)",.*/ \1/p' "$top/scenarios/files.c" | tr -d '\n'
	printf '\nFS_POINTS :='
	sed -n 's/^#define T_[0-9A-Z]*[[:space:]]*\([0-9]*\)LL.*/ \1/p' "$top/scenarios/files.c" | tr -d '\n'
	# musl's libc-test: the sources its patches (the SOURCEs *.patch) add
	printf '\nLIBC_TEST_SOURCES :='
	for f in "$@"; do case $f in *.patch) sed -n 's|^+++ b/\(src/.*\.c\)$| \1|p' "$f" ;; esac; done | tr -d '\n'
	echo
} >"$out.$$"
mv "$out.$$" "$out"
