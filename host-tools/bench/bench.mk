# Speed and steadiness (host-tools/bench/): make bench prints the lab's speed
# beside its targets; make repeat runs the matrix again and again and names
# every cell whose outcome changed.

# make bench: the lab's speed and cost figures beside their targets. BENCH_COLD=no
# skips the cold run (a make run on an empty cache: 30 to 40 minutes);
# BENCH_COLD_MACHINES= picks its machines (default: all, as make run);
# BENCH_CHECK=yes also times make check on an empty cache (most of an hour).
BENCH_COLD     ?= yes
BENCH_COLD_MACHINES ?= $(ALL_MACHINES)
BENCH_CHECK    ?= no
.PHONY: bench repeat
bench: deps $(HOST)/y2038-collect
	$(Q)MAKE="$(MAKE)" LAB_JOBS=$(LAB_JOBS) host-tools/bench/bench.sh out=$(BUILD)/bench \
		machines="$(BENCH_COLD_MACHINES)" cold=$(BENCH_COLD) check=$(BENCH_CHECK) \
		kunit_machine=$(firstword $(KUNIT_MACHINES)) one_machine=$(ONE_MACHINE)

# make repeat [REPEAT=10]: the whole matrix REPEAT times, then every cell
# compared with the first run's (repeat.sh).
REPEAT ?= 10
repeat: deps
	$(Q)for k in $$(seq 1 $(REPEAT)); do \
		echo "  REPEAT   run $$k of $(REPEAT)"; \
		$(call locked-lab,RUN_ID=$(RUN_ID)-r$$k) || true; done
	$(Q)host-tools/bench/repeat.sh $$(seq -f '$(RESULTS)/$(RUN_ID)-r%g' 1 $(REPEAT)) | tee $(RESULTS)/$(RUN_ID)-repeat.txt
