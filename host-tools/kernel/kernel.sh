#!/usr/bin/env bash
# kernel.sh - build (or reuse) one lab kernel.
#
#   kernel.sh KEY=VALUE...
#     cache=DIR           where sources and builds live (outside the repo)
#     package=NAME        linux-source (the metapackage) or linux-source-X.Y
#     series=FILE         patches/series; patches are read beside it ("none":
#                         the unpacked tree, for comparison)
#     machine_env=FILE    the machine's facts (karch, ktarget, kimage, kcross)
#     config=NAME         compat32-y or compat32-n
#     fragments="A B C"   config fragments, in order, over tinyconfig
#     flavour=NAME        what the fragments make of it: lab (the matrix's
#                         kernels), distro (validate-distro's) or filesystems
#                         (the filesystems boots'); its own build folder; recorded
#     verify=PROGRAM      kconfig-verify
#     out=FILE            where to write the kernel's facts (shell KEY=VALUE),
#                         and FILE.mk: its image and source for make's
#                         up-to-date check (kernel.NAME.image, NAME: FILE's
#                         name without .env)
#     builds=DIR          where build directories go (default: cache/build)
#     ccache=DIR          compile through ccache with this cache ("": no ccache)
#     plan=yes            build nothing: print "reuse", or "build SECONDS" with
#                         what such a build took here last (0: never built)
#
# Each result is kept in its own folder, named by what decides it (kernel
# version, machine, config, patch-series hash, fragment hash): the image,
# its .config and the build log. An existing result is reused (REUSE).
# Results are built in the machine's build folder, one per (kernel version,
# machine), from the version's one working source tree, which carries the
# series asked for (source.sh tree_take): a machine's second config, or the
# same kernel without the lab's patches, starts from what the last build
# left, and kbuild's dependencies (include/config/* for each option, and
# the sources a patch touched) decide what is recompiled. A build that was
# interrupted (Ctrl-C, kill -9) leaves its folder marked; the next one
# removes the objects it may have half-written. On failure, out= holds
# KERNEL_ERROR=<why> and the exit status is 1.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
plan=no
kv_args "$@"
need cache package series machine_env config fragments verify out
ccache=${ccache-}
flavour=${flavour:-lab}
machine_facts "$machine_env"
cache=$(realpath -m "$cache")
builds=$(realpath -m "${builds:-$cache/build}")
here=$(cd "$(dirname "$0")" && pwd)
# A kernel that cannot be had is recorded in $out, so the run goes on with the
# other machines and this one's boots become ERROR cells naming the cause.
die() {
	echo "kernel.sh: $*" >&2
	[ "$plan" = yes ] && exit 1
	mkdir -p "$(dirname "$out")"
	printf 'KERNEL_ERROR=%q\n' "$*" >"$out"
	rm -f "$out.mk"
	exit 1
}
trap 'die "$machine $config: failed at line $LINENO: $BASH_COMMAND"' ERR

# PID SECONDS: 0 as soon as PID has ended, 1 if it still runs after
# SECONDS. An ended child not yet reaped is a zombie, which kill -0 still
# finds: read its state instead.
running() { [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null || echo Z)" != Z ]; }
wait_for() {
	local i
	for ((i = 0; i < $2; i++)); do
		running "$1" || return 0
		sleep 1
	done
	! running "$1"
}

# --- The source tree, unpacked and patched (source.sh).
# shellcheck source=host-tools/kernel/source.sh
. "$here/source.sh"
# shellcheck disable=SC2086 # one fragment per word
config_files $fragments
fragments="${configs[*]}"
kernel_source "$cache" "$package" "$series"

# --- Where: the result, named by its inputs; the machine's build folder.
# What the fragments ask for, not how their comments say why: a comment
# changed rebuilds nothing ("# CONFIG_X is not set" is a request).
fhash=$(cat $fragments | grep -E -e '^[^#[:space:]]' -e '^# CONFIG_[A-Za-z0-9_]+ is not set$' |
	sha256sum | cut -c1-12)
base=$builds/$srcpkg-$version
result=$base/$machine-$config-p$phash-f$fhash
machine_work "$builds"
image=$result/$(basename "$kimage")

# The builds of this machine and flavour kept here, each a line
# "SECONDS RECOMPILED OBJECTS FLAVOUR MACHINE CONFIG" (a build before
# flavours were recorded is the lab's; make bench reads the rest): a
# flavour's kernel has objects of its own.
flavour_builds() {
	local f
	for f in "$base/$machine"-*/.y2038-build; do
		[ -f "$f" ] && awk -v f="$flavour" '($4 == "" ? "lab" : $4) == f' "$f"
	done
	return 0
}
# What a full build of this machine took here last, for the plan.
last_full() {
	# a full build recompiled every object
	flavour_builds | awk '$2 == $3 && $1 > best { best = $1 } END { print best + 0 }'
}
if [ "$plan" = yes ]; then
	if [ -f "$image" ]; then
		echo reuse
	elif [ -f "$work/.y2038-config" ]; then
		echo "rebuild $(last_full)"	# from the machine's tree: what the config changes
	else
		echo "build $(last_full)"
	fi
	exit 0
fi

mkdir -p "$base"
exec 9>"$result.lock"
flock 9	# two runs may share the cache; one builds, the other waits

if [ -f "$image" ]; then
	say REUSE "$machine $config kernel: $image"
else
	# The working source tree carries this series for the whole build, and
	# no build of another series or machine changes it meanwhile.
	tree_take ${patches[@]+"${patches[@]}"}
	from=$(cat "$work/.y2038-config" 2>/dev/null || true)
	# ...unless it was interrupted, or built from an older tree
	[ ! -f "$work/.y2038-building" ] || from=
	[ "$(cat "$work/.y2038-tree-generation" 2>/dev/null)" = "$(cat "$tree.generation")" ] || from=
	if [ -n "$from" ]; then
		why="from what its last build ($from) left in $work: kbuild recompiles what the change touches"
	elif other=$(ls -d "$base/$machine-$config-"*/ 2>/dev/null | grep -vx "$result/" | head -1) && [ -n "$other" ]; then
		why="the patch series or config fragments changed since $other"
	else
		why="no build of $srcpkg $version for $machine yet"
	fi
	say KERNEL "$machine $config: $srcpkg $version, patches $patches_desc: building $why (log: $result.log)"
	start=$(date +%s)
	work_begin "$config, patches $patches_desc"
	# shellcheck disable=SC2086 # one fragment per word
	if ! kconfigure "$work" $fragments >"$result.log" 2>&1; then
		tail -20 "$result.log" >&2
		die "configuring $machine $config failed (log: $result.log)"
	fi
	# A value that did not take is an error: the lab must measure what it says.
	if ! vout=$("$verify" "$work/.config" $fragments 2>&1); then
		echo "$vout" >&2
		die "$machine $config: config values did not take: $(echo "$vout" | sed -n 's/.*: requested //p' | paste -sd ';' -)"
	fi
	echo "$vout"
	# How far along, every 30 s: objects compiled so far, against the most
	# a build of this machine and flavour had here (none known: no total;
	# a count past it says only the count: the total was an estimate).
	estimate=$(flavour_builds | awk '$3 > most { most = $3 } END { if (most) print most }')
	touch "$work/.y2038-building"	# objects newer than this are this build's
	kbuild "$work" -j"$(nproc)" "$ktarget" >>"$result.log" 2>&1 &
	kpid=$!
	# A failure of this script while kbuild runs must not leave kbuild
	# writing into the machine's tree behind the next build's back.
	trap 'pkill -P "$kpid"; kill "$kpid" 2>/dev/null; die "$machine $config: failed at line $LINENO: $BASH_COMMAND"' ERR
	while ! wait_for "$kpid" 30; do
		# kbuild's .tmp_* folders come and go under find: not an error here
		compiled=$({ find "$work" -name '*.o' -newer "$work/.y2038-building" 2>/dev/null || true; } | wc -l)
		total=
		[ -z "$estimate" ] || [ "$compiled" -gt "$estimate" ] || total=" of about $estimate"
		say BUILDING "$machine $config: $compiled objects compiled$total, $(($(date +%s) - start)) s"
	done
	if ! wait "$kpid"; then
		tail -30 "$result.log" >&2
		die "building $machine $config failed (log: $result.log)"
	fi
	recompiled=$(find "$work" -name '*.o' -newer "$work/.y2038-building" | wc -l)
	objects=$(find "$work" -name '*.o' | wc -l)
	seconds=$(($(date +%s) - start))
	# The result, whole or not at all.
	rm -rf "$result.tmp"
	mkdir -p "$result.tmp"
	cp "$work/$kimage" "$result.tmp/"
	cp "$work/.config" "$result.tmp/config"
	mv "$result.log" "$result.tmp/build.log"
	echo "$seconds $recompiled $objects $flavour $machine $config" >"$result.tmp/.y2038-build"
	rm -rf "$result"
	mv "$result.tmp" "$result"
	work_end "$config, patches $patches_desc"
	exec 7>&-
	say BUILT "$machine $config in $seconds s, $recompiled of $objects objects compiled: $image"
fi
read -r seconds recompiled objects _ <"$result/.y2038-build"

mkdir -p "$(dirname "$out")"
# Quoted: the file is sourced, and "6 patches @ HASH" has spaces.
printf '%s=%q\n' KERNEL_IMAGE "$image" KERNEL_SOURCE "$srcpkg" \
	KERNEL_VERSION "$version" KERNEL_PATCHES "$patches_desc" KERNEL_FLAVOUR "$flavour" \
	KERNEL_BUILD_SECONDS "$seconds" KERNEL_RECOMPILED "$recompiled" \
	KERNEL_OBJECTS "$objects" >"$out.$$"
# For make: the image this depends on, and the source it came from.
name=$(basename "$out" .env)
printf 'kernel.%s.%s.image := %s\nkernel.%s.%s.tarball := %s\n' "$flavour" "$name" "$image" \
	"$flavour" "$name" "$tarball" >"$out.mk.$$"
mv "$out.mk.$$" "$out.mk"
mv "$out.$$" "$out"
