# The old-binaries demo: each distribution of DEMO_DISTROS (its
# demo_packages: host-tools/initramfs/initramfs.mk) a kind named as it, its
# own programs across the overflow (distros/<distribution>/*.tsv), and the
# lab's libc programs on its glibc where it says so (libc_scenarios), in
# its root (more memory: the initramfs carries it).
define demo-kind
$(1).initrd   := $(1).cpio
$(1).rtc      := $(ROOT_RTC_BASE)
$(1).bins      = $$(call demo_bins,$(1),$$($$(1).userland)) $$(call demo_libc_bins,$(1),$$(1))
$(1).memory   := 512
$(1).distro   := $(1)
$(1).default  := yes
$(1).schedule := 4
endef
$(foreach d,$(DEMO_DISTROS),$(eval $(call demo-kind,$(d))))
