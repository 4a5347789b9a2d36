# Stage: verdicts -> report (host-tools/report/). report.py makes a run's
# report.html (its page template: report.html.in) and report.md from
# results.json and the boots' timelines, never by hand; one module per
# section (timelines.py, libfaketime.py, apps.py, filesystems.py). It asks
# the collector (LAB_COLLECT, verdicts.mk) for the vocabulary and the boots.

REPORT = python3 host-tools/report/report.py

# make report RUN=<run-id>: regenerate a run's report from its results.json.
.PHONY: report
report: $(HOST)/y2038-collect
	$(if $(RUN),,$(error make report RUN=<run-id> (a folder in $(RESULTS)/, or latest)))
	$(Q)$(REPORT) $(RESULTS)/$(RUN)

# make compare-kernels: every default boot kind of COMPARE_MACHINES on each kernel of
# COMPARE_KERNELS, one whole run each (results/<run-id>-<kernel>/), then
# every cell whose outcome differs between them (compare.py), in
# results/<run-id>-compare/ (compare.tsv, compare.md, compare.html). The
# host columns do not depend on the kernel under test and are left out. A
# run with a cell not as expected still takes part, its cells marked; the
# target fails at the end.
COMPARE_KERNELS  ?= $(KERNEL_CHOICES)
COMPARE_MACHINES ?= $(MACHINES_32BIT)
COMPARE_DIR       = $(RESULTS)/$(RUN_ID)-compare
.PHONY: compare-kernels
compare-kernels: $(HOST)/y2038-collect
	$(Q)rc=0; $(foreach k,$(COMPARE_KERNELS),$(MAKE) --no-print-directory run KERNEL=$(k) \
		MACHINES="$(COMPARE_MACHINES)" FAKETIME=no RUN_ID=$(RUN_ID)-$(k) || rc=1;) \
	python3 host-tools/report/compare.py $(COMPARE_DIR) $(foreach k,$(COMPARE_KERNELS),$(RESULTS)/$(RUN_ID)-$(k)) && \
	echo "compare: $(COMPARE_DIR)/ (compare.tsv, compare.md, compare.html)" && exit $$rc
