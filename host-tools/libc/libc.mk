# Stage: source package -> a libc for time64-only kernels (host-tools/libc/).
# A distribution's glibc, rebuilt from its own source package with
# --enable-kernel=5.1 (__ASSUME_TIME64_SYSCALLS: the time wrappers call only
# the *_time64 system calls) and the lab's glibc series (patches/glibc/),
# for each 32-bit userland: what a 32-bit system needs to run on a kernel
# built with COMPAT_32BIT_TIME=n. Built once into the cache (glibc.sh: by
# the hash of its recipe); make libc says what each build took.
#
# The distribution whose glibc it is, its source package's version (pinned,
# so that a result names what it ran), the kernel it assumes and its name in
# the results' libc column (the lab's, since its loader says "2.41" as the
# shipped one does).
TIME64ONLY_DISTRO  ?= trixie
TIME64ONLY_KERNEL  ?= 5.1
TIME64ONLY_SERIES  ?= patches/glibc/series
TIME64ONLY_VERSION  = $($(TIME64ONLY_DISTRO).glibc_source)
TIME64ONLY_LIBC     = glibc-$(firstword $(subst -, ,$(TIME64ONLY_VERSION)))-time64only
# What make libc builds: the userland of every ready machine (32-bit: an
# x86_64 or arm64 machine runs i386 or armhf programs).
LIBC_USERLANDS     := $(sort $(foreach m,$(READY),$($(m).userland)))

GLIBC_ARGS = cache=$(CACHE) suite=$($(TIME64ONLY_DISTRO).suite) mirror=$(DEBIAN_MIRROR) \
	version=$(TIME64ONLY_VERSION) kernel=$(TIME64ONLY_KERNEL) series=$(TIME64ONLY_SERIES) \
	name=$(TIME64ONLY_LIBC)
# $(BUILD)/USERLAND/time64only.libc: the cached build's folder (root/,
# libc, recipe, build.log). glibc.sh decides whether it is up to date (its
# recipe's hash), so make always asks it (a reuse takes a second); the file
# changes only with the build.
libc_triplet = $(patsubst %-,%,$(call ucross,$(1)))
# and Debian's multiarch folder for it (i386-linux-gnu, arm-linux-gnueabihf)
libc_multiarch = $(shell dpkg-architecture -a$(1) -qDEB_HOST_MULTIARCH 2>/dev/null)
# A build that fails leaves the reason (FILE.error), not the file: the boots
# that would run it record why, and the run goes on. Its progress lines go
# to the terminal as they come, and to FILE.log.
$(LIBC_USERLANDS:%=$(BUILD)/%/time64only.libc): $(BUILD)/%/time64only.libc: FORCE | libc-plan
	@mkdir -p $(@D)
	$(Q)rm -f $@.error; { host-tools/libc/glibc.sh build $(GLIBC_ARGS) arch=$* triplet=$(call libc_triplet,$*) multiarch=$(call libc_multiarch,$*) \
		out=$@ 2>&1 | tee $@.log >&2; } || { rm -f $@; grep -m1 '^[a-z.]*\.sh:' $@.log >$@.error || tail -1 $@.log >$@.error; }

# The plan line: which builds are reused, and how long the others took here
# last (a first build: LIBC_FIRST_BUILD_MIN, measured in docs/libc.md).
LIBC_FIRST_BUILD_MIN := 6
.PHONY: libc-plan
libc-plan:
	$(Q)plan=; for ut in $(foreach u,$(LIBC_USERLANDS),$(u):$(call libc_triplet,$(u)):$(call libc_multiarch,$(u))); do u=$${ut%%:*}; m=$${ut##*:}; t=$${ut#*:}; t=$${t%:*}; \
		set -- $$(host-tools/libc/glibc.sh plan $(GLIBC_ARGS) arch=$$u triplet=$$t multiarch=$$m out=/dev/null); \
		if [ "$$1" = reuse ]; then plan="$$plan $$u reused;"; \
		elif [ "$$2" -gt 0 ]; then plan="$$plan $$u to build, about $$((($$2 + 59) / 60)) min (here last time);"; \
		else plan="$$plan $$u to build, about $(LIBC_FIRST_BUILD_MIN) min (never built here; 2 cores);"; fi; done; \
	printf '  %-8s %s\n' PLAN "$(TIME64ONLY_LIBC):$${plan%;}" >&2

.PHONY: libc
libc: deps $(LIBC_USERLANDS:%=$(BUILD)/%/time64only.libc)
	$(Q)for f in $^; do [ ! -e $$f.error ] || { cat $$f.error >&2; exit 1; }; done
