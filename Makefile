# y2038-lab: boot Linux at the 2038 rollover and record what time really does.
#   make run     (default) install what is missing, build what changed, run the
#                matrix into results/<run-id>/ (results/latest points at it)
#   make check   the lab's own tests, and one real boot of every kernel config
# Variables: MACHINES="i386 ..." (default: every machines/*.mk), KERNEL=linux-source
# (or linux-source-6.12), SERIES=none (the kernels without the lab's patches,
# for comparison), CACHE=~/.cache/y2038-lab, V=1 to see every command.
#
# This file holds what every stage shares; each stage of the data flow has
# its own fragment beside its tools, included below in the order the data
# flows: source package -> patched tree -> kernel -> initramfs -> boot ->
# TAP -> verdicts -> report.

.DEFAULT_GOAL := run
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:

CACHE         ?= $(HOME)/.cache/y2038-lab
KERNEL        ?= linux-source
SERIES        ?= patches/series
BUILD         ?= build
RESULTS       ?= results
# The facts make reads from the lab's other files (the overflow, the
# results vocabulary, the kernels offered, the filesystems' images), read
# once into build/facts.mk when one of them changed (host-tools/facts.sh),
# not by a sed per fact in each of a run's makes: the tree's own build/,
# whatever BUILD is, as they are the tree's facts, the same for every BUILD
# (and a BUILD given stays empty until something is built into it). Their rows, picked by
# field: $(call rows-where,ROWS,FIELD,VALUES) is the first field of each
# row whose FIELD-th is one of VALUES; rows-where-not, of each whose is not.
FACTS := $(CURDIR)/build/facts.mk
LIBC_TEST_PATCHES := $(sort $(wildcard patches/musl/libc-test/*.patch))
FACTS_SOURCES := host-tools/facts.sh scenarios/harness/syscalls.h host-tools/verdicts/results-record.h \
	data/kernel-sources.tsv scenarios/files.c $(LIBC_TEST_PATCHES)
$(shell host-tools/facts.sh $(FACTS) $(FACTS_SOURCES))
include $(FACTS)
row-field      = $(word $(2),$(subst /, ,$(1)))
rows-where     = $(strip $(foreach r,$(1),$(if $(filter $(3),$(call row-field,$(r),$(2))),$(firstword $(subst /, ,$(r))))))
rows-where-not = $(strip $(foreach r,$(1),$(if $(filter $(3),$(call row-field,$(r),$(2))),,$(firstword $(subst /, ,$(r))))))
# The overflow, whose one home is the harness (scenarios/harness/syscalls.h:
# Y2038_LAST_SEC, the last second a signed 32-bit time_t holds), and the
# moments made from it. y2038-time,SECONDS[,FORMAT]: that long after it.
y2038-time = $(shell date -u -d @$$(($(Y2038_LAST_SEC) + $(1))) +$(or $(2),%Y-%m-%dT%H:%M:%S))
# The guest's RTC at power-on: 13 s before the overflow (03:13:55).
ifndef RTC_BASE
RTC_BASE      := $(call y2038-time,-12)
endif
# ...and 2 min before it (03:12:00) for a boot that carries a distribution's
# root (the demos, the apps and time64only boots): its initramfs takes
# seconds to unpack under TCG, every file it unpacks has that moment as its
# ctime, and a legacy stat() of a file whose ctime is past the overflow is
# EOVERFLOW. 13 s were not always enough on a busy host (run cold40a: the
# apps root of i386-compat32-n-trixie-apps was unpacked at 03:14:09, and no
# legacy Python could start).
ifndef ROOT_RTC_BASE
ROOT_RTC_BASE := $(call y2038-time,-127)
endif
# A second, short boot: a device that powers on after the overflow.
RTC_AFTER_BASE ?= 2038-01-20T00:00:00
GUEST_TIMEOUT ?= 60
BOOT_TIMEOUT  ?= 300
# The apps boots' one program (scenarios/apps/session.tsv) runs CPython's
# test modules: each case has its own limit there; these hold them all.
APPS_GUEST_TIMEOUT ?= 600
APPS_BOOT_TIMEOUT  ?= 700
ifndef RUN_ID
RUN_ID := $(shell date -u +%Y%m%dT%H%M%SZ)-$(shell echo $$PPID)
endif
export RUN_ID
RUN_DIR := $(RESULTS)/$(RUN_ID)
# This make's boots, counted apart from those of an earlier make of the same
# run (one that was stopped and is finished now): the progress line's "boot N
# of M" counts the boots this make starts.
ifndef BOOT_SESSION
BOOT_SESSION := $(shell date -u +%s)-$(shell echo $$PPID)
endif
export BOOT_SESSION

Q := $(if $(V),,@)
say = @printf '  %-8s %s\n' $(1) '$(2)'
# Guests boot in parallel, two per core: TCG runs a guest on one host
# thread, and a guest spends most of its time asleep in a wait across the
# overflow (make bench: about a third of a core each).
LAB_JOBS ?= $(shell echo $$(($$(nproc) * 2)))
# results/latest moves in one step: a concurrent run never finds it missing.
set-latest = ln -sfn $(RUN_ID) $(RESULTS)/.latest-$(RUN_ID) && mv -T $(RESULTS)/.latest-$(RUN_ID) $(RESULTS)/latest
space := $(subst ,, )
comma := ,
define newline


endef
# A make value as one shell word: 'it'\''s'.
shell-quote = '$(subst ','\'',$(1))'
commas = $(subst $(space),$(comma),$(strip $(1)))
# The words of $(1), each once, in the order they first come.
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))

# --- The results vocabulary, whose one home is host-tools/verdicts/
# results-record.h: the kinds of scenario program, each
# KIND(kind, libc, libc ABI, raw ABI, column, what), and the configs, each
# CONFIG(config, kernel or host, role, ...), read by host-tools/facts.sh.
# result-kinds: the kinds whose FIELD (2: libc, 3: libc ABI) is, or is not,
# one of VALUES.
RESULTS_RECORD := host-tools/verdicts/results-record.h
# A family's programs (NAME-KIND), the glibc ones among them, and the kind
# of the programs that judge the kernel.
FAMILY_KINDS := $(call rows-where-not,$(RESULT_KIND_ROWS),3,kernel)
GLIBC_KINDS  := $(filter $(call rows-where,$(RESULT_KIND_ROWS),2,glibc),$(FAMILY_KINDS))
MUSL_KINDS   := $(call rows-where,$(RESULT_KIND_ROWS),2,musl)
KERNEL_KIND  := $(call rows-where,$(RESULT_KIND_ROWS),3,kernel)
# The kernel kind's programs that run before the families' (first) or
# after them (last).
result-kernel-programs = $(call rows-where,$(RESULT_KERNEL_PROGRAM_ROWS),2,$(1))
# result-configs,WHERE: the configs of kernel or host, in order.
result-configs = $(call rows-where,$(RESULT_CONFIG_ROWS),2,$(1))
# The kernel configs each machine's kernels are built with, and the host
# columns (host-tools/boot/boot.mk's FAKED_KINDS).
KERNEL_CONFIGS := $(call result-configs,kernel)
HOST_CONFIGS   := $(call result-configs,host)
# The kernel config of each role, for what boots or builds one config only:
# WITH_TIME32 (compat32-y) and WITHOUT_TIME32 (compat32-n).
config-of-role = $(filter $(call rows-where,$(RESULT_CONFIG_ROWS),3,$(1)),$(KERNEL_CONFIGS))
WITH_TIME32    := $(call config-of-role,with-time32)
WITHOUT_TIME32 := $(call config-of-role,without-time32)

# --- Machines: facts are data (machines/*.mk over machines/defaults.mk).
include machines/defaults.mk
MACHINE_FILES := $(filter-out defaults,$(patsubst machines/%.mk,%,$(sort $(wildcard machines/*.mk))))
include $(MACHINE_FILES:%=machines/%.mk)
$(foreach m,$(MACHINE_FILES),$(if $(filter 32 64,$($(m).bits)),,\
	$(error machines/$(m).mk: $(m).bits is "$($(m).bits)": the kernel's word size, 32 or 64)))
# Every subset of machines is derived from their keys, never listed. The
# order they are built and booted in: the 32-bit kernels first, whose
# verdicts are the ones most asked for.
machines-where = $(strip $(foreach m,$(MACHINE_FILES),$(if $(filter $(2),$($(m).$(1))),$(m))))
MACHINES_32BIT := $(call machines-where,bits,32)
ALL_MACHINES   := $(MACHINES_32BIT) $(call machines-where,bits,64)
# $(1): machine, $(2): key: its own value, else its userland's, else its
# board's, else the default. Its packages are its own and its userland's.
key-of = $(if $(filter undefined,$(origin $(1).$(2))),,$(1).$(2))
define machine-key
ifeq ($(origin $(1).$(2)),undefined)
$(1).$(2) := $(if $(call key-of,userland.$($(1).userland),$(2)),$(userland.$($(1).userland).$(2)),$(if $(call key-of,board.$($(1).board),$(2)),$(board.$($(1).board).$(2)),$(call default.$(2),$(1))))
endif
endef
$(foreach m,$(ALL_MACHINES),$(foreach k,$(MACHINE_KEYS),$(eval $(call machine-key,$(m),$(k)))))
$(foreach m,$(ALL_MACHINES),$(eval $(m).packages := $(userland.$($(m).userland).packages) $($(m).packages)))
$(foreach m,$(ALL_MACHINES),$(if $(filter undefined,$(origin userland.$($(m).userland).ucross)),\
	$(error machines/$(m).mk: its userland "$($(m).userland)" is not declared: the lab knows $(patsubst userland.%.ucross,%,$(filter userland.%.ucross,$(.VARIABLES))) (machines/defaults.mk))))
MACHINES ?= $(ALL_MACHINES)
# The Debian architectures the lab fetches packages of (host-tools/distro/
# debian.sh): its machines' userlands and shipped configs, and this host's,
# through whose lists arch-independent packages (linux-source) come.
export LAB_DEBIAN_ARCHES := $(sort $(foreach m,$(ALL_MACHINES),$($(m).userland) $($(m).debian_arch)) \
	$(shell dpkg --print-architecture 2>/dev/null))
# The machines named, in the order they are built and booted.
override MACHINES := $(filter $(MACHINES),$(ALL_MACHINES)) $(filter-out $(ALL_MACHINES),$(MACHINES))
# make try: every machine named (all by default) that runs the program's
# userland (TRY_ARCH, set by try).
ifdef TRY_ARCH
try_machines := $(strip $(foreach m,$(ALL_MACHINES),$(if $(filter $(TRY_ARCH),$($(m).userland)),$(m))))
override MACHINES := $(filter $(try_machines),$(MACHINES))
ifeq ($(MACHINES),)
$(error make try: the program is $(TRY_ARCH), and MACHINES= names none of the machines that run it ($(try_machines)))
endif
endif
unknown := $(filter-out $(ALL_MACHINES),$(MACHINES))
ifneq ($(unknown),)
$(error unknown machine "$(unknown)": the lab knows $(ALL_MACHINES) (one file each in machines/))
endif
CONFIGS   ?= $(KERNEL_CONFIGS)
# The one machine of the checks and tools that boot or build on one machine
# (make check's single-machine checks, bisect-check, lava-check, make
# bench's narrowed run): i386, whose programs every host builds with
# i686-linux-gnu-gcc and which boots fastest (machines/i386.mk: 128 MiB).
ONE_MACHINE ?= i386
# The shell reads a machine's facts from here, never from its own copy.
MACHINE_ENVS := $(BUILD)/machines
machine-env = $(MACHINE_ENVS)/$(1).env
$(MACHINE_ENVS)/%.env: machines/%.mk machines/defaults.mk
	$(shell mkdir -p $(@D))$(file >$@.tmp,# machines/$*.mk over machines/defaults.mk, for the shell (host-tools/lib.sh)$(newline)machine=$*$(newline)$(foreach k,$(MACHINE_KEYS),$(k)=$(call shell-quote,$($*.$(k)))$(newline)))
	@mv $@.tmp $@

# The lab needs the common packages; a machine whose own packages this host
# cannot provide (not root, or not in this Debian) is skipped with the reason.
# The kernels the lab offers (KERNEL=) are data/kernel-sources.tsv: those it
# names "apt" are installed here; the others are fetched into the cache when
# used. The series must apply to every one, so check needs them all.
# kernel-sources-where,FIELD,VALUES: the kernels whose FIELD (2: from,
# 4: check) is one of VALUES.
kernel-sources-where = $(call rows-where,$(KERNEL_SOURCE_ROWS),$(1),$(2))
KERNEL_CHOICES   := $(foreach r,$(KERNEL_SOURCE_ROWS),$(firstword $(subst /, ,$(r))))
KERNEL_APT       := $(call kernel-sources-where,2,apt)
COMMON_PACKAGES  := $(sort $(filter-out $(filter-out $(KERNEL_APT),$(KERNEL_CHOICES)),$(KERNEL)) $(KERNEL_APT)) gcc make bc flex bison gawk dpkg-dev libelf-dev libssl-dev cpio xz-utils lz4 ccache patch jq e2fsprogs python3 debootstrap openssl \
	dosfstools exfatprogs xfsprogs btrfs-progs f2fs-tools squashfs-tools xorriso zstd
MACHINE_PACKAGES := $(sort $(foreach m,$(MACHINES),$($(m).packages) $($(m).faketime_packages)))
not_installed = $(shell for p in $(1); do \
	[ "$$(dpkg-query -W -f='$${Status}' $$p 2>/dev/null)" = "install ok installed" ] || echo $$p; done)
ifneq ($(filter lab inputs boots boot-check patch-check kunit lava-jobs lava-check lava-submit-jobs,$(MAKECMDGOALS)),)
$(foreach m,$(MACHINES),$(eval $(m).missing := $(call not_installed,$($(m).packages))))
endif
READY    := $(foreach m,$(MACHINES),$(if $($(m).missing),,$(m)))
SKIPPED  := $(filter-out $(READY),$(MACHINES))
USERLANDS := $(sort $(foreach m,$(READY),$($(m).userland)))
# A userland's facts (machines/defaults.mk): $(call ukey,USERLAND,KEY)
ukey       = $(userland.$(1).$(2))
ucross     = $(call ukey,$(1),ucross)

# --- Host tools (run on this machine): each stage names its own, built here.
HOST        := $(BUILD)/host
HOST_CC     ?= gcc
# Hardened as Debian builds its programs (tests/unit/hardening.sh): they
# parse what guests, roots and LAVA servers send, and run as root.
HOST_CFLAGS ?= -O2 -g -Wall -Wextra -Werror -fstack-protector-strong -D_FORTIFY_SOURCE=2 -Wl,-z,relro,-z,now
# The headers a binary's sources include, as the compiler found them
# (BINARY.d beside it, included below), so that a changed header
# (results-record.h, boot-record.h, ...) rebuilds every binary that
# includes it. -MM in a step of its own: given several sources and one -o,
# -MMD writes each source's list to the same BINARY.d, and the last wins.
# $(1): the compiler
compile-deps = $(1) -MM -MP -MT $@ $(filter %.c,$^) >$@.d.tmp && mv $@.d.tmp $@.d
# The compiler and flags they are built with, written when they change, so
# that a change of them (hardening, issue 48) rebuilds every host tool.
# (remade only then, so that make -q says an unchanged tool is up to date)
HOST_FLAGS     := $(BUILD)/host-flags
HOST_FLAGS_NOW := $(HOST_CC) $(HOST_CFLAGS)
ifneq ($(file <$(HOST_FLAGS)),$(HOST_FLAGS_NOW))
$(HOST_FLAGS): FORCE
endif
$(HOST_FLAGS):
	@mkdir -p $(@D); echo '$(HOST_FLAGS_NOW)' >$@
# (their .d files, which make reads, are made with them, never alone)
$(HOST)/%.d: ;
$(HOST)/%: $(HOST_FLAGS)
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ $(filter %.c,$^) $(LDLIBS)
	$(Q)$(call compile-deps,$(HOST_CC))

deps:
	$(Q)host-tools/deps.sh $(COMMON_PACKAGES)
	$(Q)host-tools/deps.sh --optional $(MACHINE_PACKAGES)

# --- The stages, in the order the data flows through them.
include host-tools/kernel/kernel.mk
include host-tools/libc/libc.mk
include host-tools/libc/musl.mk
include host-tools/go/go.mk
include host-tools/initramfs/initramfs.mk
include host-tools/boot/boot.mk
include host-tools/verdicts/verdicts.mk
include host-tools/report/report.mk
include host-tools/distro/distro.mk
include host-tools/patch-check/patch-check.mk
include host-tools/engines/engines.mk
include host-tools/bench/bench.mk
include tests/tests.mk
-include $(wildcard $(HOST)/*.d $(BUILD)/tests/*.d $(FUZZ_DIR)/*.d)

.PHONY: run deps clean FORCE
# make run, the one driver (docs/targets.md: make run, step by step):
#  1. setup: the host tools, the machines' facts and the PLAN, under the
#     inputs lock;
#  2. the kernels' queue, in the background, one kernel at a time in
#     ALL_MACHINES order (the 32-bit machines first);
#  3. lab (host-tools/verdicts/verdicts.mk): every boot in BOOT_SCHEDULE
#     order, the first machine's matrix first, each as soon as its own
#     kernel is built (kernel.sh waits for the queue and reuses it) and its
#     userland's inputs of its kind are (inputs-ready-USERLAND-KIND:
#     boot.mk), each block
#     printed as soon as its boots are done, then the closing summary;
#  4. beside it, the prefetch: once the first verdict's kernels are built
#     (nothing else takes the cores from them), every set of inputs in
#     boot order, at the idle priority (SCHED_IDLE: it runs only on a core
#     nothing else wants; nice 19 alone still took cores from the first
#     kernel's build, issue 49), so that they are ready when their boots are.
# A recursive make each, for a reason: the kernels and the inputs each
# have locks of their own (the cache's, BUILD's) that a run shares with
# every other run; a make holding the inputs lock while it booted would
# hold every other run's inputs. $(MAKE) written out, so that make -n run
# shows the whole plan; the kills may find the makes gone, and the shell
# runs with -e. The prefetch is a process group of its own (setsid), ended
# whole when the run ends or is interrupted: a make it started is never
# left running on. With no matrix to wait for (no FIRST_KERNELS) it starts
# at once; a make with no target would be make run again, on the same run
# (make check's concurrent runs, BOOT_KINDS=rtc-after: two makes wrote one
# block). make bench measures the first verdict against the first kernel
# built alone.
run: deps
	$(Q)mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -s \
		$(SETUP_INPUTS) $(KERNEL_ENVS)/plan
	$(Q)$(MAKE) --no-print-directory kernels & kernels=$$!; \
	setsid sh -c '$(if $(FIRST_KERNELS),$(MAKE) --no-print-directory -s $(FIRST_KERNELS) >/dev/null 2>&1 || true; )\
		for i in $(INPUT_SETS); do chrt --idle 0 $(MAKE) --no-print-directory -s inputs-ready-$$i || true; done' & prefetch=$$!; \
	trap 'kill -- -$$prefetch 2>/dev/null' INT TERM HUP; \
	rc=0; $(MAKE) --no-print-directory -j$(LAB_JOBS) lab || rc=$$?; \
	kill $$kernels 2>/dev/null || true; kill -- -$$prefetch 2>/dev/null || true; wait $$kernels $$prefetch || true; exit $$rc

clean:
	rm -rf $(BUILD)
