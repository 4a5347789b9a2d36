# Speed and steadiness (host-tools/bench/): make bench prints the lab's speed
# beside its targets; make repeat runs the matrix again and again and names
# every cell whose outcome changed.

# make bench: the lab's speed and cost figures beside their targets. BENCH_COLD=no
# skips the cold run (a make run on an empty cache: 30 to 40 minutes);
# BENCH_COLD_MACHINES= picks its machines (default: all, as make run);
# BENCH_CHECK=yes also times make check on an empty cache (most of an hour).
BENCH_COLD     ?= yes
BENCH_COLD_MACHINES ?= $(ALL_MACHINES)
BENCH_CHECK    ?= no
.PHONY: bench repeat
bench: deps $(HOST)/y2038-collect
	$(Q)MAKE="$(MAKE)" LAB_JOBS=$(LAB_JOBS) host-tools/bench/bench.sh out=$(BUILD)/bench \
		machines="$(BENCH_COLD_MACHINES)" cold=$(BENCH_COLD) check=$(BENCH_CHECK) \
		kunit_machine=$(firstword $(KUNIT_MACHINES)) one_machine=$(ONE_MACHINE)

# make bench's clock part: what one read of the wall clock costs, each way a
# 32-bit program reads it (clock-cost.c: legacy and time64 glibc and musl,
# the vDSO's entries and the syscalls). The programs, static, in
# BUILD/USERLAND/bench/: glibc's two kinds, and musl's where the userland has
# a musl_target (and MUSL=yes).
link.bench := -static
clock_cost_kinds = $(filter $(BUILT_KINDS),$(GLIBC_KINDS) $(if $(call ukey,$(1),musl_target),$(MUSL_KINDS)))
$(foreach u,$(USERLANDS),$(foreach a,$(GLIBC_KINDS),$(eval $(call scenario-rule,$(u),$(a),bench,host-tools/bench)))\
	$(if $(call ukey,$(u),musl_target),$(eval $(call musl-program-rule,$(u),bench,host-tools/bench))))
# On PID 1 and the ext4 images alone (base.cpio), not the matrix's programs.
# $(1): userland
define clock-cost-cpio-rule
$(BUILD)/$(1)/clock-cost.cpio: $(BUILD)/$(1)/base.cpio $(foreach k,$(call clock_cost_kinds,$(1)),$(BUILD)/$(1)/bench/clock-cost-$(k)) \
		host-tools/initramfs/overlay-cpio.sh
	$$(call say,CPIO,$$@)
	$$(Q)rm -rf $(BUILD)/$(1)/clock-cost-lab && \
		install -D -t $(BUILD)/$(1)/clock-cost-lab/scenarios $(foreach k,$(call clock_cost_kinds,$(1)),$(BUILD)/$(1)/bench/clock-cost-$(k)) && \
		host-tools/initramfs/overlay-cpio.sh $$@ $(BUILD)/$(1)/base.cpio $(BUILD)/$(1)/clock-cost-lab
endef
$(foreach u,$(USERLANDS),$(eval $(call clock-cost-cpio-rule,$(u))))

# make repeat [REPEAT=10]: the whole matrix REPEAT times, then every cell
# compared with the first run's (repeat.sh).
REPEAT ?= 10
repeat: deps
	$(Q)for k in $$(seq 1 $(REPEAT)); do \
		echo "  REPEAT   run $$k of $(REPEAT)"; \
		$(call locked-lab,RUN_ID=$(RUN_ID)-r$$k) || true; done
	$(Q)host-tools/bench/repeat.sh $$(seq -f '$(RESULTS)/$(RUN_ID)-r%g' 1 $(REPEAT)) | tee $(RESULTS)/$(RUN_ID)-repeat.txt
