# Speed and steadiness (host-tools/bench/): make bench prints the lab's speed
# beside its targets; make repeat runs the matrix again and again and names
# every cell whose outcome changed.

# make bench: the lab's speed and cost figures beside their targets. BENCH_COLD=no
# skips the cold run (a make run on an empty cache: 30 to 40 minutes);
# BENCH_COLD_MACHINES= picks its machines (default: all, as make run);
# BENCH_CHECK=yes also times make check on an empty cache (most of an hour);
# BENCH_CLOCK=no leaves out the clock part (below), BENCH_CLOCK=only runs it
# alone; BENCH_GUESTS=no leaves out how many timed guests this machine boots
# at once (bench.sh: guests at once, kept for boot.sh), BENCH_GUESTS=only
# measures it alone.
BENCH_COLD     ?= yes
BENCH_COLD_MACHINES ?= $(ALL_MACHINES)
BENCH_CHECK    ?= no
BENCH_CLOCK    ?= yes
BENCH_GUESTS   ?= yes
.PHONY: bench repeat bench-clock-boots
bench: deps $(HOST)/y2038-collect
	$(Q)MAKE="$(MAKE)" LAB_JOBS=$(LAB_JOBS) host-tools/bench/bench.sh out=$(BUILD)/bench cache=$(CACHE) \
		machines="$(BENCH_COLD_MACHINES)" cold=$(BENCH_COLD) check=$(BENCH_CHECK) clock=$(BENCH_CLOCK) guests=$(BENCH_GUESTS) \
		kunit_machine=$(firstword $(KUNIT_MACHINES)) one_machine=$(ONE_MACHINE) \
		with_time32=$(WITH_TIME32) without_time32=$(WITHOUT_TIME32)

# make bench's clock part: what one read of the wall clock costs, each way
# a 32-bit program reads it (scenarios/bench/clock-cost.c, a guest program:
# legacy and time64 glibc and musl, the vDSO's entries and the syscalls),
# on the kernel before Linux 7.3 removed the time32 vDSO entries with
# COMPAT_32BIT_TIME=n and on 7.3, both configs, on the 32-bit machines:
# one boot each, one after another (the costs are compared side by side),
# BENCH_CLOCK_ROUNDS times over, the fastest boot the cost. bench.sh runs
# bench-clock-boots and turns BENCH_CLOCK_OUT/clock-cost.tsv into its
# figures.
BENCH_CLOCK_KERNELS  := linux-source-7.2 linux-source-7.3
BENCH_CLOCK_MACHINES := $(MACHINES_32BIT)
BENCH_CLOCK_ROUNDS   ?= 3
BENCH_CLOCK_OUT      ?= $(BUILD)/bench/clock
# The programs, static, in BUILD/USERLAND/bench/: glibc's two kinds, and
# musl's where the userland has a musl_target (and MUSL=yes).
link.bench := -static
clock_cost_kinds = $(filter $(BUILT_KINDS),$(GLIBC_KINDS) $(if $(call ukey,$(1),musl_target),$(MUSL_KINDS)))
$(foreach u,$(USERLANDS),$(foreach a,$(GLIBC_KINDS),$(eval $(call scenario-rule,$(u),$(a),bench,scenarios/bench)))\
	$(if $(call ukey,$(u),musl_target),$(eval $(call musl-program-rule,$(u),bench,scenarios/bench))))
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
# One boot: KERNEL:MACHINE:CONFIG:KERNEL_ENV:MACHINE_ENV:INITRD:PROGRAM,PROGRAM
clock_cost_boot = $(1):$(2):$(3):$(call kernel_envs,lab,$(1))/$(2)-$(3).env:$(call machine-env,$(2)):$(BUILD)/$($(2).userland)/clock-cost.cpio:$(call commas,$(foreach k,$(call clock_cost_kinds,$($(2).userland)),clock-cost-$(k)))
bench-clock-boots: deps $(foreach m,$(BENCH_CLOCK_MACHINES),$(call machine-env,$(m))) $(HOST)/kvm-probe $(HOST)/y2038-collect
	$(Q)$(foreach k,$(BENCH_CLOCK_KERNELS),$(MAKE) --no-print-directory kernels KERNEL=$(k) BOOT_KINDS=matrix \
		MACHINES="$(BENCH_CLOCK_MACHINES)" &&) true
	$(Q)$(MAKE) --no-print-directory MACHINES="$(BENCH_CLOCK_MACHINES)" \
		$(sort $(foreach m,$(BENCH_CLOCK_MACHINES),$(BUILD)/$($(m).userland)/clock-cost.cpio))
	$(Q)host-tools/bench/clock-cost.sh out=$(BENCH_CLOCK_OUT) run_id=bench-clock rounds=$(BENCH_CLOCK_ROUNDS) \
		cache=$(CACHE) probe=$(HOST)/kvm-probe \
		rtc_base=$(RTC_BASE) guest_timeout=$(GUEST_TIMEOUT) boot_timeout=$(BOOT_TIMEOUT) \
		boots="$(foreach k,$(BENCH_CLOCK_KERNELS),$(foreach c,$(KERNEL_CONFIGS),$(foreach m,$(BENCH_CLOCK_MACHINES),\
			$(call clock_cost_boot,$(k),$(m),$(c)))))"

# make repeat [REPEAT=10]: the whole matrix REPEAT times, then every cell
# compared with the first run's (repeat.sh).
REPEAT ?= 10
repeat: deps
	$(Q)for k in $$(seq 1 $(REPEAT)); do \
		echo "  REPEAT   run $$k of $(REPEAT)"; \
		$(call locked-lab,RUN_ID=$(RUN_ID)-r$$k) || true; done
	$(Q)host-tools/bench/repeat.sh $$(seq -f '$(RESULTS)/$(RUN_ID)-r%g' 1 $(REPEAT)) | tee $(RESULTS)/$(RUN_ID)-repeat.txt

# make bench-glibc: what the lab's glibc series costs where it makes a call
# more (futex-cost.c: pthread_once, a semaphore ping-pong, an expired
# sem_timedwait, a zero clock_nanosleep and ppoll), on trixie's glibc as
# shipped and on each of LAB_GLIBCS, in the same root (libc6, libgcc-s1),
# with COMPAT_32BIT_TIME=y and =n, and each way again after a seccomp filter
# made the time64 system calls fail as on a kernel before 5.1 (glibc-cost.sh:
# one boot each, one after another, BENCH_GLIBC_OUT/glibc-cost.txt), on the
# distro flavour's kernels: the lab flavour has no seccomp filters. Not in
# make bench: its roots need both lab glibc builds (make libc).
BENCH_GLIBC_MACHINES ?= i386
BENCH_GLIBC_OUT      ?= $(BUILD)/bench/glibc
BENCH_GLIBC_LIBCS    ?= shipped $(LAB_GLIBCS)
# The program, dynamically linked (the libc of the root it runs in), time64.
link.bench-dynamic :=
$(foreach u,$(USERLANDS),$(eval $(call scenario-rule,$(u),time64,bench-dynamic,scenarios/bench)))
$(foreach u,$(USERLANDS),$(BUILD)/$(u)/bench-dynamic/futex-cost-time64 \
	$(foreach k,$(GLIBC_KINDS) $(MUSL_KINDS),$(BUILD)/$(u)/bench/clock-cost-$(k))): scenarios/bench/cost.h
# Its initramfs for each libc: the lab glibc's root (initramfs.mk makes it
# with the boot kind's), or TIME64ONLY_DISTRO's libc6 as shipped, and the
# program. $(1): userland, $(2): shipped or a LAB_GLIBCS kind
define futex-cost-cpio-rule
$(BUILD)/$(1)/futex-cost-$(2).cpio: $(BUILD)/$(1)/base.cpio $(BUILD)/$(1)/bench-dynamic/futex-cost-time64 \
		$(if $(filter shipped,$(2)),host-tools/distro/debian.sh,$(BUILD)/$(1)/$(2).cpio) host-tools/initramfs/overlay-cpio.sh
	$$(call say,CPIO,$$@)
	$$(Q)lab=$(BUILD)/$(1)/futex-cost-$(2)-lab; root=$(BUILD)/$(1)/$(2)-root; rm -rf $$$$lab && \
	$(if $(filter shipped,$(2)),host-tools/distro/debian.sh subset cache=$$(CACHE) arch=$(1) suite=$$($$(TIME64ONLY_DISTRO).suite) \
		mirror=$$(DEBIAN_MIRROR) out=$(BUILD)/$(1)/shipped-root libc6 libgcc-s1 &&,\
		[ ! -e $(BUILD)/$(1)/$(2).cpio.error ] && install -D -m 644 $$$$root/y2038/libc $$$$lab/y2038/libc &&) \
	install -D $(BUILD)/$(1)/bench-dynamic/futex-cost-time64 $$$$lab/scenarios/futex-cost-time64 && \
	host-tools/initramfs/overlay-cpio.sh $$@ $(BUILD)/$(1)/base.cpio --root $$$$root $$$$lab
endef
$(foreach u,$(LIBC_USERLANDS),$(foreach l,$(BENCH_GLIBC_LIBCS),$(eval $(call futex-cost-cpio-rule,$(u),$(l)))))
# One boot: MACHINE:CONFIG:KERNEL_ENV:MACHINE_ENV:INITRD:LIBC
.PHONY: bench-glibc
bench-glibc: deps $(foreach m,$(BENCH_GLIBC_MACHINES),$(call machine-env,$(m))) $(HOST)/kvm-probe $(HOST)/y2038-collect
	$(Q)$(MAKE) --no-print-directory kernels BOOT_KINDS=distro KERNEL_FLAVOUR=distro MACHINES="$(BENCH_GLIBC_MACHINES)"
	$(Q)$(MAKE) --no-print-directory MACHINES="$(BENCH_GLIBC_MACHINES)" \
		$(foreach m,$(BENCH_GLIBC_MACHINES),$(BENCH_GLIBC_LIBCS:%=$(BUILD)/$($(m).userland)/futex-cost-%.cpio))
	$(Q)host-tools/bench/glibc-cost.sh out=$(BENCH_GLIBC_OUT) run_id=bench-glibc cache=$(CACHE) probe=$(HOST)/kvm-probe \
		rtc_base=$(ROOT_RTC_BASE) guest_timeout=$(GUEST_TIMEOUT) boot_timeout=$(BOOT_TIMEOUT) \
		boots="$(foreach m,$(BENCH_GLIBC_MACHINES),$(foreach c,$(KERNEL_CONFIGS),$(foreach l,$(BENCH_GLIBC_LIBCS),\
			$(m):$(c):$(call kernel_envs,distro)/$(m)-$(c).env:$(call machine-env,$(m)):$(BUILD)/$($(m).userland)/futex-cost-$(l).cpio:$(l))))"
