#!/usr/bin/env bash
# bisect.sh - every patch of the series builds on its own: the kernel tree
# after each one, built incrementally, through ccache.
#
#   bisect.sh cache=DIR package=NAME series=FILE machine_env=FILE builds=DIR \
#             fragments="A B C" [ccache=DIR] out=DIR
#
# Step 0 is the tree without the series; step k carries its first k patches
# (source.sh tree_take, which reverts and applies only what differs), is
# configured from the same fragments (an option a later patch adds is not
# there yet, and kconfig drops it) and built in the machine's build folder
# (source.sh machine_work, shared with the lab's kernels), so kbuild
# recompiles what patch k touched. A patch that adds a kselftest gets it
# compiled too, with the machine's userland compiler. Prints TAP, one test
# per step, with the objects recompiled and the seconds; exits 1 at the
# first step that does not build (what follows it cannot be judged), naming
# the patch and keeping its log in out/.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
ccache=
kv_args "$@"
need cache package series machine_env builds fragments out
machine_facts "$machine_env"
here=$(cd "$(dirname "$0")/../kernel" && pwd)
mkdir -p "$out"
out=$(realpath "$out")
# shellcheck source=host-tools/kernel/source.sh
. "$here/source.sh"
# shellcheck disable=SC2086 # one fragment per word
series_source "nothing to bisect" $fragments

machine_work "$builds"
n=${#patches[@]}
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../tap.sh"
say BISECT "$machine: $srcpkg $version, patches $patches_desc, each step built in $work" >&2
for ((k = 0; k <= n; k++)); do
	name=${patches[$((k - 1))]:-}
	what=$([ "$k" -eq 0 ] && echo "the tree without the series" || echo "patch $k, ${name##*/}")
	tree_take ${patches[@]+"${patches[@]:0:$k}"}
	work_begin "bisect step $k of $patches_desc"
	log=$out/step-$k.log
	start=$(date +%s)
	rc=0
	{ kconfigure "$work" "${configs[@]}" && kbuild "$work" -j"$(nproc)" "$ktarget"; } >"$log" 2>&1 || rc=$?
	# A kselftest the tree has by now, built as the guests' programs are.
	tests=$(for p in ${patches[@]+"${patches[@]:0:$k}"}; do
		sed -n 's|^+++ b/\(tools/testing/selftests/.*\.c\)$|\1|p' "$p"
	done | sort -u)
	for t in $tests; do
		[ "$rc" -eq 0 ] || break
		"${ucross}gcc" -static -O2 -Wall -Werror -I"$tree/tools/testing/selftests" \
			-o "$work/$(basename "$t" .c)" "$tree/$t" >>"$log" 2>&1 || rc=$?
	done
	secs=$(($(date +%s) - start))
	recompiled=$(find "$work" -name '*.o' -newer "$work/.y2038-building" | wc -l)
	# a step that failed leaves the folder marked: its objects are suspect
	[ "$rc" -ne 0 ] || work_end "bisect step $k of $patches_desc"
	exec 7>&-
	if [ "$rc" -eq 0 ]; then
		pass "$what builds: $recompiled objects recompiled, $secs s${tests:+ (and $(echo "$tests" | xargs -n1 basename | paste -sd' ' -))}"
	else
		not_ok "$what does not build (log: $log)"
		grep -E 'error|Error' "$log" | head -10 | sed 's/^/# /'
		tap_end
		exit 1
	fi
done
echo "# bisect: $machine, $srcpkg $version: each of the $n patches builds on its own"
tap_end
