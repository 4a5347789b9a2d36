# Stage: source package -> a libc for kernels without the time32 system
# calls (host-tools/libc/). A distribution's glibc, rebuilt from its own
# source package with the lab's glibc series (patches/glibc/), for each
# 32-bit userland, two ways (LAB_GLIBCS): with --enable-kernel=5.1
# (time64only: __ASSUME_TIME64_SYSCALLS, only the *_time64 system calls),
# and with Debian's own floor (debian-fallback: the time32 system call first
# and the time64 one when it fails with ENOSYS, what Debian could ship).
# What a 32-bit system needs to run on a kernel built with
# COMPAT_32BIT_TIME=n. Built once into the cache (glibc.sh: by the hash of
# its recipe); make libc says what each build took.
#
# The distribution whose glibc it is, its source package's version (pinned,
# so that a result names what it ran), the kernel each build assumes and its
# name in the results' libc column (the lab's, since its loader says "2.41"
# as the shipped one does).
TIME64ONLY_DISTRO  ?= trixie
TIME64ONLY_KERNEL  ?= 5.1
TIME64ONLY_SERIES  ?= patches/glibc/series
TIME64ONLY_VERSION  = $($(TIME64ONLY_DISTRO).glibc_source)
TIME64ONLY_LIBC     = glibc-$(firstword $(subst -, ,$(TIME64ONLY_VERSION)))-time64only
# debian: the floor Debian's own build configures, read from its source
# (glibc.sh: MIN_KERNEL_SUPPORTED, debian/sysdeps/linux.mk).
FALLBACK_KERNEL    ?= debian
FALLBACK_SERIES    ?= $(TIME64ONLY_SERIES)
FALLBACK_LIBC       = glibc-$(firstword $(subst -, ,$(TIME64ONLY_VERSION)))-debian-fallback
# Each build: its boot kind (boot.mk, initramfs.mk), its name and glibc.sh's
# arguments. DISTRO_LIBC= takes either name (distro.mk).
LAB_GLIBCS := time64only debian-fallback
time64only.glibc_name      = $(TIME64ONLY_LIBC)
time64only.glibc_args      = kernel=$(TIME64ONLY_KERNEL) series=$(TIME64ONLY_SERIES) name=$(TIME64ONLY_LIBC)
debian-fallback.glibc_name = $(FALLBACK_LIBC)
debian-fallback.glibc_args = kernel=$(FALLBACK_KERNEL) series=$(FALLBACK_SERIES) name=$(FALLBACK_LIBC)
# What each makes of the time32 system calls where the kernel has them:
# none, or the time32 call first (the census on =y counts it), and the
# time64 one where it fails (validate-distro's causes of a break).
time64only.glibc_time32      := none
debian-fallback.glibc_time32 := first
# The build a lab libc's name is. $(1): the name
lab_glibc_of = $(firstword $(foreach g,$(LAB_GLIBCS),$(if $(filter $(1),$($(g).glibc_name)),$(g))))
# What make libc builds: the userland of every ready machine (32-bit: an
# x86_64 or arm64 machine runs i386 or armhf programs).
LIBC_USERLANDS     := $(sort $(foreach m,$(READY),$($(m).userland)))

GLIBC_SOURCE_ARGS = cache=$(CACHE) suite=$($(TIME64ONLY_DISTRO).suite) mirror=$(DEBIAN_MIRROR) \
	version=$(TIME64ONLY_VERSION)
GLIBC_ARGS = $(GLIBC_SOURCE_ARGS) $(time64only.glibc_args)
# $(BUILD)/USERLAND/KIND.libc: the cached build's folder (root/, libc,
# recipe, build.log). glibc.sh decides whether it is up to date (its
# recipe's hash), so make always asks it (a reuse takes a second); the file
# changes only with the build.
libc_triplet = $(patsubst %-,%,$(call ucross,$(1)))
# and Debian's multiarch folder for it (i386-linux-gnu, arm-linux-gnueabihf)
libc_multiarch = $(shell dpkg-architecture -a$(1) -qDEB_HOST_MULTIARCH 2>/dev/null)
# A build that fails leaves the reason (FILE.error), not the file: the boots
# that would run it record why, and the run goes on. Its progress lines go
# to the terminal as they come, and to FILE.log. $(1): KIND
define lab-glibc-rule
$(LIBC_USERLANDS:%=$(BUILD)/%/$(1).libc): $(BUILD)/%/$(1).libc: FORCE | libc-plan
	@mkdir -p $$(@D)
	$$(Q)rm -f $$@.error; { host-tools/libc/glibc.sh build $$(GLIBC_SOURCE_ARGS) $$($(1).glibc_args) arch=$$* \
		triplet=$$(call libc_triplet,$$*) multiarch=$$(call libc_multiarch,$$*) out=$$@ 2>&1 | tee $$@.log >&2; } || \
		{ rm -f $$@; grep -m1 '^[a-z.]*\.sh:' $$@.log >$$@.error || tail -1 $$@.log >$$@.error; }
endef
$(foreach g,$(LAB_GLIBCS),$(eval $(call lab-glibc-rule,$(g))))

# The plan line of each build: which are reused, and how long the others
# took here last (a first build: LIBC_FIRST_BUILD_MIN, measured in
# docs/libc.md).
LIBC_FIRST_BUILD_MIN := 6
.PHONY: libc-plan
libc-plan:
	$(Q)$(foreach g,$(LAB_GLIBCS),plan=; for ut in $(foreach u,$(LIBC_USERLANDS),$(u):$(call libc_triplet,$(u)):$(call libc_multiarch,$(u))); do \
		u=$${ut%%:*}; m=$${ut##*:}; t=$${ut#*:}; t=$${t%:*}; \
		set -- $$(host-tools/libc/glibc.sh plan $(GLIBC_SOURCE_ARGS) $($(g).glibc_args) arch=$$u triplet=$$t multiarch=$$m out=/dev/null); \
		if [ "$$1" = reuse ]; then plan="$$plan $$u reused;"; \
		elif [ "$$2" -gt 0 ]; then plan="$$plan $$u to build, about $$((($$2 + 59) / 60)) min (here last time);"; \
		else plan="$$plan $$u to build, about $(LIBC_FIRST_BUILD_MIN) min (never built here; 2 cores);"; fi; done; \
	printf '  %-8s %s\n' PLAN "$($(g).glibc_name):$${plan%;}" >&2;) true

.PHONY: libc
libc: deps $(foreach g,$(LAB_GLIBCS),$(LIBC_USERLANDS:%=$(BUILD)/%/$(g).libc))
	$(Q)for f in $^; do [ ! -e $$f.error ] || { cat $$f.error >&2; exit 1; }; done

# --- make glibc-tests: glibc's own test suite, built with one of the libcs
# above (GLIBC_TESTS_GLIBC: debian-fallback, Debian's floor; time64only for
# --enable-kernel=5.1) (patched) and without the lab's series (unpatched:
# the same configure line alone, the library as Debian's source has it,
# with the series' tests added, so that they run on both), run in guests of
# GLIBC_TESTS_MACHINES on the distro flavour's kernels with
# COMPAT_32BIT_TIME=y and =n, and the table of every test whose verdict
# differs (host-tools/libc/glibc-tests.py). Not part of make check: two
# glibc builds with their tests and four boots of 25 to 44 min, two at a
# time (70 min with the builds cached; docs/libc.md).
# The subdirs whose tests it builds and runs: those time64 and the futex
# code touch (support first: the others' tests link it), and stdlib, where
# the series' second test is.
GLIBC_TESTS_SUBDIRS  ?= support nptl rt time io misc posix sysvipc stdlib
GLIBC_TESTS_MACHINES ?= i386
GLIBC_TESTS_VARIANTS := patched unpatched
GLIBC_TESTS_GLIBC    ?= debian-fallback
glibc_tests.patched.args   = $($(GLIBC_TESTS_GLIBC).glibc_args)
glibc_tests.unpatched.args = $($(GLIBC_TESTS_GLIBC).glibc_args) series_part=tests name=$($(GLIBC_TESTS_GLIBC).glibc_name)-unpatched
# glibc's test driver's timeouts (20 s a test by default) times this, under
# TCG; the runner's own limit for a test that outlives its driver's.
GLIBC_TESTS_TIMEOUTFACTOR ?= 5
GLIBC_TESTS_OUTER_TIMEOUT ?= 300
# An ordinary date: the question is COMPAT_32BIT_TIME, not the overflow.
GLIBC_TESTS_RTC           ?= 2026-06-01T00:00:00
# Each subdir is one program of the boot (nptl's are the longest).
GLIBC_TESTS_GUEST_TIMEOUT ?= 5400
GLIBC_TESTS_BOOT_TIMEOUT  ?= 21600
GLIBC_TESTS_KINDS   := $(GLIBC_TESTS_VARIANTS:%=glibc-tests-%)
GLIBC_TESTS_USERLANDS = $(sort $(foreach m,$(filter $(GLIBC_TESTS_MACHINES),$(READY)),$($(m).userland)))
GLIBC_TESTS_BUSYBOX_SUITE ?= trixie

# The kept build of each variant (glibc.sh tests: FILE names its folder),
# its disk, and the initramfs every glibc-tests boot of a userland shares:
# PID 1, a static busybox as /bin/sh (tests run /bin/sh) and as /bin/bash
# (glibc's make runs gen-locale.sh with its SHELL, configparms' /bin/bash;
# busybox has no bash applet: a script that runs its sh), the runner
# (guest-init/glibc-run.c) as /scenarios/glibc-SUBDIR, and a few files of
# /etc. $(1): userland, $(2): variant
define glibc-tests-rules
$(BUILD)/$(1)/glibc-tests-$(2).tree: FORCE
	@mkdir -p $$(@D)
	$$(Q)host-tools/libc/glibc.sh tests $$(GLIBC_SOURCE_ARGS) $$(glibc_tests.$(2).args) arch=$(1) triplet=$$(call libc_triplet,$(1)) \
		multiarch=$$(call libc_multiarch,$(1)) subdirs="$$(GLIBC_TESTS_SUBDIRS)" out=$$@
$(BUILD)/$(1)/glibc-tests-$(2).img: $(BUILD)/$(1)/glibc-tests-$(2).tree host-tools/libc/glibc-tests-disk.sh FORCE
	$$(Q)host-tools/libc/glibc-tests-disk.sh tree=$$$$(cat $$<) out=$$@ subdirs="$$(GLIBC_TESTS_SUBDIRS)" \
		libgcc=$$$$($$(call libc_triplet,$(1))-gcc -print-file-name=libgcc_s.so.1) multiarch=$$(call libc_multiarch,$(1)) \
		timeoutfactor=$$(GLIBC_TESTS_TIMEOUTFACTOR) outer_timeout=$$(GLIBC_TESTS_OUTER_TIMEOUT)
endef
$(foreach u,$(LIBC_USERLANDS),$(foreach v,$(GLIBC_TESTS_VARIANTS),$(eval $(call glibc-tests-rules,$(u),$(v)))))
# $(1): userland
define glibc-tests-cpio-rule
$(BUILD)/$(1)/glibc-tests-busybox/.versions: host-tools/distro/debian.sh
	$$(call say,DEBIAN,$$(@D))
	$$(Q)host-tools/distro/debian.sh package cache=$$(CACHE) arch=$(1) suite=$$($$(GLIBC_TESTS_BUSYBOX_SUITE).suite) \
		mirror=$$(DEBIAN_MIRROR) out=$$(@D) busybox-static
$(BUILD)/$(1)/glibc-tests.cpio: $(BUILD)/$(1)/base.cpio $(BUILD)/$(1)/glibc-tests-busybox/.versions $(BUILD)/$(1)/glibc-run \
		host-tools/initramfs/overlay-cpio.sh
	$$(call say,CPIO,$$@)
	$$(Q)lab=$(BUILD)/$(1)/glibc-tests-lab; rm -rf $$$$lab; mkdir -p $$$$lab/bin $$$$lab/scenarios $$$$lab/etc && \
	install -m 755 $$$$(find $(BUILD)/$(1)/glibc-tests-busybox -path '*/bin/busybox' -type f | head -1) $$$$lab/bin/busybox && \
	ln -s busybox $$$$lab/bin/sh && printf '#!/bin/sh\nexec /bin/sh "$$$$@"\n' >$$$$lab/bin/bash && chmod 755 $$$$lab/bin/bash && \
	install -m 755 $(BUILD)/$(1)/glibc-run $$$$lab/scenarios/glibc-run && \
	for d in $$(GLIBC_TESTS_SUBDIRS); do ln -s glibc-run $$$$lab/scenarios/glibc-$$$$d; done && \
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >$$$$lab/etc/passwd && \
	printf 'root:x:0:\nnogroup:x:65534:\n' >$$$$lab/etc/group && \
	printf '127.0.0.1 localhost\n' >$$$$lab/etc/hosts && \
	host-tools/initramfs/overlay-cpio.sh $$@ $(BUILD)/$(1)/base.cpio $$$$lab
endef
$(foreach u,$(LIBC_USERLANDS),$(eval $(call glibc-tests-cpio-rule,$(u))))

# The two builds one after the other (each takes both cores), then the disks
# and the boots, two at a time, then the table.
.PHONY: glibc-tests glibc-tests-inputs
glibc-tests: deps
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)$(MAKE) --no-print-directory glibc-tests-inputs
	$(Q)$(MAKE) --no-print-directory -j$(GLIBC_TESTS_JOBS) boots BOOT_KINDS="$(GLIBC_TESTS_KINDS)"
	$(Q)host-tools/libc/glibc-tests.py $(RUN_DIR) $(foreach m,$(filter $(GLIBC_TESTS_MACHINES),$(READY)),$(foreach k,$(GLIBC_TESTS_KINDS),$(foreach c,$(CONFIGS),$(RUN_DIR)/boots/$(m)-$(c)$($(k).dir))))
GLIBC_TESTS_JOBS ?= 2
glibc-tests-inputs: $(foreach u,$(GLIBC_TESTS_USERLANDS),$(GLIBC_TESTS_VARIANTS:%=$(BUILD)/$(u)/glibc-tests-%.tree))
	$(Q)$(MAKE) --no-print-directory $(foreach u,$(GLIBC_TESTS_USERLANDS),$(BUILD)/$(u)/glibc-tests.cpio \
		$(GLIBC_TESTS_VARIANTS:%=$(BUILD)/$(u)/glibc-tests-%.img))
