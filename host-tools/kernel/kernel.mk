# Stage: source package -> patched tree -> kernel (host-tools/kernel/).
# kernel.sh unpacks Debian's linux-source into the cache, applies the series
# (series.sh) to a copy, configures it from the fragments, checks that every
# value took (kconfig-verify) and builds, or reuses a cached build.

$(HOST)/kconfig-verify: host-tools/kernel/kconfig-verify.c host-tools/kernel/kconfig-parse.c host-tools/kernel/kconfig-parse.h host-tools/read-file.h

# The options the lab's patches add are set by series-*.config, for a patched
# tree only: series-<config>.config and series-arch-<machine>.config.
# $(1): machine, $(2): config
series_fragments = $(if $(filter none,$(SERIES)),,$(wildcard patches/config/series-$(2).config patches/config/series-arch-$(1).config))
kernel_fragments = patches/config/common.config $($(1).fragment) patches/config/$(2).config $(call series_fragments,$(1),$(2))
# What kernel.sh found, per kernel choice and series: two runs with different
# KERNEL= or SERIES= never read each other's.
KERNEL_ENVS = $(BUILD)/kernels/$(KERNEL)/$(subst /,_,$(SERIES))
# Where kernel.sh builds (make bench points it at a scratch directory), and
# the compiler cache every kernel build shares.
KERNEL_BUILDS ?= $(CACHE)/build
KERNEL_CCACHE ?= $(CACHE)/ccache
# $(1): machine, $(2): config
define kernel-rules
$(KERNEL_ENVS)/$(1)-$(2).env: FORCE $(HOST)/kconfig-verify $(call machine-env,$(1))
	$$(Q)host-tools/kernel/kernel.sh cache=$$(CACHE) package=$$(KERNEL) series=$$(SERIES) \
		machine_env=$(call machine-env,$(1)) config=$(2) verify=$(HOST)/kconfig-verify \
		builds=$$(KERNEL_BUILDS) ccache=$$(KERNEL_CCACHE) \
		fragments="$$(call kernel_fragments,$(1),$(2))" \
		out=$$@ || true	# the error is in $$@: the boots record it, the run goes on
endef
$(foreach m,$(READY),$(foreach c,$(CONFIGS),$(eval $(call kernel-rules,$(m),$(c)))))
