#!/usr/bin/env bash
# scan.sh - y2038-scan on binaries built here with the cross compilers:
# time32, time64, mixed and time-neutral programs, static ones, the C library,
# broken files, a directory scan, --json and --needed.
#
#   tests/unit/scan.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

scan=$host/y2038-scan
symbols=$top/data/time-symbols.tsv


# scan NAME ARGS...: $work/NAME.out, .err and .rc
scan() {
	local name=$1; shift
	"$scan" --symbols "$symbols" "$@" >"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.rc"
}
# line NAME PATH: "CLASS<TAB>DETAIL" of PATH in $work/NAME.out
line() { awk -F'\t' -v p="$2" '$2 == p { print $1 "\t" $3 }' "$work/$1.out"; }
rc() { cat "$work/$1.rc"; }
jq_true() { jq -e "$@" >/dev/null; }
# field JSON PATH FILTER: jq FILTER on the record of PATH
field() { jq -c --arg p "$2" ".[] | select(.path == \$p) | $3" "$1"; }


cat >"$work/clock.c" <<'EOF'
#include <stdio.h>
#include <time.h>
int main(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts))
		return 1;
	printf("%lld\n", (long long)ts.tv_sec);
	return 0;
}
EOF
cat >"$work/hello.c" <<'EOF'
#include <stdio.h>
int main(void) { puts("no time here"); return 0; }
EOF
cat >"$work/old.c" <<'EOF'
#include <time.h>
long old_now(void) { return (long)time(NULL); }
EOF
cat >"$work/uses-old.c" <<'EOF'
#include <stdio.h>
#include <time.h>
long old_now(void);
int main(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	printf("%lld %ld\n", (long long)ts.tv_sec, old_now());
	return 0;
}
EOF
t64="-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64"

# build CC OUT ARGS...: compile one fixture; a failure is a failed case.
build() {
	local cc=$1 out=$2; shift 2
	if ! "$cc" -O2 -o "$out" "$@" 2>"$work/build.err"; then
		not_ok "build $(basename "$out") with $cc" "$(head -5 "$work/build.err")"
		return 1
	fi
}

# cross ARCH TRIPLET CASE...: with the cross compiler TRIPLET-gcc, $cc,
# $sysroot and $fix (ARCH's fixtures, the clock program legacy, time64 and
# static among them); without it, each CASE is skipped (exit 1).
cross() {
	local arch=$1 c
	cc=$2-gcc sysroot=/usr/$2 fix=$work/$arch
	shift 2
	if ! command -v "$cc" >/dev/null; then
		for c in "$@"; do skip "$arch $c" "$cc not installed"; done
		return 1
	fi
	mkdir -p "$fix/lib"
	build $cc "$fix/clock32" "$work/clock.c"
	build $cc "$fix/clock64" $t64 "$work/clock.c"
	build $cc "$fix/static32" -static "$work/clock.c"
}

# --- i686: dynamic programs, a library, the C library, static, broken files.
if cross i686 i686-linux-gnu time32 time64 time-neutral "mixed (library)" "mixed (objects)" static libc \
	"bad input" directory json needed; then
	build $cc "$fix/hello" "$work/hello.c"
	build $cc "$fix/lib/libold.so" -shared -fPIC "$work/old.c"
	# a directory apart from its library: only the rpath finds it
	build $cc "$fix/uses-old" $t64 "$work/uses-old.c" -L"$fix/lib" -lold -Wl,-rpath,'$ORIGIN/lib'
	$cc -O2 -c -o "$work/old.o" "$work/old.c" && $cc -O2 $t64 -c -o "$work/new.o" "$work/clock.c"
	build $cc "$fix/both" "$work/old.o" "$work/new.o"

	scan dyn --root=$sysroot --json "$work/dyn.json" "$fix/clock32" "$fix/clock64" "$fix/hello" "$fix/uses-old" "$fix/both"
	same "i686 time32: legacy clock_gettime, named with its version" \
		"$(line dyn "$fix/clock32")" $'time32\timports time32 clock_gettime@GLIBC_2.17'
	same "i686 time32: ... and in the JSON" \
		"$(field "$work/dyn.json" "$fix/clock32" '[.class, .time32, .time64]')" '["time32",["clock_gettime@GLIBC_2.17"],[]]'
	same "i686 time64: -D_TIME_BITS=64 imports __clock_gettime64" \
		"$(line dyn "$fix/clock64")" $'time64\timports time64 __clock_gettime64@GLIBC_2.34'
	same "i686 time-neutral: no time calls" "$(line dyn "$fix/hello")" $'time-neutral\tno time symbols imported'
	same "i686 mixed (library): time64 program, time32 library found by \$ORIGIN rpath" \
		"$(line dyn "$fix/uses-old")" \
		$'mixed\timports time64 __clock_gettime64@GLIBC_2.34, but loads time32 libraries: '"$fix/lib/libold.so"
	same "i686 mixed (library): ... closure_time32 in the JSON" \
		"$(field "$work/dyn.json" "$fix/uses-old" '.closure_time32')" "[\"$fix/lib/libold.so\"]"
	same "i686 mixed (objects): a legacy and a time64 object linked together" \
		"$(line dyn "$fix/both")" \
		$'mixed\timports time32 time@GLIBC_2.0 and time64 __clock_gettime64@GLIBC_2.34'
	same "i686 dynamic scan exits 0" "$(rc dyn)" 0

	scan static "$fix/static32"
	expect "i686 static: legacy -static finds the time32 clock_gettime syscall (265)" \
		grep -qP "^static\t$fix/static32\tstatic: time32 syscalls [a-z_0-9,]*\bclock_gettime\b" "$work/static.out"
	expect "i686 static: ... and glibc's time64 clock_gettime64 (403) beside it" \
		grep -qP "; time64 syscalls [a-z_0-9,]*\bclock_gettime64\b" "$work/static.out"

	libc=$sysroot/lib/libc.so.6
	time64s=$(comm -12 <(awk -F'\t' '$1 == "time64" && $2 == "glibc" { print $3 }' "$symbols" | sort) \
		<(i686-linux-gnu-nm -D --defined-only "$libc" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u) | wc -l)
	scan libc "$libc"
	expect "i686 libc: libc.so.6 is time-neutral and provides its $time64s time64 entry points" \
		grep -qP "^time-neutral\t$libc\tprovides [1-9][0-9]* time32 and $time64s time64 entry points$" "$work/libc.out"

	# Broken files, scanned along with a good one.
	bad=$work/bad
	mkdir -p "$bad"
	echo "not a program" >"$bad/notes.txt"
	head -c 100 "$fix/clock32" >"$bad/truncated"
	cp "$fix/clock32" "$bad/shoff" && printf '\xff\xff\xff\x7f' | dd of="$bad/shoff" bs=1 seek=32 conv=notrunc 2>/dev/null
	cp "$fix/clock32" "$bad/class" && printf '\x07' | dd of="$bad/class" bs=1 seek=4 conv=notrunc 2>/dev/null
	scan bad "$bad/notes.txt" "$bad/truncated" "$fix/clock32" "$bad/shoff" "$bad/class"
	same "bad input: a text file named explicitly" "$(line bad "$bad/notes.txt")" $'error\tnot an ELF file'
	same "bad input: the first 100 bytes of an ELF file" "$(line bad "$bad/truncated")" \
		$'error\ttruncated: program headers end past the end of the file (100 bytes)'
	expect "bad input: e_shoff past the end of the file" \
		grep -qP "^error\t$bad/shoff\tcorrupt section header offset: e_shoff 0x7fffffff is past the end" "$work/bad.out"
	same "bad input: EI_CLASS 7" "$(line bad "$bad/class")" $'error\tbad EI_CLASS byte 0x7 (neither 32- nor 64-bit)'
	same "bad input: ... the good file among them is still classified, exit 1" \
		"$(line bad "$fix/clock32" | cut -f1) $(tail -1 "$work/bad.out") rc=$(rc bad)" \
		"time32 # scanned 5 files: time32 1, time64 0, mixed 0, time-neutral 0, static 0, error 4 rc=1"

	# A directory: ELF files found recursively, the rest skipped silently.
	dir=$work/tree
	mkdir -p "$dir/sub"
	cp "$fix/clock32" "$fix/clock64" "$fix/hello" "$dir/" && cp "$fix/clock32" "$dir/sub/again"
	echo "text" >"$dir/README" && ln -s clock32 "$dir/link" && ln -s /usr "$dir/sub/usr"
	printf 'bad "name"\\\t.bin' >"$work/weird-name" && cp "$fix/hello" "$dir/$(cat "$work/weird-name")"
	scan tree --json "$work/tree.json" "$dir"
	same "directory: ELF files only, no symlinks, sorted, with the summary" \
		"$(sed "s|\t[^\t]*\$||; s|$dir/||" "$work/tree.out")" \
		"$(printf 'time-neutral\tbad "name"\\\t.bin\ntime32\tclock32\ntime64\tclock64\ntime-neutral\thello\ntime32\tsub/again\n')
# scanned 5 files: time32 2, time64 1, mixed 0, time-neutral 2, static 0, error 0"
	same "directory: exit 0" "$(rc tree)" 0
	expect "json: valid, one record per file, every field present" jq_true 'length == 5 and all(.[];
		has("path") and has("class") and has("machine") and has("e_machine") and has("elf_class") and
		has("type") and has("interp") and has("needed") and has("time32") and has("time64") and has("closure_time32") and
		has("static_time32_syscalls") and has("static_time64_syscalls") and has("detail") and has("error"))' \
		"$work/tree.json"
	same "json: the values of a time64 program" \
		"$(field "$work/tree.json" "$dir/clock64" '[.class, .machine, .e_machine, .elf_class, .type, .interp, .needed, .time64, .error]')" \
		'["time64","i386",3,32,"pie","/lib/ld-linux.so.2",["libc.so.6"],["__clock_gettime64@GLIBC_2.34"],null]'
	same "json: a path with a quote, a backslash and a tab comes back intact" \
		"$(jq -r '.[0].path' "$work/tree.json")" "$dir/$(cat "$work/weird-name")"
	scan bad-json --json "$work/bad.json" "$bad/class"
	same "json: an error record carries the reason" \
		"$(field "$work/bad.json" "$bad/class" '[.class, .e_machine, .error]')" '["error",null,"bad EI_CLASS byte 0x7 (neither 32- nor 64-bit)"]'

	# --needed: what to copy into a guest.
	scan needed --needed --root $sysroot "$fix/uses-old"
	same "needed: interpreter, then the libraries breadth-first, as host paths keeping their names" \
		"$(cat "$work/needed.out") rc=$(rc needed)" \
		"$(realpath $sysroot/lib)/ld-linux.so.2
$fix/lib/libold.so
$(realpath $sysroot/lib)/libc.so.6 rc=0"
	mkdir -p "$work/alone" && cp "$fix/uses-old" "$work/alone/"
	scan missing --needed --root $sysroot "$work/alone/uses-old"
	same "needed: a library that is not there is named, exit 1" \
		"$(cat "$work/missing.err") rc=$(rc missing)" "missing libold.so (needed by $work/alone/uses-old) rc=1"
fi

# --- armhf: Thumb-2 code, glibc's __libc_do_syscall.
if cross armhf arm-linux-gnueabihf time32 time64 static libc needed; then
	scan arm --root $sysroot --json "$work/arm.json" "$fix/clock32" "$fix/clock64" "$fix/static32" "$sysroot/lib/libc.so.6"
	same "armhf time32: legacy clock_gettime" "$(line arm "$fix/clock32")" $'time32\timports time32 clock_gettime@GLIBC_2.17'
	same "armhf time64: -D_TIME_BITS=64" "$(line arm "$fix/clock64")" $'time64\timports time64 __clock_gettime64@GLIBC_2.34'
	same "armhf static: the movw ip/bl __libc_do_syscall numbers, time32 and time64" \
		"$(field "$work/arm.json" "$fix/static32" '[.class, .machine, .e_machine, (.static_time32_syscalls | index("clock_gettime") != null), (.static_time64_syscalls | index("clock_gettime64") != null)]')" \
		'["static","arm",40,true,true]'
	expect "armhf libc: time-neutral, provides time32 and time64 entry points" \
		grep -qP "^time-neutral\t$sysroot/lib/libc.so.6\tprovides [1-9][0-9]* time32 and [1-9][0-9]* time64 entry points$" "$work/arm.out"
	scan arm-needed --needed --root $sysroot "$fix/clock32"
	same "armhf needed: ld-linux-armhf.so.3 and libc.so.6 from the sysroot" \
		"$(cat "$work/arm-needed.out")" "$(realpath $sysroot/lib)/ld-linux-armhf.so.3
$(realpath $sysroot/lib)/libc.so.6"
fi

# --- Usage and the data file.
echo hello >"$work/plain"
"$scan" --symbols "$work/no-such.tsv" "$work/plain" >/dev/null 2>"$work/nosym.err"
same "an unreadable symbols file is exit 2, named" "$?: $(cat "$work/nosym.err")" \
	"2: y2038-scan: $work/no-such.tsv: No such file or directory"
printf 'time32\tglibc\n' >"$work/short.tsv"
"$scan" --symbols "$work/short.tsv" "$work/plain" >/dev/null 2>"$work/short.err"
same "a malformed symbols line is exit 2 with its line number" "$?: $(cut -d: -f1,3 "$work/short.err")" \
	"2: y2038-scan:1"
Y2038_SYMBOLS=$symbols "$scan" "$work/plain" >"$work/env.out" 2>&1
same "Y2038_SYMBOLS names the data file" "$?: $(head -1 "$work/env.out")" "1: error	$work/plain	not an ELF file"
"$scan" --symbols "$symbols" >/dev/null 2>&1
same "no PATH is a usage error (exit 2)" "$?" 2

tap_end
