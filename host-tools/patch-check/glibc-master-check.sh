#!/usr/bin/env bash
# glibc-master-check.sh - the master variant of the lab's glibc series
# (patches/glibc/master/, one file for each name of patches/glibc/series)
# on the glibc master commit it was made on (data/glibc-master.tsv): it
# applies without fuzz, git am takes it as make format-patches writes it
# (from and signed off by your git identity), and what it changes builds
# for i686 with --enable-kernel=5.1 (make glibc-master-check).
#
#   glibc-master-check.sh master=GIT cache=DIR series=FILE pin=FILE
#
# master= is a git repository with the pinned commit (a clone of
# sourceware's glibc.git, or a mirror of it); the commit's tree is exported
# from it into a scratch folder in the cache, removed at the end (KEEP=1
# keeps it). A repository without some of the commit's files (a partial
# clone) is used if the series touches none of them: they are named.
#
# What it builds, with the flags and -Werror of glibc's own build: the
# generated headers (a csu object), every object of nptl (subdir_lib: the
# users of lowlevellock-futex.h and futex-internal.h, and
# pthread_mutex_trylock.c), arc4random (the user of not-cancel.h's
# __poll_infinity_nocancel) and the objects of the series' tests; not the
# libraries, nor the tests linked (make glibc-tests does that on 2.41).
# Then, in nptl's shared objects and arc4random's, no syscall number of the
# time32 futex or ppoll is loaded for a system call (i386: 240, 309).
# Prints TAP; adds to $COUNTS.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
master= cache= series= pin=
kv_args "$@"
need master cache series pin
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=host-tools/tap.sh
. "$here/tap.sh"
commit=$(awk -F'\t' '$1 == "commit" { print $2 }' "$pin")
[ -n "$commit" ] || die "$pin names no commit"
triplet=i686-linux-gnu
command -v "$triplet-gcc" >/dev/null || die "$triplet-gcc is missing: make deps installs the machines' cross compilers"
dir=$(dirname "$series")/master
mapfile -t names < <("$here/kernel/series.sh" list "$series" | xargs -n1 basename)

git_m() { git -C "$master" "$@"; }
has_commit() { git_m cat-file -e "$commit^{commit}" 2>/dev/null; }
if ! has_commit; then
	not_ok "GLIBC_MASTER=$master has glibc master $commit (${pin#"$here/"})" \
		"fetch it: git -C $master fetch $(awk -F'\t' '$1 == "clone" { print $2 }' "$pin") master"
	tap_end
	exit 1
fi
pass "GLIBC_MASTER=$master has glibc master ${commit:0:12} (${pin#"$here/"})"

mkdir -p "$cache/glibc"
scratch=$(mktemp -d "$cache/glibc/.master-${commit:0:12}.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$scratch"' EXIT
src=$scratch/source obj=$scratch/build
mkdir -p "$src" "$obj" "$scratch/include"

# The commit's files whose contents the repository lacks, left out.
git_m ls-tree -r "$commit" | awk '$2 == "blob" { print $3 "\t" $4 }' >"$scratch/files"
absent=$(cut -f1 "$scratch/files" | git_m cat-file --batch-check | awk '$2 == "missing" { print $1 }' |
	awk -F'\t' 'NR == FNR { gone[$1] = 1; next } $1 in gone { print $2 }' - "$scratch/files")
touched=$(for n in "${names[@]}"; do sed -n 's|^+++ b/||p; s|^--- a/||p' "$dir/$n"; done | sort -u)
clash=$(comm -12 <(sort -u <<<"$absent") <(sort -u <<<"$touched") | grep . || true)
same "the series touches none of the files the repository lacks ($(grep -c . <<<"$absent" || true) lacking)" "$clash" ""
excludes=()
while IFS= read -r p; do [ -n "$p" ] && excludes+=(":(exclude)$p"); done <<<"$absent"
git_m archive "$commit" -- . "${excludes[@]}" 2>/dev/null | tar -x -C "$src"

# As it is sent: git am takes it (its From: line), on the commit's tree.
sent=$scratch/sent
if "$here/patch-check/format-patches.sh" out="$sent" series="$series" glibc=master \
	cover="$here/../docs/upstream/glibc-cover-letter.patch" >"$scratch/sent.log" 2>&1; then
	am_tree=$scratch/am
	cp -a "$src" "$am_tree"
	if (cd "$am_tree" && git init -q && git add -A && git -c user.name=base -c user.email=base@invalid commit -qm base &&
		git am -q "$sent"/series/000[1-9]*.patch) >"$scratch/am.log" 2>&1; then
		pass "git am takes the series as make format-patches writes it ($(git -C "$am_tree" log --format='%an' -1))"
	else
		not_ok "git am takes the series as make format-patches writes it" "$(head -3 "$scratch/am.log")"
	fi
	rm -rf "$am_tree"
else
	not_ok "make format-patches writes the series" "$(tail -1 "$scratch/sent.log")"
fi

for n in "${names[@]}"; do
	if [ ! -r "$dir/$n" ]; then
		not_ok "$n: master/ has it" "every patch of ${series#"$here/"} has its master variant in master/"
		continue
	fi
	if out=$(patch -d "$src" -p1 --fuzz=0 --no-backup-if-mismatch <"$dir/$n" 2>&1); then
		pass "$n applies to ${commit:0:12} without fuzz$(grep -q offset <<<"$out" && echo ", with offsets")"
	else
		not_ok "$n applies to ${commit:0:12} without fuzz" "$(head -3 <<<"$out")"
	fi
done

# The build's configure, as the lab's (glibc.sh) for what decides these
# objects: the cross compiler, the kernel's headers, --enable-kernel=5.1.
for h in arch asm asm-generic linux; do
	[ -e "/usr/$triplet/include/$h" ] && ln -s "/usr/$triplet/include/$h" "$scratch/include/$h"
done
touch "$scratch/include/assert.h"
export LC_ALL=C CPPFLAGS="-isystem $scratch/include"
log=$scratch/build.log
configure() {
	(cd "$obj" && CC="$triplet-gcc" CXX=: AUTOCONF=false MAKEINFO=: "$src/configure" --host="$triplet" \
		--build="$(gcc -dumpmachine)" --prefix=/usr --enable-kernel=5.1 --with-headers="$scratch/include") >>"$log" 2>&1
}
# make_in SUBDIR TARGET...: its own make, as glibc's top level runs it
make_in() {
	local d=$1
	shift
	nice -n 10 make -r -C "$src/$d" objdir="$obj" -j"$(nproc)" "$@" >>"$log" 2>&1
}
failed() { not_ok "$1" "$(grep -m3 -E 'error:|Error [0-9]' "$log" || tail -3 "$log")"; }
start=$(date +%s)
if ! configure; then
	failed "configure for $triplet with --enable-kernel=5.1"
	tap_end
	exit 1
fi
pass "configure for $triplet with --enable-kernel=5.1"
if make_in csu "$obj/csu/version.o" && make_in misc "$obj/misc/bits/syscall.h"; then
	pass "the generated headers (csu, and misc's bits/syscall.h, which the tests' <sys/syscall.h> reads)"
else
	failed "the generated headers (csu, misc)"
fi
if make_in nptl subdir_lib; then pass "nptl: every object (subdir_lib, -Werror)"; else failed "nptl: every object (subdir_lib)"; fi
if make_in stdlib "$obj/stdlib/arc4random.o" "$obj/stdlib/arc4random.os"; then
	pass "stdlib: arc4random.o, arc4random.os"
else
	failed "stdlib: arc4random"
fi
# the series' tests (tst-*.c it adds), each in the subdir whose block of
# its folder's Makefile lists it
for t in $(for n in "${names[@]}"; do sed -n 's|^+++ b/\(.*/tst-[^/]*\)\.c$|\1|p' "$dir/$n"; done | sort -u); do
	name=${t##*/}
	sub=$(awk -v t="$name" '/^ifeq \(\$\(subdir\),/ { s = $0; sub(/.*subdir\),/, "", s); sub(/\).*/, "", s) }
		$1 == t { print s; exit }' "$src/$(dirname "$t")/Makefile")
	if [ -z "$sub" ]; then
		not_ok "$name: listed in a subdir's tests ($(dirname "$t")/Makefile)"
	elif make_in "$sub" "$obj/$sub/$name.o"; then
		pass "$sub/$name.o (-Werror)"
	else
		failed "$sub/$name.o"
	fi
done
say TIME "configure and build: $(($(date +%s) - start)) s" >&2

# No time32 syscall number loaded for a system call: i386 passes it in eax.
# That the check can see one: futex_time64's (422) is loaded, in objects
# that are there.
loads() { "$triplet-objdump" -d "$@" 2>/dev/null | grep -cE "mov +\\\$$1,%eax" || true; }
nptl_os=("$obj"/nptl/*.os)
expect "nptl's shared objects were built (${#nptl_os[@]}), and load futex_time64's number (422): $(loads 0x1a6 "${nptl_os[@]}") times" \
	test "${#nptl_os[@]}" -gt 100 -a "$(loads 0x1a6 "${nptl_os[@]}")" -gt 0
same "nptl's shared objects load the time32 futex's number (240) for no system call" "$(loads 0xf0 "${nptl_os[@]}")" 0
same "arc4random.os loads the time32 ppoll's number (309) for no system call" "$(loads 0x135 "$obj/stdlib/arc4random.os")" 0
tap_end
