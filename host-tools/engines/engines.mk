# The external engines (host-tools/engines/): the matrix as LAVA jobs, run
# through lava-run and brought back, and a run exported as KCIDB JSON.

# make lava: every cell of the matrix (machine x config, for this KERNEL=
# and SERIES=) as a LAVA job for the qemu device type, with the device
# dictionary rendered for this machine's QEMU; each job passes lava-common's
# strict schema and lava-run --validate (lava.sh). make lava-check: one cell
# (LAVA_CELL) booted by the lab and run through lava-run into one run,
# collected together; LAVA's verdicts must equal the lab's.
LAVA_PACKAGES := lava-dispatcher
LAVA_DIR       = $(BUILD)/lava/$(KERNEL)/$(subst /,_,$(SERIES))
LAVA_CELLS     = $(foreach c,$(CONFIGS),$(READY:%=%-$(c)))
LAVA_CELL     ?= $(ONE_MACHINE)-$(WITH_TIME32)
# The machine and config of the cell named: looked up among the cells, not
# cut out of its name.
lava-cell-of  = $(strip $(foreach m,$(READY),$(foreach c,$(CONFIGS),$(if $(filter $(LAVA_CELL),$(m)-$(c)),$($(1))))))
LAVA_MACHINE   = $(call lava-cell-of,m)
LAVA_CONFIG    = $(call lava-cell-of,c)
# $(1): machine, $(2): config, $(3): the jobs' folder, $(4): what lava.sh
# job is told beyond the cell (a server's jobs: lava-submit)
define lava-rules
$(3)/$(1)-$(2)/job.yaml: $(KERNEL_ENVS)/$(1)-$(2).env $(BUILD)/$($(1).userland)/initramfs.cpio host-tools/engines/lava.sh $(call machine-env,$(1))
	$$(Q)host-tools/engines/lava.sh job out=$$(@D) machine_env=$(call machine-env,$(1)) config=$(2) \
		kernel_env=$$< initrd=$(BUILD)/$($(1).userland)/initramfs.cpio \
		scenarios=$$(call commas,$$(call matrix.bins,$(1))) rtc_base=$$(matrix.rtc) \
		guest_timeout=$$(GUEST_TIMEOUT) boot_timeout=$$(BOOT_TIMEOUT) $(4)
endef
$(foreach m,$(READY),$(foreach c,$(CONFIGS),$(eval $(call lava-rules,$(m),$(c),$(LAVA_DIR)))))
.PHONY: lava lava-jobs lava-check lava-import kcidb
lava-jobs: $(LAVA_CELLS:%=$(LAVA_DIR)/%/job.yaml)
lava: deps
	$(Q)host-tools/deps.sh $(LAVA_PACKAGES)
	$(Q)mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -j$(LAB_JOBS) lava-jobs
	$(Q)host-tools/engines/lava.sh validate $(LAVA_CELLS:%=$(LAVA_DIR)/%)
lava-check: lava $(HOST)/y2038-collect
	$(if $(filter $(LAVA_CELL),$(LAVA_CELLS)),,$(error LAVA_CELL=$(LAVA_CELL): not a cell here ($(LAVA_CELLS))))
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)$(MAKE) --no-print-directory boots MACHINES=$(LAVA_MACHINE) CONFIGS=$(LAVA_CONFIG) BOOT_KINDS=matrix
	$(Q)host-tools/engines/lava.sh run $(LAVA_DIR)/$(LAVA_CELL) $(RUN_DIR)/boots/$(LAVA_CELL)-lava run_id=$(RUN_ID)
	$(Q)$(COLLECT) $(EXPECTATIONS) $(RUN_DIR) >/dev/null || true
	$(Q)$(REPORT) $(RUN_DIR) >/dev/null
	$(Q)tests/run/lava-check.sh $(RUN_DIR) $(LAVA_CELL)

# make lava-import LAVA_CELL=<cell> LAVA_LOG=<file>: a job make lava wrote,
# run on a LAVA lab, back from its log (output.yaml) as a boot of a new run.
lava-import: $(HOST)/y2038-collect
	$(if $(LAVA_LOG),,$(error make lava-import LAVA_CELL=<cell> LAVA_LOG=<the job's log, output.yaml>))
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)host-tools/engines/lava.sh import $(LAVA_DIR)/$(LAVA_CELL) $(LAVA_LOG) $(RUN_DIR)/boots/$(LAVA_CELL)-lava run_id=$(RUN_ID)
	$(Q)rc=0; $(COLLECT) $(EXPECTATIONS) $(RUN_DIR) || rc=$$?; $(REPORT) $(RUN_DIR); exit $$rc

# make lava-submit LAVA_URL=<server> LAVA_TOKEN_FILE=<a file holding a
# user's token>: the cells
# (KERNEL=, MACHINES=, CONFIGS=) as jobs of a new run (RUN_ID=) on a LAVA
# server, each carrying the lab's metadata (run id, boot, machine, config,
# kernel, series). The worker fetches each job's kernel and initramfs from
# LAVA_ARTIFACTS=<URL> (where the user has put the run's lava/artifacts/:
# every URL is checked first), else over HTTP from this machine, served on
# LAVA_SERVE=<address[:port]> (default: the loopback, any free port) until
# every job has them. LAVA_TAGS=<tag,...> routes them (% is the machine:
# y2038-%); LAVA_CONSOLE=<folder on the worker> keeps each kernel console
# there (default: none). make lava-collect LAVA_URL= RUN_ID=: waits for the
# run's jobs (those make lava-submit recorded; for a run submitted
# elsewhere, the token's user's whose boot is one of the lab's names,
# LAVA_BOOT_NAMES) and fetches each job's log and test results through the
# REST API as a boot of the run, then the same collector and report as
# make run. A job that did not complete (incomplete,
# canceled, its worker gone, or not finished within LAVA_WAIT seconds) makes
# its cells ERROR saying so (host-tools/engines/lava-api.py).
LAVA_URL           ?=
# The token: in a file only its owner reads, or LAVA_TOKEN in make's
# environment (lava-api.py reads either), never on make's command line:
# ps shows a command line to every user for as long as the run lasts, and
# make hands its command line's variables to every command it runs
# (MAKEFLAGS).
ifeq ($(origin LAVA_TOKEN),command line)
$(error LAVA_TOKEN= on make's command line is shown by ps to every user of this machine and handed to every command make runs: put the token in a file only you can read and give LAVA_TOKEN_FILE=<that file> (or LAVA_TOKEN in make's environment))
endif
LAVA_TOKEN_FILE    ?=
export LAVA_TOKEN_FILE
LAVA_ARTIFACTS     ?=
LAVA_SERVE         ?= 127.0.0.1
LAVA_TAGS          ?=
LAVA_CONSOLE       ?=
LAVA_WAIT          ?= 3600
LAVA_OFFLINE_GRACE ?= 300
LAVA_CANCEL_GRACE  ?= 150
LAVA_POLL          ?= 10
# collect's own Python (lava-log.py) reads the log with PyYAML
LAVA_CLIENT_PACKAGES := python3-yaml
LAVA_SUBMIT_DIR     = $(RUN_DIR)/lava
# The names the lab gives a LAVA job's boot (lava.sh job): MACHINE-CONFIG.
LAVA_BOOT_NAMES     = $(foreach m,$(ALL_MACHINES),$(KERNEL_CONFIGS:%=$(m)-%))
# $(1): machine, $(2): config
lava-submit-args = images=$(if $(LAVA_ARTIFACTS),$(LAVA_ARTIFACTS),@IMAGES@)/$(1)-$(2) \
	run_id=$(RUN_ID) series=$(SERIES) tags=$(subst %,$(1),$(LAVA_TAGS)) \
	console_file=$(if $(LAVA_CONSOLE),$(LAVA_CONSOLE)/$(RUN_ID)-$(1)-$(2).log,/dev/null)
$(foreach m,$(READY),$(foreach c,$(CONFIGS),$(eval $(call lava-rules,$(m),$(c),$(LAVA_SUBMIT_DIR),$(call lava-submit-args,$(m),$(c))))))
.PHONY: lava-submit lava-submit-jobs lava-collect
lava-submit-jobs: $(LAVA_CELLS:%=$(LAVA_SUBMIT_DIR)/%/job.yaml)
lava-submit: deps
	$(if $(LAVA_URL),,$(error make lava-submit LAVA_URL=<the LAVA server> LAVA_TOKEN_FILE=<a file holding a token of the user to submit as>))
	$(if $(LAVA_TOKEN_FILE)$(LAVA_TOKEN),,$(error make lava-submit: LAVA_TOKEN_FILE=<a file holding a token of the user to submit as> is required))
	$(Q)mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -j$(LAB_JOBS) lava-submit-jobs
	$(Q)host-tools/engines/lava.sh submit $(RUN_DIR) url=$(LAVA_URL) artifacts=$(LAVA_ARTIFACTS) \
		serve=$(LAVA_SERVE) wait=$(LAVA_WAIT) $(LAVA_CELLS)
	@echo "run $(RUN_ID) submitted: make lava-collect LAVA_URL=$(LAVA_URL) RUN_ID=$(RUN_ID)"
lava-collect: $(HOST)/y2038-collect
	$(if $(LAVA_URL),,$(error make lava-collect LAVA_URL=<the LAVA server> RUN_ID=<the run make lava-submit made>))
	$(if $(filter command line environment,$(origin RUN_ID)),,$(error make lava-collect: RUN_ID=<the run make lava-submit made> is required))
	$(Q)host-tools/deps.sh $(LAVA_CLIENT_PACKAGES)
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)host-tools/engines/lava.sh collect $(RUN_DIR) url=$(LAVA_URL) run_id=$(RUN_ID) boots="$(LAVA_BOOT_NAMES)" wait=$(LAVA_WAIT) \
		offline_grace=$(LAVA_OFFLINE_GRACE) cancel_grace=$(LAVA_CANCEL_GRACE) poll=$(LAVA_POLL)
	$(Q)rc=0; $(COLLECT) $(EXPECTATIONS) $(RUN_DIR) || rc=$$?; $(REPORT) $(RUN_DIR); \
	echo "results: $(RUN_DIR)/ (results.json, results.tap, summary.txt, report.html, report.md)"; exit $$rc

# make lava-server-check: the above against a real LAVA server on this
# machine (lava-server.sh: Debian's lava-server on a PostgreSQL of its own,
# a lava-worker with a qemu device per machine, on the loopback only; a
# user and a token made for it): the cells of LAVA_CHECK_MACHINES booted
# by the lab, then submitted with make lava-submit and collected with make
# lava-collect, the verdicts equal cell for cell; then a job canceled
# through the API and one whose worker is killed under it, each a clear
# verdict for its cells; jobs with the run's id that it did not submit,
# ignored, saying why (tests/run/lava-server-check.sh). Then the server
# is stopped, every process it started gone, and the host as it was
# (host-untouched.sh: its kernel and clock as before, its configuration as
# the packages' install left it, with none of their services enabled).
# 6 min cold (the install of LAVA: about a minute), 4.5 to 9 warm
# (docs/engines.md): a target of its own, not make check's.
LAVA_CHECK_MACHINES ?= $(CHECK_MACHINES)
LAVA_CHECK_DIR       = $(BUILD)/check-lava-server
.PHONY: lava-server-check
lava-server-check: deps $(foreach m,$(LAVA_CHECK_MACHINES),$(call machine-env,$(m)))
	$(Q)host-tools/deps.sh $(LAVA_CLIENT_PACKAGES)
	@mkdir -p $(LAVA_CHECK_DIR)
	$(Q)tests/run/host-untouched.sh snapshot $(LAVA_CHECK_DIR)/host-before
	$(Q)host-tools/engines/lava-server.sh install
	$(Q)tests/run/host-untouched.sh snapshot $(LAVA_CHECK_DIR)/host-installed
	$(call say,LAB,the same cells booted by the lab itself (log: $(LAVA_CHECK_DIR)/lab.log))
	$(Q)($(call locked-lab,RESULTS=$(LAVA_CHECK_DIR)/lab MACHINES="$(LAVA_CHECK_MACHINES)" BOOT_KINDS=matrix FAKETIME=no)) \
		>$(LAVA_CHECK_DIR)/lab.log 2>&1 || true
	$(Q)tests/run/lava-server-check.sh $(abspath $(BUILD)/lava-server) $(LAVA_CHECK_DIR)/lava \
		$(LAVA_CHECK_DIR)/lab/$(RUN_ID) "$(LAVA_CHECK_MACHINES)" "$(CONFIGS)"
	$(Q)tests/run/host-untouched.sh compare $(LAVA_CHECK_DIR)/host-before $(LAVA_CHECK_DIR)/host-installed

# make kcidb RUN=<run-id>: the run as KCIDB JSON (results/<run-id>/kcidb.json),
# every id prefixed with KCIDB_ORIGIN (the origin KernelCI gave you).
KCIDB_ORIGIN ?= y2038lab
kcidb: $(HOST)/y2038-collect
	$(if $(RUN),,$(error make kcidb RUN=<run-id> (a folder in $(RESULTS)/, or latest)))
	$(Q)host-tools/engines/kcidb.sh $(RESULTS)/$(RUN) $(KCIDB_ORIGIN)
