# make validate-distro's boots (host-tools/distro/distro.mk): no initramfs
# of the lab's (an empty one, for QEMU): the kernel mounts the
# distribution's root, a disk (DISTRO_DISK), as its root, and runs the lab's
# /init there (the smoke tests, at an ordinary date and past the overflow),
# or the root's own init (DISTRO_INIT=yes), or debootstrap's second stage
# for a root that has not had it (distro-setup, whose writes the disk
# keeps; the others' are dropped when they end). Every one: its folder
# (DISTRO_VARIANT after the kind's name: validate-distro's second pass,
# DISTRO_LIBC), the disk, the memory, the distribution it records (DISTRO,
# unless the root is the user's own), and DISTRO_RTC unless it says
# otherwise. Untimed (at an ordinary date, or past the overflow) but
# distro-across, held across it.
DISTRO_ROOT_ARGS := root=/dev/vda rw rootwait
DISTRO_VARIANT ?=
define distro-kind
$(1).initrd := empty.cpio
$(1).dir    := -$(1)$$(DISTRO_VARIANT)
$(1).disk    = $$(DISTRO_DISK)
$(1).memory := 512
$(1).rtc     = $$(DISTRO_RTC)
$(1).distro  = $$(if $$(DISTRO_ROOT),-,$$(DISTRO))
$(1).timed  := no
endef
$(foreach k,distro distro-past distro-setup distro-init distro-across,$(eval $(call distro-kind,$(k))))
distro.bins          := smoke-distro
distro.append        := $(DISTRO_ROOT_ARGS) init=/init
distro-past.bins     := past-distro
distro-past.append   := $(DISTRO_ROOT_ARGS) init=/init
distro-past.configs  := with-time32
distro-setup.bins    := second-stage
distro-setup.disk     = $(DISTRO_DISK).setup
distro-setup.disk_writes := keep
distro-setup.append  := $(DISTRO_ROOT_ARGS) init=/y2038/second-stage
distro-setup.boot_timeout = $(DISTRO_SETUP_TIMEOUT)
distro-setup.configs := with-time32
# The root's own init, at an ordinary date and from a few seconds before the
# overflow, held across it until y2038.hold= seconds after power-on. Its
# probe by its kind (DISTRO_INIT_KIND: inspect-root.py's): systemd's,
# /y2038/init-probe, started by the unit systemd.wants= names (systemd
# starts a getty on a virtual console, the arm-virt board's TAP port,
# hvc0, by itself: masked, so that only the probe writes there); any
# other's, the lab's watcher as PID 1, which execs the root's init and
# watches it (guest-init/distro/init-watch.c). $(1): the machine
DISTRO_INIT_KIND ?= systemd
DISTRO_INIT_ARGS = $(DISTRO_ROOT_ARGS) $(if $(filter systemd,$(DISTRO_INIT_KIND)),systemd.wants=y2038-probe.service \
	systemd.mask=serial-getty@$(notdir $($(1).tap_dev)).service,init=/y2038/init-watch)
distro-init.bins     := init-probe
distro-init.append    = $(DISTRO_INIT_ARGS) y2038.hold=0
distro-init.boot_timeout = $(DISTRO_INIT_TIMEOUT)
distro-across.rtc     = $(DISTRO_ACROSS_RTC)
distro-across.bins   := init-probe
distro-across.append  = $(DISTRO_INIT_ARGS) y2038.hold=$(DISTRO_ACROSS_HOLD)
distro-across.boot_timeout = $(DISTRO_INIT_TIMEOUT)
distro-across.timed  := yes
distro-across.configs := with-time32
