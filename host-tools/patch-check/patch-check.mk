# Patch checking (host-tools/patch-check/): checkpatch --strict against every
# kernel the lab offers, and the patches' KUnit tests under QEMU with
# kunit.py on each machine that names a kunit_arch, with its kunit_add
# options (machines/*.mk).

KUNIT_CONFIG := patches/kunit/y2038.kunitconfig
KUNIT_MACHINES = $(foreach m,$(READY),$(if $($(m).kunit_arch),$(m)))
KUNIT_ACTION ?= run
.PHONY: patch-check checkpatch kunit
# The series is clean, applies to every kernel offered, and its KUnit tests pass.
patch-check: checkpatch kunit
checkpatch: $(KERNEL_CHOICES:%=checkpatch-%)
checkpatch-%:
	$(Q)host-tools/patch-check/checkpatch.sh cache=$(CACHE) package=$* series=patches/series
kunit: $(KUNIT_MACHINES:%=kunit-%)
kunit-%:
	$(Q)host-tools/patch-check/kunit.sh cache=$(CACHE) package=$(KERNEL) series=patches/series action=$(KUNIT_ACTION) \
		arch=$($*.kunit_arch) cross=$($*.kcross) kunitconfig=$(KUNIT_CONFIG) \
		kconfig_add="$($*.kunit_add)" out=$(BUILD)/kunit/$*
