#!/usr/bin/env bash
# glibc-tests.sh - make glibc-tests' host side on fixtures: the table of
# glibc's own tests from the boots' TAP (host-tools/libc/glibc-tests.py),
# and the disk of a kept build (host-tools/libc/glibc-tests-disk.sh).
# The boots' TAP is what guest-init/glibc-run.c printed in a real guest
# (a made-up tree of a few programs, i386, COMPAT_32BIT_TIME=y and =n),
# and a made-up unpatched boot whose program timed out.
#
#   tests/unit/glibc-tests.sh HOST_TOOLS_DIR BUILD_DIR
set -uo pipefail
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
tap_scratch
fx=$top/tests/fixtures/glibc-tests
y=i386-compat32-y-glibc-tests-patched n=i386-compat32-n-glibc-tests-patched u=i386-compat32-n-glibc-tests-unpatched

out=$("$top/host-tools/libc/glibc-tests.py" "$work" "$fx/$y" "$fx/$n" "$fx/$u" 2>&1)
same "the table is made" "$?" 0
t=$work/glibc-tests
# field TEST COLUMN: a cell of results.tsv (the boot's config and variant)
cell() { awk -F'\t' -v t="$1" -v c="$2" -v v="$3" '$1 == t && $4 == c && $5 == v { print $7 }' "$t/results.tsv"; }
same "results.tsv: glibc's PASS" "$(cell nptl/tst-fake-pass compat32-y patched)" PASS
same "results.tsv: glibc's UNSUPPORTED (exit 77)" "$(cell nptl/tst-fake-unsupported compat32-y patched)" UNSUPPORTED
same "results.tsv: glibc's FAIL, on =n only" "$(cell nptl/tst-fake-time32 compat32-n patched) $(cell nptl/tst-fake-time32 compat32-y patched)" "FAIL PASS"
same "results.tsv: a test make -k did not build is NOT-RUN" "$(cell nptl/tst-missing compat32-y patched)" NOT-RUN
same "results.tsv: a test the runner never reached is MISSING" "$(cell nptl/tst-fake-env compat32-n unpatched)" MISSING
time32=$(awk -F'\t' '$1 == "nptl/tst-fake-time32" && $4 == "compat32-y" { print $11 }' "$t/results.tsv")
same "results.tsv: the time32 calls the census saw while a test ran" "$time32" "futex_time32+1"
rerun=$(awk -F'\t' '$1 == "nptl/tst-fake-fail" && $4 == "compat32-n" && $5 == "patched" { print $8 }' "$t/results.tsv")
same "results.tsv: a failed test's rerun in the same boot" "$rerun" PASS
expect "table.tsv: a cell whose rerun differed is shown FAIL>PASS" grep -q "^nptl/tst-fake-fail	FAIL	FAIL>PASS	MISSING	" "$t/table.tsv"
same "results.tsv: one line per test and boot, and the keys" "$(wc -l <"$t/results.tsv")" $((1 + 7 * 3))
rows=$(cut -f1 "$t/table.tsv" | tail -n +2 | tr '\n' ' ')
same "table.tsv: the tests whose verdict differs (a MISSING one too), and only those" "$rows" "nptl/tst-container nptl/tst-fake-env nptl/tst-fake-fail nptl/tst-fake-pass nptl/tst-fake-time32 nptl/tst-fake-unsupported nptl/tst-missing "
rows=$(awk -F'\t' 'NR > 1 && $4 != "MISSING" { printf "%s ", $1 }' "$t/table.tsv")
same "table.tsv: of those the unpatched boot reached, the ones that differ" "$rows" "nptl/tst-fake-pass nptl/tst-fake-time32 "
reason() { awk -F'\t' -v t="$1" '$1 == t { print $(NF - 1) }' "$t/table.tsv"; }
expect "table.tsv: the reason of a row whose =n unpatched cell alone differs (data/glibc-tests-reasons.tsv)" \
	grep -q "the library's time32 system calls" <<<"$(reason nptl/tst-fake-pass)"
same "table.tsv: a test with no reason says so" "$(reason nptl/tst-fake-time32)" "(no reason recorded)"
expect "table.tsv: a FAIL's evidence is its output's error" grep -q "The futex facility returned an unexpected error code" "$t/table.tsv"
expect "table.md: the counts per boot" grep -q "^| $u | fake-libc-unpatched | 0 | 2 | 0 | 0 | 0 | 5 |" "$t/table.md"
expect "out/: each test's output" grep -qx "out: fake test fail" "$t/out/$n/nptl/tst-fake-fail.out"
same "it prints table.md" "$(head -1 <<<"$out")" "$(head -1 "$t/table.md")"

# The disk: a made-up kept tree, its image and key.
tree=$work/tree
mkdir -p "$tree/source/nptl" "$tree/source/manual" "$tree/build/nptl" "$tree/root/lib" "$tree/tests"
touch "$tree/.library" "$tree/build/nptl/tst-x.o" "$tree/source/manual/big.texi"
echo 1 >"$tree/seconds"
echo fake-libc >"$tree/libc"
printf 'int main(void){return 0;}\n' >"$tree/build/nptl/tst-x"
printf 'nptl/tst-x\trun\ty2038-glibc-test-wrapper env x\n' >"$tree/tests/nptl.list"
disk() { "$top/host-tools/libc/glibc-tests-disk.sh" tree="$tree" out="$work/d.img" subdirs=nptl "$@" >/dev/null 2>&1; }
expect "a disk of the tree is made" disk
PATH="$PATH:/usr/sbin:/sbin"
ls_img() { debugfs -R "ls -p $1" "$work/d.img" 2>/dev/null | awk -F/ 'NF > 5 && $6 != "." && $6 != ".." { print $6 }' | sort | tr '\n' ' '; }
same "it has the tree's folders, glibc-tests.env and libc" "$(ls_img /)" "build glibc-tests.env libc lost+found root source tests "
same "build/ without the objects" "$(ls_img /build/nptl)" "tst-x "
same "source/ without the manual" "$(ls_img /source)" "nptl "
env=$(debugfs -R "cat /glibc-tests.env" "$work/d.img" 2>/dev/null)
expect "glibc-tests.env names the tree the tests were built in" grep -qx "tree=$tree" <<<"$env"
before=$(stat -c %Y "$work/d.img")
sleep 1
disk
same "an image whose key has not changed is kept" "$(stat -c %Y "$work/d.img")" "$before"
disk timeoutfactor=9
expect "a changed setting makes it anew" test "$(stat -c %Y "$work/d.img")" != "$before"
tap_end
