# The libc column's time64-only glibc (host-tools/libc/): the lab's libc
# programs on it, in TIME64ONLY_DISTRO's root (initramfs.mk), on the 32-bit
# kernels, where COMPAT_32BIT_TIME=n is the question; and, where the
# userland has one, the musl programs on the lab's musl with the fallback
# series (host-tools/libc/musl.mk): the boots' musl column.
time64only.initrd   := time64only.cpio
time64only.rtc      := $(ROOT_RTC_BASE)
time64only.bins      = $(call family_bins,$(GLIBC_KINDS)) $(call time64only_musl_bins,$(1))
time64only.memory   := 512
time64only.distro    = $(TIME64ONLY_DISTRO)
time64only.machines  = $(TIME64ONLY_MACHINES)
time64only.default  := yes
time64only.schedule := 3
