# Distributions (host-tools/distro/): Debian's own packages and configs,
# fetched into the cache (debian.sh); the ELF scanner and the config checker;
# make validate-distro and make try, which boot a root on the lab's kernels.

# The scanner's ELF reader (scan.h says what each file is), which the fuzz
# target links too (tests/tests.mk).
SCAN_ELF_SOURCES := $(addprefix host-tools/distro/,scan.h scan-util.c scan-elf.c scan-syscalls.c)
$(HOST)/y2038-scan: host-tools/distro/y2038-scan.c host-tools/distro/scan-closure.c $(SCAN_ELF_SOURCES)
$(HOST)/y2038-scan: LDLIBS := -lelf
$(HOST)/y2038-kconfig: host-tools/distro/y2038-kconfig.c host-tools/kernel/kconfig-parse.c host-tools/kernel/kconfig-parse.h
# The ELF scanner, with its symbol knowledge named (wherever BUILD is).
SCAN = $(HOST)/y2038-scan --symbols data/time-symbols.tsv

# The distributions the lab knows (KNOWN_DISTROS: host-tools/initramfs/
# initramfs.mk reads distros/*.mk). DISTRO= names one for validate-distro.
DISTRO        ?= bookworm

# A distribution's shipped configs of the 32-bit machines, for the config
# checker's tests (bookworm's) and validate-distro:
# debian/<distribution>/config.<arch>_none_<flavour>.
debian_config   = $(BUILD)/debian/$(1)/config.$($(2).debian_arch)_none_$($(2).debian_flavour)
DEBIAN_CONFIGS := $(foreach m,$(ALL_MACHINES),$(if $($(m).distro_arch),$(call debian_config,bookworm,$(m))))
define debian-config-rule
$(BUILD)/debian/$(1)/config.%:
	$$(Q)host-tools/distro/debian.sh config cache=$$(CACHE) arch=$$(firstword $$(subst _, ,$$*)) mirror=$$(DEBIAN_MIRROR) \
		suite=$($(1).suite) config_package=$($(1).config_package) flavour=$$(lastword $$(subst _, ,$$*)) out=$$@
endef
$(foreach d,$(KNOWN_DISTROS),$(eval $(call debian-config-rule,$(d))))

# --- make validate-distro: can a distribution turn COMPAT_32BIT_TIME off?
# DISTRO_ARCH (i386 or armhf) picks the machine whose distro_arch it is; the
# default root is a Debian bookworm minbase root the lab makes, the default
# config Debian's shipped one for that machine's debian_flavour. Either can
# be the user's own: DISTRO_ROOT=dir DISTRO_CONFIG=file. DISTRO_ROOT may
# also be a tarball (gzip, xz, zstd), an ext2/3/4 image or a squashfs image:
# validate-distro.sh unpack makes a directory of it in the cache
# (DISTRO_ROOT_DIR), and nothing writes the file given.
DISTRO_ARCH    ?= i386
# The smoke tests run at a date before the overflow: the question is whether
# the distribution can drop the time32 syscalls now.
DISTRO_RTC     ?= 2026-06-01T00:00:00
# The machine (DISTRO_MACHINE=, else the one the distribution names for that
# architecture, DISTRO.machine.ARCH: a distribution without a kernel of it,
# else the first whose distro_arch it is).
DISTRO_MACHINE ?= $(or $($(DISTRO).machine.$(DISTRO_ARCH)),$(firstword $(foreach m,$(ALL_MACHINES),$(if $(filter $(DISTRO_ARCH),$($(m).distro_arch)),$(m)))))
DISTRO_ROOT    ?=
DISTRO_ROOT_DIR ?=
DISTRO_CONFIG  ?=
DISTRO_NAME    ?= $(if $(DISTRO_ROOT),the root $(DISTRO_ROOT),Debian $(DISTRO) $(DISTRO_ARCH))$(if $(DISTRO_CONFIG), with $(DISTRO_CONFIG),)
DISTRO_DIR      = $(RUN_DIR)/distro
DISTRO_STAGE    = $(BUILD)/distro-$(DISTRO)-$(DISTRO_ARCH)
DISTRO_DEBIAN_CONFIG = $(call debian_config,$(DISTRO),$(DISTRO_MACHINE))
# The root boots as itself: a disk of it (validate-distro.sh disk_stage) on
# the lab's distro kernels (patches/config/flavour-distro.config: what a
# distribution's init and programs expect of a kernel, no time interface).
# DISTRO_INIT=yes also boots the root's own init (systemd: the lab's root
# then includes systemd-sysv, and udev, without which systemd never sees a
# device: its serial getty waits for the console's device unit) at DISTRO_RTC with =y and =n, and from
# DISTRO_ACROSS_RTC with =y, held until DISTRO_ACROSS_HOLD seconds after
# power-on: the overflow comes 30 s into that boot.
DISTRO_INIT    ?= no
DISTRO_INCLUDE ?= $(if $(filter yes,$(DISTRO_INIT)),systemd-sysv$(comma)udev)
DISTRO_DISK     = $(DISTRO_STAGE)/root.img
DISTRO_ACROSS_RTC  ?= $(call y2038-time,-29)
DISTRO_ACROSS_HOLD ?= 100
DISTRO_SETUP_TIMEOUT ?= 2400
DISTRO_INIT_TIMEOUT  ?= 420
DISTRO_BOOTS = MACHINES=$(DISTRO_MACHINE) KERNEL_FLAVOUR=distro DISTRO=$(DISTRO) DISTRO_ARCH=$(DISTRO_ARCH)
# The sessions' long lists run under TCG: minutes, not the matrix's seconds.
SESSION_TIMEOUTS := GUEST_TIMEOUT=1200 BOOT_TIMEOUT=1500

.PHONY: validate-distro distro-inputs distro-report try try-inputs try-report
validate-distro:
	$(if $(filter $(DISTRO),$(KNOWN_DISTROS)),,$(error DISTRO=$(DISTRO): the lab knows $(KNOWN_DISTROS) (one file each in distros/)))
	$(if $(DISTRO_MACHINE),,$(error DISTRO_ARCH=$(DISTRO_ARCH): the lab validates $(sort $(foreach m,$(ALL_MACHINES),$($(m).distro_arch))) (distro_arch in machines/*.mk)))
	$(if $(filter $(DISTRO_MACHINE),$(ALL_MACHINES)),,$(error DISTRO_MACHINE=$(DISTRO_MACHINE): the lab knows $(ALL_MACHINES) (machines/*.mk)))
	$(if $(filter yes no,$(DISTRO_INIT)),,$(error DISTRO_INIT=$(DISTRO_INIT): yes (boot the root's own init too) or no))
	$(if $(DISTRO_LIBC),$(if $(call lab_glibc_of,$(DISTRO_LIBC)),,$(error DISTRO_LIBC=$(DISTRO_LIBC): the lab builds $(foreach g,$(LAB_GLIBCS),$($(g).glibc_name)) (make libc; docs/libc.md))))
	$(if $(DISTRO_LIBC),$(if $(filter $(DISTRO_ARCH),$(LIBC_USERLANDS)),,$(error DISTRO_LIBC: the lab builds $(DISTRO_LIBC) for $(LIBC_USERLANDS), not $(DISTRO_ARCH))))
	$(Q)$(if $(and $(DISTRO_ROOT),$(DISTRO_CONFIG)),true,host-tools/distro/debian.sh served suite=$($(DISTRO).suite) mirror=$(DEBIAN_MIRROR))
	$(Q)$(if $(DISTRO_ROOT),host-tools/distro/validate-distro.sh check-root $(call shell-quote,$(DISTRO_ROOT)) $(DISTRO_ARCH) $($(DISTRO_MACHINE).elf_machine) $(CACHE) $(DISTRO_INIT),true)
	$(Q)$(MAKE) --no-print-directory deps
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)$(MAKE) --no-print-directory distro-inputs distro-report MACHINES=$(DISTRO_MACHINE) \
		$(if $(DISTRO_ROOT),DISTRO_ROOT_DIR="$$(host-tools/distro/validate-distro.sh unpack $(call shell-quote,$(DISTRO_ROOT)) $(CACHE))")

# The root, its config report and its disk; then the boots (distro-report).
distro-inputs: $(HOST)/y2038-scan $(HOST)/y2038-kconfig $(HOST)/y2038-collect $(BUILD)/$(DISTRO_ARCH)/session $(BUILD)/$(DISTRO_ARCH)/init \
		$(BUILD)/$(DISTRO_ARCH)/init-watch \
		$(BUILD)/$(DISTRO_ARCH)/empty.cpio $(if $(DISTRO_CONFIG),,$(DISTRO_DEBIAN_CONFIG))
	$(Q)host-tools/distro/validate-distro.sh stage dir=$(DISTRO_DIR) stage=$(DISTRO_STAGE) name="$(DISTRO_NAME)" \
		root="$(DISTRO_ROOT_DIR)" given="$(DISTRO_ROOT)" suite=$($(DISTRO).suite) include=$(DISTRO_INCLUDE) \
		config="$(or $(DISTRO_CONFIG),$(DISTRO_DEBIAN_CONFIG))" \
		arch=$(DISTRO_ARCH) machine=$(DISTRO_MACHINE) elf_machine=$($(DISTRO_MACHINE).elf_machine) \
		cache=$(CACHE) mirror=$(DEBIAN_MIRROR) host=$(HOST) session=$(BUILD)/$(DISTRO_ARCH)/session \
		init=$(BUILD)/$(DISTRO_ARCH)/init watch=$(BUILD)/$(DISTRO_ARCH)/init-watch disk=$(DISTRO_DISK) own_init=$(DISTRO_INIT)

# A root that had debootstrap's first stage only gets its second stage
# first, in a boot of its own (its disk kept); then the scan of the root as
# configured, and the lab's files on this run's disk; then the smoke tests at the
# ordinary date on =y (census) and =n, and on =y past the overflow: does
# each program survive 2038, whatever the config; then the root's own init.
# Two boots at a time where they are independent (each a TCG thread).
distro-report: distro-inputs
	$(Q)if [ -e $(DISTRO_DISK).setup ]; then \
		$(MAKE) --no-print-directory boots BOOT_KINDS=distro-setup $(DISTRO_BOOTS) && \
		host-tools/distro/validate-distro.sh setup-done $(DISTRO_DISK) $(RUN_DIR)/boots/$(DISTRO_MACHINE)-$(WITH_TIME32)-distro-setup || true; fi
	$(Q)host-tools/distro/validate-distro.sh prepare $(DISTRO_STAGE)
	$(if $(DISTRO_LIBC),$(Q)host-tools/distro/validate-distro.sh cached-pass get $(DISTRO_CACHED_PASS))
	$(call distro-pass,$(DISTRO_DIR))
	$(Q)host-tools/distro/validate-distro.sh cached-pass put $(DISTRO_CACHED_PASS)
	$(if $(DISTRO_LIBC),$(Q)$(MAKE) --no-print-directory distro-libc-report)

# The boots of one pass (on DISTRO_DISK, into boots' folders ending in
# DISTRO_VARIANT) and its verdict in $(1): the verdict's arguments in its
# order (validate-distro.sh verdict), each kind's configs its own
# (kinds/distro.mk); two boots at a time where they are independent.
DISTRO_PASS_BOOTS = $(WITH_TIME32)-distro $(WITHOUT_TIME32)-distro $(WITH_TIME32)-distro-past \
	$(if $(filter yes,$(DISTRO_INIT)),$(WITH_TIME32)-distro-init $(WITHOUT_TIME32)-distro-init $(WITH_TIME32)-distro-across)
define distro-pass
	$(Q)$(MAKE) --no-print-directory -j$(LAB_JOBS) boots BOOT_KINDS=distro $(SESSION_TIMEOUTS) $(DISTRO_BOOTS)
	$(Q)$(MAKE) --no-print-directory -j$(LAB_JOBS) boots BOOT_KINDS="distro-past $(if $(filter yes,$(DISTRO_INIT)),distro-init)" \
		CONFIGS=$(WITH_TIME32) $(SESSION_TIMEOUTS) $(DISTRO_BOOTS) $(DISTRO_INIT_KIND_ARG)
	$(if $(filter yes,$(DISTRO_INIT)),$(Q)$(MAKE) --no-print-directory -j$(LAB_JOBS) boots BOOT_KINDS=distro-init CONFIGS=$(WITHOUT_TIME32) $(DISTRO_BOOTS) $(DISTRO_INIT_KIND_ARG) && \
		$(MAKE) --no-print-directory boots BOOT_KINDS=distro-across $(DISTRO_BOOTS) $(DISTRO_INIT_KIND_ARG))
	$(Q)host-tools/distro/validate-distro.sh verdict $(1) \
		$(foreach b,$(DISTRO_PASS_BOOTS),$(RUN_DIR)/boots/$(DISTRO_MACHINE)-$(b)$(DISTRO_VARIANT))
endef
# The kind of the root's init, as inspect-root.py found it (validate-distro.sh
# prepare wrote it): it picks the init boots' probe (kinds/distro.mk).
DISTRO_INIT_KIND_ARG = DISTRO_INIT_KIND="$$(jq -r .init.kind $(DISTRO_DIR)/root.json)"
# What decides the as-shipped pass's boots, for the cache (a DISTRO_LIBC
# run takes them from there when they are the same).
DISTRO_CACHED_PASS = stage=$(DISTRO_STAGE) cache=$(CACHE) boots=$(RUN_DIR)/boots \
	names="$(DISTRO_PASS_BOOTS:%=$(DISTRO_MACHINE)-%)" machine_env=$(call machine-env,$(DISTRO_MACHINE)) \
	kernels="$(foreach c,$(KERNEL_CONFIGS),$(call kernel_envs,distro)/$(DISTRO_MACHINE)-$(c).env)" \
	settings="$(DISTRO_RTC) $(DISTRO_ACROSS_RTC) $(DISTRO_ACROSS_HOLD) $(DISTRO_INIT_TIMEOUT) $(SESSION_TIMEOUTS)"

# DISTRO_LIBC=NAME: the same boots again, with one of the lab's libcs for
# kernels without the time32 system calls (make libc: host-tools/libc/;
# NAME: glibc-2.41-time64only or glibc-2.41-debian-fallback, LAB_GLIBCS) in
# place of the root's own, on a copy of the disk (the root's folder is
# never written); its verdict in DISTRO_DIR-NAME, its boots' folders
# *-distro*-NAME; then the two answers, as shipped and with it. A libc
# that cannot be built makes the second answer UNKNOWN, with why.
DISTRO_LIBC      ?=
DISTRO_LIBC_DIR   = $(DISTRO_DIR)-$(DISTRO_LIBC)
DISTRO_LIBC_DISK  = $(DISTRO_STAGE)/root-$(DISTRO_LIBC).img
.PHONY: distro-libc-report distro-libc-pass
DISTRO_GLIBC      = $(call lab_glibc_of,$(DISTRO_LIBC))
distro-libc-report: $(BUILD)/$(DISTRO_ARCH)/$(DISTRO_GLIBC).libc
	$(Q)host-tools/distro/validate-distro.sh with-libc stage=$(DISTRO_STAGE) libc_file=$< \
		multiarch=$(call libc_multiarch,$(DISTRO_ARCH)) name=$(DISTRO_LIBC) time32=$($(DISTRO_GLIBC).glibc_time32) \
		vdir=$(DISTRO_LIBC_DIR) vdisk=$(DISTRO_LIBC_DISK)
	$(Q)[ -e $(DISTRO_LIBC_DIR)/error ] || \
		$(MAKE) --no-print-directory distro-libc-pass DISTRO_VARIANT=-$(DISTRO_LIBC) DISTRO_DISK=$(DISTRO_LIBC_DISK)
	@echo
	$(Q)host-tools/distro/distro-verdicts.py answers $(DISTRO_DIR) $(DISTRO_LIBC_DIR) $(DISTRO_LIBC)
distro-libc-pass:
	$(call distro-pass,$(DISTRO_LIBC_DIR))

# --- make try BIN=path [ARGS=...]: the user's own 32-bit program before,
# across and after the overflow, on every machine of its userland and both
# configs; its libraries come from beside it or from Debian's root. BIN may
# be a directory (a test and its helpers), ARGS then the command to run in
# it. ARGS reaches the guest's shell exactly as typed: through the
# environment, never through make's or a shell's expansion here.
TRY_STAGE = $(BUILD)/try-$(TRY_ARCH)
# The userlands a program may be of: the scanner's name of each machine's
# userland programs (elf_machine=userland).
TRY_USERLANDS = $(sort $(foreach m,$(ALL_MACHINES),$($(m).elf_machine)=$($(m).userland)))
try try-inputs try-report: export Y2038_TRY_ARGS = $(value ARGS)
try: deps $(HOST)/y2038-scan
	$(if $(BIN),,$(error make try BIN=path/to/program [ARGS="..."]: a 32-bit program of $(sort $(foreach u,$(TRY_USERLANDS),$(lastword $(subst =, ,$(u))))), or a directory of them and ARGS the command to run there))
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)arch=$$(host-tools/distro/try.sh arch "$(SCAN)" $(BIN) "$(TRY_USERLANDS)") && \
		$(MAKE) --no-print-directory try-report TRY_ARCH=$$arch

try-inputs: $(HOST)/y2038-scan $(HOST)/y2038-collect $(BUILD)/$(TRY_ARCH)/session $(BUILD)/$(TRY_ARCH)/initramfs.cpio
	$(Q)root=$$(host-tools/distro/debian.sh root cache=$(CACHE) arch=$(TRY_ARCH) mirror=$(DEBIAN_MIRROR)) && \
	host-tools/distro/try.sh stage "$(SCAN)" $(BIN) $$root $(TRY_STAGE) && \
	install -m 755 $(BUILD)/$(TRY_ARCH)/session $(TRY_STAGE)/scenarios/try-user && \
	host-tools/initramfs/overlay-cpio.sh $(BUILD)/$(TRY_ARCH)/try.cpio $(BUILD)/$(TRY_ARCH)/initramfs.cpio $(TRY_STAGE)

# The kernels first: what the program needs of them (data/kernel-needs.tsv)
# is checked before any boot.
TRY_CONFIGS := $(KERNEL_CONFIGS)
try-report: try-inputs
	$(Q)$(MAKE) --no-print-directory -s kernels CONFIGS="$(TRY_CONFIGS)" BOOT_KINDS=try
	$(Q)host-tools/distro/try.sh needs $(BIN) data/kernel-needs.tsv \
		$(foreach m,$(READY),$(foreach c,$(TRY_CONFIGS),$(KERNEL_ENVS)/$(m)-$(c).env))
	$(Q)$(MAKE) --no-print-directory boots BOOT_KINDS=try CONFIGS="$(TRY_CONFIGS)"
	@mkdir -p $(RUN_DIR)/try
	$(Q)host-tools/distro/try.sh report $(RUN_DIR) | tee $(RUN_DIR)/try/report.txt
