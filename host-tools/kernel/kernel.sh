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
#     verify=PROGRAM      kconfig-verify
#     out=FILE            where to write the kernel's facts (shell KEY=VALUE)
#     builds=DIR          where build directories go (default: cache/build)
#     ccache=DIR          compile through ccache with this cache ("": no ccache)
#
# One build directory per (kernel version, machine, config, patch-series hash,
# fragment hash). When it already holds an image, nothing is built (REUSE);
# otherwise it says why it builds, and every 30 s how far along it is. On
# failure, out= holds KERNEL_ERROR=<why> and the exit status is 1.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
need cache package series machine_env config fragments verify out
ccache=${ccache-}
machine_facts "$machine_env"
cache=$(realpath -m "$cache")
builds=$(realpath -m "${builds:-$cache/build}")
abs=()
for f in $fragments; do
	[ -r "$f" ] || { echo "kernel.sh: config fragment $f is missing" >&2; exit 1; }
	abs+=("$(realpath "$f")")
done
fragments="${abs[*]}"
here=$(cd "$(dirname "$0")" && pwd)
# A kernel that cannot be had is recorded in $out, so the run goes on with the
# other machines and this one's boots become ERROR cells naming the cause.
die() {
	echo "kernel.sh: $*" >&2
	mkdir -p "$(dirname "$out")"
	printf 'KERNEL_ERROR=%q\n' "$*" >"$out"
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
kernel_source "$cache" "$package" "$series"

# --- The build directory: fragments are part of its name.
fhash=$(cat $fragments | sha256sum | cut -c1-12)
obj=$builds/$srcpkg-$version/$machine-$config-p$phash-f$fhash
image=$obj/$kimage
mkdir -p "$obj"
exec 9>"$obj.lock"
flock 9	# two runs may share the cache; one builds, the other waits

if [ -f "$image" ] && [ -f "$obj/.y2038-built" ]; then
	say REUSE "$machine $config kernel: $image"
	seconds=$(cat "$obj/.y2038-built")
else
	# Why: a build of this machine and config with other inputs, or none.
	other=$(ls -td "$builds/$srcpkg-$version/$machine-$config-"*/.y2038-built 2>/dev/null | head -1 || true)
	if [ -n "$other" ]; then
		why="the patch series or config fragments changed since $(dirname "$other")"
	else
		why="no build of $srcpkg $version for $machine $config yet"
	fi
	say KERNEL "$machine $config: $srcpkg $version, patches $patches_desc: building, as $why (log: $obj/build.log)"
	start=$(date +%s)
	# Through ccache, a machine's second config (COMPAT_32BIT_TIME=n after =y)
	# recompiles only what the config changes: ccache hashes the preprocessed
	# source, which is the same for every file that does not test it.
	cc=()
	if [ -n "$ccache" ]; then
		mkdir -p "$ccache"
		export CCACHE_DIR=$ccache
		cc=(CC="ccache ${kcross}gcc" HOSTCC="ccache gcc")
	fi
	kmake() { make -C "$tree" O="$obj" ARCH="$karch" CROSS_COMPILE="$kcross" "${cc[@]}" "$@"; }
	if ! { kmake tinyconfig &&
	       (cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" $fragments) &&
	       kmake olddefconfig; } >"$obj/build.log" 2>&1; then
		tail -20 "$obj/build.log" >&2
		die "configuring $machine $config failed (log: $obj/build.log)"
	fi
	# A value that did not take is an error: the lab must measure what it says.
	if ! vout=$("$verify" "$obj/.config" $fragments 2>&1); then
		echo "$vout" >&2
		die "$machine $config: config values did not take: $(echo "$vout" | sed -n 's/.*: requested //p' | paste -sd ';' -)"
	fi
	echo "$vout"
	# How far along: objects built so far, against what an earlier build of
	# this machine made (any config), every 30 s.
	estimate=$(cat "$builds/$srcpkg-$version/$machine"-*/.y2038-objects 2>/dev/null | sort -n | tail -1 || true)
	kmake -j"$(nproc)" "$ktarget" >>"$obj/build.log" 2>&1 &
	kpid=$!
	while ! wait_for "$kpid" 30; do
		built=$(find "$obj" -name '*.o' | wc -l)
		say BUILDING "$machine $config: $built${estimate:+ of about $estimate} objects$( [ -n "$estimate" ] && echo " ($((built * 100 / estimate))%)"), $(($(date +%s) - start)) s"
	done
	if ! wait "$kpid"; then
		tail -30 "$obj/build.log" >&2
		die "building $machine $config failed (log: $obj/build.log)"
	fi
	find "$obj" -name '*.o' | wc -l >"$obj/.y2038-objects"
	seconds=$(($(date +%s) - start))
	echo "$seconds" >"$obj/.y2038-built"
	say BUILT "$machine $config in $seconds s: $image"
fi

mkdir -p "$(dirname "$out")"
# Quoted: the file is sourced, and "6 patches @ HASH" has spaces.
printf '%s=%q\n' KERNEL_IMAGE "$image" KERNEL_SOURCE "$srcpkg" \
	KERNEL_VERSION "$version" KERNEL_PATCHES "$patches_desc" \
	KERNEL_BUILD_SECONDS "$seconds" >"$out.$$"
mv "$out.$$" "$out"
