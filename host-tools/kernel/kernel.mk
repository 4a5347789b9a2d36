# Stage: source package -> patched tree -> kernel (host-tools/kernel/).
# kernel.sh unpacks Debian's linux-source into the cache (or fetches it
# first: data/kernel-sources.tsv), makes the version's working tree carry
# the series (series.sh lists it, source.sh applies it), configures the
# machine's build folder from the fragments, checks that every value took
# (kconfig-verify) and builds, or reuses a cached build.

$(HOST)/kconfig-verify: host-tools/kernel/kconfig-verify.c host-tools/kernel/kconfig-parse.c host-tools/kernel/kconfig-parse.h host-tools/read-file.h

# The options the lab's patches add are set by series-*.config, for a patched
# tree only: series-<config>.config where a config has one, and the
# machine's series_fragment (its word size's: machines/defaults.mk).
# $(1): machine, $(2): config
series_fragments = $(if $(filter none,$(SERIES)),,$(wildcard patches/config/series-$(2).config) $($(1).series_fragment))
kernel_fragments = $(call fragments-exist,$(1),patches/config/common.config $($(1).fragment) patches/config/$(2).config \
	$(call series_fragments,$(1),$(2)) $(call flavour_fragments,$(1),$(3)))
# A fragment a machine's kernel needs and that does not exist is an error,
# never a kernel quietly built without it.
fragments-exist = $(foreach f,$(2),$(if $(wildcard $(f)),$(f),$(error machines/$(1).mk: its kernel needs $(f), which does not exist (its keys: machines/defaults.mk))))
# A kernel flavour adds its groups of options over all of that, each group
# GROUP.config, and for disk the board's disk_fragment too: the distro
# flavour (make validate-distro, KERNEL_FLAVOUR=distro, make glibc-tests)
# and the filesystems flavour (the filesystems boots of make run) both take
# disks. A group's options that exist on one board only are
# GROUP-board-BOARD.config, where there are any (a symbol asked for and
# missing fails kconfig-verify). lab: no flavour. $(1): machine, $(2): flavour
KERNEL_FLAVOUR ?=
flavour.distro.groups      := flavour-distro disk
flavour.filesystems.groups := flavour-filesystems disk
flavour_fragments = $(foreach g,$(flavour.$(2).groups),patches/config/$(g).config \
	$(if $(filter disk,$(g)),$(or $($(1).disk_fragment),$(error machines/$(1).mk: its board "$($(1).board)" names no disk_fragment, which a kernel that boots disks needs (machines/defaults.mk))),\
		$(wildcard patches/config/$(g)-board-$($(1).board).config)))
# What kernel.sh found, per kernel choice, series and flavour: two runs with
# different KERNEL= or SERIES= never read each other's.
# $(1): a flavour (distro, filesystems), or none (lab); $(2): another kernel
# choice than KERNEL's (make bench's clock part boots two)
kernel_envs = $(BUILD)/kernels/$(or $(2),$(KERNEL))/$(subst /,_,$(SERIES))$(addprefix -,$(filter-out lab,$(1)))
KERNEL_ENVS = $(call kernel_envs,$(KERNEL_FLAVOUR))
# The run's flavours: its own (KERNEL_FLAVOUR), then those its boot kinds
# name (KIND.flavour: host-tools/boot/boot.mk), whose kernels build after it.
KERNEL_FLAVOURS = $(or $(KERNEL_FLAVOUR),lab) $(filter-out $(or $(KERNEL_FLAVOUR),lab),$(sort $(foreach k,$(BOOT_KINDS),$($(k).flavour))))
# Where kernel.sh builds (make bench points it at a scratch directory), and
# the compiler cache every kernel build shares.
KERNEL_BUILDS ?= $(CACHE)/build
KERNEL_CCACHE ?= $(CACHE)/ccache
KERNEL_ARGS = cache=$(CACHE) package=$(KERNEL) series=$(SERIES) verify=$(HOST)/kconfig-verify \
	builds=$(KERNEL_BUILDS) ccache=$(KERNEL_CCACHE)

KERNEL_SCRIPTS := $(addprefix host-tools/kernel/,kernel.sh source.sh series.sh) host-tools/lib.sh data/kernel-sources.tsv
# The suites whose kernels make check compares with those offered
# (host-tools/kernel/newer-served.sh): Debian's releases (with their
# security archives, debian.sh) and backports, sid and experimental.
KERNEL_SUITES := bookworm bookworm-backports trixie trixie-backports sid experimental
SERIES_FILES    = $(if $(filter none,$(SERIES)),,$(SERIES) $(wildcard $(dir $(SERIES))*.patch $(dir $(SERIES))[0-9]*.[0-9]*/*.patch))
# The metapackage (KERNEL=linux-source) moves to another version with its docs.
KERNEL_PACKAGE_STAMP = $(wildcard /usr/share/doc/$(KERNEL)/changelog.Debian.gz)
# $(1): machine-config, $(2): flavour
kernel_stale = $(if $(wildcard $(kernel.$(2).$(1).image)),,FORCE) $(kernel.$(2).$(1).tarball)
# One kernel builds at a time, a machine's two configs one after the other,
# machines in the order of ALL_MACHINES (the 32-bit ones first: Makefile): each build
# has every core, and the guests of a machine whose kernels are done boot
# meanwhile. Then the other flavours', on the machines their kinds boot. The
# run's own flavour's are queued when a boot kind of the run needs them
# (make run BOOT_KINDS=filesystems builds the filesystems flavour's alone).
# The queue holds machine:config:flavour.
run_flavour_kinds = $(strip $(foreach k,$(BOOT_KINDS),$(if $($(k).flavour),,$(k))))
flavour_machines = $(if $(filter $(1),$(or $(KERNEL_FLAVOUR),lab)),$(if $(run_flavour_kinds),$(READY)),$(filter $(foreach k,$(BOOT_KINDS),$(if $(filter $(1),$($(k).flavour)),$(call kind_machines,$(k)))),$(READY)))
KERNEL_QUEUE = $(foreach f,$(KERNEL_FLAVOURS),$(foreach m,$(call flavour_machines,$(f)),$(foreach c,$(CONFIGS),$(m):$(c):$(f))))
kernel_name = $(word 1,$(subst :, ,$(1)))-$(word 2,$(subst :, ,$(1)))
kernel_env  = $(call kernel_envs,$(word 3,$(subst :, ,$(1))))/$(call kernel_name,$(1)).env
# $(1): machine, $(2): config, $(3): flavour, $(4): the kernel queued before it (its .env), if any
define kernel-rules
$(call kernel_envs,$(3))/$(1)-$(2).env: $(call kernel_stale,$(1)-$(2),$(3)) $(KERNEL_SCRIPTS) $(SERIES_FILES) $(KERNEL_PACKAGE_STAMP) \
		$(call kernel_fragments,$(1),$(2),$(3)) $(HOST)/kconfig-verify $(call machine-env,$(1)) \
		| $(4) $(KERNEL_ENVS)/plan
	$$(Q)host-tools/kernel/kernel.sh $$(KERNEL_ARGS) flavour=$(3) machine_env=$(call machine-env,$(1)) config=$(2) \
		fragments="$$(call kernel_fragments,$(1),$(2),$(3))" \
		out=$$@ || true	# the error is in $$@: the boots record it, the run goes on
endef
# "machine:config:flavour:machine-env:fragments" for plan.sh
kernel_plan_arg = "$(word 1,$(subst :, ,$(1))):$(word 2,$(subst :, ,$(1))):$(word 3,$(subst :, ,$(1))):$(call machine-env,$(word 1,$(subst :, ,$(1)))):$(call kernel_fragments,$(word 1,$(subst :, ,$(1))),$(word 2,$(subst :, ,$(1))),$(word 3,$(subst :, ,$(1))))"
# The up-to-date check, in make: a kernel's facts are remade (kernel.sh
# runs) only when what decides the kernel is newer (the series and its
# patches, the fragments, the scripts, the source package) or its image is
# gone (kernel.sh's .env.mk names both), never on every make. The queue's
# rules are made once the boot kinds (host-tools/boot/boot.mk) have said
# which flavours the run boots: $(eval $(value kernel-queue-rules)) there.
define kernel-queue-rules
-include $(wildcard $(foreach f,$(KERNEL_FLAVOURS),$(call kernel_envs,$(f))/*.env.mk))
prev_kernel :=
$(foreach k,$(KERNEL_QUEUE),$(eval $(call kernel-rules,$(word 1,$(subst :, ,$(k))),$(word 2,$(subst :, ,$(k))),$(word 3,$(subst :, ,$(k))),$(prev_kernel)))$(eval prev_kernel := $(call kernel_env,$(k))))

# Before anything is built: what will be, and about how long it takes.
# Remade when any kernel may be (the same prerequisites as theirs), and
# said once a run: the makes of one (BOOT_SESSION) that find it to remake
# after the first did are quiet.
$(KERNEL_ENVS)/plan: $(foreach k,$(KERNEL_QUEUE),$(call kernel_stale,$(call kernel_name,$(k)),$(word 3,$(subst :, ,$(k)))) \
		$(call kernel_fragments,$(word 1,$(subst :, ,$(k))),$(word 2,$(subst :, ,$(k))),$(word 3,$(subst :, ,$(k))))) \
		$(KERNEL_SCRIPTS) host-tools/kernel/plan.sh $(SERIES_FILES) $(KERNEL_PACKAGE_STAMP) \
		$(HOST)/kconfig-verify $(foreach m,$(READY),$(call machine-env,$(m)))
	@mkdir -p $(@D)
	$(Q)exec 9>$@.lock && flock 9 && if [ "$$(cat $@ 2>/dev/null)" != "$(BOOT_SESSION)" ]; then \
		host-tools/kernel/plan.sh $(KERNEL_ARGS) run_flavour=$(or $(KERNEL_FLAVOUR),lab) -- $(foreach k,$(KERNEL_QUEUE),$(call kernel_plan_arg,$(k))) && \
		echo "$(BOOT_SESSION)" >$@; else touch $@; fi
endef
