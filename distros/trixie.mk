# Debian 13 "trixie" (2025-08): glibc 2.41. armhf (and armel) were rebuilt
# with 64-bit time_t (-D_TIME_BITS=64); i386 stayed on 32-bit time_t on
# purpose, to run legacy binaries. Keys: distros/bookworm.mk.
trixie.suite          := trixie
trixie.config_package := linux-config-6.12
trixie.glibc_source   := 2.41-12+deb13u5
# ...and of its musl source package (musl-dev's: the musl column's), which
# the lab rebuilds with its musl series (host-tools/libc/musl.mk).
trixie.musl_source    := 1.2.5-3.1~deb13u1
# Its demo runs bookworm's commands with trixie's own programs: coreutils
# and findutils (time64, by gnulib's year2038 module, as in bookworm);
# busybox 1.37 (scenario trixie_busybox), which Debian builds with its
# TIME64 option, i386 too (changelog 1:1.37.0-1: "enable time64"); dash
# (trixie_dash), legacy on i386 and rebuilt time64 on armhf.
trixie.demo_packages  := libc6 libgcc-s1 libacl1 libattr1 libcap2 libgmp10 libselinux1 \
	libpcre2-8-0 coreutils findutils dash busybox-static
# The lab's own legacy and time64 programs run on its glibc 2.41 there too,
# on the 32-bit kernels: the libc column's glibc-2.41 cells beside the
# matrix's static 2.36 ones. (On all four machines, run run-libc: the same
# outcomes on x86_64 and arm64, at 8 s more a boot.)
trixie.libc_scenarios  = $(MACHINES_32BIT)
trixie.programs.i386  := trixie-time64=bookworm/time64 trixie_busybox-time64=bookworm/busybox \
	trixie_dash-legacy=bookworm/dash
trixie.programs.armhf := trixie-time64=bookworm/time64 trixie_busybox-time64=bookworm/busybox \
	trixie_dash-time64=bookworm/dash
# It ships no i386 kernel (no linux-config-6.12:i386): its i386 userland runs
# on the amd64 kernel, so validate-distro boots i386 roots on x86_64.
trixie.machine.i386   := x86_64
# apps: its applications, time64 on armhf and legacy on i386.
trixie.apps_packages  := dash coreutils tar busybox-static python3-minimal python3.13 \
	libpython3.13-testsuite openssl sqlite3 snooze util-linux-extra perl-base perl gojq \
	nodejs fd-find git gpg gpg-agent systemd findutils
trixie.apps_abi.i386  := legacy
trixie.apps_abi.armhf := time64
trixie.go             := 1.24
trixie.rust           := 1.85
# Tomorrow's runtimes beside today's: sid's Go 1.26 and 1.27 (the first
# whose runtime uses futex_time64: golang/go#75133), static as every Go
# program is, so the distribution's root makes no difference to them.
trixie.go_more        := sid:1.26 sid:1.27
