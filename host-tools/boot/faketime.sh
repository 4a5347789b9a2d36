#!/usr/bin/env bash
# faketime.sh - the host column of the matrix: the scenario programs,
# dynamically linked, run on this machine with Debian's libfaketime preloaded,
# so that their verdicts can be set beside the ones QEMU's real kernels give.
#
#   faketime.sh out=DIR run_id=ID machine_env=FILE libc=DIR libfaketime=DIR \
#       runner=Y2038_RUN bins=DIR scenarios=a,b,... [link=dynamic|static]
#
# libc is the cross toolchain's glibc (the programs' own), libfaketime the
# Debian package of their architecture, unpacked (debian.sh package). The
# machine's fact "faketime" lists the ways this host may run its userland, in
# the order tried: natively (i386 on x86-64), or under qemu-user (qemu-ARCH,
# called directly: no binfmt needed). The first that works runs the column
# and the record says which (accel, and accel_note for a way refused);
# ways= overrides the list, and native_probe= what the native way executes
# to learn whether this kernel runs the userland (default: its loader), so
# that a test can take each way on any host. link=static runs
# static programs (the guest's) with LD_PRELOAD set as a user would, the
# column libfaketime-static: to measure that the library never gets in.
# The programs run under the guest's own runner (runner=, guest-init's
# runner.h built for this host), so DIR/tap.log is the guest's TAP, judged
# by the collector as any boot's; DIR/meta is the boot record.
#
# The host's clock is never touched: the programs run without CAP_SYS_TIME
# (setpriv drops every capability; as root they also become nobody), so the
# kernel refuses them a clock_settime, and the harness refuses to start if
# it finds the capability anyway.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
run_id= link=dynamic ways= native_probe=
kv_args "$@"
need out machine_env libc libfaketime runner bins scenarios
machine_facts "$machine_env"
ways=${ways:-$faketime}

SCENARIO_TIMEOUT=300
bins=$(realpath -m "$bins") libfaketime=$(realpath -m "$libfaketime")
mkdir -p "$out"
rm -f "$out/meta" "$out/tap.log"
case $link in
dynamic) column=libfaketime ;;
static) column=libfaketime-static ;;
*) echo "faketime.sh: link=$link: want dynamic or static" >&2; exit 2 ;;
esac
facts=(run_id="$run_id" kind="$column" machine="$machine" karch="$karch" userland="$userland" kernel="$(uname -r)"
	kernel_source="this host" config="$column" scenarios="$scenarios" rtc_base=-
	patches="$(cat "$libfaketime/.versions" 2>/dev/null || echo 'libfaketime ?')")
accel=- accel_note=	# the way it ran, once chosen below

# Why the column cannot be measured: every cell says so, the run goes on.
fail() {
	boot_record "$out/meta" "${facts[@]}" accel="$accel" accel_note="$accel_note" qemu_status=exited error="$1"
	echo "faketime.sh: $machine: $1" >&2
	exit 0
}
# A host that has no way to run the userland's programs (its kernel refuses
# them and the machine names no emulator) cannot measure the column: it is
# skipped, with the kernel's refusal as the reason, and its cells say so.
skip() {
	boot_record "$out/meta" "${facts[@]}" accel="$accel" accel_note="$accel_note" qemu_status=skipped skip_reason="$1"
	echo "faketime.sh: $machine: skipped: $1" >&2
	exit 0
}
faketime_so=$(find "$libfaketime" -name libfaketime.so.1 2>/dev/null | head -1 || true)
[ -n "$faketime_so" ] || fail "no libfaketime for $userland in $libfaketime: $(cat "$libfaketime.error" 2>/dev/null || echo 'not fetched')"
[ -e "$libc" ] || fail "no $userland C library: $libc is missing (the cross toolchain's)"
loader=$(ls "$libc"/ld-linux*.so.* 2>/dev/null | head -1)
[ -n "$loader" ] || fail "no dynamic loader in $libc"

# The first way that works. A kernel that will not execute the userland (a
# 64-bit one without 32-bit support, such as one booted with ia32_emulation=0)
# refuses natively: exit 126, Exec format error.
way= refused=
for w in $ways; do
	case $w in
	native)
		rc=0 said=$("${native_probe:-$loader}" --help 2>&1 >/dev/null) || rc=$?
		if [ "$rc" -eq 126 ]; then
			refused="this host (Linux $(uname -r) $(uname -m)) cannot run $userland programs natively: ${said##*: }"
			continue
		fi
		[ "$rc" -eq 0 ] || fail "${native_probe:-$loader} --help failed (exit $rc): ${said:0:200}"
		emulator=() ;;
	qemu-*)
		command -v "$w" >/dev/null || fail "$w is missing (Debian package qemu-user)${refused:+; $refused}"
		emulator=("$(command -v "$w")" -L "${libc%/lib}") ;;
	*) fail "faketime=$w (machines/$machine.mk): want native or qemu-ARCH" ;;
	esac
	way=$w
	break
done
[ -n "$way" ] || { [ -n "$refused" ] && skip "$refused"; fail "faketime= names no way to run $userland programs here (machines/$machine.mk)"; }
accel=$([ "$way" = native ] && echo native || echo qemu-user) accel_note=$refused
# The loader is named with the programs' own libc: under qemu-user, left to
# itself it would read this host's /etc/ld.so.cache and may pair the cross
# loader with another build of libc (libc6-i386's /lib32), whose forked
# children then spin forever (seen here: every case a TIMEOUT).
case $link in
dynamic) run=("${emulator[@]}" "$loader" --library-path "$libc" --preload "$faketime_so") ;;
# a static program runs by itself, the loader is not in it: LD_PRELOAD as a user sets it
static) if [ "$way" = native ]; then
		run=(/usr/bin/env "LD_PRELOAD=$faketime_so")
	else
		run=("${emulator[@]}" -E "LD_PRELOAD=$faketime_so")
	fi ;;
esac
[ -x "$runner" ] || fail "no runner $runner (make builds it from guest-init/host-run.c)"

# Drop every capability; as root, become nobody too.
if [ "$(id -u)" -eq 0 ]; then
	drop=(/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs)
else
	drop=(/usr/bin/setpriv --no-new-privs)
fi
# The files scenario's "tmpfs": its own, under /dev/shm, never the host's /tmp.
scratch=$(mktemp -d /dev/shm/y2038-lab.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
chmod 1777 "$scratch"

IFS=, read -r -a list <<<"$scenarios"
how=$([ "$link" = dynamic ] && echo "libfaketime preloaded" || echo "static programs with LD_PRELOAD=libfaketime set")
start=$(date +%s.%N)
"$runner" --dir "$bins" --programs "$scenarios" --timeout "$SCENARIO_TIMEOUT" --cwd "$scratch" \
	--note "host: $(uname -srm), $how, ${drop[*]}" -- \
	/usr/bin/env -i PATH=/usr/bin:/bin Y2038_HOST=libfaketime Y2038_TMPFS="$scratch" \
	FAKETIME=+0 FAKETIME_NO_CACHE=1 "${drop[@]}" "${run[@]}" >"$out/tap.log" 2>&1
boot_record "$out/meta" "${facts[@]}" accel="$accel" accel_note="$accel_note" qemu_status=exited qemu_exit=0 \
	wall_s="$(printf '%.2f' "$(echo "$(date +%s.%N) - $start" | bc)")" timeout_s="$SCENARIO_TIMEOUT"
say FAKETIME "$machine: ${#list[@]} programs under libfaketime on this host, $(grep -c '^# \(not \)\?ok' "$out/tap.log") cases"
