#!/usr/bin/env bash
# patch-variants.sh - host-tools/patch-check/variants.sh: the lab's series
# passes, and on small copies of it, a variant whose added line differs
# from its base, or is in another function, fails naming the file and the
# line, passes with a note
# saying why, and a variant with no base fails unless noted.
#
#   tests/unit/patch-variants.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

variants() { COUNTS='' "$top/host-tools/patch-check/variants.sh" series="$1/series" >"$work/out" 2>&1; }
p3=0003-time-Add-a-census-of-32-bit-time-system-call-use.patch
p4=0004-sched-Count-sched_rr_get_interval_time32-in-the-time.patch
p2=0002-selftests-net-Check-the-layout-the-SIOCGSTAMP-ioctls.patch

# --- The lab's own series: every variant the same as its base, or noted.
variants "$top/patches"
expect "the lab's series: every variant has its base's lines, or a note" test $? = 0
expect "... 7.2/0002 is noted, and its two differing added lines are still listed" \
	test "$(grep -c "^# tools/testing/selftests/net/[a-zA-Z.]*: \(base\|7.2 \)  +" "$work/out"):$(grep -c "^ok [0-9]* 7.2/$p2: .* # SKIP ." "$work/out")" = "4:1"

# A copy with one variant, 6.12/0003, and its base.
mkdir -p "$work/a/6.12"
cp "$top/patches/$p3" "$work/a/" && cp "$top/patches/6.12/$p3" "$work/a/6.12/"
echo "$p3" >"$work/a/series"
variants "$work/a"
expect "a copy of 6.12/0003 and its base passes" test $? = 0

# --- One added line changed in the variant: it fails, naming both.
line=$(awk '/^@@ / { on = 1; next } on && /^\+[^+]/ { print NR; exit }' "$work/a/6.12/$p3")
text=$(sed -n "${line}p" "$work/a/6.12/$p3")
file=$(head -n "$line" "$work/a/6.12/$p3" | sed -n 's|^diff --git a/.* b/||p' | tail -1)
sed -i "${line}s/\$/ \/* changed *\//" "$work/a/6.12/$p3"
variants "$work/a"
expect "an added line changed in 6.12/0003: the check fails" test $? = 1
expect "... naming the variant" grep -q "^not ok 1 6.12/$p3: its added or removed lines differ" "$work/out"
expect "... and the file and the line, the base's and the variant's" \
	test "$(grep -cxF -e "# $file: base  $text" -e "# $file: 6.12  $text /* changed */" "$work/out")" = 2

# --- The same lines in another function: pselect6 and pselect6_time32 have
# the same body, so a hunk with the right lines can land in the wrong one.
# The variant's hunk header says where it is; the check names both.
cp "$top/patches/6.12/$p3" "$work/a/6.12/"
sed -i 's/^\(@@ [^@]* @@ SYSCALL_DEFINE6(pselect6\)_time32,/\1,/' "$work/a/6.12/$p3"
variants "$work/a"
expect "the census note moved from pselect6_time32 to pselect6: the check fails" \
	test "$?: $(grep -c '^not ok 1 ' "$work/out")" = "1: 1"
expect "... naming the function of each" \
	test "$(grep -cxF -e "# fs/select.c: base  in SYSCALL_DEFINE6(pselect6_time32): +	time32_census_note(TIME32_CENSUS_PSELECT6_TIME32);" \
		-e "# fs/select.c: 6.12  in SYSCALL_DEFINE6(pselect6): +	time32_census_note(TIME32_CENSUS_PSELECT6_TIME32);" "$work/out")" = 2
sed -i "${line}s/\$/ \/* changed *\//" "$work/a/6.12/$p3"
sed -i 's/^\(@@ [^@]* @@ SYSCALL_DEFINE6(pselect6\),/\1_time32,/' "$work/a/6.12/$p3"

# --- A note beside it: it passes, with the note's reason, and still lists the lines.
printf 'A test of the note:\nthis line differs on purpose.\n' >"$work/a/6.12/$p3.differs"
variants "$work/a"
expect "with a note 6.12/0003.differs: the check passes" test $? = 0
expect "... its line is ok, with the note's reason on one line" \
	grep -qxF "ok 1 6.12/$p3: its lines differ from its base's # SKIP A test of the note: this line differs on purpose." "$work/out"
expect "... and the differing line is still listed" grep -qxF "# $file: 6.12  $text /* changed */" "$work/out"

# --- A note whose variant no longer differs is stale; an empty note is none.
cp "$top/patches/6.12/$p3" "$work/a/6.12/"
variants "$work/a"
expect "a note on a variant with its base's lines fails (remove the note)" \
	test "$?: $(grep '^not ok' "$work/out")" = "1: not ok 1 6.12/$p3: noted as differing, but its lines are its base's (remove 6.12/$p3.differs)"
: >"$work/a/6.12/$p3.differs"
variants "$work/a"
expect "an empty note fails: it says nothing" grep -q "^not ok 1 6.12/$p3: its note .* is empty" "$work/out"
rm "$work/a/6.12/$p3.differs"

# --- A variant whose base is missing (the series still lists the name, so
# series.sh would leave it out of the other kernels without a word).
mkdir -p "$work/b/6.12"
cp "$top/patches/6.12/$p4" "$work/b/6.12/"
echo "$p4" >"$work/b/series"
variants "$work/b"
expect "a variant with no base fails" \
	test "$?: $(grep '^not ok' "$work/out")" = "1: not ok 1 6.12/$p4: no base in $work/b/, and no note 6.12/$p4.differs saying why"
echo "Only 6.12 has this code." >"$work/b/6.12/$p4.differs"
variants "$work/b"
expect "... and passes with a note, naming its reason" \
	test "$?: $(grep '^ok' "$work/out")" = "0: ok 1 6.12/$p4: no base in $work/b/ # SKIP Only 6.12 has this code."

# --- A variant the series does not list is never applied; a note without its patch is left over.
: >"$work/b/series"
variants "$work/b"
expect "a variant the series does not list fails, noted or not" \
	grep -qxF "not ok 1 6.12/$p4: the series does not list $p4, so it is never applied" "$work/out"
echo "$p4" >"$work/b/series"
mv "$work/b/6.12/$p4.differs" "$work/b/6.12/0005-gone.patch.differs"
variants "$work/b"
expect "a note for no patch fails" grep -q "^not ok 1 6.12/0005-gone.patch.differs: a note for no patch" "$work/out"

# --- A backport that later kernels have upstream: KVER/NAME.upstream leaves
# it out from KVER on, and must name the commit.
mkdir -p "$work/c/6.12" "$work/c/7.2"
cp "$top/patches/$p3" "$work/c/" && echo "$p3" >"$work/c/series"
echo "The kernel has it itself." >"$work/c/6.12/$p3.upstream"
variants "$work/c"
expect "an upstream note that names no commit fails" \
	grep -qxF "not ok 1 6.12/$p3.upstream: say which upstream commit the kernel has (its id)" "$work/out"
echo "Commit 0123456789ab (\"a fix\") since v6.12." >"$work/c/6.12/$p3.upstream"
variants "$work/c"
expect "... one that does passes" test "$?: $(grep -c '^ok 1 6.12/.*upstream: from 6.12 on the kernel has' "$work/out")" = "0: 1"
list() { "$top/host-tools/kernel/series.sh" list "$work/c/series" "$1" | sed "s|$work/c/||" | tr '\n' ' '; }
same "series.sh: 6.1 takes the patch, 6.12 and 7.3 leave it out" "$(list 6.1)|$(list 6.12)|$(list 7.3)" "$p3 ||"
cp "$top/patches/$p3" "$work/c/7.2/"
same "series.sh: ... and a newer kernel's own variant takes it back" "$(list 6.12)|$(list 7.2)|$(list 7.3)" "|7.2/$p3 |7.2/$p3 "

tap_end
