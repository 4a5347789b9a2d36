# Stage: TAP -> verdicts (host-tools/verdicts/). y2038-collect reads each
# boot's record, TAP and console, judges every cell against
# expectations.tsv, and writes results.json, results.tap and summary.txt.

# Its headers (results-record.h, boot-record.h, ...) are the compiler's
# list, build/host/y2038-collect.d (compile-deps, Makefile).
$(HOST)/y2038-collect: host-tools/verdicts/y2038-collect.c host-tools/verdicts/collect-write.c \
	host-tools/verdicts/read-record.c host-tools/verdicts/tap.c host-tools/verdicts/expect.c
COLLECT = $(HOST)/y2038-collect
# The readers of results and boots in other languages (report.py,
# compare.py, kcidb.sh, distro-verdicts.py, ...) ask it for the results
# vocabulary and for what a boot left, through LAB_COLLECT: a target that
# runs one of them has $(HOST)/y2038-collect among its prerequisites. The
# Python ones import collector.py, its Python face, through PYTHONPATH.
export LAB_COLLECT = $(abspath $(COLLECT))
export PYTHONPATH := $(abspath host-tools/verdicts)
EXPECTATIONS := expectations.tsv

# A machine's block of the matrix, printed as soon as its boots and host
# columns are done, while other machines still build; the first machine's
# matrix boots (FIRST_BOOTS, boot.mk) print first, each on its own as soon
# as it is collected (make run's first-boots), and its block holds the
# rest. $(1): block, $(2): its boots
define block-rules
$(RUN_DIR)/blocks/$(1): $(2) $(HOST)/y2038-collect
	@mkdir -p $$(@D)
	$$(Q)$(if $(2),$$(COLLECT) --boots $(call commas,$(patsubst $(RUN_DIR)/boots/%/meta,%,$(2))) \
		$$(EXPECTATIONS) $$(RUN_DIR) >$$@.tmp || true; cat $$@.tmp; mv $$@.tmp $$@,touch $$@)
endef
$(foreach m,$(MACHINES),$(eval $(call block-rules,$(m),$(filter-out $(FIRST_BOOTS),$(filter $(RUN_DIR)/boots/$(m)-%,$(BOOTS) $(FAKED_RUNS))))))
$(foreach b,$(FIRST_BOOTS),$(eval $(call block-rules,$(notdir $(call first_block,$(b))),$(b))))

# The matrix of one run; exits non-zero when an observation contradicts its
# expectation. The first machine's blocks come first (make starts a list's
# prerequisites in its order), then every boot in BOOT_SCHEDULE order; then each boot with a case that
# missed its moment (LATE: the machine's load, not a verdict) is booted
# again, alone, now that the others are done (retry-late.sh); this ends
# with the closing summary. The report is written whatever the verdicts: a
# run with mismatches needs it most.
.PHONY: lab
lab: $(FIRST_BLOCKS) $(filter $(BOOTS) $(FAKED_RUNS),$(BOOT_SCHEDULE)) $(MACHINES:%=$(RUN_DIR)/blocks/%) $(HOST)/y2038-collect
	$(Q)$(set-latest)
	$(Q)host-tools/verdicts/retry-late.sh collect=$(COLLECT) expectations=$(EXPECTATIONS) run_dir=$(RUN_DIR) -- \
		$(MAKE) --no-print-directory -s BOOT_RETRY=yes
	$(Q)rc=0; $(COLLECT) --totals $(EXPECTATIONS) $(RUN_DIR) || rc=$$?; \
	$(REPORT) $(RUN_DIR); \
	echo "results: $(RUN_DIR)/ (results.json, results.tap, summary.txt, report.html, report.md, boots/*/console.log)"; \
	exit $$rc
