# Stage: guest programs -> initramfs (host-tools/initramfs/). Every syscall
# family of scenarios/ is built twice (legacy and time64 glibc), static, with
# guest-init/ as PID 1, and packed with the ext4 images into one initramfs per
# userland. The old-binaries demo adds a distribution's own programs on top.

$(HOST)/mkinitramfs: host-tools/initramfs/mkinitramfs.c

# rtc and census judge the kernel, not an ABI: built once (time64), rtc
# first (the clock as booted), census last (what the others used).
KERNEL_SCENARIOS := rtc census
SCENARIOS     := $(filter-out $(KERNEL_SCENARIOS),$(basename $(notdir $(wildcard scenarios/*.c))))
SCENARIO_BINS := rtc-kernel $(foreach s,$(SCENARIOS),$(s)-legacy $(s)-time64) census-kernel
HARNESS       := scenarios/harness.h $(wildcard scenarios/harness/*.h)
GUEST_CFLAGS  := -O2 -Wall -Wextra -Werror
TIME64_FLAGS  := -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64
# How each ABI's programs are built, and how each folder of them links: the
# guest's static, the host column's (libfaketime) dynamic.
abi_cflags.legacy :=
abi_cflags.time64 := $(TIME64_FLAGS)
abi_cflags.kernel := $(TIME64_FLAGS)
link.scenarios    := -static
link.dynamic      :=

# Data the scenarios find in the guest: ext4 images with 128-byte inodes (no
# room for extended timestamps) and 256-byte inodes, attached as loop devices.
GUEST_DATA := images/ext4-128.img images/ext4-256.img
$(BUILD)/images/ext4-%.img:
	$(call say,MKFS,$@)
	@mkdir -p $(@D)
	$(Q)PATH="$$PATH:/usr/sbin:/sbin" mkfs.ext4 -q -F -I $* -O ^has_journal -E root_owner=0:0 $@ 2M

# $(1): userland, $(2): abi, $(3): folder (scenarios or dynamic)
define scenario-rule
$(BUILD)/$(1)/$(3)/%-$(2): scenarios/%.c $(HARNESS)
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$(call ucross,$(1))gcc $$(GUEST_CFLAGS) $$(link.$(3)) $$(abi_cflags.$(2)) -o $$@ $$<
endef
$(foreach u,$(USERLANDS),$(foreach a,legacy time64 kernel,$(foreach d,scenarios dynamic,\
	$(eval $(call scenario-rule,$(u),$(a),$(d))))))

# guest-init's programs: PID 1, and the session runner of the demo and of
# validate-distro and try. $(1): userland, $(2): program
define guest-init-rule
$(BUILD)/$(1)/$(2): guest-init/$(2).c guest-init/runner.h $(HARNESS)
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$(call ucross,$(1))gcc $$(GUEST_CFLAGS) -static $$(TIME64_FLAGS) -o $$@ $$<
endef
$(foreach u,$(USERLANDS),$(foreach p,init session,$(eval $(call guest-init-rule,$(u),$(p)))))

# $(1): userland
define initramfs-rule
$(BUILD)/$(1)/initramfs.cpio: $(HOST)/mkinitramfs $(BUILD)/$(1)/init $(SCENARIO_BINS:%=$(BUILD)/$(1)/scenarios/%) $(GUEST_DATA:%=$(BUILD)/%)
	$$(call say,CPIO,$$@)
	$$(Q)$$< $$@ $(BUILD)/$(1)/init $(SCENARIO_BINS:%=$(BUILD)/$(1)/scenarios/%) $(foreach d,$(GUEST_DATA),$(d)=$(BUILD)/$(d))
endef
$(foreach u,$(USERLANDS),$(eval $(call initramfs-rule,$(u))))

# --- The old-binaries demo: a distribution's own programs (distros/*.mk) of
# this userland (its name is the Debian architecture's), with the session
# runner and its sessions, on top of the lab's initramfs. A fetch that fails
# leaves the reason, not the file: the boot records it and the run goes on.
DEBIAN_MIRROR ?= http://deb.debian.org/debian
DEMO_DISTROS  ?= bookworm
include $(DEMO_DISTROS:%=distros/%.mk)
# The programs a distribution's demo boot runs: <distro>-<session>.
demo_bins = $(foreach s,$($(1).sessions),$(1)-$(s))
# $(1): userland, $(2): distribution
define demo-rule
$(BUILD)/$(1)/$(2).cpio: $(BUILD)/$(1)/initramfs.cpio $(BUILD)/$(1)/session $(foreach s,$($(2).sessions),distros/$(2)/$(s).tsv) host-tools/distro/debian.sh host-tools/initramfs/overlay-cpio.sh
	$$(call say,DEBIAN,$$@)
	$$(Q)rm -rf $$@ $$@.error $(BUILD)/$(1)/$(2)-lab; \
	if host-tools/distro/debian.sh subset cache=$$(CACHE) arch=$(1) suite=$($(2).suite) mirror=$$(DEBIAN_MIRROR) \
		out=$(BUILD)/$(1)/$(2)-root $($(2).demo_packages) 2>$$@.log; then \
		for s in $($(2).sessions); do \
			install -D $(BUILD)/$(1)/session $(BUILD)/$(1)/$(2)-lab/scenarios/$(2)-$$$$s && \
			install -D -m 644 distros/$(2)/$$$$s.tsv $(BUILD)/$(1)/$(2)-lab/y2038/$(2)-$$$$s.tsv || exit 1; done; \
		host-tools/initramfs/overlay-cpio.sh $$@ $(BUILD)/$(1)/initramfs.cpio --root $(BUILD)/$(1)/$(2)-root $(BUILD)/$(1)/$(2)-lab; \
	else grep '^debian.sh:' $$@.log >$$@.error || tail -1 $$@.log >$$@.error; cat $$@.log >&2; fi
endef
$(foreach u,$(USERLANDS),$(foreach d,$(DEMO_DISTROS),$(eval $(call demo-rule,$(u),$(d)))))
