# The libc column's glibcs (LAB_GLIBCS, host-tools/libc/libc.mk): the lab's
# libc programs on each, in TIME64ONLY_DISTRO's root (initramfs.mk), on the
# 32-bit kernels, where COMPAT_32BIT_TIME=n is the question, a kind each:
# time64only (--enable-kernel=5.1), in make run, and debian-fallback
# (Debian's floor), not in make run's default kinds: its two builds would
# add a quarter to a cold run (make libc-check boots both). Beside the glibc
# programs in the time64only boots, where the userland has one, the musl
# programs on the lab's musl with the fallback series (host-tools/libc/musl.mk): the
# boots' musl column.
define lab-glibc-kind
$(1).initrd   := $(1).cpio
$(1).rtc      := $$(ROOT_RTC_BASE)
$(1).memory   := 512
$(1).distro    = $$(TIME64ONLY_DISTRO)
$(1).machines  = $$(TIME64ONLY_MACHINES)
endef
$(foreach g,$(LAB_GLIBCS),$(eval $(call lab-glibc-kind,$(g))))
time64only.bins      = $(call family_bins,$(GLIBC_KINDS)) $(call time64only_musl_bins,$(1))
time64only.default  := yes
time64only.schedule := 3
debian-fallback.bins = $(call family_bins,$(GLIBC_KINDS))
