#!/usr/bin/env bash
# kernel.sh - build (or reuse) one lab kernel.
#
#   kernel.sh KEY=VALUE...
#     cache=DIR           where sources and builds live (outside the repo)
#     package=NAME        linux-source (the metapackage) or linux-source-X.Y
#     series=FILE         patches/series; patches are read beside it ("none":
#                         the unpatched tree, for comparison)
#     machine=NAME config=NAME karch=ARCH ktarget=TARGET kimage=PATH kcross=PREFIX
#     fragments="A B C"   config fragments, in order, over tinyconfig
#     verify=PROGRAM      kconfig-verify
#     out=FILE            where to write the kernel's facts (shell KEY=VALUE)
#
# One build directory per (kernel version, machine, config, patch-series hash,
# fragment hash). When it already holds an image, nothing is built. On
# failure, out= holds KERNEL_ERROR=<why> and the exit status is 1.
set -euo pipefail

for kv in "$@"; do
	case $kv in
	*=*) declare "${kv%%=*}=${kv#*=}" ;;
	*) echo "kernel.sh: not KEY=VALUE: $kv" >&2; exit 2 ;;
	esac
done
: "${cache:?}" "${package:?}" "${series:?}" "${machine:?}" "${config:?}"
: "${karch:?}" "${ktarget:?}" "${kimage:?}" "${fragments:?}" "${verify:?}" "${out:?}"
kcross=${kcross-}
cache=$(realpath -m "$cache")
abs=()
for f in $fragments; do
	[ -r "$f" ] || { echo "kernel.sh: config fragment $f is missing" >&2; exit 1; }
	abs+=("$(realpath "$f")")
done
fragments="${abs[*]}"
here=$(cd "$(dirname "$0")" && pwd)
say() { printf '  %-8s %s\n' "$1" "$2"; }
# A kernel that cannot be had is recorded in $out, so the run goes on with the
# other machines and this one's boots become ERROR cells naming the cause.
die() {
	echo "kernel.sh: $*" >&2
	mkdir -p "$(dirname "$out")"
	printf 'KERNEL_ERROR=%q\n' "$*" >"$out"
	exit 1
}
trap 'die "$machine $config: failed at line $LINENO: $BASH_COMMAND"' ERR

# --- The source tree, unpacked and patched (source.sh).
# shellcheck source=host-tools/source.sh
. "$here/source.sh"
kernel_source "$cache" "$package" "$series"

# --- The build directory: fragments are part of its name.
fhash=$(cat $fragments | sha256sum | cut -c1-12)
obj=$cache/build/$srcpkg-$version/$machine-$config-p$phash-f$fhash
image=$obj/$kimage
mkdir -p "$obj"
exec 9>"$obj.lock"
flock 9	# two runs may share the cache; one builds, the other waits

if [ -f "$image" ] && [ -f "$obj/.y2038-built" ]; then
	say REUSE "$machine $config kernel: $image"
	seconds=$(cat "$obj/.y2038-built")
else
	say KERNEL "$machine $config: $srcpkg $version, patches $patches_desc (building, log: $obj/build.log)"
	start=$(date +%s)
	kmake() { make -C "$tree" O="$obj" ARCH="$karch" CROSS_COMPILE="$kcross" "$@"; }
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
	if ! kmake -j"$(nproc)" "$ktarget" >>"$obj/build.log" 2>&1; then
		tail -30 "$obj/build.log" >&2
		die "building $machine $config failed (log: $obj/build.log)"
	fi
	seconds=$(($(date +%s) - start))
	echo "$seconds" >"$obj/.y2038-built"
	say BUILT "$machine $config in $seconds s: $image"
fi

mkdir -p "$(dirname "$out")"
# Quoted: the file is sourced, and "6 patches @ HASH" has spaces.
printf '%s=%q\n' KERNEL_IMAGE "$image" KERNEL_SOURCE "$srcpkg" \
	KERNEL_VERSION "$version" KERNEL_PATCHES "$patches_desc" \
	KERNEL_BUILD_SECONDS "$seconds" >"$out.tmp"
mv "$out.tmp" "$out"
