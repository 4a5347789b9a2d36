#!/usr/bin/env bash
# faketime.sh - the host column of the matrix: the scenario programs,
# dynamically linked, run on this machine with Debian's libfaketime preloaded,
# so that their verdicts can be set beside the ones QEMU's real kernels give.
#
#   faketime.sh out=DIR run_id=ID machine=M userland=U libc=DIR libfaketime=DIR \
#       runner=native|qemu-arm bins=DIR scenarios=a,b,... [link=dynamic|static]
#
# libc is the cross toolchain's glibc (the programs' own), libfaketime the
# Debian package of their architecture, unpacked (debian.sh package). runner
# says how this host runs them: natively (i386 on x86-64) or under qemu-user
# (no binfmt needed). link=static runs static programs (the guest's) with
# LD_PRELOAD set as a user would, the column libfaketime-static: to measure
# that the library never gets in.
# Writes DIR/meta and DIR/tap.log in the guest's format (guest-init/init.c),
# for the collector.
#
# The host's clock is never touched: the programs run without CAP_SYS_TIME
# (setpriv drops every capability; as root they also become nobody), so the
# kernel refuses them a clock_settime, and the harness refuses to start if
# it finds the capability anyway.
set -euo pipefail

out= run_id= machine= userland= libc= libfaketime= runner= bins= scenarios= link=dynamic
for arg in "$@"; do
	case $arg in
	out=* | run_id=* | machine=* | userland=* | libc=* | libfaketime=* | runner=* | bins=* | scenarios=* | link=*)
		declare "${arg%%=*}=${arg#*=}" ;;
	*) echo "faketime.sh: unknown argument $arg" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] && [ -n "$machine" ] && [ -n "$scenarios" ] || { echo "faketime.sh: want out=, machine=, scenarios=" >&2; exit 2; }

SCENARIO_TIMEOUT=300
bins=$(realpath -m "$bins") libfaketime=$(realpath -m "$libfaketime")
mkdir -p "$out"
rm -f "$out/meta" "$out/tap.log"
meta() { printf '%s=%s\n' "$1" "$2" >>"$out/meta.tmp"; }
: >"$out/meta.tmp"
meta run_id "$run_id"
meta machine "$machine"
meta userland "$userland"
meta kernel "$(uname -r)"
meta kernel_source "this host"
case $link in
dynamic) meta config libfaketime ;;
static) meta config libfaketime-static ;;
*) echo "faketime.sh: link=$link: want dynamic or static" >&2; exit 2 ;;
esac
meta patches "$(cat "$libfaketime/.versions" 2>/dev/null || echo 'libfaketime ?')"
meta accel "$([ "$runner" = native ] && echo native || echo qemu-user)"
meta scenarios "$scenarios"
meta rtc_base "-"

# Why the column cannot be measured: every cell says so, the run goes on.
fail() {
	meta qemu_status exited
	meta error "$1"
	mv "$out/meta.tmp" "$out/meta"
	echo "faketime.sh: $machine: $1" >&2
	exit 0
}
# A host that cannot run the userland's programs at all (a 64-bit kernel
# without 32-bit support, such as one booted with ia32_emulation=0) cannot
# measure the column: it is skipped, with the kernel's refusal as the reason,
# and its cells say so.
skip() {
	meta qemu_status skipped
	meta skip_reason "$1"
	mv "$out/meta.tmp" "$out/meta"
	echo "faketime.sh: $machine: skipped: $1" >&2
	exit 0
}
faketime=$(find "$libfaketime" -name libfaketime.so.1 2>/dev/null | head -1 || true)
[ -n "$faketime" ] || fail "no libfaketime for $userland in $libfaketime: $(cat "$libfaketime.error" 2>/dev/null || echo 'not fetched')"
[ -e "$libc" ] || fail "no $userland C library: $libc is missing (the cross toolchain's)"
case $runner in
native) loader=$(ls "$libc"/ld-linux*.so.* 2>/dev/null | head -1)
	[ -n "$loader" ] || fail "no dynamic loader in $libc"
	# 126: the kernel would not execute it (the skip); any other failure is the lab's
	rc=0 refusal=$("$loader" --help 2>&1 >/dev/null) || rc=$?
	[ "$rc" -ne 126 ] || skip "this host (Linux $(uname -r) $(uname -m)) cannot run $userland programs natively: ${refusal##*: }"
	[ "$rc" -eq 0 ] || fail "$loader --help failed (exit $rc): ${refusal:0:200}"
	run=("$loader" --library-path "$libc" --preload "$faketime")
	# a static program runs by itself; the loader is not in it
	[ "$link" = dynamic ] || run=(env "LD_PRELOAD=$faketime") ;;
qemu-*) command -v "$runner" >/dev/null || fail "$runner is missing (Debian package qemu-user)"
	run=("$runner" -L "${libc%/lib}" -E "LD_PRELOAD=$faketime") ;;
*) fail "runner=$runner: want native or qemu-ARCH" ;;
esac

# Drop every capability; as root, become nobody too.
if [ "$(id -u)" -eq 0 ]; then
	drop=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs)
else
	drop=(setpriv --no-new-privs)
fi
# The files scenario's "tmpfs": its own, under /dev/shm, never the host's /tmp.
scratch=$(mktemp -d /dev/shm/y2038-lab.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
chmod 1777 "$scratch"

IFS=, read -r -a list <<<"$scenarios"
start=$(date +%s.%N)
{
	echo "TAP version 13"
	echo "1..${#list[@]}"
	echo "# host: $(uname -srm), $([ "$link" = dynamic ] && echo "libfaketime preloaded" ||
		echo "static programs with LD_PRELOAD=libfaketime set"), ${drop[*]}"
} >"$out/tap.log"
n=0
for name in "${list[@]}"; do
	n=$((n + 1))
	echo "# selftests: y2038: $name" >>"$out/tap.log"
	rc=0
	(cd "$scratch" && env -i PATH=/usr/bin:/bin Y2038_HOST=libfaketime Y2038_TMPFS="$scratch" \
		FAKETIME=+0 FAKETIME_NO_CACHE=1 \
		timeout -s KILL "$SCENARIO_TIMEOUT" "${drop[@]}" "${run[@]}" "$bins/$name") \
		>"$out/$name.out" 2>&1 || rc=$?
	sed 's/^/# /' "$out/$name.out" >>"$out/tap.log"
	case $rc in
	0) echo "ok $n selftests: y2038: $name" ;;
	4) echo "ok $n selftests: y2038: $name # SKIP" ;;
	137) echo "not ok $n selftests: y2038: $name # TIMEOUT $SCENARIO_TIMEOUT seconds" ;;
	129 | 1[3-9][0-9] | 2[0-5][0-9]) # killed by a signal, as guest-init reports it
		echo "not ok $n selftests: y2038: $name # CRASH signal $((rc - 128)) ($(kill -l $((rc - 128))))" ;;
	*) echo "not ok $n selftests: y2038: $name # exit=$rc" ;;
	esac >>"$out/tap.log"
done
# guest-init's end marker: the collector's proof that the run was not cut short.
echo "# y2038-init: done" >>"$out/tap.log"
meta qemu_status exited
meta qemu_exit 0
meta wall_s "$(echo "$(date +%s.%N) - $start" | bc)"
meta timeout_s "$SCENARIO_TIMEOUT"
mv "$out/meta.tmp" "$out/meta"
printf '  %-8s %s\n' FAKETIME "$machine: ${#list[@]} programs under libfaketime on this host, $(grep -c '^# \(not \)\?ok' "$out/tap.log") cases"
