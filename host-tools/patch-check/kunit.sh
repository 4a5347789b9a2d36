#!/usr/bin/env bash
# kunit.sh - the KUnit tests of the lab's patches, under QEMU, with the
# kernel's own tool (tools/testing/kunit/kunit.py).
#
#   kunit.sh cache=DIR package=NAME series=FILE arch=ARCH cross=PREFIX \
#            kunitconfig=FILE [kconfig_add="CONFIG_A=y ..."] [action=exec] out=DIR
#
# Builds in the cache (one directory per patched tree, arch and config, so a
# second run only boots), boots the test kernel with qemu-system-ARCH, and
# keeps kunit.py's log and the kernel's KTAP in out/. Exits non-zero unless
# every test passed, and never with no tests at all. action=exec only boots
# the test kernel already built (make bench times that).
set -euo pipefail

# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
need cache package series arch kunitconfig out
cross=${cross-} kconfig_add=${kconfig_add-} action=${action:-run}
case $action in run|exec) ;; *) echo "kunit.sh: action=$action: run or exec" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")/../kernel" && pwd)
[ -r "$kunitconfig" ] || die "$kunitconfig: no such kunitconfig"
# shellcheck source=host-tools/kernel/source.sh
. "$here/source.sh"
kernel_source "$(realpath -m "$cache")" "$package" "$series"
[ "$phash" != none ] || die "the series is empty: no patches, so no tests of them"

chash=$(cat "$kunitconfig" <(echo "$kconfig_add") | sha256sum | cut -c1-12)
build=$(realpath -m "$cache")/kunit/$srcpkg-$version-p$phash/$arch-c$chash
mkdir -p "$build" "$out"
exec 9>"$build.lock"
flock 9
args=("$action" --arch="$arch" --build_dir="$build" --kunitconfig="$(realpath "$kunitconfig")"
      --timeout=300 --raw_output=kunit)
[ "$action" = exec ] || args+=(--jobs="$(nproc)")
[ -z "$cross" ] || args+=(--cross_compile="$cross")
for c in $kconfig_add; do args+=(--kconfig_add="$c"); done

say KUNIT "$arch ($action): $srcpkg $version, patches $patches_desc${kconfig_add:+, $kconfig_add} (log: $out/kunit.log)"
start=$(date +%s)
rc=0
(cd "$tree" && python3 tools/testing/kunit/kunit.py "${args[@]}") >"$out/kunit.log" 2>&1 || rc=$?
# --raw_output=kunit prints the kernel's KTAP: keep it, and count its results.
sed -n '/^KTAP version\|^TAP version/,$p' "$out/kunit.log" >"$out/ktap.log"
pass=$(grep -cE '^ +ok [0-9]+ ' "$out/ktap.log" || true)
fail=$(grep -cE '^ +not ok [0-9]+ ' "$out/ktap.log" || true)
say DONE "$arch: $pass test cases passed, $fail failed, kunit.py exit $rc, $(($(date +%s) - start)) s"
[ -z "${COUNTS:-}" ] || echo "$pass $fail" >>"$COUNTS"
if [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ] || [ "$pass" -eq 0 ]; then
	grep -E 'not ok|# FAIL|Expected|error:|ERROR' "$out/kunit.log" | head -20 >&2 || true
	die "$arch: KUnit tests failed or did not run (log: $out/kunit.log)"
fi
