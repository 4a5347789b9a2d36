# Debian 13 "trixie" (2025-08): glibc 2.41. armhf (and armel) were rebuilt
# with 64-bit time_t (-D_TIME_BITS=64); i386 stayed on 32-bit time_t on
# purpose, to run legacy binaries. Keys: distros/bookworm.mk. Not in the
# demo yet (no sessions): make validate-distro DISTRO=trixie.
trixie.suite          := trixie
trixie.config_package := linux-config-6.12
trixie.libc           := glibc-2.41
# It ships no i386 kernel (no linux-config-6.12:i386): its i386 userland runs
# on the amd64 kernel, so validate-distro boots i386 roots on x86_64.
trixie.machine.i386   := x86_64
