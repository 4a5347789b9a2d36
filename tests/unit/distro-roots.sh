#!/usr/bin/env bash
# distro-roots.sh - make validate-distro's roots, any way a device ships
# one: validate-distro.sh unpack on a directory, tarballs (gzip, xz, zstd),
# ext2 and ext4 images and a squashfs image of one fake root, all made here
# (each unpacks to the same files, none is written, a second run finds the
# cache's); what is not a root, refused with why; inspect-root.py on the
# roots a device has (busybox init, sysvinit, OpenRC, systemd; glibc, musl,
# static) and on roots whose init cannot run (no exec bit, no init, another
# machine's, its interpreter missing); a busybox's applets as programs of
# their own in the smoke session; and the verdict on boots of a busybox init
# as guest-init/distro/init-watch.c reports them, made here.
#
#   tests/unit/distro-roots.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"
vd=$top/host-tools/distro/validate-distro.sh
inspect=$top/host-tools/distro/inspect-root.py
dv=$top/host-tools/distro/distro-verdicts.py
cache=$work/cache
jqe() { jq -e "$@" >/dev/null; }

# A program of each machine, made here: static armhf (the busybox of the
# fake root), dynamic armhf (its interpreter, /lib/ld-linux-armhf.so.3, is
# not in the root) and static i386.
printf 'int main(void) { return 0; }\n' >"$work/prog.c"
if ! arm-linux-gnueabihf-gcc -static -o "$work/arm-static" "$work/prog.c" 2>"$work/cc.err" ||
	! arm-linux-gnueabihf-gcc -o "$work/arm-dynamic" "$work/prog.c" 2>>"$work/cc.err" ||
	! i686-linux-gnu-gcc -static -o "$work/i386-static" "$work/prog.c" 2>>"$work/cc.err"; then
	skip "the roots of every kind, and their inits" "no cross compiler to make the fixtures' programs: $(head -1 "$work/cc.err")"
	tap_end
	exit
fi

# The fake root, as a Buildroot user's: one static busybox, its applets as
# links (relative and absolute), busybox init with an inittab.
mkroot() {
	local r=$1
	mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,etc/init.d,dev,proc,tmp}
	install -m 755 "$work/arm-static" "$r/bin/busybox"
	for a in sh ls mount logger; do ln -s busybox "$r/bin/$a"; done
	ln -s ../bin/busybox "$r/sbin/init"
	ln -s /bin/busybox "$r/usr/bin/uptime"
	printf '::sysinit:/etc/init.d/rcS\nconsole::respawn:-/bin/sh\n' >"$r/etc/inittab"
	printf '#!/bin/sh\nmount -t proc proc /proc\n' >"$r/etc/init.d/rcS"
	chmod 755 "$r/etc/init.d/rcS"
	chmod 1777 "$r/tmp"
	printf '#!/bin/sh\n' >"$r/usr/sbin/helper" && chmod 4755 "$r/usr/sbin/helper"
	# a device node where this host lets the test make one (as root)
	mknod -m 600 "$r/dev/console" c 5 1 2>/dev/null || true
}
listing() { (cd "$1" && find . ! -name . -printf '%P %y %m %l\n' | LC_ALL=C sort); }
mkroot "$work/bb"

# --- One root, every way it ships
tar -C "$work/bb" -czf "$work/bb.tar.gz" .
tar -C "$work/bb" -cJf "$work/bb.tar.xz" .
tar -C "$work/bb" --zstd -cf "$work/bb.tar.zst" .
tar -C "$work/bb" -cf "$work/bb.tar" .
PATH=$PATH:/usr/sbin:/sbin
mke2fs -q -F -t ext4 -d "$work/bb" "$work/bb.ext4" 8M >/dev/null 2>&1
mke2fs -q -F -t ext2 -d "$work/bb" "$work/bb.ext2" 8M >/dev/null 2>&1
mksquashfs "$work/bb" "$work/bb.squashfs" -noappend -quiet -no-progress >/dev/null
for f in tar.gz tar.xz tar.zst tar ext4 ext2 squashfs; do
	before=$(sha256sum <"$work/bb.$f")
	out=$("$vd" unpack "$work/bb.$f" "$cache" 2>"$work/unpack.err")
	expect "unpack: a root as $f: the same files, modes (setuid, sticky), links and nodes as the directory it was made of" \
		test -d "$out" -a "$(listing "$out")" = "$(listing "$work/bb")"
	expect "unpack: ... into the cache, the $f itself not written" \
		test "${out#"$cache"/distro-roots/}" != "$out" -a "$(sha256sum <"$work/bb.$f")" = "$before"
	again=$("$vd" unpack "$work/bb.$f" "$cache" 2>&1)
	expect "unpack: the $f a second time: the cache's, not unpacked again" \
		test "$again" = "$out" -a "$(grep -c UNPACK "$work/unpack.err")" = 1
done
expect "unpack: a directory is the root itself" \
	test "$("$vd" unpack "$work/bb" "$cache")" = "$work/bb"

head -c 4096 /dev/urandom | tr '\0' x | sed '1s/^/notaroot/' >"$work/junk.img"
out=$("$vd" unpack "$work/junk.img" "$cache" 2>&1)
expect "unpack: a file that is no root: refused, saying what a root may be and what it begins with" \
	test "$?:$(grep -c "DISTRO_ROOT=$work/junk.img: not a directory, a tarball (gzip, xz, zstd), an ext2/3/4 image or a squashfs image (its first bytes: 6e6f74" <<<"$out")" = "1:1"
head -c 300 "$work/bb.tar.gz" >"$work/cut.tar.gz"
out=$("$vd" unpack "$work/cut.tar.gz" "$cache" 2>&1)
expect "unpack: a tarball cut short: the tar.gz does not unpack, with tar's words, and no entry is left" \
	test "$?:$(grep -c "DISTRO_ROOT=$work/cut.tar.gz: the tar.gz does not unpack: .*" <<<"$out"):$(find "$cache/distro-roots" -maxdepth 1 -name '*.new' | wc -l)" = "1:1:0"
head -c 2048 "$work/bb.squashfs" >"$work/cut.squashfs"
out=$("$vd" unpack "$work/cut.squashfs" "$cache" 2>&1)
expect "unpack: a squashfs image cut short: it does not unpack, saying so" \
	test "$?:$(grep -c "the squashfs does not unpack" <<<"$out")" = "1:1"
mkdir -p "$work/nested" && cp -a "$work/bb" "$work/nested/rootfs" && tar -C "$work/nested" -czf "$work/nested.tar.gz" rootfs
out=$("$vd" check-root "$work/nested.tar.gz" armhf 40 "$cache" yes 2>&1)
expect "check-root: a tarball of the folder a root is in, not of the root: refused, saying how to make it" \
	test "$?:$(grep -c "no programs in its /usr/bin or /bin, only a folder \"rootfs\": make the tarball or image of the root's inside (tar -C rootfs -czf root.tar.gz .)" <<<"$out")" = "1:1"
out=$("$vd" unpack "$work/nothing-here" "$cache" 2>&1)
expect "unpack: a root that is not there: named" \
	test "$?:$out" = "1:validate-distro.sh: DISTRO_ROOT=$work/nothing-here: no such directory or file"

# --- What a root is, and whether its init can run
out=$("$vd" check-root "$work/bb.tar.zst" armhf 40 "$cache" yes 2>&1)
expect "check-root: a busybox root as a tarball: busybox init with its inittab, found before any boot" \
	test "$?:$(grep -c "FOUND    init: busybox init (/etc/inittab) (/sbin/init -> /bin/busybox)" <<<"$out")" = "0:1"
expect "check-root: ... and no shared libc: static programs" \
	grep -q "FOUND    libc: no shared libc: its programs are static" <<<"$out"
"$inspect" "$work/bb" armhf 40 --json "$work/bb.json" >/dev/null
expect "inspect-root: the JSON the boots' probe is chosen by: kind busybox, init /sbin/init" \
	jqe '.init.kind == "busybox" and .init.path == "/sbin/init" and .init.target == "/bin/busybox" and .libc.name == null' "$work/bb.json"

cp -a "$work/bb" "$work/noexec" && chmod 644 "$work/noexec/bin/busybox"
tar -C "$work/noexec" -czf "$work/noexec.tar.gz" .
out=$("$vd" check-root "$work/noexec.tar.gz" armhf 40 "$cache" yes 2>&1)
expect "check-root: a root whose init has no exec bit: refused before any boot, saying how to fix it" \
	test "$?:$(grep -c "its init /sbin/init (-> /bin/busybox) has no exec bit (mode 0644): chmod +x it" <<<"$out")" = "1:1"

out=$("$vd" check-root "$work/noexec.tar.gz" armhf 40 "$cache" no 2>&1)
expect "check-root: ... but taken, saying so, when its own init is not booted (DISTRO_INIT=no: the lab's /init runs the smoke tests)" \
	test "$?:$(grep -c "FOUND    init: none that can run (its init /sbin/init (-> /bin/busybox) has no exec bit .*): DISTRO_INIT=yes would be refused" <<<"$out")" = "0:1"

cp -a "$work/bb" "$work/x86" && install -m 755 "$work/i386-static" "$work/x86/bin/busybox"
out=$("$inspect" "$work/x86" armhf 40 2>&1)
expect "inspect-root: an i386 root given as armhf: its init is named as an Intel 80386 program" \
	test "$?:$(grep -c "its init /sbin/init (-> /bin/busybox) is a 32-bit Intel 80386 program, not one for ARM (ELF machine 40): give the DISTRO_ARCH of the root" <<<"$out")" = "1:1"
out=$("$vd" check-root "$work/x86" armhf 40 "$cache" no 2>&1)
expect "check-root: ... and refused as a whole, its programs not armhf's" \
	test "$?:$(grep -c "its programs are Intel 80386 (ELF machine 3), not armhf" <<<"$out")" = "1:1"

cp -a "$work/bb" "$work/nointerp" && install -m 755 "$work/arm-dynamic" "$work/nointerp/bin/busybox"
out=$("$inspect" "$work/nointerp" armhf 40 2>&1)
expect "inspect-root: an init whose interpreter the root lacks: refused, naming the interpreter" \
	test "$?:$(grep -c "the interpreter of /bin/busybox, /lib/ld-linux-armhf.so.3 leads to /lib, which is not in the root" <<<"$out")" = "1:1"

cp -a "$work/bb" "$work/noinit" && rm "$work/noinit/sbin/init"
out=$("$inspect" "$work/noinit" armhf 40 2>&1)
expect "inspect-root: no init: refused, naming where the kernel looks" \
	test "$?:$(grep -c "no init: none of /sbin/init, /etc/init, /bin/init is in the root" <<<"$out")" = "1:1"
cp -a "$work/bb" "$work/dangling" && ln -sfn /bin/no-such-init "$work/dangling/sbin/init"
out=$("$inspect" "$work/dangling" armhf 40 2>&1)
expect "inspect-root: an init that is a dangling link: refused, naming what is missing" \
	test "$?:$(grep -c "its init /sbin/init leads to /bin/no-such-init, which is not in the root" <<<"$out")" = "1:1"

# The kinds a device's init may be, and its libc.
kind() {	# ROOT: the kind, its rc and its libc as inspect-root.py says
	"$inspect" "$1" armhf 40 --json "$work/k.json" >/dev/null 2>&1 &&
		jq -r '"\(.init.kind) \(.init.rc) \(.libc.name) \(.libc.version)"' "$work/k.json"
}
mkdir -p "$work/sysv"/{sbin,etc,lib/arm-linux-gnueabihf,var/lib/dpkg}
{ cat "$work/arm-static"; printf '@(#)init 3.06 INIT_VERSION=sysvinit-3.06\n'; } >"$work/sysv/sbin/init"
chmod 755 "$work/sysv/sbin/init"
echo 'id:2:initdefault:' >"$work/sysv/etc/inittab"
printf 'GNU C Library (Debian GLIBC 2.36-9+deb12u4) stable release version 2.36.\n' >"$work/sysv/lib/arm-linux-gnueabihf/libc.so.6"
expect "inspect-root: sysvinit with an inittab, and glibc's version from its banner" \
	test "$(kind "$work/sysv")" = "sysvinit null glibc 2.36"
install -m 755 "$work/arm-static" "$work/sysv/sbin/openrc"
expect "inspect-root: sysvinit with OpenRC beside it" \
	test "$(kind "$work/sysv")" = "sysvinit OpenRC glibc 2.36"
mkdir -p "$work/sd/lib/systemd" "$work/sd/sbin"
install -m 755 "$work/arm-static" "$work/sd/lib/systemd/systemd"
ln -s /lib/systemd/systemd "$work/sd/sbin/init"
expect "inspect-root: systemd, behind /sbin/init" \
	test "$(kind "$work/sd" | cut -d' ' -f1)" = systemd
cp -a "$work/bb" "$work/alpine" && mkdir -p "$work/alpine/lib/apk/db"
install -m 755 "$work/arm-static" "$work/alpine/lib/ld-musl-armhf.so.1"
install -m 755 "$work/arm-static" "$work/alpine/sbin/openrc"
printf '::sysinit:/sbin/openrc sysinit\n' >"$work/alpine/etc/inittab"
printf 'P:busybox\nV:1.36.1-r5\n\nP:musl\nV:1.2.4-r2\n\n' >"$work/alpine/lib/apk/db/installed"
expect "inspect-root: busybox init running OpenRC, musl with its version from apk's database" \
	test "$(kind "$work/alpine")" = "busybox OpenRC musl 1.2.4-r2 (lib/apk/db/installed)"

# --- The init boots' probe follows the kind (kinds/distro.mk): systemd's
# unit, or the watcher as PID 1 for any other init.
plan() {	# the init boot's kernel command line that make plans for KIND
	make -C "$top" -n boots BOOT_KINDS=distro-init CONFIGS=compat32-y MACHINES=armv7 KERNEL_FLAVOUR=distro \
		DISTRO_ARCH=armhf DISTRO_ROOT=/r DISTRO_INIT_KIND="$1" BUILD="$work/plan-build" RESULTS="$work/plan-results" \
		CACHE="$cache" 2>/dev/null | grep -o 'append="[^"]*"'
}
expect "plan: a busybox init boots with the watcher as PID 1, which execs the root's init" \
	test "$(plan busybox)" = 'append="root=/dev/vda rw rootwait init=/y2038/init-watch y2038.hold=0"'
expect "plan: systemd boots as before, its probe a unit systemd.wants= pulls in" \
	grep -q 'systemd.wants=y2038-probe.service' <<<"$(plan systemd)"

# --- A multi-call program's links are programs of their own
"$host/y2038-scan" --symbols "$top/data/time-symbols.tsv" --root "$work/bb" --json "$work/bb-scan.json" "$work/bb" >/dev/null
"$dv" programs "$work/bb-scan.json" "$work/bb" >"$work/programs.txt"
expect "programs: busybox and each of its links, absolute and relative, in bin and sbin" \
	test "$(cut -f1,4 "$work/programs.txt" | tr '\t' ' ' | LC_ALL=C sort | tr '\n' ,)" = \
	"/bin/busybox ,/bin/logger /bin/busybox,/bin/ls /bin/busybox,/bin/mount /bin/busybox,/bin/sh /bin/busybox,/sbin/init /bin/busybox,/usr/bin/uptime /bin/busybox,"
"$vd" session "$work/bb-scan.json" "$work/bb" "$top/data/smoke.tsv" "$work/smoke.tsv" 40 armhf
expect "session: an applet with a smoke command of its own runs it (ls), one without runs APPLET --help" \
	test "$(grep -c $'\t/bin/ls\t.*ls -l /etc/passwd$' "$work/smoke.tsv"):$(grep -c $'\t/usr/bin/uptime\t.*\t/usr/bin/uptime --help$' "$work/smoke.tsv")" = "1:1"
expect "session: an applet whose row only asks util-linux's logger for its version is asked for its usage" \
	test "$(grep -c $'\t/bin/logger\t.*\t/bin/logger --help$' "$work/smoke.tsv")" = 1
expect "session: ... and busybox itself its own command" \
	test "$(grep -c $'\t/bin/busybox\t' "$work/smoke.tsv")" = 1

# --- The boots of a busybox init, as init-watch reports them: the bug of
# issue 51 (every boot "TIMEOUT: the probe never ran", then "nothing to
# compare =n with") is what this judges.
boot() {	# DIR QEMU_STATUS: a boot's record; its TAP and console from stdin, split on ---
	mkdir -p "$1"
	printf 'kind=distro-init\nqemu_status=%s\n' "$2" >"$1/meta"
	awk -v tap="$1/tap.log" -v con="$1/console.log" '/^---$/ { c = 1; next } { print > (c ? con : tap) }'
}
services='y2038-probe: service 61 /sbin/syslogd -n
y2038-probe: service 62 -/bin/sh'
boot "$work/w-y" exited <<EOF
y2038-probe: started at uptime 2 s (init busybox /sbin/init)
y2038-probe: settled at uptime 14 s: 2 services
$services
y2038-probe: clock 2026-06-01T00:00:35Z at uptime 34 s
y2038-probe: shutdown requested at uptime 34 s (busybox: SIGTERM to PID 1)
---
[    1.9] Run /y2038/init-watch as init process
init started: BusyBox v1.35.0
time32 census: /bin/busybox (pid 1, comm init) first used rt_sigtimedwait_time32
Please press Enter to activate this console.
The system is going down NOW!
[   35.2] reboot: Restarting system
EOF
"$dv" init-boot "$work/w-y" ordinary >"$work/w-y.json"
expect "init boot of busybox init: OK, judged by what init did, not TIMEOUT" \
	jqe '.verdict == "OK" and .init_kind == "busybox" and .state == "settled" and .ready_at_s == 14
		and .services == ["/sbin/syslogd -n", "-/bin/sh"] and .login_prompt and .restart_reached' "$work/w-y.json"
expect "init boot of busybox init: the summary names the init, its services and the clean shutdown" \
	jqe '.summary | test("^busybox init settled at 14 s, 2 services: /sbin/syslogd -n, -/bin/sh; login prompt: yes; shutdown: clean; clock 2026-06-01T00:00:35Z$")' "$work/w-y.json"
boot "$work/w-n" exited <<EOF
y2038-probe: started at uptime 2 s (init busybox /sbin/init)
y2038-probe: settled at uptime 16 s: 2 services
$services
y2038-probe: respawned 14 -/bin/sh
y2038-probe: gone /sbin/syslogd -n (pid 61, from 3 s to 20 s)
y2038-probe: clock 2026-06-01T00:00:37Z at uptime 36 s
y2038-probe: shutdown requested at uptime 36 s (busybox: SIGTERM to PID 1)
y2038-probe: shutdown forced at uptime 66 s: init did not shut down within 30 s
---
[    3.1] syslogd[61]: segfault at 0 ip 00010 sp 0 error 4
[   66.5] reboot: Restarting system
EOF
"$dv" init-boot "$work/w-n" "=n" >"$work/w-n.json"
expect "init boot of busybox init: a service respawned and one gone make it DEGRADED, each named" \
	jqe '.verdict == "DEGRADED" and .respawned == ["-/bin/sh (14 times)"] and .services_gone == ["/sbin/syslogd -n"]
		and .shutdown_forced and .crashed == ["syslogd"]' "$work/w-n.json"
boot "$work/w-across" exited <<EOF
y2038-probe: started at uptime 2 s (init busybox /sbin/init)
y2038-probe: settled at uptime 15 s: 2 services
$services
y2038-probe: clock 2038-01-19T03:15:18Z at uptime 100 s
y2038-probe: shutdown requested at uptime 100 s (busybox: SIGTERM to PID 1)
---
Please press Enter to activate this console.
[  101.0] reboot: Restarting system
EOF
mkdir -p "$work/vdir"
jq -n '{name: "a busybox root", root: "/r", config: "c"}' >"$work/vdir/inputs.json"
jq -n '{summary: "(a config)", checks: []}' >"$work/vdir/config.json"
echo '[]' >"$work/vdir/scan.json"
: >"$work/vdir/smoke.tsv"
: >"$work/vdir/smoke.tsv.skipped"
for b in y n past; do mkdir -p "$work/none-$b"; done
"$dv" verdict "$work/vdir" "$work/none-y" "$work/none-n" "$work/none-past" \
	"$work/w-y" "$work/w-n" "$work/w-across" >"$work/vreport.txt" 2>&1
expect "verdict: busybox init's own boot with =y came up, so =n is compared with it" \
	jqe '.init_y_up and ([.init_boots[].verdict] == ["OK", "DEGRADED", "OK"])' "$work/vdir/verdict.json"
expect "verdict: ... and what =n broke is the answer: NO, naming the service gone and the one respawned" \
	jqe '.can_turn_off == "no" and (.init_breaks | any(test("service /sbin/syslogd -n gone with =n"))
		and any(test("service -/bin/sh \\(14 times\\) respawned with =n"))
		and any(test("syslogd crashed with =n")))' "$work/vdir/verdict.json"
expect "verdict: ... and the boot that got less far with =n, with what the census saw init use with =y" \
	jqe '.init_breaks | any(test("^the boot with =n: DEGRADED \\(with =y: OK; the census with =y: /bin/busybox \\(pid 1, comm init\\) first used rt_sigtimedwait_time32\\)$"))' "$work/vdir/verdict.json"
expect "verdict: ... across the overflow it got as far as at the ordinary date" \
	grep -q "Across the overflow: no unit failed and nothing crashed" "$work/vreport.txt"

tap_end
