#!/usr/bin/env bash
# kunit.sh - the KUnit tests of the lab's patches, under QEMU, with the
# kernel's own tool (tools/testing/kunit/kunit.py).
#
#   kunit.sh cache=DIR package=NAME series=FILE machine_env=FILE builds=DIR \
#            fragments="A B C" kunitconfig=FILE [kconfig_add="CONFIG_A=y ..."] \
#            [ccache=DIR] [action=exec] out=DIR
#
# The test kernel is the machine's lab kernel (its fragments, normally the
# compat32-y ones) with the kunitconfig added, built in the
# machine's build folder for this kernel version (source.sh machine_work),
# which the lab's own kernels share: kbuild recompiles only what the KUnit
# options change. kunit.py gets the whole resolved config as its
# kunitconfig (every option said, so its olddefconfig adds nothing but its
# board's console), builds, boots it with qemu-system-ARCH and reads its
# KTAP; the log and the KTAP stay in out/. Exits non-zero unless every test
# passed, and never with no tests at all. action=exec only boots the test
# kernel the last run built (make bench times it).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
action=run kconfig_add= ccache=
kv_args "$@"
need cache package series machine_env builds fragments kunitconfig out
machine_facts "$machine_env"
[ -n "$kunit_arch" ] || die "machines/$machine.mk names no kunit_arch"
case $action in run|exec) ;; *) die "action=$action: run or exec" ;; esac
here=$(cd "$(dirname "$0")/../kernel" && pwd)
mkdir -p "$out"
out=$(realpath "$out")
# shellcheck source=host-tools/kernel/source.sh
. "$here/source.sh"
# shellcheck disable=SC2086 # one fragment per word
series_source "no patches, so no tests of them" $fragments "$kunitconfig"

# The working tree carries the series, and the build folder is this one's,
# while kunit.py builds.
tree_take "${patches[@]}"
machine_work "$builds"
args=("$action" --arch="$kunit_arch" --build_dir="$work" --timeout=300 --raw_output=kunit)
if [ "$action" = run ]; then
	work_begin "kunit: patches $patches_desc"
	# kunit.py's board for this arch wants its console options; said here,
	# or the lab's "is not set" for them (armv7: SERIAL_AMBA_PL010) wins
	# and kunit.py refuses the config
	{
		# shellcheck disable=SC2086 # one option per word
		printf '%s\n' $kconfig_add
		grep -E '^CONFIG_[A-Za-z0-9_]+=' "$tree/tools/testing/kunit/qemu_configs/$kunit_arch.py" ||
			die "$tree/tools/testing/kunit/qemu_configs/$kunit_arch.py names no options"
	} >"$out/add.config"
	if ! kconfigure "$work" "${configs[@]}" "$out/add.config" >"$out/config.log" 2>&1; then
		tail -20 "$out/config.log" >&2
		die "$kunit_arch: configuring the test kernel failed (log: $out/config.log)"
	fi
	grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$work/.config" >"$out/full.kunitconfig"
	args+=(--kunitconfig="$out/full.kunitconfig" --jobs="$(nproc)")
	[ -z "$ccache" ] || args+=(--make_options "CC=ccache ${kcross}gcc")
	export CCACHE_DIR=$ccache
fi
[ -z "$kcross" ] || args+=(--cross_compile="$kcross")
# KVM only where it booted this machine's guest here, as for the lab's
# boots (boot.sh's choose_accel, whose verdict this reads): elsewhere
# kunit.py's QEMU is qemu-tcg.sh, which drops the KVM it asks for.
accel=tcg
if [ "$(cat "$(host_fact_file "$cache" "$machine-$(basename "$qemu")")" 2>/dev/null)" = kvm ]; then
	accel=kvm
else
	Y2038_QEMU=$(command -v "$qemu") || die "$qemu: not installed (make deps)"
	export Y2038_QEMU
	mkdir -p "$out/bin"
	ln -sfn "$LAB_TOP/host-tools/patch-check/qemu-tcg.sh" "$out/bin/$(basename "$qemu")"
	export PATH="$out/bin:$PATH"
fi

say KUNIT "$kunit_arch ($action, $accel): $srcpkg $version, patches $patches_desc${kconfig_add:+, $kconfig_add} (log: $out/kunit.log)"
start=$(date +%s)
[ "$action" = exec ] || touch "$work/.y2038-building"	# objects newer are this build's
rc=0 recompiled=
(cd "$tree" && python3 tools/testing/kunit/kunit.py "${args[@]}") >"$out/kunit.log" 2>&1 || rc=$?
if [ "$action" = run ]; then
	recompiled=$(find "$work" -name '*.o' -newer "$work/.y2038-building" | wc -l)
	work_end "kunit: patches $patches_desc"
fi
exec 7>&-
# --raw_output=kunit prints the kernel's KTAP: keep it, and count its results.
sed -n '/^KTAP version\|^TAP version/,$p' "$out/kunit.log" >"$out/ktap.log"
# A case KUnit skipped says why ("ok N name # SKIP reason"): counted apart.
skip=$(grep -cE '^ +ok [0-9]+ .*# SKIP' "$out/ktap.log" || true)
pass=$(($(grep -cE '^ +ok [0-9]+ ' "$out/ktap.log" || true) - skip))
fail=$(grep -cE '^ +not ok [0-9]+ ' "$out/ktap.log" || true)
say DONE "$kunit_arch: $pass test cases passed, $fail failed, $skip skipped, kunit.py exit $rc, $(($(date +%s) - start)) s${recompiled:+, $recompiled objects compiled}"
[ -z "${COUNTS:-}" ] || echo "$pass $fail $skip" >>"$COUNTS"
if [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ] || [ "$pass" -eq 0 ]; then
	grep -E 'not ok|# FAIL|Expected|error:|ERROR' "$out/kunit.log" | head -20 >&2 || true
	die "$kunit_arch: KUnit tests failed or did not run (log: $out/kunit.log)"
fi
