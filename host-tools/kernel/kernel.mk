# Stage: source package -> patched tree -> kernel (host-tools/kernel/).
# kernel.sh unpacks Debian's linux-source into the cache (or fetches it
# first: data/kernel-sources.tsv), makes the version's working tree carry
# the series (series.sh lists it, source.sh applies it), configures the
# machine's build folder from the fragments, checks that every value took
# (kconfig-verify) and builds, or reuses a cached build.

$(HOST)/kconfig-verify: host-tools/kernel/kconfig-verify.c host-tools/kernel/kconfig-parse.c host-tools/kernel/kconfig-parse.h host-tools/read-file.h

# The options the lab's patches add are set by series-*.config, for a patched
# tree only: series-<config>.config and series-arch-<machine>.config.
# $(1): machine, $(2): config
series_fragments = $(if $(filter none,$(SERIES)),,$(wildcard patches/config/series-$(2).config patches/config/series-arch-$(1).config))
kernel_fragments = patches/config/common.config $($(1).fragment) patches/config/$(2).config $(call series_fragments,$(1),$(2)) \
	$(call flavour_fragments,$(1))
# A kernel flavour (KERNEL_FLAVOUR=distro: make validate-distro) adds its
# options over all of that: flavour-<flavour>.config, flavour-<flavour>-arch-<machine>.config.
KERNEL_FLAVOUR ?=
flavour_fragments = $(if $(KERNEL_FLAVOUR),$(wildcard patches/config/flavour-$(KERNEL_FLAVOUR).config \
	patches/config/flavour-$(KERNEL_FLAVOUR)-arch-$(1).config))
# What kernel.sh found, per kernel choice and series: two runs with different
# KERNEL= or SERIES= never read each other's.
# $(1): a flavour (distro), or none
kernel_envs = $(BUILD)/kernels/$(KERNEL)/$(subst /,_,$(SERIES))$(1:%=-%)
KERNEL_ENVS = $(call kernel_envs,$(KERNEL_FLAVOUR))
# Where kernel.sh builds (make bench points it at a scratch directory), and
# the compiler cache every kernel build shares.
KERNEL_BUILDS ?= $(CACHE)/build
KERNEL_CCACHE ?= $(CACHE)/ccache
KERNEL_ARGS = cache=$(CACHE) package=$(KERNEL) series=$(SERIES) verify=$(HOST)/kconfig-verify flavour=$(or $(KERNEL_FLAVOUR),lab) \
	builds=$(KERNEL_BUILDS) ccache=$(KERNEL_CCACHE)

# The up-to-date check, in make: a kernel's facts are remade (kernel.sh
# runs) only when what decides the kernel is newer (the series and its
# patches, the fragments, the scripts, the source package) or its image is
# gone (kernel.sh's .env.mk names both), never on every make.
-include $(wildcard $(KERNEL_ENVS)/*.env.mk)
KERNEL_SCRIPTS := $(addprefix host-tools/kernel/,kernel.sh source.sh series.sh) host-tools/lib.sh data/kernel-sources.tsv
SERIES_FILES    = $(if $(filter none,$(SERIES)),,$(SERIES) $(wildcard $(dir $(SERIES))*.patch $(dir $(SERIES))[0-9]*.[0-9]*/*.patch))
# The metapackage (KERNEL=linux-source) moves to another version with its docs.
KERNEL_PACKAGE_STAMP = $(wildcard /usr/share/doc/$(KERNEL)/changelog.Debian.gz)
kernel_stale = $(if $(wildcard $(kernel.$(1).image)),,FORCE) $(kernel.$(1).tarball)
# One kernel builds at a time, a machine's two configs one after the other,
# machines in the order of MACHINE_ORDER (machines/defaults.mk): each build
# has every core, and the guests of a machine whose kernels are done boot
# meanwhile. The queue holds machine:config.
KERNEL_QUEUE = $(foreach m,$(READY),$(foreach c,$(CONFIGS),$(m):$(c)))
kernel_name = $(subst :,-,$(1))
# $(1): machine, $(2): config, $(3): the kernel queued before it (machine-config), if any
define kernel-rules
$(KERNEL_ENVS)/$(1)-$(2).env: $(call kernel_stale,$(1)-$(2)) $(KERNEL_SCRIPTS) $(SERIES_FILES) $(KERNEL_PACKAGE_STAMP) \
		$(call kernel_fragments,$(1),$(2)) $(HOST)/kconfig-verify $(call machine-env,$(1)) \
		| $(if $(3),$(KERNEL_ENVS)/$(3).env) $(KERNEL_ENVS)/plan
	$$(Q)host-tools/kernel/kernel.sh $$(KERNEL_ARGS) machine_env=$(call machine-env,$(1)) config=$(2) \
		fragments="$$(call kernel_fragments,$(1),$(2))" \
		out=$$@ || true	# the error is in $$@: the boots record it, the run goes on
endef
prev_kernel :=
$(foreach k,$(KERNEL_QUEUE),$(eval $(call kernel-rules,$(word 1,$(subst :, ,$(k))),$(word 2,$(subst :, ,$(k))),$(prev_kernel)))$(eval prev_kernel := $(call kernel_name,$(k))))

# Before anything is built: what will be, and about how long it takes.
# Remade when any kernel may be (the same prerequisites as theirs).
# "machine:config:machine-env:fragments" for plan.sh
kernel_plan_arg = "$(1):$(call machine-env,$(word 1,$(subst :, ,$(1)))):$(call kernel_fragments,$(word 1,$(subst :, ,$(1))),$(word 2,$(subst :, ,$(1))))"
$(KERNEL_ENVS)/plan: $(foreach k,$(KERNEL_QUEUE),$(call kernel_stale,$(call kernel_name,$(k))) \
		$(call kernel_fragments,$(word 1,$(subst :, ,$(k))),$(word 2,$(subst :, ,$(k))))) \
		$(KERNEL_SCRIPTS) host-tools/kernel/plan.sh $(SERIES_FILES) $(KERNEL_PACKAGE_STAMP) \
		$(HOST)/kconfig-verify $(foreach m,$(READY),$(call machine-env,$(m)))
	@mkdir -p $(@D)
	$(Q)host-tools/kernel/plan.sh $(KERNEL_ARGS) -- $(foreach k,$(KERNEL_QUEUE),$(call kernel_plan_arg,$(k)))
	@touch $@
