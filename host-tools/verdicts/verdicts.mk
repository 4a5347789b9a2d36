# Stage: TAP -> verdicts (host-tools/verdicts/). y2038-collect reads each
# boot's record, TAP and console, judges every cell against
# expectations.tsv, and writes results.json, results.tap and summary.txt.

$(HOST)/y2038-collect: host-tools/verdicts/y2038-collect.c host-tools/verdicts/tap.c host-tools/verdicts/expect.c \
	host-tools/verdicts/tap.h host-tools/verdicts/expect.h host-tools/boot/boot-record.h host-tools/read-file.h
COLLECT = $(HOST)/y2038-collect expectations.tsv

# The matrix of one run; exits non-zero when an observation contradicts its expectation.
# The report is written whatever the verdicts: a run with mismatches needs it most.
.PHONY: lab
lab: $(BOOTS) $(FAKED_RUNS) $(HOST)/y2038-collect
	$(Q)$(set-latest)
	$(Q)rc=0; $(COLLECT) $(RUN_DIR) || rc=$$?; \
	$(REPORT) $(RUN_DIR); \
	echo "results: $(RUN_DIR)/ (results.json, results.tap, summary.txt, report.html, report.md, boots/*/console.log)"; \
	exit $$rc
