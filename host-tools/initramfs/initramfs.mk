# Stage: guest programs -> initramfs (host-tools/initramfs/). Every syscall
# family of scenarios/ is built three times (legacy and time64 glibc, musl),
# static, with guest-init/ as PID 1, and packed with the ext4 images into one
# initramfs per userland. The old-binaries demo puts a distribution's own
# programs on PID 1 and the ext4 images alone.

$(HOST)/mkinitramfs: host-tools/initramfs/mkinitramfs.c

# The kernel kind's programs (results-record.h) judge the kernel, not an
# ABI: built once (time64), before the families' programs or after them.
KERNEL_FIRST  := $(call result-kernel-programs,first)
KERNEL_LAST   := $(call result-kernel-programs,last)
KERNEL_SCENARIOS := $(KERNEL_FIRST) $(KERNEL_LAST)
SCENARIOS     := $(filter-out $(KERNEL_SCENARIOS),$(basename $(notdir $(wildcard scenarios/*.c))))
# A third libc: each family built against Debian's musl (MUSL_SUITE), which
# has only a 64-bit time_t, so one program a family (NAME-musl: its libc
# cases; the raw ones are the glibc time64 program's), run on the 32-bit
# machines whose userland has a musl_target. MUSL=no leaves it out.
MUSL          ?= yes
MUSL_SUITE    ?= trixie
BUILT_KINDS   := $(filter-out $(if $(filter yes,$(MUSL)),,$(MUSL_KINDS)),$(FAMILY_KINDS))
# Each family's programs (NAME-KIND, the kinds of results-record.h).
family_bins    = $(foreach s,$(SCENARIOS),$(foreach k,$(1),$(s)-$(k)))
SCENARIO_BINS := $(KERNEL_FIRST:%=%-$(KERNEL_KIND)) $(call family_bins,$(BUILT_KINDS)) $(KERNEL_LAST:%=%-$(KERNEL_KIND))
# The matrix programs a machine runs. $(1): machine
MUSL_MACHINES := $(foreach m,$(MACHINES_32BIT),$(if $($(m).musl_target),$(m)))
machine_scenario_bins = $(if $(filter $(1),$(MUSL_MACHINES)),$(SCENARIO_BINS),$(filter-out $(MUSL_KINDS:%=\%-%),$(SCENARIO_BINS)))
HARNESS       := scenarios/harness.h $(wildcard scenarios/harness/*.h)
GUEST_CFLAGS  := -O2 -Wall -Wextra -Werror
TIME64_FLAGS  := -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64
# How each kind's programs are built, and how each folder of them links: the
# guest's static, the host column's (libfaketime) dynamic, and libc/ the
# same dynamically linked with its libc cases only, run on a distribution's
# own libc (its raw cases would repeat the matrix's).
abi_cflags.legacy :=
abi_cflags.time64 := $(TIME64_FLAGS)
abi_cflags.kernel := $(TIME64_FLAGS)
link.scenarios    := -static
link.dynamic      :=
link.libc         := -DY2038_RAW_CASES=0
# ...and filesystems/ the same statically, with the files family's cases on
# every filesystem (FS_IMAGES) for the filesystems boots.
link.filesystems  := -static -DY2038_FILES_ON_DISKS=1

# Data the scenarios find in the guest: ext4 images with 128-byte inodes (no
# room for extended timestamps) and 256-byte inodes, attached as loop devices.
GUEST_DATA := images/ext4-128.img images/ext4-256.img
$(BUILD)/images/ext4-%.img:
	$(call say,MKFS,$@)
	@mkdir -p $(@D)
	$(Q)PATH="$$PATH:/usr/sbin:/sbin" mkfs.ext4 -q -F -I $* -O ^has_journal -E root_owner=0:0 $@ 2M
# The filesystems devices ship, for the filesystems boots (host-tools/boot/
# boot.mk): FS_IMAGES, the names of the DISK lines of scenarios/files.c
# (read by host-tools/facts.sh, as FS_POINTS, its T_* moments), each image made
# by fs-image.sh with its distribution's mkfs and attached as a disk whose
# serial is its name. The read-only ones carry files at the times the files
# family reads back (scenarios/files.c, T_*). An image that cannot be made
# leaves the reason beside it: the boots record it.
$(if $(FS_IMAGES),,$(error scenarios/files.c has no DISK(id, "NAME", ...) line: no filesystem images))
$(FS_IMAGES:%=$(BUILD)/images/%.img): $(BUILD)/images/%.img: host-tools/initramfs/fs-image.sh scenarios/files.c
	$(call say,MKFS,$@)
	$(Q)rm -f $@.error; POINTS="$(FS_POINTS)" host-tools/initramfs/fs-image.sh $* $@ 2>$@.error || cat $@.error >&2

# $(1): userland, $(2): abi, $(3): folder (scenarios, dynamic, libc or filesystems),
# $(4): the sources' folder, if not scenarios (make bench's clock-cost.c)
define scenario-rule
$(BUILD)/$(1)/$(3)/%-$(2): $(or $(4),scenarios)/%.c $(HARNESS)
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$(call ucross,$(1))gcc $$(GUEST_CFLAGS) $$(link.$(3)) $$(abi_cflags.$(2)) -o $$@ $$<
endef
$(foreach u,$(USERLANDS),$(foreach a,$(GLIBC_KINDS) $(KERNEL_KIND),$(foreach d,scenarios dynamic libc filesystems,\
	$(eval $(call scenario-rule,$(u),$(a),$(d))))))

# musl: the package's musl-gcc.specs, moved into the build (musl.sh), with
# the userland's cross compiler. $(1): userland
define musl-rule
$(BUILD)/$(1)/musl/musl.specs: host-tools/initramfs/musl.sh host-tools/distro/debian.sh
	$$(call say,DEBIAN,musl-dev $(1) ($$(MUSL_SUITE)))
	$$(Q)host-tools/initramfs/musl.sh cache=$$(CACHE) arch=$(1) suite=$$(MUSL_SUITE) mirror=$$(DEBIAN_MIRROR) \
		target=$(call ukey,$(1),musl_target) cross=$(call ucross,$(1)) out=$$(@D)
endef
# A musl program, static, its libc named by the musl's folder (musl.sh's:
# musl.specs, libc). $(1): userland, $(2): that folder, $(3): how it links
# (link.*)
musl-cc = $(call ucross,$(1))gcc -specs=$(BUILD)/$(1)/$(2)/musl.specs $(GUEST_CFLAGS) $(link.$(3)) -DY2038_MUSL \
	-DY2038_LIBC='"'$$(cat $(BUILD)/$(1)/$(2)/libc)'"'
# $(1): userland, $(2): folder (scenarios or filesystems), $(3): the sources'
# folder, if not scenarios
define musl-program-rule
$(BUILD)/$(1)/$(2)/%-musl: $(or $(3),scenarios)/%.c $(HARNESS) $(BUILD)/$(1)/musl/musl.specs
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$$(call musl-cc,$(1),musl,$(2)) -o $$@ $$<
endef
$(foreach u,$(USERLANDS),$(if $(call ukey,$(u),musl_target),$(eval $(call musl-rule,$(u)))\
	$(foreach d,scenarios filesystems,$(eval $(call musl-program-rule,$(u),$(d))))))
# The same programs on the lab's musl for time64-only kernels
# (host-tools/libc/musl.mk), for the time64only boots: none where that
# build failed (its .error says why, and the initramfs takes it).
# $(1): userland
define time64only-musl-program-rule
$(BUILD)/$(1)/time64only-musl/%-musl: scenarios/%.c $(HARNESS) $(BUILD)/$(1)/time64only.musl
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)rm -f $$@; [ -e $(BUILD)/$(1)/time64only.musl.error ] || $$(call musl-cc,$(1),musl-time64only,scenarios) -o $$@ $$<
endef
$(foreach u,$(MUSL_LIBC_USERLANDS),$(eval $(call time64only-musl-program-rule,$(u))))

# guest-init's programs: PID 1, the session runner of the demo and of
# validate-distro and try, and the runner of glibc's tests (make
# glibc-tests). $(1): userland, $(2): program
define guest-init-rule
$(BUILD)/$(1)/$(2): guest-init/$(2).c guest-init/runner.h guest-init/moment.h $(HARNESS)
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$(call ucross,$(1))gcc $$(GUEST_CFLAGS) -static $$(TIME64_FLAGS) -o $$@ $$<
endef
$(foreach u,$(USERLANDS),$(foreach p,init session glibc-run,$(eval $(call guest-init-rule,$(u),$(p)))))
# The watcher of a root's own init that is not systemd (validate-distro
# DISTRO_INIT=yes; guest-init/distro/init-watch.c). $(1): userland
define init-watch-rule
$(BUILD)/$(1)/init-watch: guest-init/distro/init-watch.c $(HARNESS)
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$(call ucross,$(1))gcc $$(GUEST_CFLAGS) -static $$(TIME64_FLAGS) -o $$@ $$<
endef
$(foreach u,$(USERLANDS),$(eval $(call init-watch-rule,$(u))))

# $(1): userland
define initramfs-rule
$(BUILD)/$(1)/initramfs.cpio: $(HOST)/mkinitramfs $(BUILD)/$(1)/init $(SCENARIO_BINS:%=$(BUILD)/$(1)/scenarios/%) $(GUEST_DATA:%=$(BUILD)/%)
	$$(call say,CPIO,$$@)
	$$(Q)$$< $$@ $(BUILD)/$(1)/init $(SCENARIO_BINS:%=$(BUILD)/$(1)/scenarios/%) $(foreach d,$(GUEST_DATA),$(d)=$(BUILD)/$(d))
endef
$(foreach u,$(USERLANDS),$(eval $(call initramfs-rule,$(u))))
# PID 1 and the ext4 images: the base of the boots that bring their own
# programs (the demo's), which then do not unpack the matrix's (half an i386
# demo boot's initramfs). $(1): userland
define base-cpio-rule
$(BUILD)/$(1)/base.cpio: $(HOST)/mkinitramfs $(BUILD)/$(1)/init $(GUEST_DATA:%=$(BUILD)/%)
	$$(call say,CPIO,$$@)
	$$(Q)$$< $$@ $(BUILD)/$(1)/init $(foreach d,$(GUEST_DATA),$(d)=$(BUILD)/$(d))
endef
$(foreach u,$(USERLANDS),$(eval $(call base-cpio-rule,$(u))))
# validate-distro's boots: the kernel mounts the distribution's root disk
# and runs an init there, so the initramfs QEMU is given has nothing in it.
$(USERLANDS:%=$(BUILD)/%/empty.cpio):
	@mkdir -p $(@D)
	$(Q)cpio -o -H newc --quiet </dev/null >$@

# --- The old-binaries demo: a distribution's own programs (distros/*.mk) of
# this userland (its name is the Debian architecture's), with the session
# runner and its sessions, on top of the lab's initramfs. A fetch that fails
# leaves the reason, not the file: the boot records it and the run goes on.
DEBIAN_MIRROR ?= http://deb.debian.org/debian
# The distributions the lab knows: one file each in distros/ (suite, kernel
# config package, demo packages, ...), all read here. Those that name
# demo_packages are the demos a run boots (DEMO_DISTROS= to choose).
KNOWN_DISTROS := $(patsubst distros/%.mk,%,$(wildcard distros/*.mk))
include $(KNOWN_DISTROS:%=distros/%.mk)
DEMO_DISTROS  ?= $(foreach d,$(KNOWN_DISTROS),$(if $($(d).demo_packages),$(d)))
# A distribution's demo programs on a userland: PROGRAM=SESSION[+SESSION]
# (distros/*.mk), each PROGRAM (SCENARIO-ABI) the session runner running the
# commands of distros/SESSION.tsv. $(1): distribution, $(2): userland
demo_programs = $(or $($(1).programs.$(2)),$($(1).programs))
# and, on the machines its libc_scenarios names, the lab's own programs of
# every family, dynamically linked, their libc cases only (libc/): run on
# its libc, not the static one of the matrix (the libc column).
# $(1): distribution, $(2): machine (none: whether any machine runs them)
demo_libc_bins = $(if $(if $(2),$(filter $(2),$($(1).libc_scenarios)),$($(1).libc_scenarios)),$(call family_bins,$(GLIBC_KINDS)))
demo_bins     = $(foreach p,$(call demo_programs,$(1),$(2)),$(firstword $(subst =, ,$(p))))
demo_sessions = $(foreach p,$(call demo_programs,$(1),$(2)),$(patsubst %,distros/%.tsv,$(subst +, ,$(word 2,$(subst =, ,$(p))))))
# $(1): userland, $(2): distribution
define demo-rule
$(BUILD)/$(1)/$(2).cpio: $(BUILD)/$(1)/base.cpio $(BUILD)/$(1)/session $(call demo_sessions,$(2),$(1)) host-tools/distro/debian.sh host-tools/initramfs/overlay-cpio.sh \
		$(patsubst %,$(BUILD)/$(1)/libc/%,$(call demo_libc_bins,$(2)))
	$$(call say,DEBIAN,$$@)
	$$(Q)rm -rf $$@ $$@.error $(BUILD)/$(1)/$(2)-lab; \
	if host-tools/distro/debian.sh subset cache=$$(CACHE) arch=$(1) suite=$($(2).suite) mirror=$$(DEBIAN_MIRROR) \
		out=$(BUILD)/$(1)/$(2)-root $($(2).demo_packages) 2>$$@.log; then \
		for p in $(call demo_programs,$(2),$(1)); do \
			install -D $(BUILD)/$(1)/session $(BUILD)/$(1)/$(2)-lab/scenarios/$$$${p%%=*} && \
			mkdir -p $(BUILD)/$(1)/$(2)-lab/y2038 && sessions=$$$${p#*=} && \
			(cd distros && cat $$$${sessions//+/.tsv }.tsv) >$(BUILD)/$(1)/$(2)-lab/y2038/$$$${p%%=*}.tsv || exit 1; done; \
		for b in $(call demo_libc_bins,$(2)); do \
			install -D $(BUILD)/$(1)/libc/$$$$b $(BUILD)/$(1)/$(2)-lab/scenarios/$$$$b || exit 1; done; \
		host-tools/initramfs/overlay-cpio.sh $$@ $(BUILD)/$(1)/base.cpio --root $(BUILD)/$(1)/$(2)-root $(BUILD)/$(1)/$(2)-lab; \
	else grep '^debian.sh:' $$@.log >$$@.error || tail -1 $$@.log >$$@.error; cat $$@.log >&2; fi
endef
$(foreach u,$(USERLANDS),$(foreach d,$(DEMO_DISTROS),$(eval $(call demo-rule,$(u),$(d)))))

# --- The libc column's own glibcs (LAB_GLIBCS, host-tools/libc/libc.mk):
# TIME64ONLY_DISTRO's libc6 with the lab's build (KIND.libc) in its place
# (host-tools/libc/install-libc.sh), and the lab's programs of every family
# on it, dynamically linked, their libc cases only, as on a demo's
# libc_scenarios; /y2038/libc names it (the lab's files: overlay-cpio.sh
# leaves a root's /y2038 out). Beside them in the time64only boots, where
# the userland has it, the musl kind's programs on the lab's musl for
# time64-only kernels, static (host-tools/libc/musl.mk). glibc's failure is
# the initramfs's (its .error): the boots record why. musl's is its programs'
# alone: each is NAME.not-built, its reason, and the glibc cells are still
# measured (guest-init/runner.h). $(1): userland, $(2): KIND
time64only_musl_files = $(if $(filter $(1),$(MUSL_LIBC_USERLANDS)),$(BUILD)/$(1)/time64only.musl \
	$(patsubst %,$(BUILD)/$(1)/time64only-musl/%,$(call family_bins,$(MUSL_KINDS))))
time64only_musl_error = $(if $(filter $(1),$(MUSL_LIBC_USERLANDS)),$(BUILD)/$(1)/time64only.musl.error)
# The musl programs of a lab glibc's boots: the time64only boots' only.
lab_glibc_musl_files = $(if $(filter time64only,$(2)),$(call time64only_musl_files,$(1)))
define lab-glibc-cpio-rule
$(BUILD)/$(1)/$(2).cpio: $(BUILD)/$(1)/$(2).libc $(BUILD)/$(1)/base.cpio host-tools/libc/install-libc.sh \
		host-tools/distro/debian.sh host-tools/initramfs/overlay-cpio.sh $(patsubst %,$(BUILD)/$(1)/libc/%,$(call family_bins,$(GLIBC_KINDS))) \
		$(call lab_glibc_musl_files,$(1),$(2))
	$$(call say,CPIO,$$@)
	$$(Q)rm -rf $$@ $$@.error $(BUILD)/$(1)/$(2)-lab; \
	if [ -e $$<.error ]; then cp $$<.error $$@.error; \
	elif host-tools/distro/debian.sh subset cache=$$(CACHE) arch=$(1) suite=$$($$(TIME64ONLY_DISTRO).suite) mirror=$$(DEBIAN_MIRROR) \
			out=$(BUILD)/$(1)/$(2)-root libc6 libgcc-s1 2>$$@.log && \
		host-tools/libc/install-libc.sh root=$(BUILD)/$(1)/$(2)-root libc=$$$$(cat $$<) \
			multiarch=$(call libc_multiarch,$(1)) >>$$@.log 2>&1; then \
		for b in $(call family_bins,$(GLIBC_KINDS)); do \
			install -D $(BUILD)/$(1)/libc/$$$$b $(BUILD)/$(1)/$(2)-lab/scenarios/$$$$b || exit 1; done; \
		for b in $(if $(call lab_glibc_musl_files,$(1),$(2)),$(call family_bins,$(MUSL_KINDS))); do \
			if [ -e "$(call time64only_musl_error,$(1))" ]; then \
				mkdir -p $(BUILD)/$(1)/$(2)-lab/scenarios && \
				echo "$$(TIME64ONLY_MUSL_LIBC): $$$$(cat $(call time64only_musl_error,$(1))) (TIME64ONLY_MUSL=no leaves it out)" \
					>$(BUILD)/$(1)/$(2)-lab/scenarios/$$$$b.not-built; \
			else install -D $(BUILD)/$(1)/time64only-musl/$$$$b $(BUILD)/$(1)/$(2)-lab/scenarios/$$$$b || exit 1; fi; done; \
		install -D -m 644 $(BUILD)/$(1)/$(2)-root/y2038/libc $(BUILD)/$(1)/$(2)-lab/y2038/libc; \
		host-tools/initramfs/overlay-cpio.sh $$@ $(BUILD)/$(1)/base.cpio --root $(BUILD)/$(1)/$(2)-root $(BUILD)/$(1)/$(2)-lab; \
	else grep -m1 '^[a-z.-]*\.sh:' $$@.log >$$@.error || tail -1 $$@.log >$$@.error; cat $$@.log >&2; fi
endef
$(foreach u,$(LIBC_USERLANDS),$(foreach g,$(LAB_GLIBCS),$(eval $(call lab-glibc-cpio-rule,$(u),$(g)))))

# --- The apps family (scenarios/apps/): a distribution's applications (its
# apps_packages and all they depend on, debian.sh closure) with the session
# runner as apps-ABI (ABI: the distribution's apps_abi on this userland),
# the session and its files, on PID 1 and the ext4 images. Of CPython's test
# suite only what the test modules the session runs import goes in (the
# whole is 30 MB); git's helper programs and the whole Perl its scripts need
# stay out (39 MB: the session runs git's builtins, and Perl's cases
# perl-base), but for Perl's ithreads (threads and threads::shared,
# perl_locks: 0.2 MB). A fetch that fails leaves the reason, as for the demo.
APPS_DISTROS  := $(foreach d,$(DEMO_DISTROS),$(if $($(d).apps_packages),$(d)))
APPS_PY_TESTS := __init__.py support libregrtest test_time.py test_datetime.py datetimetester.py
APPS_SCRIPTS  := scenarios/apps/pytests.py scenarios/apps/locks.py scenarios/apps/locks.pl scenarios/apps/locks.js
APPS_FILES    := scenarios/apps/session.tsv $(APPS_SCRIPTS)
APPS_PRUNE    := usr/lib/git-core
# What stays of the Perl beyond perl-base: of usr/lib/TRIPLET/perl/VERSION
# (libperl5.X's modules), and of its auto/ (their shared objects).
APPS_PERL_KEEP := threads.pm threads auto
APPS_PERL_AUTO := threads
# $(1): distribution, $(2): userland
apps_abi = $(or $($(1).apps_abi.$(2)),$($(1).apps_abi))
$(BUILD)/apps-certs/ca.pem: host-tools/initramfs/certs.sh
	$(call say,CERTS,$(@D))
	$(Q)$< $(@D) $(call y2038-time,2,%Y%m%d%H%M%SZ)
# The root (fetched and unpacked once: its own target), then the initramfs.
# $(1): userland, $(2): distribution
define apps-rule
$(BUILD)/$(1)/$(2)-apps-root/.versions: host-tools/distro/debian.sh distros/$(2).mk
	$$(call say,DEBIAN,$$(@D))
	$$(Q)rm -f $$(@D).error; \
	if host-tools/distro/debian.sh closure cache=$$(CACHE) arch=$(1) suite=$($(2).suite) mirror=$$(DEBIAN_MIRROR) \
		out=$$(@D) $($(2).apps_packages) 2>$$(@D).log; then \
		for t in $$(@D)/usr/lib/python3*/test; do \
			find $$$$t -mindepth 1 -maxdepth 1 $(APPS_PY_TESTS:%=! -name %) -exec rm -rf {} + || exit 1; done; \
		for p in $$(@D)/usr/lib/*-linux-gnu*/perl; do \
			find $$$$p -mindepth 1 -maxdepth 1 ! -name '5.*' -exec rm -rf {} + && \
			find $$$$p/5.*/ -mindepth 1 -maxdepth 1 $(APPS_PERL_KEEP:%=! -name %) -exec rm -rf {} + && \
			find $$$$p/5.*/auto/ -mindepth 1 -maxdepth 1 $(APPS_PERL_AUTO:%=! -name %) -exec rm -rf {} + || exit 1; done; \
		rm -rf $(APPS_PRUNE:%=$$(@D)/%); \
	else grep '^debian.sh:' $$(@D).log >$$(@D).error || tail -1 $$(@D).log >$$(@D).error; cat $$(@D).log >&2; fi
# The lab's Go program, built with the distribution's own Go (go.sh), and
# with each of its go_more (SUITE:VERSION, distros/*.mk; lab:VERSION: the
# lab's Go, host-tools/go/go.mk): its own runs as /y2038/apps/gotime in the
# session's go_* cases, another as /y2038/apps/gotime-VERSION in the same
# cases named goVVV_* (go126_now; go127time64_now for lab:1.27-time64),
# which runs Go's own tests of its series too (GO_TIME64_TESTS).
$(BUILD)/$(1)/$(2)-go/gotime: scenarios/apps/gotime.go host-tools/initramfs/go.sh distros/$(2).mk
	$$(call go-rule,$($(2).suite),$($(2).go),$(1))
$(foreach g,$(call go_more,$(2)),$(eval $(call go-more-rule,$(1),$(2),$(g))))
# The lab's Rust program, built with the distribution's own rustc and std
# (rust.sh): /y2038/apps/locks, the session's rust_locks.
$(BUILD)/$(1)/$(2)-rust/locks: scenarios/apps/locks.rs host-tools/initramfs/rust.sh distros/$(2).mk
	$$(call toolchain-rule,RUST,rust.sh,suite=$($(2).suite) rust=$($(2).rust) arch=$(1) \
		target=$(call ukey,$(1),rust_target) cross=$(call ucross,$(1)))
$(BUILD)/$(1)/$(2)-apps.cpio: $(BUILD)/$(1)/$(2)-apps-root/.versions $(BUILD)/$(1)/base.cpio $(BUILD)/$(1)/session \
		$(BUILD)/$(1)/$(2)-go/gotime $(call go_more_bins,$(1),$(2)) $(BUILD)/$(1)/$(2)-rust/locks \
		$(APPS_FILES) $(BUILD)/apps-certs/ca.pem \
		$(if $(filter lab:%,$(call go_more,$(2))),$(GO_TIME64_TESTS)) host-tools/initramfs/overlay-cpio.sh
	$$(call say,CPIO,$$@)
	$$(Q)rm -rf $$@ $$@.error $(BUILD)/$(1)/$(2)-apps-lab; \
	lab=$(BUILD)/$(1)/$(2)-apps-lab program=apps-$(call apps_abi,$(2),$(1)) go=$(BUILD)/$(1)/$(2)-go/gotime \
		rust=$(BUILD)/$(1)/$(2)-rust/locks; \
	if [ ! -e $$< ]; then cp $(BUILD)/$(1)/$(2)-apps-root.error $$@.error; \
	elif [ ! -e $$$$go ]; then cp $$$$go.error $$@.error; \
	elif [ ! -e $$$$rust ]; then cp $$$$rust.error $$@.error; \
	$(foreach b,$(call go_more_bins,$(1),$(2)),elif [ ! -e $(b) ]; then cp $(b).error $$@.error; ) \
	else \
		install -D $(BUILD)/$(1)/session $$$$lab/scenarios/$$$$program && \
		{ cat scenarios/apps/session.tsv; $(foreach g,$(call go_more,$(2)),$(call go_more_cases,$(word 2,$(subst :, ,$(g))),\
			scenarios/apps/session.tsv $(if $(filter lab:%,$(g)),$(GO_TIME64_TESTS)));) } \
			>$$$$lab/$$$$program.tsv && install -D -m 644 $$$$lab/$$$$program.tsv $$$$lab/y2038/$$$$program.tsv && \
		install -D -m 644 -t $$$$lab/y2038/apps $(APPS_SCRIPTS) $(BUILD)/apps-certs/* && \
		install -D -t $$$$lab/y2038/apps $$$$go $$$$rust && \
		$(foreach g,$(call go_more,$(2)),install -D $(BUILD)/$(1)/$(subst :,-go,$(g))/gotime $$$$lab/y2038/apps/gotime-$(word 2,$(subst :, ,$(g))) && \
			$(if $(filter lab:%,$(g)),install -D $(BUILD)/$(1)/$(subst :,-go,$(g))/runtime.test $$$$lab/y2038/apps/runtime-$(word 2,$(subst :, ,$(g))).test && )) \
		rm $$$$lab/$$$$program.tsv && \
		host-tools/initramfs/overlay-cpio.sh $$@ $(BUILD)/$(1)/base.cpio --root $(BUILD)/$(1)/$(2)-apps-root $$$$lab; fi
endef
# A program built from $< into $@ with a toolchain that host-tools/initramfs/
# $(2) (go.sh, rust.sh) fetches into the cache, or the lab built ($(4): the
# file naming it, whose FILE.error stands for this one's): $(1) what make
# says, $(3) the script's arguments; its errors in $@.error
define toolchain-rule
$(call say,$(1),$@)
$(Q)mkdir -p $(@D); rm -f $@.error; \
$(if $(4),if [ -e $(4).error ]; then cp $(4).error $@.error; else) \
host-tools/initramfs/$(2) cache=$(CACHE) mirror=$(DEBIAN_MIRROR) \
	$(3) src=$< out=$@ 2>$@.log || \
	{ grep -m1 '^$(2):' $@.log >$@.error || tail -1 $@.log >$@.error; cat $@.log >&2; }$(if $(4),; fi)
endef
# go.sh for $(1): suite (lab: the lab's Go, whose GOROOT GO_TIME64_ROOT
# names), $(2): version, $(3): userland
go-rule = $(call toolchain-rule,GO,go.sh,$(if $(filter lab,$(1)),goroot=$$(cat $(GO_TIME64_ROOT)),suite=$(1) go=$(2)) \
	goarch=$(call ukey,$(3),goarch) goarm=$(call ukey,$(3),goarm),$(if $(filter lab,$(1)),$(GO_TIME64_ROOT)))
# $(1): userland, $(2): distribution, $(3): SUITE:VERSION
define go-more-rule
$(BUILD)/$(1)/$(subst :,-go,$(3))/gotime: scenarios/apps/gotime.go host-tools/initramfs/go.sh distros/$(2).mk \
		$(if $(filter lab:%,$(3)),$(GO_TIME64_ROOT))
	$$(call go-rule,$(word 1,$(subst :, ,$(3))),$(word 2,$(subst :, ,$(3))),$(1))
endef
# $(1): distribution: its go_more, and the lab's Go where GO_TIME64=yes
go_more = $($(1).go_more) $(if $(filter $(1),$(GO_TIME64_DISTROS)),lab:$(GO_TIME64_VERSION))
go_more_bins = $(foreach g,$(call go_more,$(2)),$(BUILD)/$(1)/$(subst :,-go,$(g))/gotime \
	$(if $(filter lab:%,$(g)),$(BUILD)/$(1)/$(subst :,-go,$(g))/runtime.test))
# The go_* lines of the session files $(2) again, for Go VERSION ($(1)):
# goVVV_* cases (VVV: VERSION without its dots and dashes) running
# /y2038/apps/gotime-VERSION and /y2038/apps/runtime-VERSION.test.
go_more_cases = awk -F'\t' -v OFS='\t' -v tag=go$(subst -,,$(subst .,,$(1))) -v v=$(1) \
	'!/^\#/ && $$$$2 ~ /^go_/ { sub(/^go/, tag, $$$$2); gsub(/\/y2038\/apps\/gotime /, "/y2038/apps/gotime-" v " ", $$$$5); \
	gsub(/\/y2038\/apps\/runtime\.test /, "/y2038/apps/runtime-" v ".test ", $$$$5); print }' $(2)
$(foreach u,$(USERLANDS),$(foreach d,$(APPS_DISTROS),$(eval $(call apps-rule,$(u),$(d)))))

# The filesystems boots' programs: the machine's files programs built with
# every filesystem's cases, as the family of their own they are in the
# results (filesystems-KIND): the table scopes their cases to their boots.
# After them, the session runner copies a file of 2040 between the mounted
# filesystems with FS_COPY_DISTRO's cp and tar (scenarios/filesystems/
# copy.tsv), from a root of FS_COPY_PACKAGES: trixie's are time64 on i386
# and armhf (__utimensat64 in their dynamic symbols), hence FS_COPY_ABI.
# $(1): machine
FS_COPY_DISTRO   := trixie
FS_COPY_PACKAGES := dash coreutils tar busybox-static
FS_COPY_ABI      := time64
machine_filesystems_bins = $(patsubst files-%,filesystems-%,$(filter files-%,$(call machine_scenario_bins,$(1)))) fscopy-$(FS_COPY_ABI)
FILESYSTEMS_KINDS := $(patsubst files-%,%,$(filter files-%,$(SCENARIO_BINS)))
# $(1): userland
define filesystems-rule
$(BUILD)/$(1)/filesystems-root/.versions: host-tools/distro/debian.sh
	$$(call say,DEBIAN,$$(@D))
	$$(Q)rm -f $$(@D).error; \
	host-tools/distro/debian.sh closure cache=$$(CACHE) arch=$(1) suite=$($(FS_COPY_DISTRO).suite) mirror=$$(DEBIAN_MIRROR) \
		out=$$(@D) $(FS_COPY_PACKAGES) 2>$$(@D).log || \
		{ grep '^debian.sh:' $$(@D).log >$$(@D).error || tail -1 $$(@D).log >$$(@D).error; cat $$(@D).log >&2; }
$(BUILD)/$(1)/filesystems.cpio: $(BUILD)/$(1)/filesystems-root/.versions $(BUILD)/$(1)/base.cpio $(BUILD)/$(1)/session \
		$(FILESYSTEMS_KINDS:%=$(BUILD)/$(1)/filesystems/files-%) scenarios/filesystems/copy.tsv host-tools/initramfs/overlay-cpio.sh
	$$(call say,CPIO,$$@)
	$$(Q)rm -rf $$@ $$@.error $(BUILD)/$(1)/filesystems-lab; lab=$(BUILD)/$(1)/filesystems-lab; \
	if [ ! -e $$< ]; then cp $(BUILD)/$(1)/filesystems-root.error $$@.error; else \
		for k in $(FILESYSTEMS_KINDS); do install -D $(BUILD)/$(1)/filesystems/files-$$$$k $$$$lab/scenarios/filesystems-$$$$k || exit 1; done; \
		install -D $(BUILD)/$(1)/session $$$$lab/scenarios/fscopy-$(FS_COPY_ABI) && \
		install -D -m 644 scenarios/filesystems/copy.tsv $$$$lab/y2038/fscopy-$(FS_COPY_ABI).tsv && \
		host-tools/initramfs/overlay-cpio.sh $$@ $(BUILD)/$(1)/base.cpio --root $(BUILD)/$(1)/filesystems-root $$$$lab; fi
endef
$(foreach u,$(USERLANDS),$(eval $(call filesystems-rule,$(u))))
