# Patch checking (host-tools/patch-check/): checkpatch --strict against every
# kernel the lab offers (data/kernel-sources.tsv), and the patches' KUnit
# tests under QEMU with kunit.py, in the machine's lab kernel (WITH_TIME32)
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

.PHONY: patch-check patch-check-all checkpatch patch-variants glibc-series format-patches kunit kunit-all
# make format-patches: the series of each kernel offered, and the glibc
# series' master variant with its cover letter, as they are sent
# (build/format-patches/<kernel>/: series/, net/, single/;
# build/format-patches/glibc/series/), from and signed off by you: git's
# user.name and user.email. The patches in patches/ carry no author and no
# sign-off.
GLIBC_COVER_LETTER := docs/upstream/glibc-cover-letter.patch
format-patches:
	$(Q)$(foreach k,$(KERNEL_CHOICES),host-tools/patch-check/format-patches.sh out=$(BUILD)/format-patches/$(k) \
		series=$(SERIES) kernel=$(k) &&) true
	$(Q)host-tools/patch-check/format-patches.sh out=$(BUILD)/format-patches/glibc series=$(TIME64ONLY_SERIES) \
		glibc=master cover=$(GLIBC_COVER_LETTER)
# The series is clean, applies to every kernel offered, and its KUnit tests
# pass on each.
patch-check: checkpatch kunit
patch-check-all: checkpatch kunit-all
# First, as it takes a second: each kernel's own version of a patch
# (patches/KVER/NAME) adds and removes the lines NAME does, or a note
# beside it says why not (patches/series).
checkpatch: patch-variants glibc-series $(KERNEL_CHOICES:%=checkpatch-%)
patch-variants:
	$(Q)host-tools/patch-check/variants.sh series=patches/series
# The glibc series (host-tools/libc/): it applies, and is in glibc's form;
# its master variant (patches/glibc/master/) changes the same lines.
glibc-series:
	$(Q)host-tools/patch-check/glibc-series.sh $(GLIBC_ARGS)
# make glibc-master-check GLIBC_MASTER=<a glibc git repository>: the master
# variant applies to the glibc master commit data/glibc-master.tsv pins,
# without fuzz, and what it changes builds for i686 (a few minutes). Not in
# make check: CI's network has Debian's registry only, and glibc master
# is not there; the repository is the user's (a clone of sourceware's).
GLIBC_MASTER ?=
.PHONY: glibc-master-check
glibc-master-check:
	$(if $(GLIBC_MASTER),,$(error make glibc-master-check needs GLIBC_MASTER=<a glibc git repository with the commit data/glibc-master.tsv pins>, e.g. git clone $(shell awk -F'\t' '$$1 == "clone" { print $$2 }' data/glibc-master.tsv); CI cannot fetch it))
	$(Q)host-tools/patch-check/glibc-master-check.sh master=$(GLIBC_MASTER) cache=$(CACHE) \
		series=$(TIME64ONLY_SERIES) pin=data/glibc-master.tsv
# make glibc-abis-check: what the glibc series changes, compiled for every
# glibc ABI Debian has a cross compiler for (data/glibc-abis.tsv: their
# packages are installed first), each with its default kernel floor and,
# the 32-bit ones, 5.1 too (host-tools/patch-check/glibc-abis.sh). Not in
# make check: a configure and nptl's build per ABI and floor, an hour or
# more on 2 cores (GLIBC_ABIS= a few of them). Logs in build/glibc-abis/.
GLIBC_ABIS      ?=
GLIBC_ABIS_DATA := data/glibc-abis.tsv
.PHONY: glibc-abis-check
glibc-abis-check:
	$(Q)host-tools/deps.sh $$(awk -F'\t' '!/^#/ && $$1 != "abi" && NF >= 5 && ("$(GLIBC_ABIS)" == "" || index(" $(GLIBC_ABIS) ", " " $$1 " ")) { print $$5 }' $(GLIBC_ABIS_DATA))
	$(Q)host-tools/patch-check/glibc-abis.sh abis=$(GLIBC_ABIS_DATA) out=$(BUILD)/glibc-abis only="$(GLIBC_ABIS)" $(GLIBC_ARGS)
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
	builds=$(KERNEL_BUILDS) fragments="$(call kernel_fragments,$(2),$(WITH_TIME32))" \
	kconfig_add="$($(2).kunit_add)" ccache=$(KERNEL_CCACHE) out=$(BUILD)/kunit/$(1)-$(2)

# make bisect-check: every patch builds on its own, on BISECT_MACHINE, with
# the lab's fragments of the config with the time32 calls (WITH_TIME32) and
# the KUnit options, so that all the
# code the series adds is compiled at the step that adds it.
BISECT_MACHINE ?= $(ONE_MACHINE)
.PHONY: bisect-check
bisect-check: $(MACHINE_ENVS)/$(BISECT_MACHINE).env
	$(Q)host-tools/patch-check/bisect.sh cache=$(CACHE) package=$(KERNEL) series=patches/series \
		machine_env=$(call machine-env,$(BISECT_MACHINE)) builds=$(KERNEL_BUILDS) ccache=$(KERNEL_CCACHE) \
		fragments="$(call kernel_fragments,$(BISECT_MACHINE),$(WITH_TIME32)) $(KUNIT_CONFIG)" \
		out=$(BUILD)/bisect/$(KERNEL)-$(BISECT_MACHINE)

# make hrtimer-check: 7.2's hrtimer fix (0009) measured by its kselftest
# (0010, settime-abs-sleep) on HRTIMER_MACHINE's 7.2 kernel, without the fix
# and with it: how many of its 400 absolute sleeps, each armed right after
# clock_settime(), end early (results/<run-id>/hrtimer-check.txt). The count
# without the fix comes from a race under emulation and varies from run to
# run; with the fix it must be 0.
HRTIMER_KERNEL  := linux-source-7.2
# The machine where the race shows (low resolution mode: run hrtimer4; the
# boots ask for it, highres=off, hrtimer-check.sh); not ONE_MACHINE, whose
# choice is a convenience, this is a measurement's. HRTIMER_KERNEL=
# linux-source-7.3 measures 7.3 (0 of 400 without the fix: run hrtimer73lo).
HRTIMER_MACHINE ?= i386
HRTIMER_FIX     := 0009-hrtimer-Check-a-user-timer-s-expiry-against-its-own-.patch
HRTIMER_TEST    := 0010-selftests-timers-Test-absolute-sleeps-armed-right-af.patch
HRTIMER_SERIES   = $(BUILD)/hrtimer/series-without-0009
hrtimer-envs     = $(BUILD)/kernels/$(HRTIMER_KERNEL)/$(subst /,_,$(1))/$(HRTIMER_MACHINE)-$(WITH_TIME32).env
.PHONY: hrtimer-check
hrtimer-check: deps $(call machine-env,$(HRTIMER_MACHINE)) $(HOST)/kvm-probe $(HOST)/y2038-collect
	@mkdir -p $(BUILD)/hrtimer $(RUN_DIR) && $(set-latest)
	$(Q)host-tools/kernel/series.sh list $(SERIES) 7.2 | grep -v '/$(HRTIMER_FIX)$$' | xargs -n1 realpath >$(HRTIMER_SERIES).tmp && \
		mv $(HRTIMER_SERIES).tmp $(HRTIMER_SERIES)
	$(Q)$(MAKE) --no-print-directory $(BUILD)/$($(HRTIMER_MACHINE).userland)/initramfs.cpio MACHINES=$(HRTIMER_MACHINE)
	$(Q)$(foreach s,$(SERIES) $(HRTIMER_SERIES),$(MAKE) --no-print-directory kernels KERNEL=$(HRTIMER_KERNEL) BOOT_KINDS=matrix \
		MACHINES=$(HRTIMER_MACHINE) CONFIGS=$(WITH_TIME32) SERIES=$(s) &&) true
	$(Q)host-tools/patch-check/hrtimer-check.sh out=$(RUN_DIR) run_id=$(RUN_ID) \
		machine_env=$(call machine-env,$(HRTIMER_MACHINE)) initrd=$(BUILD)/$($(HRTIMER_MACHINE).userland)/initramfs.cpio \
		cache=$(CACHE) probe=$(HOST)/kvm-probe test_patch=$(dir $(SERIES))7.2/$(HRTIMER_TEST) \
		without=$(call hrtimer-envs,$(HRTIMER_SERIES)) with=$(call hrtimer-envs,$(SERIES)) config=$(WITH_TIME32)
