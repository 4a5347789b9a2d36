# Speed and steadiness (host-tools/bench/): make bench prints the lab's speed
# beside its targets; make repeat runs the matrix again and again and names
# every cell whose outcome changed.

# make bench: BENCH_COLD=no skips the cold kernel builds, which take about 15
# minutes per machine; BENCH_COLD_MACHINES= picks whose to time.
BENCH_MACHINES ?= i386 armv7
BENCH_FAMILIES ?= $(SCENARIOS)
BENCH_COLD     ?= yes
BENCH_COLD_MACHINES ?= $(BENCH_MACHINES)
.PHONY: bench repeat
bench: deps
	$(Q)MAKE="$(MAKE)" LAB_JOBS=$(LAB_JOBS) host-tools/bench/bench.sh out=$(BUILD)/bench machines="$(BENCH_MACHINES)" \
		cold_machines="$(BENCH_COLD_MACHINES)" families="$(BENCH_FAMILIES)" cold=$(BENCH_COLD) \
		kunit_machine=$(firstword $(BENCH_MACHINES))

# make repeat [REPEAT=10]: the whole matrix REPEAT times, then every cell
# compared with the first run's (repeat.sh).
REPEAT ?= 10
repeat: deps
	$(Q)for k in $$(seq 1 $(REPEAT)); do \
		echo "  REPEAT   run $$k of $(REPEAT)"; \
		$(call locked-lab,RUN_ID=$(RUN_ID)-r$$k) || true; done
	$(Q)host-tools/bench/repeat.sh $$(seq -f '$(RESULTS)/$(RUN_ID)-r%g' 1 $(REPEAT)) | tee $(RESULTS)/$(RUN_ID)-repeat.txt
