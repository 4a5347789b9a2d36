# y2038-lab: boot Linux at the 2038 rollover and record what time really does.
#   make run     (default) install what is missing, build what changed, run the
#                matrix into results/<run-id>/ (results/latest points at it)
#   make check   the lab's own tests, and one real boot of every kernel config
# Variables: MACHINES="i386 ..." (default: every machines/*.mk), KERNEL=linux-source
# (or linux-source-6.12), SERIES=none (the kernels without the lab's patches,
# for comparison), CACHE=~/.cache/y2038-lab, V=1 to see every command.

.DEFAULT_GOAL := run
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:

CACHE         ?= $(HOME)/.cache/y2038-lab
KERNEL        ?= linux-source
SERIES        ?= patches/series
BUILD         ?= build
RESULTS       ?= results
RTC_BASE      ?= 2038-01-19T03:13:55
# A second, short boot: a device that powers on after the overflow.
RTC_AFTER_BASE ?= 2038-01-20T00:00:00
GUEST_TIMEOUT ?= 60
BOOT_TIMEOUT  ?= 300
ifndef RUN_ID
RUN_ID := $(shell date -u +%Y%m%dT%H%M%SZ)-$(shell echo $$PPID)
endif
export RUN_ID
RUN_DIR := $(RESULTS)/$(RUN_ID)

Q := $(if $(V),,@)
say = @printf '  %-8s %s\n' $(1) '$(2)'
# Guests boot in parallel, one per core (TCG runs a guest on one host thread).
LAB_JOBS ?= $(shell nproc)
# results/latest moves in one step: a concurrent run never finds it missing.
set-latest = ln -sfn $(RUN_ID) $(RESULTS)/.latest-$(RUN_ID) && mv -T $(RESULTS)/.latest-$(RUN_ID) $(RESULTS)/latest

# --- Machines and configs: facts are data (machines/*.mk, patches/config/).
ALL_MACHINES := $(patsubst machines/%.mk,%,$(sort $(wildcard machines/*.mk)))
include $(ALL_MACHINES:%=machines/%.mk)
MACHINES ?= $(ALL_MACHINES)
# make try: every machine that runs the program's userland (set by try).
ifdef TRY_ARCH
override MACHINES := $(foreach m,$(ALL_MACHINES),$(if $(filter $(TRY_ARCH),$($(m).userland)),$(m)))
endif
unknown := $(filter-out $(ALL_MACHINES),$(MACHINES))
ifneq ($(unknown),)
$(error unknown machine "$(unknown)": the lab knows $(ALL_MACHINES) (one file each in machines/))
endif
CONFIGS   ?= compat32-y compat32-n

# The lab needs the common packages; a machine whose own packages this host
# cannot provide (not root, or not in this Debian) is skipped with the reason.
# The lab offers two kernels (KERNEL=): Debian's default source and 6.12; the
# series must apply to both, so check needs both.
KERNEL_CHOICES   := linux-source linux-source-6.12
COMMON_PACKAGES  := $(sort $(KERNEL) $(KERNEL_CHOICES)) gcc make bc flex bison libelf-dev libssl-dev cpio xz-utils lz4 ccache patch jq e2fsprogs python3 debootstrap
MACHINE_PACKAGES := $(sort $(foreach m,$(MACHINES),$($(m).packages) $($(m).faketime_packages)))
not_installed = $(shell for p in $(1); do \
	[ "$$(dpkg-query -W -f='$${Status}' $$p 2>/dev/null)" = "install ok installed" ] || echo $$p; done)
ifneq ($(filter lab inputs boots boot-check patch-check kunit lava-jobs lava-check,$(MAKECMDGOALS)),)
$(foreach m,$(MACHINES),$(eval $(m).missing := $(call not_installed,$($(m).packages))))
endif
READY    := $(foreach m,$(MACHINES),$(if $($(m).missing),,$(m)))
SKIPPED  := $(filter-out $(READY),$(MACHINES))
USERLANDS := $(sort $(foreach m,$(READY),$($(m).userland)))
ucross     = $(firstword $(foreach m,$(ALL_MACHINES),$(if $(filter $(1),$($(m).userland)),$($(m).ucross))))

# --- Host tools (run on this machine).
HOST        := $(BUILD)/host
HOST_CC     ?= gcc
HOST_CFLAGS ?= -O2 -g -Wall -Wextra -Werror
HOST_TOOLS  := y2038-collect kconfig-verify mkinitramfs kvm-probe y2038-scan y2038-kconfig
$(HOST)/y2038-collect: host-tools/collect.c host-tools/tap.c host-tools/expect.c host-tools/tap.h host-tools/expect.h
$(HOST)/kconfig-verify: host-tools/kconfig-verify.c host-tools/kconfig.c host-tools/kconfig.h
$(HOST)/mkinitramfs: host-tools/mkinitramfs.c
$(HOST)/kvm-probe: host-tools/kvm-probe.c
$(HOST)/y2038-scan: host-tools/scan.c
$(HOST)/y2038-scan: LDLIBS := -lelf
$(HOST)/y2038-kconfig: host-tools/kconfig-check.c host-tools/kconfig.c host-tools/kconfig.h
$(HOST)/%:
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ $(filter %.c,$^) $(LDLIBS)

# --- Guest userland: every syscall family twice (legacy and time64 glibc),
# static. rtc and census judge the kernel, not an ABI: built once (time64),
# rtc first (the clock as booted), census last (what the others used).
KERNEL_SCENARIOS := rtc census
SCENARIOS     := $(filter-out $(KERNEL_SCENARIOS),$(basename $(notdir $(wildcard scenarios/*.c))))
SCENARIO_BINS := rtc-kernel $(foreach s,$(SCENARIOS),$(s)-legacy $(s)-time64) census-kernel
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

# What the demo runs (distro/bookworm-*.tsv): Debian bookworm's coreutils,
# findutils, dash and busybox-static, with the libraries they need.
DEBIAN_MIRROR ?= http://deb.debian.org/debian
DEMO_SESSIONS := bookworm-time64 bookworm-legacy
DEMO_PACKAGES := libc6 libgcc-s1 libacl1 libattr1 libgmp10 libselinux1 libpcre2-8-0 \
	coreutils findutils dash busybox-static
# The ELF scanner, with its symbol knowledge named (wherever BUILD is).
SCAN = $(HOST)/y2038-scan --symbols host-tools/time-symbols.tsv

# $(1): userland, $(2): abi, $(3): folder (scenarios or dynamic)
define scenario-rule
$(BUILD)/$(1)/$(3)/%-$(2): scenarios/%.c scenarios/harness.h
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$(call ucross,$(1))gcc $$(GUEST_CFLAGS) $$(link.$(3)) $$(abi_cflags.$(2)) -o $$@ $$<
endef
$(foreach u,$(USERLANDS),$(foreach a,legacy time64 kernel,$(foreach d,scenarios dynamic,\
	$(eval $(call scenario-rule,$(u),$(a),$(d))))))

# $(1): userland name
define userland-rules
$(BUILD)/$(1)/init: guest-init/init.c scenarios/harness.h
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$(call ucross,$(1))gcc $$(GUEST_CFLAGS) -static $$(TIME64_FLAGS) -o $$@ $$<
$(BUILD)/$(1)/initramfs.cpio: $(HOST)/mkinitramfs $(BUILD)/$(1)/init $(SCENARIO_BINS:%=$(BUILD)/$(1)/scenarios/%) $(GUEST_DATA:%=$(BUILD)/%)
	$$(call say,CPIO,$$@)
	$$(Q)$$< $$@ $(BUILD)/$(1)/init $(SCENARIO_BINS:%=$(BUILD)/$(1)/scenarios/%) $(foreach d,$(GUEST_DATA),$(d)=$(BUILD)/$(d))
$(BUILD)/$(1)/session: guest-init/session.c scenarios/harness.h
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$(call ucross,$(1))gcc $$(GUEST_CFLAGS) -static $$(TIME64_FLAGS) -o $$@ $$<
# Debian's libfaketime of this architecture, for the host column. A fetch
# that fails leaves the reason: faketime.sh records it and the run goes on.
$(BUILD)/$(1)/libfaketime/.versions: host-tools/debian.sh
	$$(call say,DEBIAN,$$(@D))
	$$(Q)host-tools/debian.sh package cache=$$(CACHE) arch=$(1) mirror=$$(DEBIAN_MIRROR) \
		out=$$(@D) libfaketime 2>$$(@D).error || cat $$(@D).error >&2
# The old-binaries demo: Debian's own packages of this userland (its name is
# the Debian architecture's) with the session runner and its script, after
# the lab's initramfs. A fetch that fails leaves the reason, not the file:
# the boot records it and the run goes on.
$(BUILD)/$(1)/bookworm.cpio: $(BUILD)/$(1)/initramfs.cpio $(BUILD)/$(1)/session $(DEMO_SESSIONS:%=distro/%.tsv) host-tools/debian.sh host-tools/overlay-cpio.sh
	$$(call say,DEBIAN,$$@)
	$$(Q)rm -rf $$@ $$@.error $(BUILD)/$(1)/bookworm-lab; \
	if host-tools/debian.sh subset cache=$$(CACHE) arch=$(1) mirror=$$(DEBIAN_MIRROR) \
		out=$(BUILD)/$(1)/bookworm-root $$(DEMO_PACKAGES) 2>$$@.log; then \
		for s in $$(DEMO_SESSIONS); do \
			install -D $(BUILD)/$(1)/session $(BUILD)/$(1)/bookworm-lab/scenarios/$$$$s && \
			install -D -m 644 distro/$$$$s.tsv $(BUILD)/$(1)/bookworm-lab/y2038/$$$$s.tsv || exit 1; done; \
		host-tools/overlay-cpio.sh $$@ $(BUILD)/$(1)/initramfs.cpio --root $(BUILD)/$(1)/bookworm-root $(BUILD)/$(1)/bookworm-lab; \
	else grep '^debian.sh:' $$@.log >$$@.error || tail -1 $$@.log >$$@.error; cat $$@.log >&2; fi
endef
$(foreach u,$(USERLANDS),$(eval $(call userland-rules,$(u))))

# --- Kernels: kernel.sh reuses a cached build when no input changed.
# $(1): machine, $(2): config
# The options the lab's patches add are set by series-*.config, for a patched
# tree only: series-<config>.config and series-arch-<machine>.config.
series_fragments = $(if $(filter none,$(SERIES)),,$(wildcard patches/config/series-$(2).config patches/config/series-arch-$(1).config))
# What kernel.sh found, per kernel choice and series: two runs with different
# KERNEL= or SERIES= never read each other's.
KERNEL_ENVS = $(BUILD)/kernels/$(KERNEL)/$(subst /,_,$(SERIES))
# Where kernel.sh builds (make bench points it at a scratch directory), and
# the compiler cache every kernel build shares.
KERNEL_BUILDS ?= $(CACHE)/build
KERNEL_CCACHE ?= $(CACHE)/ccache
define kernel-rules
$(KERNEL_ENVS)/$(1)-$(2).env: FORCE $(HOST)/kconfig-verify
	$$(Q)host-tools/kernel.sh cache=$$(CACHE) package=$$(KERNEL) series=$$(SERIES) \
		machine=$(1) config=$(2) karch=$$($(1).karch) ktarget=$$($(1).ktarget) \
		kimage=$$($(1).kimage) kcross=$$($(1).kcross) verify=$(HOST)/kconfig-verify \
		builds=$$(KERNEL_BUILDS) ccache=$$(KERNEL_CCACHE) \
		fragments="patches/config/common.config $$($(1).fragment) patches/config/$(2).config $$(call series_fragments,$(1),$(2))" \
		out=$$@ || true	# the error is in $$@: the boots record it, the run goes on
endef
$(foreach m,$(READY),$(foreach c,$(CONFIGS),$(eval $(call kernel-rules,$(m),$(c)))))

# --- Boots: per (machine, config), one of each kind, each into its own folder
# of the run. Kinds: the matrix (the RTC just before the overflow, every
# scenario), a device that powers on after the overflow (the clock at boot
# only), and Debian bookworm's own programs across the overflow (more memory: the
# initramfs carries them).
BOOT_KINDS       ?= matrix rtc-after bookworm
matrix.dir       :=
matrix.rtc       := $(RTC_BASE)
matrix.bins      := $(SCENARIO_BINS)
matrix.initrd    := initramfs.cpio
rtc-after.dir    := -rtc-after
rtc-after.rtc    := $(RTC_AFTER_BASE)
rtc-after.bins   := rtc-kernel
rtc-after.initrd := initramfs.cpio
bookworm.dir     := -bookworm
bookworm.rtc     := $(RTC_BASE)
bookworm.bins    := $(DEMO_SESSIONS)
bookworm.initrd  := bookworm.cpio
bookworm.memory  := -m 512
# Not in the default list: make validate-distro and make try boot these.
distro.dir       := -distro
distro.rtc        = $(DISTRO_RTC)
distro.bins      := smoke-distro
distro.initrd    := distro.cpio
distro.memory    := -m 768
try.dir          := -try
try.rtc          := $(RTC_BASE)
try.bins         := try-user
try.initrd       := try.cpio
try.memory       := -m 512
# $(1): machine, $(2): config, $(3): boot kind
define boot-rules
$(RUN_DIR)/boots/$(1)-$(2)$($(3).dir)/meta: $(KERNEL_ENVS)/$(1)-$(2).env $(BUILD)/$($(1).userland)/$($(3).initrd) $(HOST)/kvm-probe
	$$(Q)host-tools/boot.sh out=$$(@D) run_id=$$(RUN_ID) machine=$(1) config=$(2) \
		userland=$$($(1).userland) kernel_env=$$< initrd=$(BUILD)/$($(1).userland)/$($(3).initrd) \
		scenarios=$$(subst $$(space),$$(comma),$$($(3).bins)) \
		qemu=$$($(1).qemu) qemu_args="$$($(1).qemu_args) $$($(3).memory)" \
		console_qemu="$$($(1).console_qemu)" tap_qemu="$$($(1).tap_qemu)" \
		console=$$($(1).console) tap_dev=$$($(1).tap_dev) accel="$$($(1).accel)" \
		rtc_base=$$($(3).rtc) guest_timeout=$$(GUEST_TIMEOUT) boot_timeout=$$(BOOT_TIMEOUT) \
		probe=$(HOST)/kvm-probe cache=$$(CACHE) total=$$(words $$(BOOTS))
endef
define skip-rules
$(RUN_DIR)/boots/$(1)-$(2)$($(3).dir)/meta:
	$$(Q)host-tools/boot.sh out=$$(@D) run_id=$$(RUN_ID) machine=$(1) config=$(2) \
		userland=$$($(1).userland) scenarios=$$(subst $$(space),$$(comma),$$($(3).bins)) \
		skip="missing Debian packages: $$($(1).missing) (apt-get install $$($(1).missing))"
endef
$(foreach k,$(BOOT_KINDS),$(foreach c,$(CONFIGS),\
	$(foreach m,$(READY),$(eval $(call boot-rules,$(m),$(c),$(k))))\
	$(foreach m,$(SKIPPED),$(eval $(call skip-rules,$(m),$(c),$(k))))))
space := $(subst ,, )
comma := ,
BOOTS := $(foreach m,$(MACHINES),$(foreach c,$(CONFIGS),$(foreach k,$(BOOT_KINDS),$(RUN_DIR)/boots/$(m)-$(c)$($(k).dir)/meta)))

# --- make validate-distro: can a distribution turn COMPAT_32BIT_TIME off?
# DISTRO_ARCH (i386 or armhf) picks the machine whose distro_arch it is; the
# default root is a Debian bookworm minbase root the lab makes, the default
# config Debian's shipped one for that machine's debian_flavour. Either can
# be the user's own: DISTRO_ROOT=dir DISTRO_CONFIG=file.
DISTRO_ARCH    ?= i386
# The smoke tests run at a date before the overflow: the question is whether
# the distribution can drop the time32 syscalls now.
DISTRO_RTC     ?= 2026-06-01T00:00:00
DISTRO_MACHINE := $(firstword $(foreach m,$(ALL_MACHINES),$(if $(filter $(DISTRO_ARCH),$($(m).distro_arch)),$(m))))
DISTRO_ROOT    ?=
DISTRO_CONFIG  ?=
DISTRO_NAME    ?= $(if $(DISTRO_ROOT),the root $(DISTRO_ROOT),Debian bookworm $(DISTRO_ARCH))$(if $(DISTRO_CONFIG), with $(DISTRO_CONFIG),)
DISTRO_DIR      = $(RUN_DIR)/distro
DISTRO_STAGE    = $(BUILD)/distro-$(DISTRO_ARCH)
DISTRO_DEBIAN_CONFIG = $(BUILD)/debian/config.$(DISTRO_ARCH)_none_$($(DISTRO_MACHINE).debian_flavour)
# The sessions' long lists run under TCG: minutes, not the matrix's seconds.
SESSION_TIMEOUTS := GUEST_TIMEOUT=1200 BOOT_TIMEOUT=1500

validate-distro: deps
	$(if $(DISTRO_MACHINE),,$(error DISTRO_ARCH=$(DISTRO_ARCH): the lab validates $(strip $(foreach m,$(ALL_MACHINES),$($(m).distro_arch))) (distro_arch in machines/*.mk)))
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)$(MAKE) --no-print-directory distro-inputs distro-report MACHINES=$(DISTRO_MACHINE)

# The inputs, the config report and the scan; then the smoke session over the root.
distro-inputs: $(HOST)/y2038-scan $(HOST)/y2038-kconfig $(BUILD)/$(DISTRO_ARCH)/session $(BUILD)/$(DISTRO_ARCH)/initramfs.cpio \
		$(if $(DISTRO_CONFIG),,$(DISTRO_DEBIAN_CONFIG))
	@rm -rf $(DISTRO_STAGE) && mkdir -p $(DISTRO_DIR) $(DISTRO_STAGE)/scenarios $(DISTRO_STAGE)/y2038
	$(Q)root=$(or $(DISTRO_ROOT),$$(host-tools/debian.sh root cache=$(CACHE) arch=$(DISTRO_ARCH) mirror=$(DEBIAN_MIRROR))); \
	[ -d "$$root" ] || { echo "DISTRO_ROOT=$$root: not a directory" >&2; exit 1; }; \
	root=$$(realpath "$$root"); \
	config=$$(realpath -e "$(or $(DISTRO_CONFIG),$(DISTRO_DEBIAN_CONFIG))") || { echo "DISTRO_CONFIG=$(DISTRO_CONFIG): no such file" >&2; exit 1; }; \
	jq -n --arg name "$(DISTRO_NAME)" --arg root "$$root" --arg config "$$config" \
		--arg arch $(DISTRO_ARCH) --arg machine $(DISTRO_MACHINE) '$$ARGS.named' >$(DISTRO_DIR)/inputs.json; \
	echo "  CONFIG   $$config"; \
	$(HOST)/y2038-kconfig --json $(DISTRO_DIR)/config.json "$$config" >$(DISTRO_DIR)/config.txt; \
	echo "  SCAN     $$root"; \
	$(SCAN) --root "$$root" --json $(DISTRO_DIR)/scan.json "$$root" >$(DISTRO_DIR)/scan.txt || [ $$? -eq 1 ]; \
	tail -1 $(DISTRO_DIR)/scan.txt; \
	host-tools/validate-distro.sh session $(DISTRO_DIR)/scan.json "$$root" distro/smoke.tsv $(DISTRO_DIR)/smoke.tsv \
		$($(DISTRO_MACHINE).scan_machine); \
	install -m 755 $(BUILD)/$(DISTRO_ARCH)/session $(DISTRO_STAGE)/scenarios/smoke-distro; \
	grep -v '^#' $(DISTRO_DIR)/smoke.tsv >$(DISTRO_STAGE)/y2038/smoke-distro.tsv; \
	echo "  CPIO     $(BUILD)/$(DISTRO_ARCH)/distro.cpio ($$(grep -c . $(DISTRO_STAGE)/y2038/smoke-distro.tsv) programs)"; \
	host-tools/overlay-cpio.sh $(BUILD)/$(DISTRO_ARCH)/distro.cpio $(BUILD)/$(DISTRO_ARCH)/initramfs.cpio \
		--root "$$root" $(DISTRO_STAGE)

distro-report: distro-inputs
	$(Q)$(MAKE) --no-print-directory boots BOOT_KINDS=distro CONFIGS="compat32-y compat32-n" $(SESSION_TIMEOUTS)
	$(Q)host-tools/validate-distro.sh verdict $(DISTRO_DIR) $(RUN_DIR)/boots/$(DISTRO_MACHINE)-compat32-y-distro \
		$(RUN_DIR)/boots/$(DISTRO_MACHINE)-compat32-n-distro

# --- make try BIN=path [ARGS=...]: the user's own 32-bit program before,
# across and after the overflow, on every machine of its userland and both
# configs; its libraries come from beside it or from Debian's root.
TRY_STAGE = $(BUILD)/try-$(TRY_ARCH)
try: deps $(HOST)/y2038-scan
	$(if $(BIN),,$(error make try BIN=path/to/program [ARGS="..."]: a 32-bit i386 or armhf program))
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)arch=$$(host-tools/try.sh arch "$(SCAN)" $(BIN)) && \
		$(MAKE) --no-print-directory try-report TRY_ARCH=$$arch

try-inputs: $(HOST)/y2038-scan $(BUILD)/$(TRY_ARCH)/session $(BUILD)/$(TRY_ARCH)/initramfs.cpio
	$(Q)root=$$(host-tools/debian.sh root cache=$(CACHE) arch=$(TRY_ARCH) mirror=$(DEBIAN_MIRROR)) && \
	host-tools/try.sh stage "$(SCAN)" $(BIN) $$root $(TRY_STAGE) "$(ARGS)" && \
	install -m 755 $(BUILD)/$(TRY_ARCH)/session $(TRY_STAGE)/scenarios/try-user && \
	host-tools/overlay-cpio.sh $(BUILD)/$(TRY_ARCH)/try.cpio $(BUILD)/$(TRY_ARCH)/initramfs.cpio $(TRY_STAGE)

try-report: try-inputs
	$(Q)$(MAKE) --no-print-directory boots BOOT_KINDS=try CONFIGS="compat32-y compat32-n"
	@mkdir -p $(RUN_DIR)/try
	$(Q)host-tools/try.sh report $(RUN_DIR) | tee $(RUN_DIR)/try/report.txt

# --- The host column: the matrix's libc programs, dynamically linked, run on
# this machine under Debian's libfaketime at the same moments (faketime.sh),
# beside the real kernels' verdicts. Machines name how the host runs their
# userland (faketime in machines/*.mk); the programs' glibc is the cross
# toolchain's. FAKETIME=no leaves the column out.
# A second column runs the guest's static clock programs the same way: to
# measure that LD_PRELOAD never reaches a static program.
FAKETIME       ?= yes
FAKED_MACHINES := $(if $(filter yes,$(FAKETIME)),$(foreach m,$(READY),$(if $($(m).faketime),$(m))))
FAKED_KINDS    := libfaketime libfaketime-static
libfaketime.link        := dynamic
libfaketime.folder      := dynamic
libfaketime.bins        := $(foreach s,$(SCENARIOS),$(s)-legacy $(s)-time64)
libfaketime-static.link   := static
libfaketime-static.folder := scenarios
libfaketime-static.bins   := clock-legacy clock-time64
FAKED_RUNS     := $(foreach m,$(FAKED_MACHINES),$(FAKED_KINDS:%=$(RUN_DIR)/boots/$(m)-%/meta))
# $(1): machine, $(2): kind
define faketime-rules
$(RUN_DIR)/boots/$(1)-$(2)/meta: host-tools/faketime.sh $($(2).bins:%=$(BUILD)/$($(1).userland)/$($(2).folder)/%) $(BUILD)/$($(1).userland)/libfaketime/.versions
	$$(Q)host-tools/faketime.sh out=$$(@D) run_id=$$(RUN_ID) machine=$(1) userland=$($(1).userland) \
		libc=$(patsubst %-,/usr/%/lib,$(call ucross,$($(1).userland))) libfaketime=$(BUILD)/$($(1).userland)/libfaketime \
		runner=$($(1).faketime) link=$($(2).link) bins=$(BUILD)/$($(1).userland)/$($(2).folder) \
		scenarios=$$(subst $$(space),$$(comma),$($(2).bins))
endef
$(foreach m,$(FAKED_MACHINES),$(foreach k,$(FAKED_KINDS),$(eval $(call faketime-rules,$(m),$(k)))))

# Boot without collecting: the distro and try boots are judged by their own reports.
boots: $(BOOTS)

# What the boots and host columns read, built first under a lock on BUILD:
# two runs at once never build the same file at once (the cache has its
# own locks), and once built, files are replaced only by renaming.
# Kernels config by config: with -j, a machine's second config starts after
# its first and finds the first's objects in ccache.
INPUTS := $(HOST)/y2038-collect $(HOST)/kvm-probe \
	$(foreach c,$(CONFIGS),$(READY:%=$(KERNEL_ENVS)/%-$(c).env)) \
	$(foreach m,$(READY),$(foreach k,$(BOOT_KINDS),$(BUILD)/$($(m).userland)/$($(k).initrd))) \
	$(foreach m,$(FAKED_MACHINES),$(BUILD)/$($(m).userland)/libfaketime/.versions \
		$(foreach k,$(FAKED_KINDS),$($(k).bins:%=$(BUILD)/$($(m).userland)/$($(k).folder)/%)))
inputs: $(INPUTS)
# $(1): variables for the run (RESULTS=, SERIES=, ...)
locked-lab = mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -j$(LAB_JOBS) inputs $(1) && \
	$(MAKE) --no-print-directory -j$(LAB_JOBS) lab $(1)

# --- The patches' own checks: checkpatch --strict against every kernel the
# lab offers, and their KUnit tests under QEMU with kunit.py on each machine
# that names a kunit_arch, with its kunit_add options (machines/*.mk).
KUNIT_CONFIG := patches/kunit/y2038.kunitconfig
KUNIT_MACHINES = $(foreach m,$(READY),$(if $($(m).kunit_arch),$(m)))
checkpatch: $(KERNEL_CHOICES:%=checkpatch-%)
checkpatch-%:
	$(Q)host-tools/checkpatch.sh cache=$(CACHE) package=$* series=patches/series
kunit: $(KUNIT_MACHINES:%=kunit-%)
KUNIT_ACTION ?= run
kunit-%:
	$(Q)host-tools/kunit.sh cache=$(CACHE) package=$(KERNEL) series=patches/series action=$(KUNIT_ACTION) \
		arch=$($*.kunit_arch) cross=$($*.kcross) kunitconfig=$(KUNIT_CONFIG) \
		kconfig_add="$($*.kunit_add)" out=$(BUILD)/kunit/$*

# --- Commands.
.PHONY: run lab report deps check unit-tests boot-check patch-check checkpatch kunit clean FORCE \
	validate-distro distro-inputs distro-report boots inputs try try-inputs try-report fuzz repeat bench \
	lava lava-jobs lava-check lava-import kcidb
run: deps
	$(Q)$(call locked-lab,)

# The matrix of one run; exits non-zero when an observation contradicts its expectation.
# The report is written whatever the verdicts: a run with mismatches needs it most.
lab: $(BOOTS) $(FAKED_RUNS) $(HOST)/y2038-collect
	$(Q)$(set-latest)
	$(Q)rc=0; $(HOST)/y2038-collect expectations.tsv $(RUN_DIR) || rc=$$?; \
	host-tools/report.sh $(RUN_DIR); \
	echo "results: $(RUN_DIR)/ (results.json, results.tap, summary.txt, report.html, report.md, boots/*/console.log)"; \
	exit $$rc

# make report RUN=<run-id>: regenerate a run's report from its results.json.
report:
	$(if $(RUN),,$(error make report RUN=<run-id> (a folder in $(RESULTS)/, or latest)))
	$(Q)host-tools/report.sh $(RESULTS)/$(RUN)

deps:
	$(Q)host-tools/deps.sh $(COMMON_PACKAGES)
	$(Q)host-tools/deps.sh --optional $(MACHINE_PACKAGES)

# The closing line sums the tests of both parts. The report page is checked
# in Debian's Chromium; the parsers are fuzzed with clang's libFuzzer.
CHECK_PACKAGES := chromium clang libclang-rt-14-dev python3-jsonschema
COUNTS := $(abspath $(BUILD)/check-counts)
check: deps
	$(Q)host-tools/deps.sh $(CHECK_PACKAGES)
	@mkdir -p $(BUILD) && rm -f $(COUNTS)
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory unit-tests
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS)
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory patch-check
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory boot-check
	@awk '{ p += $$1; f += $$2 } END { printf "check: %d passed, %d failed\n", p, f; exit f > 0 }' $(COUNTS)

# The series is clean, applies to every kernel offered, and its KUnit tests pass.
patch-check: checkpatch kunit

# --- Fuzzing: every parser of untrusted input (the guest's TAP, .config
# files, the expectations table, ELF files) under libFuzzer, ASan and UBSan.
# make check runs each target briefly; make fuzz FUZZ_SECONDS=N runs it long.
# What a run finds goes to build/fuzz/ (corpus-NAME/, crash-NAME-*), never
# into tests/fuzz/corpus/.
FUZZ_TARGETS       := tap kconfig expect scan
FUZZ_DIR           := $(BUILD)/fuzz
FUZZ_CFLAGS        := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS       ?= 600
FUZZ_CHECK_SECONDS ?= 10
$(FUZZ_DIR)/fuzz-tap: tests/fuzz/fuzz-tap.c host-tools/tap.c host-tools/tap.h
$(FUZZ_DIR)/fuzz-kconfig: tests/fuzz/fuzz-kconfig.c host-tools/kconfig.c host-tools/kconfig.h
$(FUZZ_DIR)/fuzz-expect: tests/fuzz/fuzz-expect.c host-tools/expect.c host-tools/expect.h
# the scanner is one program: its target includes scan.c whole
$(FUZZ_DIR)/fuzz-scan: tests/fuzz/fuzz-scan.c host-tools/scan.c
$(FUZZ_DIR)/fuzz-scan: FUZZ_LIBS := -lelf
$(FUZZ_DIR)/fuzz-%:
	$(call say,FUZZCC,$@)
	@mkdir -p $(@D)
	$(Q)clang $(FUZZ_CFLAGS) -o $@ $(filter-out host-tools/scan.c,$(filter %.c,$^)) $(FUZZ_LIBS)
fuzz: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%)
	$(Q)tests/fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# --- make repeat [REPEAT=10]: the whole matrix REPEAT times, then every
# cell compared with the first run's (host-tools/repeat.sh).
REPEAT ?= 10
repeat: deps
	$(Q)for k in $$(seq 1 $(REPEAT)); do \
		echo "  REPEAT   run $$k of $(REPEAT)"; \
		$(call locked-lab,RUN_ID=$(RUN_ID)-r$$k) || true; done
	$(Q)host-tools/repeat.sh $$(seq -f '$(RESULTS)/$(RUN_ID)-r%g' 1 $(REPEAT)) | tee $(RESULTS)/$(RUN_ID)-repeat.txt

# --- make lava: every cell of the matrix (machine x config, for this KERNEL=
# and SERIES=) as a LAVA job for the qemu device type, with the device
# dictionary rendered for this machine's QEMU; each job passes lava-common's
# strict schema and lava-run --validate (host-tools/lava.sh). make lava-check:
# one cell (LAVA_CELL) booted by the lab and run through lava-run into one
# run, collected together; LAVA's verdicts must equal the lab's.
LAVA_PACKAGES := lava-dispatcher
LAVA_DIR       = $(BUILD)/lava/$(KERNEL)/$(subst /,_,$(SERIES))
LAVA_CELLS     = $(foreach c,$(CONFIGS),$(READY:%=%-$(c)))
LAVA_CELL     ?= i386-compat32-y
LAVA_MACHINE   = $(firstword $(subst -, ,$(LAVA_CELL)))
# $(1): machine, $(2): config
define lava-rules
$(LAVA_DIR)/$(1)-$(2)/job.yaml: $(KERNEL_ENVS)/$(1)-$(2).env $(BUILD)/$($(1).userland)/initramfs.cpio host-tools/lava.sh
	$$(Q)host-tools/lava.sh job out=$$(@D) machine=$(1) config=$(2) userland=$($(1).userland) \
		kernel_env=$$< initrd=$(BUILD)/$($(1).userland)/initramfs.cpio \
		scenarios=$$(subst $$(space),$$(comma),$$(matrix.bins)) qemu=$($(1).qemu) qemu_args="$($(1).qemu_args)" \
		console_qemu="$($(1).console_qemu)" tap_qemu="$($(1).tap_qemu)" console=$($(1).console) \
		tap_dev=$($(1).tap_dev) lava_arch=$($(1).lava_arch) rtc_base=$$(matrix.rtc) \
		guest_timeout=$$(GUEST_TIMEOUT) boot_timeout=$$(BOOT_TIMEOUT)
endef
$(foreach m,$(READY),$(foreach c,$(CONFIGS),$(eval $(call lava-rules,$(m),$(c)))))
lava-jobs: $(LAVA_CELLS:%=$(LAVA_DIR)/%/job.yaml)
lava: deps
	$(Q)host-tools/deps.sh $(LAVA_PACKAGES)
	$(Q)mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -j$(LAB_JOBS) lava-jobs
	$(Q)host-tools/lava.sh validate $(LAVA_CELLS:%=$(LAVA_DIR)/%)
lava-check: lava
	$(if $(filter $(LAVA_CELL),$(LAVA_CELLS)),,$(error LAVA_CELL=$(LAVA_CELL): not a cell here ($(LAVA_CELLS))))
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)$(MAKE) --no-print-directory boots MACHINES=$(LAVA_MACHINE) CONFIGS=$(patsubst $(LAVA_MACHINE)-%,%,$(LAVA_CELL)) BOOT_KINDS=matrix
	$(Q)host-tools/lava.sh run $(LAVA_DIR)/$(LAVA_CELL) $(RUN_DIR)/boots/$(LAVA_CELL)-lava run_id=$(RUN_ID)
	$(Q)$(HOST)/y2038-collect expectations.tsv $(RUN_DIR) >/dev/null || true
	$(Q)host-tools/report.sh $(RUN_DIR) >/dev/null
	$(Q)tests/lava-check.sh $(RUN_DIR) $(LAVA_CELL)

# make lava-import LAVA_CELL=<cell> LAVA_LOG=<file>: a job make lava wrote,
# run on a LAVA lab, back from its log (output.yaml) as a boot of a new run.
lava-import:
	$(if $(LAVA_LOG),,$(error make lava-import LAVA_CELL=<cell> LAVA_LOG=<the job's log, output.yaml>))
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)host-tools/lava.sh import $(LAVA_DIR)/$(LAVA_CELL) $(LAVA_LOG) $(RUN_DIR)/boots/$(LAVA_CELL)-lava run_id=$(RUN_ID)
	$(Q)rc=0; $(HOST)/y2038-collect expectations.tsv $(RUN_DIR) || rc=$$?; host-tools/report.sh $(RUN_DIR); exit $$rc

# make kcidb RUN=<run-id>: the run as KCIDB JSON (results/<run-id>/kcidb.json).
kcidb:
	$(if $(RUN),,$(error make kcidb RUN=<run-id> (a folder in $(RESULTS)/, or latest)))
	$(Q)host-tools/kcidb.sh $(RESULTS)/$(RUN)

# --- make bench: the lab's speed against issue 8's targets, printed (and
# kept in build/bench/). BENCH_COLD=no skips the cold kernel builds, which take
# about 15 minutes per machine; BENCH_COLD_MACHINES= picks whose to time.
BENCH_MACHINES ?= i386 armv7
BENCH_FAMILIES ?= $(SCENARIOS)
BENCH_COLD     ?= yes
BENCH_COLD_MACHINES ?= $(BENCH_MACHINES)
bench: deps
	$(Q)MAKE="$(MAKE)" LAB_JOBS=$(LAB_JOBS) host-tools/bench.sh out=$(BUILD)/bench machines="$(BENCH_MACHINES)" \
		cold_machines="$(BENCH_COLD_MACHINES)" families="$(BENCH_FAMILIES)" cold=$(BENCH_COLD) \
		kunit_machine=$(firstword $(BENCH_MACHINES))

# Debian's shipped configs of the 32-bit machines, for the config checker's tests.
DEBIAN_CONFIGS := $(foreach m,$(ALL_MACHINES),$(if $($(m).debian_flavour),$(BUILD)/debian/config.$($(m).distro_arch)_none_$($(m).debian_flavour)))
$(BUILD)/debian/config.%:
	$(Q)host-tools/debian.sh config cache=$(CACHE) arch=$(firstword $(subst _, ,$*)) mirror=$(DEBIAN_MIRROR) \
		flavour=$(lastword $(subst _, ,$*)) out=$@

unit-tests: $(addprefix $(HOST)/,$(HOST_TOOLS)) $(DEBIAN_CONFIGS)
	$(Q)tests/run-unit-tests.sh $(HOST) $(BUILD)/debian

# Every kernel config, booted once for real; every cell must match. Then
# each fault (panic, hang, QEMU failure, no kernel) provoked for real.
# Then the unpatched kernel where the RTC patch matters (a 32-bit ARM
# device powering on after the overflow), so that the comparison the patch
# is judged against is measured too, not assumed. Then validate-distro and
# try, for real on i386; the run exported as KCIDB JSON and validated; every
# cell as a LAVA job, validated, and i386 compat32-y run through lava-run
# with the lab's verdicts; two make runs at once. Around it all, the host's
# kernel and clock must be as they were (host-untouched.sh).
UNPATCHED_CHECK := MACHINES=armv7 CONFIGS=compat32-y BOOT_KINDS=rtc-after FAKETIME=no
boot-check:
	$(Q)tests/host-untouched.sh snapshot $(BUILD)/host-before
	$(Q)$(call locked-lab,RESULTS=$(BUILD)/check-results)
	$(Q)tests/check-run.sh $(BUILD)/check-results/latest $(words $(MACHINES)) $(words $(CONFIGS)) $(words $(BOOT_KINDS)) $(words $(FAKED_RUNS))
	$(Q)tests/report-check.sh $(BUILD)/check-results/latest
	$(if $(filter armv7,$(READY)),$(Q)$(call locked-lab,RESULTS=$(BUILD)/check-unpatched SERIES=none $(UNPATCHED_CHECK)) && \
		tests/check-run.sh $(BUILD)/check-unpatched/latest 1 1 1 0)
	$(Q)tests/fault-boots.sh $(BUILD) $(HOST) $(CACHE) $(KERNEL_ENVS)/i386-compat32-y.env
	$(if $(filter i386,$(READY)),$(Q)tests/distro-check.sh $(BUILD))
	$(Q)tests/kcidb-check.sh $(BUILD)/check-results/latest
	$(if $(filter i386,$(READY)),$(Q)$(MAKE) --no-print-directory lava-check RESULTS=$(BUILD)/check-lava)
	$(if $(filter i386,$(READY)),$(Q)tests/concurrent-runs.sh $(BUILD)/check-concurrent)
	$(Q)tests/host-untouched.sh compare $(BUILD)/host-before

clean:
	rm -rf $(BUILD)
