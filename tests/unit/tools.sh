#!/usr/bin/env bash
# tools.sh - the small tools of each stage on made-up input: kconfig-verify,
# the patch series mechanism, the dependency check, mkinitramfs, kvm-probe,
# boot.sh on what it cannot boot, the boot record's one writer, make on
# an unknown machine or boot kind, and make validate-distro on a distribution it cannot have.
#
#   tests/unit/tools.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"


# --- kconfig-verify: a requested value that did not take is an error naming it.
printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=y\n' >"$work/frag1"
printf 'CONFIG_C=n\n' >"$work/frag2"
printf '#\n# generated\n#\nCONFIG_A=y\n# CONFIG_C is not set\n' >"$work/config"
"$host/kconfig-verify" "$work/config" "$work/frag1" "$work/frag2" >"$work/kv.out" 2>&1
expect "kconfig-verify: values that took (absent counts as n; later fragments win)" test $? = 0
printf 'CONFIG_TMPFS=y\n' >"$work/frag3"
"$host/kconfig-verify" "$work/config" "$work/frag3" >"$work/kv.out" 2>&1
expect "kconfig-verify: a value that did not take fails, naming it" \
	test "$?: $(cat "$work/kv.out")" = "1: kconfig-verify: $work/config: requested CONFIG_TMPFS=y, got nothing (not in .config: unmet dependencies?)"
printf 'CONFIG_A=y\nthis is not kconfig\n' >"$work/broken"
"$host/kconfig-verify" "$work/broken" "$work/frag1" >"$work/kv.out" 2>&1
expect "kconfig-verify: a broken .config is exit 2 with its line" \
	test "$?: $(cat "$work/kv.out")" = "2: kconfig-verify: $work/broken:2: not a config line: \"this is not kconfig\""

# --- The patch series mechanism, on a fixture tree and patch: series.sh
# lists and hashes it, source.sh's tree_take makes the one working tree
# carry the patches asked for.
series=$fixtures/series/series
expect "series: list names the patches in order" \
	test "$("$top/host-tools/kernel/series.sh" list "$series" | xargs -n1 basename | tr '\n' ' ')" = "0001-hello-say-which-year-it-is.patch "
h1=$("$top/host-tools/kernel/series.sh" hash "$series")
mkdir -p "$work/series2" && cp "$fixtures/series/"*.patch "$work/series2/" && cp "$series" "$work/series2/"
sed -i 's/Hello, 2038/Hello, 2039/' "$work/series2/0001-hello-say-which-year-it-is.patch"
h2=$("$top/host-tools/kernel/series.sh" hash "$work/series2/series")
expect "series: the hash changes when a patch does" test "$h1" != "$h2"
# A kernel whose code moved gets its own version of a patch: KVER/NAME.
mkdir -p "$work/series2/6.12" && cp "$work/series2/0001-hello-say-which-year-it-is.patch" "$work/series2/6.12/"
sed -i 's/Hello, 2039/Hello, 2040/' "$work/series2/6.12/0001-hello-say-which-year-it-is.patch"
expect "series: KVER/NAME replaces NAME for that kernel" \
	test "$("$top/host-tools/kernel/series.sh" list "$work/series2/series" 6.12)" = "$work/series2/6.12/0001-hello-say-which-year-it-is.patch"
expect "series: ... and only for that kernel" \
	test "$("$top/host-tools/kernel/series.sh" list "$work/series2/series" 6.1)" = "$work/series2/0001-hello-say-which-year-it-is.patch"
expect "series: ... and the hash tells the two apart" \
	test "$("$top/host-tools/kernel/series.sh" hash "$work/series2/series" 6.12)" != "$h2"
# A patch for code only one kernel has lives only as KVER/NAME.
cp "$work/series2/series" "$work/series2/series.one"
echo 0002-only-in-6.12.patch >>"$work/series2/series"
cp "$work/series2/6.12/0001-hello-say-which-year-it-is.patch" "$work/series2/6.12/0002-only-in-6.12.patch"
expect "series: a patch only under KVER/ is that kernel's" \
	test "$("$top/host-tools/kernel/series.sh" list "$work/series2/series" 6.12 | xargs -n1 basename | tr '\n' ' ')" = "0001-hello-say-which-year-it-is.patch 0002-only-in-6.12.patch "
expect "series: ... the others leave it out, and their hash stays" \
	test "$("$top/host-tools/kernel/series.sh" list "$work/series2/series" 6.1)" = "$work/series2/0001-hello-say-which-year-it-is.patch" -a \
	"$("$top/host-tools/kernel/series.sh" hash "$work/series2/series" 6.1)" = "$("$top/host-tools/kernel/series.sh" hash "$work/series2/series.one" 6.1)"
printf '0002-missing.patch\n' >"$work/series2/series"
"$top/host-tools/kernel/series.sh" list "$work/series2/series" >/dev/null 2>"$work/series.err"
expect "series: a series naming a missing patch is an error" \
	grep -q "names 0002-missing.patch, which is not in" "$work/series.err"

# tree_take, in a subshell per call as kernel.sh calls it (die exits).
p1=$fixtures/series/0001-hello-say-which-year-it-is.patch
p2=$work/0002-hello-say-goodbye.patch
cp -r "$fixtures/series/tree" "$work/p2a" && cp -r "$work/p2a" "$work/p2b"
patch -s -d "$work/p2a" -p1 <"$p1" && cp "$work/p2a/hello.c" "$work/p2b/hello.c"
printf '#include <stdio.h>\n\nvoid goodbye(void)\n{\n\tputs("Goodbye");\n}\n' >"$work/p2b/bye.c"
sed -i 's/return 0;/goodbye();\n\treturn 0;/' "$work/p2b/hello.c"
(cd "$work" && diff -Nur p2a p2b | sed 's|^--- p2a/|--- a/|; s|^+++ p2b/|+++ b/|' >"$p2")
take() {
	(
		say() { :; }
		die() { echo "$*" >&2; exit 1; }
		# shellcheck source=host-tools/kernel/source.sh
		. "$top/host-tools/kernel/source.sh"
		pristine=$fixtures/series/tree tree=$work/tree srcpkg=fixture version=1
		tree_take "$@"
	)
}
before=$(sha256sum <"$fixtures/series/tree/hello.c")
take "$p1" "$p2" 2>"$work/take.err"
expect "tree_take: two patches apply" \
	test "$?:$(grep -c Goodbye "$work/tree/hello.c" "$work/tree/bye.c" | tr '\n' ' ')" = "0:$work/tree/hello.c:0 $work/tree/bye.c:1 "
expect "tree_take: ... the pristine tree is untouched" test "$(sha256sum <"$fixtures/series/tree/hello.c")" = "$before"
gen=$(cat "$work/tree.generation")
touch -d 2000-01-01 "$work/tree/hello.c"
take "$p1" 2>"$work/take.err"
expect "tree_take: the first patch only: the second is reverted, its new file removed" \
	test "$?:$(grep -c 'Hello, 2038' "$work/tree/hello.c"):$(grep -c goodbye "$work/tree/hello.c"):$([ -e "$work/tree/bye.c" ] && echo bye)" = "0:1:0:"
expect "tree_take: ... and a reverted file is newer than what was built from it (kbuild rebuilds it)" \
	test "$(stat -c %Y "$work/tree/hello.c")" -gt "$(date -d 2000-01-02 +%s)"
touch -d 2000-01-01 "$work/tree/hello.c"
take "$p1" 2>"$work/take.err"
expect "tree_take: the same patches again change nothing" \
	test "$?:$(stat -c %Y "$work/tree/hello.c")" = "0:$(date -d 2000-01-01 +%s)"
take 2>"$work/take.err"
expect "tree_take: no patches: the tree is the pristine one again" \
	test "$?:$(sha256sum <"$work/tree/hello.c")" = "0:$before"
sed 's/puts("Hello");/puts("Hi");/' "$p1" >"$work/0001-broken.patch"
sed -i 's/-\tputs("Hello");/-\tputs("Hi");/' "$work/0001-broken.patch"
take "$p1" "$work/0001-broken.patch" 2>"$work/take.err"
expect "tree_take: a patch that does not apply is an error naming it" \
	test "$?: $(tail -1 "$work/take.err")" = "1: patch 2, 0001-broken.patch, does not apply to fixture 1"
expect "tree_take: ... and the tree keeps what applied before it, and says so" \
	test "$(grep -c 'Hello, 2038' "$work/tree/hello.c"):$(wc -l <"$work/tree.applied")" = "1:1"
expect "tree_take: ... with the generation it had" test "$(cat "$work/tree.generation")" = "$gen"
touch "$work/tree.dirty"	# what an interrupted tree_take leaves
take "$p2" 2>"$work/take.err"
expect "tree_take: a tree left half-changed is made anew, with a new generation" \
	test "$(cat "$work/tree.generation")" != "$gen"
expect "tree_take: ... and then carries what was asked (a patch that needs another fails, named)" \
	grep -q "patch 1, 0002-hello-say-goodbye.patch, does not apply" "$work/take.err"

# --- Dependencies: nothing to do when installed; the exact command otherwise.
out=$("$top/host-tools/deps.sh" bash coreutils 2>&1)
expect "deps: installed packages install nothing and print nothing" test "$?:$out" = "0:"
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$top/host-tools/deps.sh" bash y2038-lab-no-such-package 2>&1)
	rc=$?
else
	out=$("$top/host-tools/deps.sh" bash y2038-lab-no-such-package 2>&1)
	rc=$?
fi
if [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null; then
	skip "deps: not root, it stops and prints the exact apt-get command" "running as root without setpriv to drop root"
else
	expect "deps: not root, it stops and prints the exact apt-get command" \
		test "$rc:$(echo "$out" | tail -1)" = "1:  sudo apt-get update && sudo apt-get install -y --no-install-recommends y2038-lab-no-such-package"
fi

# While deps.sh installs, Debian's maintainer scripts load no module into
# this machine's kernel: its PATH's modprobe and insmod are stand-ins.
mkdir -p "$work/standins"
( . "$top/host-tools/lib.sh" && no_module_loading "$work/standins" )
out=$(PATH="$work/standins:/usr/sbin:/usr/bin:/sbin:/bin" sh -c '[ -x "$(command -v modprobe)" ] && modprobe md && insmod fuse.ko' 2>&1)
expect "deps: a maintainer script's modprobe and insmod load nothing, and say so" \
	test "$?:$(grep -c "not run: the lab loads nothing into this machine's kernel" <<<"$out"):$(command -v modprobe >/dev/null; PATH="$work/standins:$PATH" command -v modprobe)" = "0:2:$work/standins/modprobe"
expect "deps: deps.sh puts them first in the PATH apt-get gives dpkg (DPkg::Path)" \
	grep -q '^cmd="apt-get -o DPkg::Path=$PATH install ' "$top/host-tools/deps.sh"
expect "deps: ... with the stand-ins of the service tools (no_service_starts, below)" \
	grep -qx 'no_service_starts "$standins"' "$top/host-tools/deps.sh"

# While it installs, no service starts, and yet the host's policy-rc.d is
# never written: a deps.sh killed with SIGKILL would leave it there,
# refusing every service start of the host, and two at once remove it under
# each other. deps.sh of a package no suite has, killed with SIGKILL as soon
# as its apt-get runs, in a mount namespace of its own where /usr/sbin has
# no policy-rc.d (as most hosts have none), watched all along from outside.
policy=/usr/sbin/policy-rc.d
if [ "$(id -u)" != 0 ]; then
	skip "deps: it never writes $policy, and a SIGKILL leaves nothing" "not root: deps.sh installs nothing"
else
	# shellcheck disable=SC2016
	setsid unshare -m --propagation private bash -c '
		mkdir -p "$1/sbin" && mount --bind /usr/sbin "$1/sbin" && mount -t tmpfs y2038-sbin /usr/sbin &&
		for f in "$1"/sbin/*; do [ "${f##*/}" = policy-rc.d ] || ln -s "$f" /usr/sbin/; done || exit 1
		"$2" --optional y2038-lab-no-such-package >"$1/deps.out" 2>&1 &
		echo $! >"$1/deps.pid"
		wait
		sleep 60' _ "$work" "$top/host-tools/deps.sh" 2>"$work/holder.err" &
	holder=$!
	seen='' apt='' left=''
	for _ in $(seq 3000); do
		[ ! -e "/proc/$holder/root$policy" ] || seen=$(sed -n 2p "/proc/$holder/root$policy")
		apt=$(pgrep -g "$holder" -x apt-get | head -1)
		[ -z "$apt" ] || break
		[ ! -s "$work/deps.pid" ] || kill -0 "$(cat "$work/deps.pid")" 2>/dev/null || break
		sleep 0.01
	done
	for p in $(pgrep -g "$holder"); do [ "$p" = "$holder" ] || kill -KILL "$p" 2>/dev/null; done
	sleep 0.2
	[ ! -e "/proc/$holder/root$policy" ] || left=$(sed -n 2p "/proc/$holder/root$policy")
	kill -KILL "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	if [ -z "$apt" ]; then
		not_ok "deps: while it installs, $policy is not written" "its apt-get never ran: $(cat "$work/holder.err" "$work/deps.out" 2>/dev/null | tail -3)"
	else
		same "deps: while it installs, $policy is not written (apt-get ran: pid $apt)" "${seen:+$policy: $seen}" ""
		same "deps: ... and a deps.sh killed with SIGKILL leaves none behind" "${left:+$policy: $left}" ""
	fi
fi
( . "$top/host-tools/lib.sh" && no_service_starts "$work/standins" )
out=$(PATH="$work/standins:/usr/sbin:/usr/bin:/sbin:/bin" sh -c 'invoke-rc.d postgresql start && deb-systemd-invoke start lava-server-gunicorn.service' 2>&1)
expect "deps: a maintainer script's invoke-rc.d and deb-systemd-invoke start nothing, and say so" \
	test "$?:$(grep -c "not run: the lab starts no service while it installs" <<<"$out")" = "0:2"

# --- mkinitramfs writes a cpio the kernel (and cpio(1)) can read.
printf '#!/bin/true\n' >"$work/init" && printf 'x' >"$work/clock-legacy"
"$host/mkinitramfs" "$work/i.cpio" "$work/init" "$work/clock-legacy"
expect "mkinitramfs: /init, /dev/console and the scenarios, in newc" \
	test "$(cpio -it <"$work/i.cpio" 2>/dev/null | tr '\n' ' ')" = "dev proc sys tmp mnt scenarios images dev/console init scenarios/clock-legacy "
"$host/mkinitramfs" "$work/j.cpio" "$work/init" "$work/clock-legacy"
printf 'image' >"$work/disk.img"
"$host/mkinitramfs" "$work/k.cpio" "$work/init" "images/ext4-128.img=$work/disk.img"
expect "mkinitramfs: DEST=SRC places a data file at DEST" \
	test "$(cd "$work" && mkdir -p x && cd x && cpio -id --quiet images/ext4-128.img <../k.cpio && cat images/ext4-128.img)" = image
expect "mkinitramfs: the same inputs give the same bytes" cmp -s "$work/i.cpio" "$work/j.cpio"

# --- kvm-probe: no device, no KVM, and it says why.
out=$("$host/kvm-probe" "$work/no-kvm" 2>&1)
expect "kvm-probe: a missing device is tcg, with the reason" \
	test "$?:$out" = "1:tcg: $work/no-kvm: No such file or directory"

# --- boot.sh on a kernel description that does not read: an ERROR boot.
# i386's facts as make writes them for the shell (machines/i386.mk).
facts=$build/machines/i386.env
printf 'KERNEL_IMAGE=/nonexistent\nKERNEL_PATCHES=6 patches @ abc\n' >"$work/garbage.env"
"$top/host-tools/boot/boot.sh" out="$work/garbage-boot" machine_env="$facts" config=compat32-y kind=matrix \
	scenarios=clock-legacy kernel_env="$work/garbage.env" initrd=none \
	rtc_base=2038-01-19T03:13:55 guest_timeout=1 boot_timeout=1 probe=none cache="$work/cache" >/dev/null 2>&1
expect "boot.sh: an unreadable kernel description is a failed boot naming it (exit 0, the run goes on)" \
	grep -q '^error=no kernel: .*garbage.env does not read as KEY=VALUE: .*line 2' "$work/garbage-boot/meta"
expect "boot.sh: ... and its record carries the machine's facts (machine, karch, userland)" \
	test "$(grep -E '^(machine|karch|userland)=' "$work/garbage-boot/meta" | tr '\n' ' ')" = "machine=i386 karch=i386 userland=i386 "

printf 'KERNEL_IMAGE=/nonexistent\n' >"$work/good.env"
printf 'debootstrap failed: could not resolve deb.debian.org\n' >"$work/missing.cpio.error"
"$top/host-tools/boot/boot.sh" out="$work/no-initrd-boot" machine_env="$facts" config=compat32-y kind=matrix \
	scenarios=bookworm-legacy kernel_env="$work/good.env" initrd="$work/missing.cpio" \
	rtc_base=2038-01-19T03:13:55 guest_timeout=1 boot_timeout=1 probe=none cache="$work/cache" >/dev/null 2>&1
expect "boot.sh: an initramfs that could not be made is a failed boot giving the reason" \
	grep -q '^error=no initramfs .*missing.cpio: debootstrap failed: could not resolve' "$work/no-initrd-boot/meta"
printf x >"$work/made.cpio"
printf x >"$work/vfat.img"
printf 'fs-image.sh: no tmpfs at /dev/shm to hold times past 2038\n' >"$work/squashfs.img.error"
"$top/host-tools/boot/boot.sh" out="$work/no-disk-boot" machine_env="$facts" config=compat32-y kind=matrix \
	scenarios=filesystems-legacy kernel_env="$work/good.env" initrd="$work/made.cpio" \
	disks="$work/vfat.img,$work/squashfs.img" \
	rtc_base=2038-01-19T03:13:55 guest_timeout=1 boot_timeout=1 probe=none cache="$work/cache" >/dev/null 2>&1
expect "boot.sh: a disk image that could not be made is a failed boot naming it and the reason" \
	grep -q '^error=no disk .*/squashfs.img: fs-image.sh: no tmpfs at /dev/shm' "$work/no-disk-boot/meta"

# --- boot.sh's timed slots: a timed guest boots only when one of the
# machine's timed_guests slots is free, an untimed one whenever, and a boot
# again alone waits for every slot. A stand-in QEMU notes when it ran, and
# runs until another runs beside it (then 1 s more), or 10 s: two guests
# that may overlap do, however slowly a loaded host starts the second.
cat >"$work/fake-qemu" <<EOF2
#!/bin/sh
boot=\$(echo "\$*" | sed -n 's|.*/slot-boots/\\([a-z]\\)/.*|\\1|p')
echo "start \$(date +%s.%N) \$boot" >>"$work/slots-\$\$"
n=0
while [ \$n -lt 100 ]; do
	if [ "\$(cat "$work"/slots-* | awk '\$1 == "start" { n++ } \$1 == "end" { n-- } END { print n }')" -gt 1 ]; then
		sleep 1
		break
	fi
	sleep 0.1
	n=\$((n + 1))
done
echo "end \$(date +%s.%N) \$boot" >>"$work/slots-\$\$"
EOF2
chmod +x "$work/fake-qemu"
printf 'KERNEL_IMAGE=/nonexistent\nKERNEL_VERSION=6.1.1-1\nKERNEL_SOURCE=linux-source-6.1\nKERNEL_PATCHES=none\n' >"$work/slot.env"
fake_boot() {	# NAME KEY=VALUE...: a boot of the stand-in, in the background
	local name=$1
	shift
	"$top/host-tools/boot/boot.sh" out="$work/slot-boots/$name" machine_env="$facts" config=compat32-y kind=matrix \
		scenarios=clock-legacy kernel_env="$work/slot.env" initrd="$work/made.cpio" qemu="$work/fake-qemu" accel=tcg \
		rtc_base=2038-01-19T03:13:55 guest_timeout=20 boot_timeout=30 probe=none cache="$work/slot-cache" "$@" >/dev/null 2>&1 &
}
overlapped() {	# did two stand-in runs overlap in time ($1: one of them, else any)?
	cat "$work"/slots-* | sort -k2 -n | awk -v b="${1:-}" '
		$1 == "start" { run[$3] = 1 } $1 == "end" { delete run[$3] }
		{ n = 0; mine = 0; for (r in run) { n++; if (r == b) mine = 1 } }
		n > 1 && (b == "" || mine) { o = 1 } END { exit !o }'
}
fake_boot a timed_guests=1; fake_boot b timed_guests=1; wait
expect "boot.sh: with one timed slot, two timed guests boot one after the other" \
	test "$(ls "$work"/slots-* | wc -l)" = 2 -a "$(overlapped && echo overlapped)" = ""
rm -f "$work"/slots-*
fake_boot c timed_guests=1; fake_boot d timed_guests=1 timed=no; wait
expect "boot.sh: ... an untimed one boots beside a timed one" overlapped
rm -f "$work"/slots-*
started() {	# wait until the stand-in QEMU of boot $1 started
	local n=0
	until grep -qs "^start .* $1\$" "$work"/slots-* || [ $((n += 1)) -gt 300 ]; do sleep 0.1; done
}
fake_boot e timed_guests=2; fake_boot g timed_guests=2; wait
expect "boot.sh: two timed slots: two timed guests at once" overlapped
rm -f "$work"/slots-*
fake_boot e timed_guests=2; started e; fake_boot f timed_guests=2 alone=yes; fake_boot g timed_guests=2; wait
expect "boot.sh: ... but a boot again alone waits for every slot, and the others wait for it" \
	test "$(ls "$work"/slots-* | wc -l):$(overlapped f && echo overlapped)" = 3:
expect "boot.sh: ... and it is recorded as any boot" grep -q 'qemu_status=exited' "$work/slot-boots/f/meta"

# --- The boot record has one writer, and its keys are the collector's.
(
	# shellcheck source=host-tools/lib.sh
	. "$top/host-tools/lib.sh"
	boot_record "$work/record" machine=i386 error="two
lines"
) 2>"$work/record.err"
expect "boot record: written whole, a value's newline made a space" \
	test "$(cat "$work/record")" = "$(printf 'machine=i386\nerror=two lines')"
( . "$top/host-tools/lib.sh"; boot_record "$work/record2" machine=i386 colour=blue ) 2>"$work/record.err"
expect "boot record: a key the collector does not read is refused, naming it" \
	test "$?:$(cat "$work/record.err")" = "1:tools.sh: boot record: \"colour\" is not a key of host-tools/boot/boot-record.h"
expect "boot record: ... and nothing is written" test ! -e "$work/record2"
keys_h=$(sed -n 's/^[[:space:]]*X(\([a-z_]*\),.*/\1/p' "$top/host-tools/boot/boot-record.h" | sort | tr '\n' ' ')
keys_c=$(grep -o '[a-z_]*=' "$fixtures/boot-i386-compat32-y/meta" | tr -d = | sort | tr '\n' ' ')
expect "boot record: the fixture boot's keys are all in boot-record.h" \
	test -z "$(comm -13 <(tr ' ' '\n' <<<"$keys_h" | grep .) <(tr ' ' '\n' <<<"$keys_c" | grep .))"

# --- The runner of guest programs, on this host (y2038-run, as faketime.sh
# uses it): the guest's TAP framing, its verdicts on a hang and a crash.
mkdir -p "$work/progs"
printf '#!/bin/sh\necho "TAP version 13"\necho "1..1"\necho "ok 1 legacy x before # PASS fine"\n' >"$work/progs/good"
printf '#!/bin/sh\nexec sleep 30\n' >"$work/progs/hang"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$work/progs/crash"
printf '#!/bin/sh\nexit 4\n' >"$work/progs/skipped"
chmod +x "$work/progs"/*
"$host/y2038-run" --dir "$work/progs" --programs good,hang,crash,skipped,missing --timeout 1 \
	--note "host: a test" >"$work/run.tap" 2>&1
expect "y2038-run: the guest's framing, in order, with the end marker" \
	test "$(grep -E '^(TAP|1\.\.|# host|ok|not ok|# y2038-init: done)' "$work/run.tap" | tr '\n' '|')" = \
	"TAP version 13|1..5|# host: a test|ok 1 selftests: y2038: good|not ok 2 selftests: y2038: hang # TIMEOUT 1 seconds|not ok 3 selftests: y2038: crash # CRASH signal 11 (SIGSEGV)|ok 4 selftests: y2038: skipped # SKIP|not ok 5 selftests: y2038: missing # exit=127|# y2038-init: done|"
expect "y2038-run: a program's own TAP is relayed, indented" grep -qx '# ok 1 legacy x before # PASS fine' "$work/run.tap"
expect "y2038-run: a program that hangs is killed, with what it started" \
	test -z "$(pgrep -f "sleep 30" -P 1 2>/dev/null | head -1)"
# A program the lab could not build leaves NAME.not-built: its bail-out.
echo "musl-x: configure failed" >"$work/progs/unbuilt.not-built"
"$host/y2038-run" --dir "$work/progs" --programs unbuilt --timeout 5 >"$work/run3.tap" 2>&1
expect "y2038-run: a program not built bails out with the reason beside it" \
	test "$(grep -c '^# Bail out! not built: musl-x: configure failed$' "$work/run3.tap")" = 1
"$host/y2038-run" --dir "$work/progs" --programs good --timeout 5 -- /usr/bin/env Y2038_X=1 >"$work/run2.tap" 2>&1
expect "y2038-run: a prefix runs each program (env, setpriv, a loader, qemu-user)" \
	grep -qx 'ok 1 selftests: y2038: good' "$work/run2.tap"

# --- qemu-tcg.sh, kunit.py's QEMU where KVM did not boot the machine's guest:
# kunit.py's "-accel kvm -accel hvf -accel tcg" leaves only TCG, every
# other argument as it was.
printf '#!/bin/sh\nprintf "[%%s]" "$@"\n' >"$work/fake-qemu" && chmod +x "$work/fake-qemu"
out=$(Y2038_QEMU="$work/fake-qemu" "$top/host-tools/patch-check/qemu-tcg.sh" -nodefaults -append 'a b' \
	-accel kvm -accel hvf -accel tcg -serial stdio)
expect "qemu-tcg.sh: kunit.py's KVM and HVF are dropped, TCG and the rest kept" \
	test "$out" = "[-nodefaults][-append][a b][-accel][tcg][-serial][stdio]"

# --- make: an unknown machine is a clear error.
out=$(make -C "$top" -n lab MACHINES=pdp11 2>&1)
expect "make: an unknown machine is refused, naming the known ones" \
	grep -q 'unknown machine "pdp11": the lab knows' <<<"$out"

# --- make: an unknown boot kind is a clear error, not a kind with no settings.
out=$(make -C "$top" -n run BOOT_KINDS="matrix matrx" 2>&1) && rc=0 || rc=$?
expect "make: an unknown boot kind is refused, naming it and the known ones" \
	test "$rc" != 0 -a -n "$(grep 'BOOT_KINDS: no boot kind named matrx; the kinds are: .*matrix rtc-after' <<<"$out")"
expect "make: ... before any rule (no overriding-recipe warnings)" \
	test -z "$(grep -i 'overriding recipe' <<<"$out")"

# --- The progress line's count ("boot N of M"): the makes of one run that
# boot other kinds, or another variant of them (validate-distro's passes),
# count apart; the makes that boot the same ones share the count.
boot_count_key() {	# the session= boot.sh gets from make -n boots ARGS
	make -C "$top" -n boots MACHINES=armv7 DISTRO=trixie RUN_ID=count BOOT_SESSION=S "$@" 2>&1 |
		grep -o ' session=[^ ]*' | sort -u | tr -d '\n'
}
smoke=$(boot_count_key BOOT_KINDS=distro)
expect "boot count: validate-distro's passes and kinds count apart (never 'boot 3 of 2')" \
	test -n "$smoke" -a "$smoke" != "$(boot_count_key BOOT_KINDS=distro DISTRO_VARIANT=-glibc-2.41-time64only)" \
	-a "$smoke" != "$(boot_count_key BOOT_KINDS=distro-setup)"
expect "boot count: ... and one make's boots of the same kinds share it" \
	test "$smoke" = "$(boot_count_key BOOT_KINDS=distro)"

# --- make validate-distro: a distribution that cannot be had is refused
# with one line, before anything is built (BUILD and RESULTS stay empty).
vd() {	# the output and status of make validate-distro ARGS in a scratch BUILD
	out=$(make -C "$top" --no-print-directory validate-distro BUILD="$work/vd-build" \
		RESULTS="$work/vd-results" CACHE="$work/vd-cache" "$@" 2>&1) && rc=0 || rc=$?
	nothing=$([ -e "$work/vd-build" ] || [ -e "$work/vd-results" ] || echo yes)
}
vd DISTRO=slackware
expect "validate-distro: an unknown distribution is refused, naming the known ones" \
	test "$rc" != 0 -a "$nothing" = yes -a "$(grep -c . <<<"$out")" = 1 -a \
	"$(grep -c 'DISTRO=slackware: the lab knows bookworm trixie (one file each in distros/)' <<<"$out")" = 1
vd DISTRO=bookworm bookworm.suite=potato
expect "validate-distro: a suite the registry does not serve is refused" \
	test "$rc" != 0 -a "$nothing" = yes -a \
	"$(grep -c 'does not serve the suite potato' <<<"$out")" = 1
mkdir -p "$work/root-x86/usr/bin" && cp /bin/true "$work/root-x86/usr/bin/"
vd DISTRO_ARCH=armhf DISTRO_ROOT="$work/root-x86"
expect "validate-distro: a root not of the named architecture is refused" \
	test "$rc" != 0 -a "$nothing" = yes -a \
	"$(grep -c "its programs are Advanced Micro Devices X86-64 (ELF machine 62), not armhf" <<<"$out")" = 1

# --- Adding a machine is its machines/ file and its config fragment; adding
# a family is its C file and its expectations (README: "Adding a machine",
# "Adding a family"). In a copy of the tree: a throwaway armv7 under another
# name, and a family copied from clock; make plans both in full.
tree=$work/tree
mkdir -p "$tree"
git -C "$top" ls-files -z --cached --others --exclude-standard | (cd "$top" && xargs -0 tar -cf -) | tar -xf - -C "$tree"
sed 's/^armv7\./armv7b./' "$top/machines/armv7.mk" >"$tree/machines/armv7b.mk"
cp "$top/patches/config/arch-armv7.config" "$tree/patches/config/arch-armv7b.config"
cp "$top/scenarios/clock.c" "$tree/scenarios/clocktoo.c"
plan=$(make -C "$tree" -n run MACHINES=armv7b CACHE="$work/cache" BUILD="$work/tree-build" RESULTS="$work/tree-results" 2>&1)
expect "a new machine: make plans its kernels from its own fragment" \
	grep -q "kernel.sh .*machine_env=$work/tree-build/machines/armv7b.env config=compat32-y .*arch-armv7b.config" <<<"$plan"
expect "a new machine: ... boots it, with its facts from its file" \
	grep -q "boot-plan.sh .*/plans/armv7b-compat32-n .*machine_env=$work/tree-build/machines/armv7b.env" <<<"$plan"
expect "a new family: make builds it in both ABIs and puts it in the guest" \
	grep -q "mkinitramfs .*scenarios/clocktoo-legacy .*scenarios/clocktoo-time64" <<<"$plan"
make -C "$tree" BUILD="$work/tree-build" "$work/tree-build/machines/armv7b.env" >/dev/null 2>&1
expect "a new machine: its facts for the shell, its own over its userland's, its board's and the defaults" \
	test "$(. "$work/tree-build/machines/armv7b.env" && echo "$machine $karch $console $fragment $lava_arch $ucross $elf_machine $packages")" = \
	"armv7b arm ttyAMA0 patches/config/arch-armv7b.config arm arm-linux-gnueabihf- 40 gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-system-arm"
# It takes its word size's and its board's fragments too, with nothing
# copied: the series' 32-bit options, and how a disk attaches on virt.
plan=$(make -C "$tree" -n run MACHINES=armv7b BOOT_KINDS="matrix filesystems" CACHE="$work/cache" BUILD="$work/tree-build" RESULTS="$work/tree-results" 2>&1)
expect "a new machine: its kernels take its word size's fragment (series-bits-32) and, booting disks, its board's" \
	test "$(grep "kernel.sh .*machine_env=$work/tree-build/machines/armv7b.env .*series-bits-32.config" <<<"$plan" | sort -u | grep -c .) $(grep "kernel.sh .*armv7b.env .*disk-board-arm-virt.config" <<<"$plan" | sort -u | grep -c .)" = "4 2"
# A fragment a machine needs and does not have stops make, naming it.
mv "$tree/patches/config/arch-armv7b.config" "$tree/arch-armv7b.config"
plan=$(make -C "$tree" -n run MACHINES=armv7b CACHE="$work/cache" BUILD="$work/tree-build" RESULTS="$work/tree-results" 2>&1)
expect "a new machine without its own fragment: make stops and names it" \
	test "$?:$(grep -c "machines/armv7b.mk: its kernel needs patches/config/arch-armv7b.config, which does not exist" <<<"$plan")" = "2:1"
mv "$tree/arch-armv7b.config" "$tree/patches/config/arch-armv7b.config"
mv "$tree/patches/config/series-bits-32.config" "$tree/series-bits-32.config"
plan=$(make -C "$tree" -n run MACHINES=armv7b CACHE="$work/cache" BUILD="$work/tree-build" RESULTS="$work/tree-results" 2>&1)
expect "a 32-bit machine whose word size's fragment is missing: make stops and names it" \
	test "$?:$(grep -c "its kernel needs patches/config/series-bits-32.config, which does not exist" <<<"$plan")" = "2:1"
mv "$tree/series-bits-32.config" "$tree/patches/config/series-bits-32.config"
sed 's/^armv7b.board .*/armv7b.board := new-board/' "$tree/machines/armv7b.mk" >"$tree/machines/armv7b.mk.new" &&
	mv "$tree/machines/armv7b.mk.new" "$tree/machines/armv7b.mk"
plan=$(make -C "$tree" -n run MACHINES=armv7b BOOT_KINDS=filesystems CACHE="$work/cache" BUILD="$work/tree-build" RESULTS="$work/tree-results" 2>&1)
expect "a machine whose board names no disk fragment: a kernel that boots disks stops make, naming it" \
	test "$?:$(grep -c "machines/armv7b.mk: its board \"new-board\" names no disk_fragment" <<<"$plan")" = "2:1"
sed 's/^armv7b.board .*/armv7b.board := arm-virt/' "$tree/machines/armv7b.mk" >"$tree/machines/armv7b.mk.new" &&
	mv "$tree/machines/armv7b.mk.new" "$tree/machines/armv7b.mk"
# Every subset is derived from the machines' keys: the new 32-bit machine
# is in each, and validate-distro and try boot it, with nothing else edited.
cat >"$tree/show-subsets.mk" <<'MK'
include Makefile
show-subsets:
	@echo "order=$(ALL_MACHINES)|32bit=$(MACHINES_32BIT)|check=$(CHECK_MACHINES)|apps=$(APPS_MACHINES)|compare=$(COMPARE_MACHINES)|trixie-libc=$(trixie.libc_scenarios)|kunit=$(KUNIT_MACHINES)"
MK
subsets=$(make -s -C "$tree" -f show-subsets.mk show-subsets CACHE="$work/cache" BUILD="$work/tree-build" 2>&1)
for subset in order 32bit check apps compare trixie-libc; do
	expect "a new machine: it is in the derived subset $subset" \
		grep -qE "(^|\|)$subset=[^|]*\barmv7b\b" <<<"$subsets"
done
expect "a new machine: 32-bit kernels are built and booted first" \
	grep -qE '^order=armv7 armv7b i386 ' <<<"$subsets"
plan=$(make -C "$tree" -n validate-distro DISTRO_ARCH=armhf DISTRO_MACHINE=armv7b DISTRO_ROOT="$work/no-root" \
	DISTRO_CONFIG="$work/no-config" CACHE="$work/cache" BUILD="$work/tree-build" RESULTS="$work/tree-results" 2>&1)
expect "a new machine: validate-distro boots the root on it" \
	grep -q "MACHINES=armv7b" <<<"$plan"
mkdir -p "$work/tree-build/armhf" && touch "$work/tree-build/armhf/try.cpio"	# what try-inputs stages
plan=$(make -C "$tree" -n boots BOOT_KINDS=try CONFIGS="compat32-y compat32-n" TRY_ARCH=armhf \
	CACHE="$work/cache" BUILD="$work/tree-build" RESULTS="$work/tree-results" 2>&1)
expect "a new machine: make try boots a program of its userland on it (both configs)" \
	test "$(grep -c "boot.sh plan=.* out=.*/boots/armv7b-compat32-[yn]-try " <<<"$plan")" = 2
# make try builds the kernels it boots, none of a flavour it never boots
# (the filesystems boots', which make run's default kinds queue).
plan=$(make -C "$tree" -n try-report TRY_ARCH=armhf MACHINES=armv7b BIN=/bin/true KERNEL=linux-source-7.3 \
	CACHE="$work/cache" BUILD="$work/tree-build" RESULTS="$work/tree-results" 2>&1)
expect "make try builds the kernels it boots: the two of its machine's matrix, no filesystems flavour's" \
	test "$(grep "kernel/kernel.sh " <<<"$plan" | sort -u | grep -c "flavour=lab .*machine_env=$work/tree-build/machines/armv7b.env"):$(grep "kernel/kernel.sh " <<<"$plan" | grep -c "flavour=filesystems")" = "2:0"

# --- make try's check of what a program needs of the kernels it will boot
# (try.sh needs, data/kernel-needs.tsv), on kernels whose configs are
# written here: a Go program (a .go.buildinfo section, as every Go binary
# has) is refused before a boot where its runtime needs what they leave
# out; a program that imports epoll_create1 is told so and runs.
# kernel_env NAME OPTIONS: a kernel's facts whose config sets OPTIONS =y
kernel_env() {
	mkdir -p "$work/k-$1"
	printf 'CONFIG_%s=y\n' $2 >"$work/k-$1/config"
	printf 'KERNEL_IMAGE=%s\n' "$work/k-$1/bzImage" >"$work/k-$1.env"
}
kernel_env matrix "PRINTK"
kernel_env distro "PRINTK EPOLL EVENTFD"
printf '#include <sys/epoll.h>\nint main(void) { return epoll_create1(0) < 0; }\n' >"$work/epoll.c"
if i686-linux-gnu-gcc -O2 -o "$work/epoll" "$work/epoll.c" 2>/dev/null &&
   i686-linux-gnu-gcc -O2 -static -o "$work/gostand" "$work/epoll.c" 2>/dev/null &&
   printf 'go1.24' >"$work/buildinfo" &&
   i686-linux-gnu-objcopy --add-section .go.buildinfo="$work/buildinfo" "$work/gostand"; then
	needs() { "$top/host-tools/distro/try.sh" needs "$1" "$top/data/kernel-needs.tsv" "${@:2}" 2>&1; }
	out=$(needs "$work/gostand" "$work/k-matrix.env")
	expect "try needs: a Go program on kernels without epoll is refused (exit 1), naming netpollinit" \
		test "$?: $(grep -c 'is a Go program: its runtime needs CONFIG_EPOLL, which these kernels leave out: k-matrix (Go.s runtime/netpoll_epoll.go netpollinit()' <<<"$out")" = "1: 1"
	expect "try needs: ... and CONFIG_EVENTFD, and says how to ask for the distro kernels" \
		test "$(grep -c 'needs CONFIG_EVENTFD' <<<"$out") $(grep -c "make try KERNEL_FLAVOUR=distro BIN=$work/gostand\$" <<<"$out")" = "1 1"
	out=$(needs "$work/gostand" "$work/k-distro.env")
	expect "try needs: the same program on kernels with epoll and eventfd runs, unremarked" test "$?:$out" = "0:"
	out=$(needs "$work/epoll" "$work/k-matrix.env" "$work/k-distro.env")
	expect "try needs: a program importing epoll_create1 is told which kernel lacks CONFIG_EPOLL, and runs (exit 0)" \
		test "$?: $out" = "0: try: note: BIN=$work/epoll imports epoll_create1, which needs CONFIG_EPOLL, left out of these kernels: k-matrix; a call returns ENOSYS (fs/Makefile:29 obj-\$(CONFIG_EPOLL) += eventpoll.o; kernel/sys_ni.c:67 COND_SYSCALL(epoll_create1))"
	rm "$work/k-distro/config"
	out=$(needs "$work/epoll" "$work/k-distro.env")
	expect "try needs: a kernel whose config is missing is an error naming it" \
		test "$?: $out" = "1: try.sh: $work/k-distro.env: the kernel's config ($work/k-distro/config) is missing"
else
	not_ok "try needs: i686-linux-gnu-gcc or -objcopy cannot build the test programs"
fi

# --- The session's wait ("$Y2038_WAIT" SECONDS, a link to it): a raw
# time64 absolute sleep until then, the one thing a session's command may
# not take from the root it tests (its libc's sleep is ENOSYS on =n).
if gcc -O2 -Wall -Wextra -Werror -o "$work/session" "$top/guest-init/session.c" 2>"$work/session.err"; then
	ln -s session "$work/y2038-wait"
	start=$(date +%s.%N)
	"$work/y2038-wait" "$(echo "$start + 0.3" | bc)"
	rc=$?
	took=$(echo "$(date +%s.%N) - $start" | bc)
	expect "session's wait: it sleeps until the time it is given ($took s for 0.3 s)" \
		test "$rc" = 0 -a "$(echo "$took >= 0.29 && $took < 5" | bc)" = 1
	out=$("$work/y2038-wait" soon 2>&1)
	expect "session's wait: a time that is not one is refused, saying so (exit 2)" \
		test "$?:$out" = "2:y2038-wait: want SECONDS since the epoch, not soon"
else
	not_ok "session's wait: guest-init/session.c does not build for this host" "$(head -3 "$work/session.err")"
fi

# --- Every across command of a session says when its moment came (the
# y2038-armed line, guest-init/moment.h): without it, one that armed its
# wait past the overflow would pass as a verdict. gotime (scenarios/apps/
# gotime.go) prints it itself, as its wait is armed.
sessions=("$top"/scenarios/apps/session.tsv "$top"/distros/*/*.tsv "$top"/scenarios/filesystems/copy.tsv)
unmarked=$(awk -F'\t' '!/^#/ && $1 == "across" && $5 !~ /y2038-armed/ && $5 !~ /gotime (sleep|timer)/ { print FILENAME ":" FNR }' "${sessions[@]}")
expect "sessions: every across command prints y2038-armed as its moment comes ($(cat "${sessions[@]}" | grep -c $'^across\t') of them)" \
	test -z "$unmarked"
[ -z "$unmarked" ] || echo "#   unmarked: $unmarked"

# --- The facts make reads from the lab's files (host-tools/facts.sh):
# written once, read again only when one of its sources is newer; and
# what make picks from them is what the files say.
facts=$work/facts/facts.mk
"$top/host-tools/facts.sh" "$facts" "$top/host-tools/verdicts/results-record.h"
expect "facts: the results vocabulary's configs, each with its place and role" \
	grep -qx 'RESULT_CONFIG_ROWS := compat32-y/kernel/with-time32 compat32-n/kernel/without-time32 libfaketime/host/- libfaketime-static/host/-' "$facts"
echo stale >"$facts" && touch -d 2000-01-01 "$facts"
"$top/host-tools/facts.sh" "$facts" "$top/host-tools/verdicts/results-record.h"
expect "facts: read again when a source is newer than them" grep -q '^Y2038_LAST_SEC := 2147483647$' "$facts"
echo stale >"$facts"
"$top/host-tools/facts.sh" "$facts" "$top/host-tools/verdicts/results-record.h"
expect "facts: left alone when none is" test "$(cat "$facts")" = stale
picked=$(make -s -C "$top" BUILD="$work/facts-build" --eval 'facts-picked: ; @echo "$(WITHOUT_TIME32)|$(KERNEL_KIND)|$(GLIBC_KINDS)|$(call kernel-sources-where,2,apt)"' facts-picked)
expect "facts: make picks rows by field (=n config, kernel kind, glibc kinds, apt kernels: $picked)" \
	test "$picked" = "compat32-n|kernel|legacy time64|$(awk -F'\t' '/^[a-z0-9]/ && $2 == "apt" { printf "%s%s", s, $1; s = " " }' "$top/data/kernel-sources.tsv")"
tap_end
