# make check: the lab's own tests (tests/). The closing line sums the tests
# of every part. First, whether Debian serves a newer stable version of a
# kernel series offered than the lab takes (a "to do": make check says so
# and fails nothing for it, host-tools/kernel/newer-served.sh); then
# unit/: host-side tests of every tool on fixtures, no guest;
# fuzz/: the parsers of untrusted input under libFuzzer; run/: the real
# thing, booted (make boot-check) on the 32-bit kernels (CHECK_MACHINES:
# i386 and armv7; x86_64 and arm64, the same kernels' compat paths, are
# make run's); then the series against every kernel with checkpatch, and
# its KUnit tests on i386 in the kernel just built, so that a cold make
# check builds the default kernel version only: it stays under an hour on
# 2 cores. The other kernels' runs (make kernels-check: every default boot
# kind, 19 min for 6.12 with its 8 kernels built, 4 min warm) and the other
# KUnit runs (make kunit-all: armv7, which tests the other answer of
# rtc_hctosys_time_ok(), and each other kernel, 9 min each) are targets of
# their own. Every script prints TAP with
# host-tools/tap.sh and adds its counts to $COUNTS.
CHECK_MACHINES ?= $(MACHINES_32BIT)
# The machine of the checks that boot one machine: the fault boots, the host
# column both ways, the unpatched SIOCGSTAMP_OLD boot, the apps boots,
# validate-distro and try, LAVA, concurrent and interrupted runs, the other
# kernels' matrices and the KUnit run. Their scripts build and read i386
# programs (i686-linux-gnu-gcc, DISTRO_ARCH=i386).
CHECK_MACHINE  := $(ONE_MACHINE)
CHECK_KERNELS  ?= $(filter-out $(KERNEL),$(call kernel-sources-where,4,matrix))
KUNIT_CHECK_RUNS = $(if $(filter $(CHECK_MACHINE),$(KUNIT_MACHINES)),$(KERNEL):$(CHECK_MACHINE))

# The report page is checked in Debian's Chromium; the parsers are fuzzed
# with clang's libFuzzer; LAVA's logs are read with PyYAML (unit/lava-api.sh).
CHECK_PACKAGES := chromium clang libclang-rt-14-dev python3-jsonschema python3-yaml
COUNTS := $(abspath $(BUILD)/check-counts)
.PHONY: check unit-tests boot-check fuzz
check: deps
	$(Q)host-tools/deps.sh $(CHECK_PACKAGES)
	@mkdir -p $(BUILD) && rm -f $(COUNTS)
	$(Q)COUNTS=$(COUNTS) host-tools/kernel/newer-served.sh cache=$(CACHE) suites="$(KERNEL_SUITES)"
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory unit-tests
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS)
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory boot-check MACHINES="$(CHECK_MACHINES)"
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory checkpatch
	$(Q)COUNTS=$(COUNTS) $(MAKE) --no-print-directory kunit-all KUNIT_CHECK="$(KUNIT_CHECK_RUNS)"
	@awk '{ p += $$1; f += $$2; s += $$3; t += $$4 } END { printf "check: %d passed, %d failed, %d skipped%s\n", p, f, s, t ? sprintf(", %d to do", t) : ""; exit f > 0 }' $(COUNTS)

# --- Unit tests: each script of tests/unit/ (given the built tools' folder
# and BUILD): each tool's, and unit-c.sh, the C unit tests under ASan and
# UBSan.
UNIT_TOOLS := y2038-collect kconfig-verify mkinitramfs kvm-probe y2038-scan y2038-kconfig y2038-run
UNIT_SCRIPTS := $(sort $(wildcard tests/unit/*.sh))
$(BUILD)/tests/unit: tests/unit/unit.c host-tools/verdicts/tap.c host-tools/verdicts/expect.c \
		host-tools/kernel/kconfig-parse.c $(HARNESS) guest-init/moment.h
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
		-o $@ $(filter %.c,$^)
	$(Q)$(call compile-deps,$(HOST_CC))
unit-tests: $(UNIT_TOOLS:%=$(HOST)/%) $(BUILD)/tests/unit $(DEBIAN_CONFIGS) $(call machine-env,$(CHECK_MACHINE))
	$(Q)rc=0; for t in $(UNIT_SCRIPTS); do $$t $(HOST) $(BUILD) || rc=1; done; exit $$rc

# --- Fuzzing: every parser of untrusted input (the guest's TAP, .config
# files, the expectations table, ELF files, the boot record a LAVA server's
# answers become, a path inside a user's root) under libFuzzer, ASan and UBSan.
# make check runs each target briefly; make fuzz FUZZ_SECONDS=N runs it long.
# What a run finds goes to build/fuzz/ (corpus-NAME/, crash-NAME-*), never
# into tests/fuzz/corpus/.
FUZZ_TARGETS       := tap kconfig expect scan record closure
FUZZ_DIR           := $(BUILD)/fuzz
FUZZ_CFLAGS        := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS       ?= 600
FUZZ_CHECK_SECONDS ?= 10
$(FUZZ_DIR)/fuzz-tap: tests/fuzz/fuzz-tap.c host-tools/verdicts/tap.c host-tools/verdicts/tap.h
$(FUZZ_DIR)/fuzz-kconfig: tests/fuzz/fuzz-kconfig.c host-tools/kernel/kconfig-parse.c host-tools/kernel/kconfig-parse.h
$(FUZZ_DIR)/fuzz-expect: tests/fuzz/fuzz-expect.c host-tools/verdicts/expect.c host-tools/verdicts/expect.h
$(FUZZ_DIR)/fuzz-scan: tests/fuzz/fuzz-scan.c $(SCAN_ELF_SOURCES)
$(FUZZ_DIR)/fuzz-scan: FUZZ_LIBS := -lelf
$(FUZZ_DIR)/fuzz-record: tests/fuzz/fuzz-record.c host-tools/verdicts/read-record.c host-tools/verdicts/collect-write.h
$(FUZZ_DIR)/fuzz-closure: tests/fuzz/fuzz-closure.c host-tools/distro/scan-closure.c $(SCAN_ELF_SOURCES)
$(FUZZ_DIR)/fuzz-closure: FUZZ_LIBS := -lelf
$(FUZZ_DIR)/fuzz-%:
	$(call say,FUZZCC,$@)
	@mkdir -p $(@D)
	$(Q)clang $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^) $(FUZZ_LIBS)
	$(Q)$(call compile-deps,clang)
fuzz: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%)
	$(Q)tests/fuzz/fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# --- Every kernel config, booted once for real; every cell must match. Then
# each fault (panic, hang, QEMU failure, no kernel) provoked for real, and
# i386's host column both ways a host runs it (natively, under qemu-i386).
# Then the unpatched kernel where the series matters (a 32-bit ARM device
# powering on after the overflow; SIOCGSTAMP_OLD on i386 with
# COMPAT_32BIT_TIME=n), so that what each patch is judged against is
# measured too, not assumed. Then validate-distro and
# try, for real on i386; the run exported as KCIDB JSON and validated; every
# cell as a LAVA job, validated, and i386 compat32-y run through lava-run
# with the lab's verdicts; two make runs at once; a run interrupted three
# ways and resumed. Around it all, the host's
# kernel and clock must be as they were (host-untouched.sh).
UNPATCHED_CHECK := MACHINES=armv7 CONFIGS=$(WITH_TIME32) BOOT_KINDS=rtc-after FAKETIME=no
# ...and where the series' first patch matters: SIOCGSTAMP_OLD with
# COMPAT_32BIT_TIME=n, without it (the overrun) and with it (the old layout).
UNPATCHED_STAMP_CHECK := MACHINES=$(CHECK_MACHINE) CONFIGS=$(WITHOUT_TIME32) BOOT_KINDS=matrix FAKETIME=no
# The apps boots on one machine only: each distribution's applications for
# real, without the other's slower ones (make run adds them, APPS_MACHINES).
CHECK_APPS_MACHINES := $(CHECK_MACHINE)
# Every kind of boot make run makes but the libc column's time64-only glibc,
# whose two builds (6 to 16 min each on 2 cores, cold) would take it past
# its 50-minute target: make libc-check boots it; make check applies its series
# (glibc-series) and tests the libc's installation (unit/install-libc.sh).
# Nor the filesystems boots: their kernels (the filesystems flavour, built
# from nothing in their own tree: 352 s for i386, 284 s for armv7 here)
# would put a cold make check (35 min 51 s) within minutes of that target on
# a machine whose timings vary by a quarter: make filesystems-check boots
# them; make check tests their images (unit/fs-images.sh) and boot.sh's
# disks (unit/tools.sh).
# $(call when-ready,MACHINE,CHECK,COMMAND): COMMAND where MACHINE boots
# here; elsewhere a TAP skip of CHECK saying why: a check never vanishes.
not-ready-reason = $(if $(filter $(1),$(MACHINES)),$(1) is not booted here: its packages are missing ($($(1).missing)),$(1) is not in MACHINES ($(strip $(MACHINES))))
when-ready = $(if $(filter $(1),$(READY)),$(3),tests/run/skipped.sh $(call shell-quote,$(2)) $(call shell-quote,$(call not-ready-reason,$(1))))
CHECK_BOOT_KINDS := $(filter-out $(LAB_GLIBCS) filesystems,$(BOOT_KINDS))
CHECK_BOOTS := $(foreach k,$(CHECK_BOOT_KINDS),$(foreach m,$(if $(filter %-apps,$(k)),$(filter $(CHECK_APPS_MACHINES),$(call kind_machines,$(k))),$(call kind_machines,$(k))),$(CONFIGS:%=$(m)-%)))
boot-check: $(call machine-env,$(CHECK_MACHINE)) $(HOST)/y2038-run
	$(Q)tests/run/host-untouched.sh snapshot $(BUILD)/host-before
	$(Q)$(call locked-lab,RESULTS=$(BUILD)/check-results APPS_MACHINES="$(CHECK_APPS_MACHINES)" BOOT_KINDS="$(CHECK_BOOT_KINDS)")
	$(Q)tests/run/check-run.sh $(BUILD)/check-results/latest $(words $(CHECK_BOOTS)) $(words $(FAKED_RUNS))
	$(Q)tests/run/report-check.sh $(BUILD)/check-results/latest
	$(Q)$(call when-ready,armv7,the unpatched kernel: a 32-bit ARM device powering on after the overflow,\
		$(call locked-lab,RESULTS=$(BUILD)/check-unpatched SERIES=none $(UNPATCHED_CHECK)) && \
		tests/run/check-run.sh $(BUILD)/check-unpatched/latest 1 0)
	$(Q)$(call when-ready,$(CHECK_MACHINE),the unpatched kernel: SIOCGSTAMP_OLD with COMPAT_32BIT_TIME=n,\
		$(call locked-lab,RESULTS=$(BUILD)/check-unpatched-stamp SERIES=none $(UNPATCHED_STAMP_CHECK)) && \
		tests/run/check-run.sh $(BUILD)/check-unpatched-stamp/latest 1 0 && \
		tests/run/stamp-fix-check.sh $(BUILD)/check-unpatched-stamp/latest $(BUILD)/check-results/latest)
	$(Q)tests/run/fault-boots.sh $(BUILD) $(HOST) $(CACHE) $(KERNEL_ENVS)/$(CHECK_MACHINE)-$(WITH_TIME32).env $(call machine-env,$(CHECK_MACHINE))
	$(Q)$(if $(filter $(CHECK_MACHINE),$(FAKED_MACHINES)),tests/run/host-column-ways.sh $(BUILD) $(HOST) $(call machine-env,$(CHECK_MACHINE)),\
		tests/run/skipped.sh "host column: $(CHECK_MACHINE)'s programs run natively and under qemu-user" \
		$(call shell-quote,$(if $(filter yes,$(FAKETIME)),$(call not-ready-reason,$(CHECK_MACHINE)),FAKETIME=$(FAKETIME): no host column)))
	$(Q)$(call when-ready,$(CHECK_MACHINE),validate-distro and try for real,tests/run/distro-check.sh $(BUILD))
	$(Q)tests/run/kcidb-check.sh $(BUILD)/check-results/latest
	$(Q)$(call when-ready,$(CHECK_MACHINE),a cell booted by the lab and by lava-run,$(MAKE) --no-print-directory lava-check RESULTS=$(BUILD)/check-lava)
	$(Q)$(call when-ready,$(CHECK_MACHINE),two make runs at once,tests/run/concurrent-runs.sh $(BUILD)/check-concurrent)
	$(Q)$(call when-ready,$(CHECK_MACHINE),a run interrupted three ways and resumed,tests/run/interrupted-run.sh $(BUILD)/check-interrupted $(BUILD) $(CACHE))
	$(Q)$(call when-ready,$(CHECK_MACHINE),a boot kind added as one data file,tests/run/new-kind.sh $(BUILD)/check-new-kind $(BUILD) $(CACHE) $(CHECK_MACHINE) $(WITH_TIME32))
	$(Q)$(call when-ready,$(CHECK_MACHINE),the cold run's burst beside a CPU hog,tests/run/burst.sh $(BUILD)/check-burst 1 $(CURDIR) $(CHECK_BURST))
	$(Q)tests/run/host-untouched.sh compare $(BUILD)/host-before

# --- The cold run's burst (tests/run/burst.sh): every boot of the kinds
# whose cases meet moments released at once, beside a CPU hog at normal
# priority, BURST_REPEAT times (make burst-check: i386 and armv7, both
# configs, the matrix, the demos and the apps); each run every cell as
# expected and none left late, a case that missed its moment booted again
# alone. make check keeps one short form: one run, i386 with =n, the
# matrix, bookworm's demo and trixie's apps (the kind that missed it, issue
# 52), kernels and inputs built by its run before.
BURST_REPEAT ?= 5
BURST_KINDS  := matrix $(DEMO_DISTROS) $(APPS_DISTROS:%=%-apps)
burst-vars = BOOT_KINDS="$(1)" MACHINES="$(2)" CONFIGS="$(3)" APPS_MACHINES="$(2)" \
	LAB_JOBS=$(words $(foreach k,$(1),$(foreach m,$(2),$(foreach c,$(3),$(m)$(c)$(k)))))
CHECK_BURST  := $(call burst-vars,matrix bookworm trixie-apps,$(CHECK_MACHINE),$(WITHOUT_TIME32))
.PHONY: burst-check
burst-check: $(foreach m,$(CHECK_MACHINES),$(call machine-env,$(m)))
	$(Q)mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -j$(LAB_JOBS) kernels inputs \
		$(call burst-vars,$(BURST_KINDS),$(CHECK_MACHINES),$(CONFIGS)) FAKETIME=no
	$(Q)tests/run/burst.sh $(BUILD)/check-burst $(BURST_REPEAT) $(CURDIR) $(call burst-vars,$(BURST_KINDS),$(CHECK_MACHINES),$(CONFIGS))

# --- make libc-check: the libc column's glibcs (LAB_GLIBCS: time64-only
# and Debian's floor with the series' fallback) built for each 32-bit
# userland (make libc: 6 to 16 min each on 2 cores, cold) and booted on the
# 32-bit machines with both configs. Every cell must be as expected, and
# every one of them must name its libc.
.PHONY: libc-check
libc-check: $(READY:%=$(MACHINE_ENVS)/%.env)
	$(Q)$(MAKE) --no-print-directory libc MACHINES="$(CHECK_MACHINES)"
	$(Q)$(call locked-lab,RESULTS=$(BUILD)/check-libc BOOT_KINDS="$(LAB_GLIBCS)" FAKETIME=no MACHINES="$(CHECK_MACHINES)") && \
		tests/run/check-run.sh $(BUILD)/check-libc/latest $(words $(foreach g,$(LAB_GLIBCS),$(CHECK_MACHINES:%=% %))) 0 && \
		$(foreach g,$(LAB_GLIBCS),tests/run/libc-column.sh $(BUILD)/check-libc/latest $($(g).glibc_name) $(g) &&) true

# --- make filesystems-check: the files family on every filesystem
# (FS_IMAGES as disks, the filesystems flavour's kernels) on the 32-bit
# machines with both configs. Every cell must be as expected.
.PHONY: filesystems-check
filesystems-check: $(READY:%=$(MACHINE_ENVS)/%.env)
	$(Q)$(call locked-lab,RESULTS=$(BUILD)/check-filesystems BOOT_KINDS=filesystems FAKETIME=no MACHINES="$(CHECK_MACHINES)") && \
		tests/run/check-run.sh $(BUILD)/check-filesystems/latest $(words $(foreach m,$(filter $(CHECK_MACHINES),$(FILESYSTEMS_MACHINES)),$(CONFIGS))) 0

# --- make kernels-check: make run on each other kernel whose check column
# in data/kernel-sources.tsv says "matrix" (6.12, 7.2 and 7.3; the default
# kernel is make run's own), with every default boot kind on the 32-bit
# machines (CHECK_MACHINES: i386 and armv7) and both configs: the series
# builds and measures there, and every cell must be as expected
# (KERNELS_CHECK= one kernel or a few).
KERNELS_CHECK ?= $(CHECK_KERNELS)
KERNELS_CHECK_BOOTS = $(foreach k,$(BOOT_KINDS),$(foreach m,$(filter $(CHECK_MACHINES),$(call kind_machines,$(k))),$(CONFIGS:%=$(m)-%)))
.PHONY: kernels-check
kernels-check: $(foreach m,$(CHECK_MACHINES),$(call machine-env,$(m)))
	$(Q)$(call when-ready,$(CHECK_MACHINE),every default boot kind on every other kernel offered,$(foreach k,$(KERNELS_CHECK),\
		$(call locked-lab,RESULTS=$(BUILD)/check-kernels/$(k) KERNEL=$(k) MACHINES="$(CHECK_MACHINES)" FAKETIME=no) && \
		tests/run/check-run.sh $(BUILD)/check-kernels/$(k)/latest $(words $(KERNELS_CHECK_BOOTS)) 0 &&) true)

# --- make go-time64-check: the lab's Go (make go-time64: the Go series,
# patches/go/, built into Debian's Go 1.27) in the apps boots of
# GO_TIME64_DISTRO on the 32-bit machines, both configs, on each kernel of
# GO_TIME64_CHECK_KERNELS (the default one, and 7.3: the first whose =n has
# no time32 vDSO entries): every cell as expected, and every boot has the
# lab's Go's cells, Go's own tests of the series passed among them
# (tests/run/go-time64-cells.sh).
GO_TIME64_CHECK_KERNELS ?= $(KERNEL) linux-source-7.3
GO_TIME64_CHECK_BOOTS = $(foreach m,$(CHECK_MACHINES),$(call kind_configs,$(GO_TIME64_DISTRO)-apps))
.PHONY: go-time64-check
go-time64-check: $(foreach m,$(CHECK_MACHINES),$(call machine-env,$(m)))
	$(Q)$(MAKE) --no-print-directory go-time64
	$(Q)$(call when-ready,$(CHECK_MACHINE),the lab's Go in the apps boots,$(foreach k,$(GO_TIME64_CHECK_KERNELS),\
		$(call locked-lab,RESULTS=$(BUILD)/check-go-time64/$(k) KERNEL=$(k) GO_TIME64=yes FAKETIME=no \
			MACHINES="$(CHECK_MACHINES)" APPS_MACHINES="$(CHECK_MACHINES)" BOOT_KINDS=$(GO_TIME64_DISTRO)-apps) && \
		tests/run/check-run.sh $(BUILD)/check-go-time64/$(k)/latest $(words $(GO_TIME64_CHECK_BOOTS)) 0 && \
		tests/run/go-time64-cells.sh $(BUILD)/check-go-time64/$(k)/latest $(GO_TIME64_VERSION) &&) true)
