# Stage: verdicts -> report (host-tools/report/). report.py makes a run's
# report.html (its page template: report.html.in) and report.md from
# results.json and the boots' timelines, never by hand.

REPORT = python3 host-tools/report/report.py

# make report RUN=<run-id>: regenerate a run's report from its results.json.
.PHONY: report
report:
	$(if $(RUN),,$(error make report RUN=<run-id> (a folder in $(RESULTS)/, or latest)))
	$(Q)$(REPORT) $(RESULTS)/$(RUN)
