# Stage: Debian's Go source -> a Go for time64-only kernels (host-tools/go/).
# GO_TIME64_FROM's Go (SUITE:VERSION, as a go_more entry: sid's golang-1.27,
# whose 1.27.3 the apps boots run as go127_*), its golang-1.27-src with the
# lab's Go series (patches/go/: walltime and nanotime1 read the clock
# through __vdso_clock_gettime64 and clock_gettime64 on linux/386 and
# linux/arm, and check what each way returned), built by make.bash and
# bootstrapped with that suite's golang-1.27-go, into the cache by the hash
# of its recipe (go-toolchain.sh). With GO_TIME64=yes the apps boots of
# GO_TIME64_DISTRO run it as one more Go (go_more entry lab:VERSION):
# gotime built with it (the go127time64_* cases) and Go's own tests of the
# series, its runtime package's built with it (scenarios/apps/go-time64.tsv).
# Its make.bash took 37 min on this busy 2-core host (the cache entry's
# seconds, docs/upstream/go.md), more than a tenth of a cold make run, so make run
# and make check leave it out: make go-time64-check boots it.
GO_TIME64         ?= no
GO_TIME64_FROM    := sid:1.27
GO_TIME64_SERIES  ?= patches/go/series
GO_TIME64_VERSION := $(word 2,$(subst :, ,$(GO_TIME64_FROM)))-time64
GO_TIME64_NAME    := go$(GO_TIME64_VERSION)
GO_TIME64_DISTRO  := trixie
GO_TIME64_DISTROS := $(if $(filter yes,$(GO_TIME64)),$(GO_TIME64_DISTRO))
# ...whose session runs these lines too, in the form of session.tsv's go_*.
GO_TIME64_TESTS   := scenarios/apps/go-time64.tsv
# The built Go's GOROOT in the cache, one line; make always asks
# go-toolchain.sh (a reuse takes a second) and the file changes only with
# the build. A build that fails leaves the reason (FILE.error), as make
# libc's do: the programs built with it take it as theirs.
GO_TIME64_ROOT    := $(BUILD)/go/$(GO_TIME64_NAME).goroot
GO_TIME64_ARGS     = cache=$(CACHE) suite=$(word 1,$(subst :, ,$(GO_TIME64_FROM))) mirror=$(DEBIAN_MIRROR) \
	go=$(word 2,$(subst :, ,$(GO_TIME64_FROM))) series=$(GO_TIME64_SERIES) name=$(GO_TIME64_NAME)
$(GO_TIME64_ROOT): FORCE | go-time64-plan
	@mkdir -p $(@D)
	$(Q)rm -f $@.error; host-tools/go/go-toolchain.sh build $(GO_TIME64_ARGS) out=$@ 2>&1 | tee $@.log >&2 || \
		{ rm -f $@; grep -m1 '^[a-z.-]*\.sh:' $@.log >$@.error || tail -1 $@.log >$@.error; }

# The plan line, as make libc's (a first build: GO_TIME64_FIRST_BUILD_MIN,
# measured in docs/upstream/go.md).
GO_TIME64_FIRST_BUILD_MIN := 37
.PHONY: go-time64-plan go-time64
go-time64-plan:
	$(Q)set -- $$(host-tools/go/go-toolchain.sh plan $(GO_TIME64_ARGS) out=/dev/null); \
	if [ "$$1" = reuse ]; then plan=reused; \
	elif [ "$$2" -gt 0 ]; then plan="to build, about $$((($$2 + 59) / 60)) min (here last time)"; \
	else plan="to build, about $(GO_TIME64_FIRST_BUILD_MIN) min (never built here; 2 cores)"; fi; \
	printf '  %-8s %s\n' PLAN "$(GO_TIME64_NAME): $$plan" >&2
# make go-time64: build it (or say where it is).
go-time64: $(GO_TIME64_ROOT)
	$(Q)[ ! -e $<.error ] || { cat $<.error >&2; exit 1; }
	@printf '  %-8s %s\n' GOROOT "$$(cat $<)"

# Go's own tests of the series for a userland: its runtime package's
# test binary (go test -c), built with the lab's Go. $(1): userland
define go-time64-test-rule
$(BUILD)/$(1)/lab-go$(GO_TIME64_VERSION)/runtime.test: $(GO_TIME64_ROOT) host-tools/initramfs/go.sh
	$$(call say,GOTEST,$$@)
	$$(Q)mkdir -p $$(@D); rm -f $$@.error; \
	if [ -e $(GO_TIME64_ROOT).error ]; then cp $(GO_TIME64_ROOT).error $$@.error; \
	else host-tools/initramfs/go.sh cache=$(CACHE) goroot=$$$$(cat $(GO_TIME64_ROOT)) goarch=$(call ukey,$(1),goarch) \
		goarm=$(call ukey,$(1),goarm) test=runtime out=$$@ 2>$$@.log || \
		{ grep -m1 '^go.sh:' $$@.log >$$@.error || tail -1 $$@.log >$$@.error; cat $$@.log >&2; }; fi
endef
$(foreach u,$(USERLANDS),$(eval $(call go-time64-test-rule,$(u))))

# make go-series (in make checkpatch, so in make check): the series
# applies to the Go source the lab builds without fuzz, each patch is in
# Go's form with a test in Go's (host-tools/patch-check/go-series.sh; the
# source is the apps boots' sid Go, fetched by make run anyway).
.PHONY: go-series
go-series:
	$(Q)host-tools/patch-check/go-series.sh $(GO_TIME64_ARGS)
checkpatch: go-series
