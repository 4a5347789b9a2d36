# The apps family (scenarios/apps/): each distribution of APPS_DISTROS
# (host-tools/initramfs/initramfs.mk) a kind DISTRIBUTION-apps on
# APPS_MACHINES (on x86_64 and arm64 the same userland runs on a compat
# kernel), its session one program that may take minutes (CPython's test
# modules): started early, so that short boots end the run.
define apps-kind
$(1)-apps.initrd        := $(1)-apps.cpio
$(1)-apps.rtc           := $(ROOT_RTC_BASE)
$(1)-apps.bins           = apps-$$(call apps_abi,$(1),$$($$(1).userland))
$(1)-apps.memory        := 768
$(1)-apps.distro        := $(1)
$(1)-apps.machines       = $$(APPS_MACHINES)
$(1)-apps.guest_timeout := $(APPS_GUEST_TIMEOUT)
$(1)-apps.boot_timeout  := $(APPS_BOOT_TIMEOUT)
$(1)-apps.default       := yes
$(1)-apps.schedule      := 2
endef
$(foreach d,$(APPS_DISTROS),$(eval $(call apps-kind,$(d))))
