# Patch checking (host-tools/patch-check/): checkpatch --strict against every
# kernel the lab offers (data/kernel-sources.tsv), and the patches' KUnit
# tests under QEMU with kunit.py, in the machine's lab kernel (compat32-y)
# with the KUnit options added, built incrementally in its build folder.

KUNIT_CONFIG := patches/kunit/y2038.kunitconfig
KUNIT_ACTION ?= run
# make kunit: the chosen kernel (KERNEL=) on each machine that names a
# kunit_arch, with its kunit_add options (machines/*.mk). i386 tests with
# RTC_HCTOSYS_Y2038=y and armv7 without, so both answers of
# rtc_hctosys_time_ok() are tested.
KUNIT_MACHINES = $(foreach m,$(READY),$(if $($(m).kunit_arch),$(m)))
# make check: every kernel offered, KERNEL:MACHINE. The default kernel on
# both machines; each other kernel on both too, since its code moved.
KUNIT_CHECK ?= $(foreach k,$(KERNEL_CHOICES),$(foreach m,$(KUNIT_MACHINES),$(k):$(m)))

.PHONY: patch-check patch-check-all checkpatch patch-variants kunit kunit-all
# The series is clean, applies to every kernel offered, and its KUnit tests
# pass on each.
patch-check: checkpatch kunit
patch-check-all: checkpatch kunit-all
# First, as it takes a second: each kernel's own version of a patch
# (patches/KVER/NAME) adds and removes the lines NAME does, or a note
# beside it says why not (patches/series).
checkpatch: patch-variants $(KERNEL_CHOICES:%=checkpatch-%)
patch-variants:
	$(Q)host-tools/patch-check/variants.sh series=patches/series
checkpatch-%:
	$(Q)host-tools/patch-check/checkpatch.sh cache=$(CACHE) package=$* series=patches/series
kunit: $(KUNIT_MACHINES:%=kunit-%)
kunit-%: $(MACHINE_ENVS)/%.env
	$(Q)$(call kunit-run,$(KERNEL),$*)
# One after another: they share each kernel's working tree.
kunit-all: $(foreach m,$(ALL_MACHINES),$(if $($(m).kunit_arch),$(call machine-env,$(m))))
	$(Q)$(foreach r,$(KUNIT_CHECK),$(call kunit-run,$(firstword $(subst :, ,$(r))),$(lastword $(subst :, ,$(r)))) &&) true

kunit-run = host-tools/patch-check/kunit.sh cache=$(CACHE) package=$(1) series=patches/series \
	action=$(KUNIT_ACTION) machine_env=$(call machine-env,$(2)) kunitconfig=$(KUNIT_CONFIG) \
	builds=$(KERNEL_BUILDS) fragments="$(call kernel_fragments,$(2),compat32-y)" \
	kconfig_add="$($(2).kunit_add)" ccache=$(KERNEL_CCACHE) out=$(BUILD)/kunit/$(1)-$(2)

# make bisect-check: every patch builds on its own, on BISECT_MACHINE, with
# the lab's compat32-y fragments and the KUnit options, so that all the
# code the series adds is compiled at the step that adds it.
BISECT_MACHINE ?= i386
.PHONY: bisect-check
bisect-check: $(MACHINE_ENVS)/$(BISECT_MACHINE).env
	$(Q)host-tools/patch-check/bisect.sh cache=$(CACHE) package=$(KERNEL) series=patches/series \
		machine_env=$(call machine-env,$(BISECT_MACHINE)) builds=$(KERNEL_BUILDS) ccache=$(KERNEL_CCACHE) \
		fragments="$(call kernel_fragments,$(BISECT_MACHINE),compat32-y) $(KUNIT_CONFIG)" \
		out=$(BUILD)/bisect/$(KERNEL)-$(BISECT_MACHINE)
