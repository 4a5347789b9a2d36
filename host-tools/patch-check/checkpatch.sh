#!/usr/bin/env bash
# checkpatch.sh - the kernel's own style check on every patch of the series.
#
#   checkpatch.sh cache=DIR package=NAME series=FILE
#
# Runs scripts/checkpatch.pl --strict from the kernel source the patches are
# for (6.12/NAME variants for linux-source-6.12), one patch at a time, and
# prints its verdict in TAP. Exits 1 if any patch has an error, a warning or
# a check: the series is kept clean, not merely error-free.
set -euo pipefail

# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
need cache package series
here=$(cd "$(dirname "$0")/../kernel" && pwd)
# shellcheck source=host-tools/kernel/source.sh
. "$here/source.sh"
# The series is applied too (once, kept in the cache): it must apply to every
# kernel the lab offers, not only read cleanly.
kernel_source "$(realpath -m "$cache")" "$package" "$series"

mapfile -t files < <("$here/series.sh" list "$series" "$kver")
echo "TAP version 13"
echo "1..${#files[@]}"
n=0 failed=0
for p in "${files[@]}"; do
	n=$((n + 1))
	# --no-tree: the check needs no git tree; spdxcheck needs one and is skipped.
	if out=$(cd "$pristine" && perl scripts/checkpatch.pl --strict --no-tree --terse --show-types "$OLDPWD/$p" 2>&1) &&
	   ! grep -qE ':( ERROR| WARNING| CHECK):' <<<"$out"; then
		echo "ok $n checkpatch --strict: ${p#*patches/}"
	else
		failed=$((failed + 1))
		echo "not ok $n checkpatch --strict: ${p#*patches/}"
		sed 's/^/# /' <<<"$out"
	fi
done
echo "# checkpatch: $srcpkg $version: the series applies ($patches_desc); $((n - failed)) of $n patches clean"
[ -z "${COUNTS:-}" ] || echo "$((n - failed)) $failed" >>"$COUNTS"
[ "$failed" -eq 0 ]
