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
LAVA_CELL     ?= $(ONE_MACHINE)-compat32-y
LAVA_MACHINE   = $(firstword $(subst -, ,$(LAVA_CELL)))
# $(1): machine, $(2): config
define lava-rules
$(LAVA_DIR)/$(1)-$(2)/job.yaml: $(KERNEL_ENVS)/$(1)-$(2).env $(BUILD)/$($(1).userland)/initramfs.cpio host-tools/engines/lava.sh $(call machine-env,$(1))
	$$(Q)host-tools/engines/lava.sh job out=$$(@D) machine_env=$(call machine-env,$(1)) config=$(2) \
		kernel_env=$$< initrd=$(BUILD)/$($(1).userland)/initramfs.cpio \
		scenarios=$$(call commas,$$(call matrix.bins,$(1))) rtc_base=$$(matrix.rtc) \
		guest_timeout=$$(GUEST_TIMEOUT) boot_timeout=$$(BOOT_TIMEOUT)
endef
$(foreach m,$(READY),$(foreach c,$(CONFIGS),$(eval $(call lava-rules,$(m),$(c)))))
.PHONY: lava lava-jobs lava-check lava-import kcidb
lava-jobs: $(LAVA_CELLS:%=$(LAVA_DIR)/%/job.yaml)
lava: deps
	$(Q)host-tools/deps.sh $(LAVA_PACKAGES)
	$(Q)mkdir -p $(BUILD) && flock $(BUILD)/.inputs.lock $(MAKE) --no-print-directory -j$(LAB_JOBS) lava-jobs
	$(Q)host-tools/engines/lava.sh validate $(LAVA_CELLS:%=$(LAVA_DIR)/%)
lava-check: lava $(HOST)/y2038-collect
	$(if $(filter $(LAVA_CELL),$(LAVA_CELLS)),,$(error LAVA_CELL=$(LAVA_CELL): not a cell here ($(LAVA_CELLS))))
	@mkdir -p $(RUN_DIR) && $(set-latest)
	$(Q)$(MAKE) --no-print-directory boots MACHINES=$(LAVA_MACHINE) CONFIGS=$(patsubst $(LAVA_MACHINE)-%,%,$(LAVA_CELL)) BOOT_KINDS=matrix
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

# make kcidb RUN=<run-id>: the run as KCIDB JSON (results/<run-id>/kcidb.json).
kcidb: $(HOST)/y2038-collect
	$(if $(RUN),,$(error make kcidb RUN=<run-id> (a folder in $(RESULTS)/, or latest)))
	$(Q)host-tools/engines/kcidb.sh $(RESULTS)/$(RUN)
