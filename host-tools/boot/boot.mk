# Stage: kernel + initramfs -> boot -> TAP (host-tools/boot/). boot.sh boots
# one guest in QEMU and keeps what it left (console, TAP, the boot record);
# faketime.sh runs the same programs on this host under libfaketime, the
# host column, through the guest's own runner (y2038-run).

$(HOST)/kvm-probe: host-tools/boot/kvm-probe.c
$(HOST)/y2038-run: guest-init/host-run.c guest-init/runner.h $(HARNESS)

# Per (machine, config), one boot of each kind, each into its own folder of
# the run. The kinds are data: kinds/<kind>.mk (their keys: kinds/defaults.mk).
# The apps boots' machines, the lab's glibcs' and the filesystems',
# each the 32-bit machines unless said otherwise.
APPS_MACHINES        ?= $(MACHINES_32BIT)
TIME64ONLY_MACHINES  ?= $(MACHINES_32BIT)
FILESYSTEMS_MACHINES ?= $(MACHINES_32BIT)
include kinds/defaults.mk
include $(filter-out kinds/defaults.mk,$(sort $(wildcard kinds/*.mk)))
# A kind is timed unless it says KIND.timed := no: its cases meet moments
# before and across the overflow, and it boots only when one of this
# machine's TIMED_GUESTS slots is free (boot.sh). Empty: what make bench
# measured here (its guests-at-once figure), else one per core.
TIMED_GUESTS     ?=
# make run's lab boots a boot again, alone, when a case of it missed its
# moment (retry-late.sh): BOOT_RETRY=yes.
BOOT_RETRY       ?=
# Every kind names its initramfs: a BOOT_KINDS entry that does not is a
# typo, stopped here rather than booted as a kind with no settings.
KNOWN_BOOT_KINDS := $(sort $(patsubst %.initrd,%,$(filter %.initrd,$(.VARIABLES))))
# A kind's key, or its default. $(1): kind, $(2): key
kind-schedule = $(or $($(1).schedule),5)
# make run's kinds: those that say default := yes, in their schedule's order.
BOOT_KINDS       ?= $(foreach n,1 2 3 4 5 6 7 8 9,$(foreach k,$(KNOWN_BOOT_KINDS),$(if $(filter yes,$($(k).default)),$(if $(filter $(n),$(call kind-schedule,$(k))),$(k)))))
UNKNOWN_BOOT_KINDS := $(filter-out $(KNOWN_BOOT_KINDS),$(BOOT_KINDS))
$(if $(UNKNOWN_BOOT_KINDS),$(error BOOT_KINDS: no boot kind named $(UNKNOWN_BOOT_KINDS); the kinds are: $(KNOWN_BOOT_KINDS) (kinds/*.mk)))
$(foreach k,$(KNOWN_BOOT_KINDS),$(if $(filter undefined,$(origin $(k).dir)),$(eval $(k).dir := -$(k))))
# The machines a kind boots on: KIND.machines, else all. $(1): kind
kind_machines = $(if $($(1).machines),$(filter $($(1).machines),$(MACHINES)),$(MACHINES))
# The configs it boots: its roles' (KIND.configs), else both; of CONFIGS.
kind_configs = $(filter $(if $($(1).configs),$(foreach r,$($(1).configs),$(call config-of-role,$(r))),$(KERNEL_CONFIGS)),$(CONFIGS))
# The kernels of the flavours the kinds boot (host-tools/kernel/kernel.mk).
$(eval $(value kernel-queue-rules))
BOOTS := $(foreach k,$(BOOT_KINDS),$(foreach m,$(call kind_machines,$(k)),$(foreach c,$(call kind_configs,$(k)),$(RUN_DIR)/boots/$(m)-$(c)$($(k).dir)/meta)))
# Which boots those are, for the progress line's count: the makes of one run
# that boot the same kinds (make run's first-boots and lab) share a count;
# validate-distro's makes, each of other kinds or another variant (DISTRO_VARIANT
# in the kinds' folders), count their own, so none says "boot 3 of 2".
BOOT_SET := $(subst $(space),,$(foreach k,$(BOOT_KINDS),$(or $($(k).dir),-$(k))))
# The order make starts them in (make lab): by the kinds' schedule (the
# matrix first, the longest kinds next, every machine's, so that short
# boots, not a long one, end the run); the host columns (FAKED_RUNS, below)
# after the matrix.
boots-of-kind = $(foreach m,$(call kind_machines,$(1)),$(foreach c,$(call kind_configs,$(1)),$(RUN_DIR)/boots/$(m)-$(c)$($(1).dir)/meta))
SCHEDULED_KINDS = $(foreach n,1 2 3 4 5 6 7 8 9,$(foreach k,$(BOOT_KINDS),$(if $(filter $(n),$(call kind-schedule,$(k))),$(k))))
BOOT_SCHEDULE = $(call boots-of-kind,$(firstword $(SCHEDULED_KINDS))) $(FAKED_RUNS) \
	$(foreach k,$(wordlist 2,$(words $(SCHEDULED_KINDS)),$(SCHEDULED_KINDS)),$(call boots-of-kind,$(k)))

# A boot waits for its kernel (its .env: kernel.sh builds it, or waits for
# the kernels' queue and reuses it) and for its userland's inputs of its
# kind (inputs-ready-USERLAND-KIND, below), which it never builds itself.
# A boot's plan (boot-record.h's keys): what make knows of a boot before it
# boots it, and all boot.sh is told of it but the run's own knobs; written
# for each boot into the run's plans/ (boot-plan.sh), kept in the boot's
# folder by boot.sh. $(1): machine, $(2): config, $(3): boot kind
boot_plan = $(RUN_DIR)/plans/$(1)-$(2)$($(3).dir)
boot-plan-keys = kind=$(3) machine_env=$(call machine-env,$(1)) config=$(2) \
	kernel_env=$(call kernel_envs,$(or $($(3).flavour),$(KERNEL_FLAVOUR)))/$(1)-$(2).env \
	initrd=$(BUILD)/$($(1).userland)/$($(3).initrd) scenarios=$(call commas,$(call $(3).bins,$(1))) \
	memory=$($(3).memory) rtc_base=$($(3).rtc) distro=$(or $($(3).distro),-) \
	guest_timeout=$(or $($(3).guest_timeout),$(GUEST_TIMEOUT)) timeout_s=$(or $($(3).boot_timeout),$(BOOT_TIMEOUT)) \
	disk=$($(3).disk) disks=$(call commas,$(call $(3).disks,$(1))) disk_writes=$(or $($(3).disk_writes),drop) \
	extra_append="$(call $(3).append,$(1))" timed=$(or $($(3).timed),yes)
define boot-rules
$(call boot_plan,$(1),$(2),$(3)): $(if $(BOOT_RETRY),,FORCE)
	$$(Q)host-tools/boot/boot-plan.sh $$@ $$(call boot-plan-keys,$(1),$(2),$(3))
$(RUN_DIR)/boots/$(1)-$(2)$($(3).dir)/meta: $(if $(BOOT_RETRY),,$(call kernel_envs,$(or $($(3).flavour),$(KERNEL_FLAVOUR)))/$(1)-$(2).env \
		$(HOST)/kvm-probe $(call machine-env,$(1))) | $(call boot_plan,$(1),$(2),$(3)) inputs-ready-$($(1).userland)-$(3)
	$$(Q)host-tools/boot/boot.sh plan=$(call boot_plan,$(1),$(2),$(3)) out=$$(@D) run_id=$$(RUN_ID) \
		probe=$(HOST)/kvm-probe cache=$$(CACHE) total=$$(words $$(BOOTS)) session=$$(BOOT_SESSION)$$(BOOT_SET) \
		timed_guests=$$(TIMED_GUESTS) alone=$$(BOOT_RETRY)
endef
define skip-rules
$(RUN_DIR)/boots/$(1)-$(2)$($(3).dir)/meta: $(call machine-env,$(1))
	$$(Q)host-tools/boot/boot.sh out=$$(@D) run_id=$$(RUN_ID) machine_env=$(call machine-env,$(1)) config=$(2) kind=$(3) \
		scenarios=$$(call commas,$$(call $(3).bins,$(1))) \
		skip="missing Debian packages: $$($(1).missing) (apt-get install $$($(1).missing))"
endef
$(foreach k,$(BOOT_KINDS),$(foreach c,$(call kind_configs,$(k)),\
	$(foreach m,$(filter $(call kind_machines,$(k)),$(READY)),$(eval $(call boot-rules,$(m),$(c),$(k))))\
	$(foreach m,$(filter $(call kind_machines,$(k)),$(SKIPPED)),$(eval $(call skip-rules,$(m),$(c),$(k))))))

# --- The host column: the matrix's libc programs, dynamically linked, run on
# this machine under Debian's libfaketime at the same moments (faketime.sh),
# beside the real kernels' verdicts, on the 32-bit machines: their userland
# says how the host runs its programs (faketime in machines/defaults.mk);
# the programs' glibc is the cross toolchain's. FAKETIME=no leaves the
# column out.
# A second column runs the guest's static clock programs the same way: to
# measure that LD_PRELOAD never reaches a static program.
FAKETIME       ?= yes
FAKED_MACHINES := $(if $(filter yes,$(FAKETIME)),$(foreach m,$(filter $(MACHINES_32BIT),$(READY)),$(if $($(m).faketime),$(m))))
FAKED_KINDS    := $(HOST_CONFIGS)
libfaketime.link          := dynamic
libfaketime.folder        := dynamic
libfaketime.bins          := $(call family_bins,$(GLIBC_KINDS))
libfaketime-static.link   := static
libfaketime-static.folder := scenarios
libfaketime-static.bins   := clock-legacy clock-time64
FAKED_RUNS     := $(foreach m,$(FAKED_MACHINES),$(FAKED_KINDS:%=$(RUN_DIR)/boots/$(m)-%/meta))
# Debian's libfaketime of a userland's architecture. A fetch that fails
# leaves the reason: faketime.sh records it and the run goes on.
# $(1): userland
define libfaketime-rule
$(BUILD)/$(1)/libfaketime/.versions: host-tools/distro/debian.sh
	$$(call say,DEBIAN,$$(@D))
	$$(Q)host-tools/distro/debian.sh package cache=$$(CACHE) arch=$(1) mirror=$$(DEBIAN_MIRROR) \
		out=$$(@D) libfaketime 2>$$(@D).error || cat $$(@D).error >&2
endef
$(foreach u,$(USERLANDS),$(eval $(call libfaketime-rule,$(u))))
# $(1): machine, $(2): kind
define faketime-rules
$(RUN_DIR)/boots/$(1)-$(2)/meta: host-tools/boot/faketime.sh $(HOST)/y2038-run $(call machine-env,$(1)) | inputs-ready-$($(1).userland)-$(2)
	$$(Q)host-tools/boot/faketime.sh out=$$(@D) run_id=$$(RUN_ID) machine_env=$(call machine-env,$(1)) \
		libc=$(patsubst %-,/usr/%/lib,$(call ucross,$($(1).userland))) libfaketime=$(BUILD)/$($(1).userland)/libfaketime \
		runner=$(HOST)/y2038-run link=$($(2).link) bins=$(BUILD)/$($(1).userland)/$($(2).folder) \
		scenarios=$(call commas,$($(2).bins))
endef
$(foreach m,$(FAKED_MACHINES),$(foreach k,$(FAKED_KINDS),$(eval $(call faketime-rules,$(m),$(k)))))

# Boot without collecting: the distro and try boots are judged by their own reports.
.PHONY: boots inputs
boots: $(BOOTS)

# What the guests and host columns read, but the kernels: the host tools
# and the machines' facts (make run's setup builds them first), and each
# userland's inputs of each kind (its initramfs and disks; a host column's
# programs). Inputs are built under a lock on BUILD, so that two runs never
# build one file at once, and once built are replaced only by renaming.
# The kernels have their own locks in the cache (kernel.sh).
SETUP_INPUTS := $(HOST)/y2038-collect $(HOST)/kvm-probe $(HOST)/kconfig-verify $(READY:%=$(MACHINE_ENVS)/%.env)
# $(1): userland, $(2): kind (a host column's too)
userland_kind_inputs = $(if $(filter $(2),$(FAKED_KINDS)),\
	$(if $(filter $(1),$(foreach m,$(FAKED_MACHINES),$($(m).userland))),$(HOST)/y2038-run $(BUILD)/$(1)/libfaketime/.versions \
		$($(2).bins:%=$(BUILD)/$(1)/$($(2).folder)/%)),\
	$(foreach m,$(filter $(call kind_machines,$(2)),$(READY)),$(if $(filter $(1),$($(m).userland)),$(BUILD)/$(1)/$($(2).initrd) $(call $(2).disks,$(m)))))
# The kinds with inputs, in the order their boots come (BOOT_SCHEDULE: the
# matrix of every machine first, then the host columns), each with the
# userlands of the machines that boot it; and each (userland, kind) the run
# boots, in that order, as USERLAND-KIND.
INPUT_KINDS := $(filter $(BOOT_KINDS),matrix) $(if $(FAKED_MACHINES),$(FAKED_KINDS)) $(filter-out matrix,$(BOOT_KINDS))
kind_userlands = $(call uniq,$(foreach m,$(if $(filter $(1),$(FAKED_KINDS)),$(FAKED_MACHINES),$(filter $(call kind_machines,$(1)),$(READY))),$($(m).userland)))
INPUT_SETS := $(foreach k,$(INPUT_KINDS),$(foreach u,$(call kind_userlands,$(k)),$(u)-$(k)))
INPUTS := $(SETUP_INPUTS) $(foreach k,$(INPUT_KINDS),$(foreach u,$(call kind_userlands,$(k)),$(call userland_kind_inputs,$(u),$(k))))
# A set of inputs is made once it is asked for, by whichever asks first,
# under the lock: a boot of it (inputs-ready-USERLAND-KIND, which make runs
# once a make), or make run's prefetch, which makes them all in that order
# at the idle priority once the first verdict's kernels are built (Makefile).
$(foreach k,$(INPUT_KINDS),$(foreach u,$(call kind_userlands,$(k)),$(eval inputs-$(u)-$(k): $$(call userland_kind_inputs,$(u),$(k)))))
# A boot again (BOOT_RETRY=yes) takes the kernel, the inputs and the plan
# its first boot had, whatever the tree says now.
inputs-ready-%: FORCE
	$(Q)$(if $(BOOT_RETRY),true,mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -s inputs-$*)
# What the first verdict needs: the first ready machine's matrix boots,
# each one's block of the matrix printed as soon as it ends (verdicts.mk):
# compat32-y's does not wait for compat32-n's kernel and boot.
FIRST_MACHINE := $(firstword $(READY))
FIRST_BOOTS   := $(if $(filter matrix,$(BOOT_KINDS)),$(filter $(RUN_DIR)/boots/$(FIRST_MACHINE)-%,$(call boots-of-kind,matrix)))
first_block    = $(RUN_DIR)/blocks/first-$(notdir $(patsubst %/meta,%,$(1)))
FIRST_BLOCKS  := $(foreach b,$(FIRST_BOOTS),$(call first_block,$(b)))
# Nothing takes the first verdict's place: every other set of inputs is
# made after its own (the inputs lock would let a long one, a root's
# debootstrap, go first), and every other timed boot starts after its boots
# (they would take the timed slots), as make run's first-boots did.
FIRST_SET    := $(if $(FIRST_BOOTS),$($(FIRST_MACHINE).userland)-matrix)
AFTER_FIRST  := $(if $(FIRST_SET),$(addprefix inputs-ready-,$(filter-out $(FIRST_SET),$(INPUT_SETS))) \
	$(filter-out $(FIRST_BOOTS),$(foreach k,$(BOOT_KINDS),$(if $(filter no,$($(k).timed)),,$(call boots-of-kind,$(k))))))
$(AFTER_FIRST): | $(if $(FIRST_SET),inputs-ready-$(FIRST_SET) $(FIRST_BOOTS))
# The kernels the first verdict waits for: make run's prefetch waits for
# them too, so that they have the cores to themselves.
FIRST_KERNELS := $(strip $(foreach c,$(CONFIGS),$(if $(FIRST_BOOTS),$(call kernel_envs,$(KERNEL_FLAVOUR))/$(FIRST_MACHINE)-$(c).env)))
.PHONY: kernels inputs $(INPUT_SETS:%=inputs-%)
inputs: $(INPUTS)
kernels: $(foreach k,$(KERNEL_QUEUE),$(call kernel_env,$(k)))
# $(1): variables for the run (RESULTS=, SERIES=, ...)
locked-lab = mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -j$(LAB_JOBS) inputs $(1) && \
	$(MAKE) --no-print-directory -j$(LAB_JOBS) lab $(1)
