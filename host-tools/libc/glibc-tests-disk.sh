#!/usr/bin/env bash
# glibc-tests-disk.sh - a kept glibc build and its tests (glibc.sh tests) as
# a disk for a guest (make glibc-tests), made as an ordinary user: an ext4
# image filled from a folder (mke2fs -d), no mount, no loop device.
#
#   glibc-tests-disk.sh tree=DIR out=IMG subdirs="nptl rt ..." [libgcc=FILE multiarch=M]
#                       [timeoutfactor=5] [outer_timeout=900]
#
# The image holds what the tests read and run, at the paths of the tree
# (the guest mounts it at DIR: guest-init/glibc-run.c): source/ but the
# folders no test of a subdir reads (the manual, translations, math's
# test data, benchmarks), build/ without its objects and archives, root/'s
# libraries (the guest's /lib) with the compiler's libgcc_s.so.1 (libgcc=,
# in lib/MULTIARCH: pthread_cancel and pthread_exit load it, found where a
# system has it, as on the machine where glibc's make check runs), tests/,
# and glibc-tests.env (tree=, libc=, subdirs=, timeoutfactor=,
# outer_timeout=). Files are hard links into a
# staging folder beside IMG, never copies. IMG.key says what it was made
# from: an image whose key has not changed is kept.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
tree= out= subdirs= libgcc= multiarch= timeoutfactor=5 outer_timeout=900
kv_args "$@"
need tree out subdirs
out=$(realpath -m "$out")	# the staging beside it is filled from inside the tree
PATH="$PATH:/usr/sbin:/sbin"
[ -f "$tree/.library" ] || die "$tree is not a kept glibc build (glibc.sh tests)"
for d in $subdirs; do
	[ -f "$tree/tests/$d.list" ] || die "$tree has no tests/$d.list: glibc.sh tests subdirs=\"$subdirs\" lists them"
done
env="tree=$tree
libc=$(cat "$tree/libc")
subdirs='$subdirs'
timeoutfactor=$timeoutfactor
outer_timeout=$outer_timeout"
[ -z "$libgcc" ] || [ -r "$libgcc" ] || die "no $libgcc (libgcc=)"
[ -z "$libgcc" ] || [ -n "$multiarch" ] || die "libgcc= needs multiarch="
# what decides the image: the tree's build, its lists, this script, the env
key=$( { printf '%s\n' "$env"; cat "$tree/seconds"; cat "$tree"/tests/*.list; cat "$0"; 
	[ -z "$libgcc" ] || cat "$libgcc"; } | sha256sum | cut -c1-16)
if [ -f "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi

stage=$out.stage
rm -rf "$stage" "$out" "$out.key"
mkdir -p "$stage"
# source/: the subdirs' tests run in their folders and read their data;
# gen-locale.sh reads localedata/.
mkdir -p "$stage/source"
shopt -s nullglob dotglob
for f in "$tree"/source/*; do
	case ${f##*/} in manual | po | math | benchtests | .git) continue ;; esac
	cp -al "$f" "$stage/source/"
done
# build/: programs, libraries, generated files; not the objects
(cd "$tree/build" && find . -type f ! -name '*.o' ! -name '*.os' ! -name '*.oS' ! -name '*.op' \
	! -name '*.a' ! -name '*.d' ! -name '*.dT' ! -name '*.o.d' -print0 |
	cpio -0 -pdl --quiet "$stage/build")
(cd "$tree/build" && find . -type l -print0 | cpio -0 -pd --quiet "$stage/build")
mkdir -p "$stage/root"
cp -al "$tree/root/lib" "$stage/root/lib"
[ ! -d "$tree/root/usr/lib" ] || { mkdir -p "$stage/root/usr" && cp -al "$tree/root/usr/lib" "$stage/root/usr/lib"; }
find "$stage/root" -name '*.a' -delete
[ -z "$libgcc" ] || { mkdir -p "$stage/root/lib/$multiarch" && cp "$libgcc" "$stage/root/lib/$multiarch/"; }
cp -al "$tree/tests" "$stage/tests"
cp "$tree/libc" "$stage/libc"
printf '%s\n' "$env" >"$stage/glibc-tests.env"

# The image: its files and 1 GiB more, inodes for every file twice over:
# the tests write their outputs, temporary files and the locales they
# read (gen-locale.sh: 35 of them) into build/. Writes are the guest's,
# dropped at the end (boot.sh: snapshot=on); the image file is sparse.
kib=$(du -sk --apparent-size "$stage" | cut -f1)
files=$(find "$stage" | wc -l)
size=$(((kib + 1048576) / 1024))M
mke2fs -q -F -t ext4 -O ^has_journal -N $((files * 2 + 20000)) -E root_owner=0:0 \
	-d "$stage" "$out.tmp" "$size" >/dev/null || die "mke2fs -d $stage failed"
rm -rf "$stage"
mv "$out.tmp" "$out"
echo "$key" >"$out.key"
say DISK "$out: $size, $files files of $tree"
