# Debian 13 "trixie" (2025-08): glibc 2.41. armhf (and armel) were rebuilt
# with 64-bit time_t (-D_TIME_BITS=64); i386 stayed on 32-bit time_t on
# purpose, to run legacy binaries. Keys: distros/bookworm.mk. Not in the
# demo yet (no sessions): make validate-distro DISTRO=trixie.
trixie.suite          := trixie
trixie.config_package := linux-config-6.12
trixie.libc           := glibc-2.41
