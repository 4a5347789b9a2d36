# Stage: source package -> a musl for time64-only kernels (host-tools/libc/).
# TIME64ONLY_DISTRO's musl, rebuilt from its own source package (its
# musl_source, distros/*.mk) exactly as Debian builds musl-dev, with the
# lab's musl series (patches/musl/): each time function and futex call that
# finds the time32 system call missing (ENOSYS: a kernel built with
# COMPAT_32BIT_TIME=n) makes the *_time64 one, at run time, in musl's
# default build. Built once into the cache (musl-build.sh: by the hash of
# its recipe), for each 32-bit userland with a musl_target. The lab's
# programs of every family, static, on it run in the time64only boots
# (host-tools/boot/boot.mk) as the musl kind: the musl column of those
# boots, libc TIME64ONLY_MUSL_LIBC. TIME64ONLY_MUSL=no leaves them out.
# (The TIME64ONLY_ names are the boot kind's, which the time64-only glibc
# shares; the musl itself has no build option.)
TIME64ONLY_MUSL         ?= yes
TIME64ONLY_MUSL_SERIES  ?= patches/musl/series
TIME64ONLY_MUSL_VERSION  = $($(TIME64ONLY_DISTRO).musl_source)
TIME64ONLY_MUSL_LIBC     = musl-$(firstword $(subst -, ,$(TIME64ONLY_MUSL_VERSION)))-time64fallback
# The userlands it is built for: make libc's, where Debian has a musl
# (TIME64ONLY_DISTRO must then name its musl_source).
MUSL_LIBC_USERLANDS := $(if $(filter yes,$(TIME64ONLY_MUSL)),\
	$(foreach u,$(LIBC_USERLANDS),$(if $(call ukey,$(u),musl_target),$(u))))
# The musl programs a time64only boot runs on a machine. $(1): machine
time64only_musl_bins = $(if $(filter $($(1).userland),$(MUSL_LIBC_USERLANDS)),$(call family_bins,$(MUSL_KINDS)))

MUSL_ARGS = cache=$(CACHE) suite=$($(TIME64ONLY_DISTRO).suite) mirror=$(DEBIAN_MIRROR) \
	version=$(TIME64ONLY_MUSL_VERSION) series=$(TIME64ONLY_MUSL_SERIES) name=$(TIME64ONLY_MUSL_LIBC)
# $(1): userland
musl_build_args = arch=$(1) triplet=$(call libc_triplet,$(1)) target=$(call ukey,$(1),musl_target)
# $(BUILD)/USERLAND/time64only.musl: the cached build's folder (root/, libc,
# recipe, build.log), as time64only.libc is glibc's: make always asks
# musl-build.sh (a reuse takes a second); the file changes only with the
# build. Then $(BUILD)/USERLAND/musl-time64only/: its musl.specs (musl.sh,
# as the musl column's), what the programs are compiled with. A build that
# fails leaves the reason (FILE.error), not the file: the time64only
# initramfs takes it as its own, the boots record it, and the run goes on.
$(MUSL_LIBC_USERLANDS:%=$(BUILD)/%/time64only.musl): $(BUILD)/%/time64only.musl: FORCE | musl-plan
	@mkdir -p $(@D)
	$(Q)rm -f $@.error; { host-tools/libc/musl-build.sh build $(MUSL_ARGS) $(call musl_build_args,$*) out=$@ 2>&1 && \
		host-tools/initramfs/musl.sh built=$$(cat $@) target=$(call ukey,$*,musl_target) cross=$(call ucross,$*) \
			out=$(@D)/musl-time64only 2>&1; } | tee $@.log >&2 || \
		{ rm -f $@; grep -m1 '^[a-z.-]*\.sh:' $@.log >$@.error || tail -1 $@.log >$@.error; }

# The plan line, as make libc's for glibc (a first build: MUSL_FIRST_BUILD_MIN,
# measured in docs/upstream/musl.md).
MUSL_FIRST_BUILD_MIN := 2
.PHONY: musl-plan
musl-plan:
	$(Q)plan=; $(foreach u,$(MUSL_LIBC_USERLANDS),\
		set -- $$(host-tools/libc/musl-build.sh plan $(MUSL_ARGS) $(call musl_build_args,$(u)) out=/dev/null); \
		if [ "$$1" = reuse ]; then plan="$$plan $(u) reused;"; \
		elif [ "$$2" -gt 0 ]; then plan="$$plan $(u) to build, about $$((($$2 + 59) / 60)) min (here last time);"; \
		else plan="$$plan $(u) to build, about $(MUSL_FIRST_BUILD_MIN) min (never built here; 2 cores);"; fi;) \
	printf '  %-8s %s\n' PLAN "$(TIME64ONLY_MUSL_LIBC):$${plan%;}" >&2

# make libc builds it beside the glibc.
libc: $(MUSL_LIBC_USERLANDS:%=$(BUILD)/%/time64only.musl)

# make musl-libc-test: the series' libc-test tests (patches/musl/libc-test/,
# in libc-test's form for its own repository), built static with the
# lab's test.h (host-tools/libc/libc-test/) against Debian's musl-dev and
# against TIME64ONLY_MUSL_LIBC, each program named TEST-LIBC, and run in a
# guest, one libc's one after another (run-tests LIBC), by make try (on
# each machine of MACHINES that runs the userland, both configs, before,
# across and after the overflow): the report says what each printed and
# how it exited (results/RUN_ID-USERLAND-LIBC/try/). Then the verdict
# (libc-test/verdict.sh): the lab's musl passes everywhere, Debian's on
# WITH_TIME32 only (its failure on WITHOUT_TIME32 is the problem the series
# fixes, shown). Exit 1 if either is not so.
# LIBC_TEST_PATCHES and the sources they add, LIBC_TEST_SOURCES: Makefile's facts.
# The tests' sources: the patches applied to an empty tree (they add files).
$(BUILD)/libc-test/.sources: $(LIBC_TEST_PATCHES)
	$(Q)rm -rf $(@D) && mkdir -p $(@D) && for p in $^; do patch -d $(@D) -p1 -s --fuzz=0 <$$p || exit 1; done && touch $@
# $(1): userland
define libc-test-rule
$(BUILD)/$(1)/libc-test/.built: $(BUILD)/libc-test/.sources host-tools/libc/libc-test/test.h host-tools/libc/libc-test/run-tests \
		$(BUILD)/$(1)/musl/musl.specs \
		$(BUILD)/$(1)/time64only.musl
	$$(call say,CC,$$(@D))
	$$(Q)[ ! -e $(BUILD)/$(1)/time64only.musl.error ] || { cat $(BUILD)/$(1)/time64only.musl.error >&2; exit 1; }
	$$(Q)rm -rf $$(@D) && mkdir -p $$(@D) && for m in musl musl-time64only; do \
		for t in $(LIBC_TEST_SOURCES); do \
			(cd $(BUILD)/libc-test && $(call ucross,$(1))gcc -specs=$$(CURDIR)/$(BUILD)/$(1)/$$$$m/musl.specs -O2 -Wall -Wextra -static \
				-I$$(CURDIR)/host-tools/libc/libc-test -o $$(CURDIR)/$$(@D)/$$$$(basename $$$$t .c)-$$$$(cat $$(CURDIR)/$(BUILD)/$(1)/$$$$m/libc) $$$$t -lpthread) || exit 1; \
		done; done && cp host-tools/libc/libc-test/run-tests $$(@D)/ && touch $$@
endef
$(foreach u,$(MUSL_LIBC_USERLANDS),$(eval $(call libc-test-rule,$(u))))
.PHONY: musl-libc-test
musl-libc-test: $(MUSL_LIBC_USERLANDS:%=$(BUILD)/%/libc-test/.built) $(COLLECT)
	$(Q)rc=0; for u in $(MUSL_LIBC_USERLANDS); do for m in musl:fail-without-time32 musl-time64only:pass; do \
		libc=$$(cat $(BUILD)/$$u/$${m%:*}/libc) && \
		$(MAKE) --no-print-directory try RUN_ID=$(RUN_ID)-$$u-$$libc BIN=$(BUILD)/$$u/libc-test ARGS="./run-tests $$libc" && \
		host-tools/libc/libc-test/verdict.sh $(RESULTS)/$(RUN_ID)-$$u-$$libc $$libc $${m#*:} $(WITHOUT_TIME32) || rc=1; done; done; exit $$rc

# make musl-series (in make checkpatch, so in make check): the series
# applies to the source without fuzz and is in musl's form, its libc-test
# test beside it (host-tools/patch-check/musl-series.sh; a few seconds).
.PHONY: musl-series
musl-series:
	$(Q)host-tools/patch-check/musl-series.sh $(MUSL_ARGS)
checkpatch: musl-series
