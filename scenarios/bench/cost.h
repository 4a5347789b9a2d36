/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost.h - what one call costs, for make bench's programs (clock-cost.c,
 * futex-cost.c), in the scenario harness's terms:
 *
 *   static int one_call(void *arg) { ...; return 0 or the errno; }
 *   cost_measure(o, one_call, arg, "how a call is served");
 *
 * times N calls, N doubled until a run lasts COST_RUN_NS, after
 * COST_WARMUP_NS of calls (TCG translates the code first), COST_RUNS times,
 * and sets the outcome PASS with "X ns a call (fastest of R runs of N
 * calls; median M): HOW": the fastest run is the one a busy host
 * interrupted least. Short runs, many of them: under TCG on a busy host a
 * long run always holds a descheduled stretch of the vCPU's thread, and a
 * guest tick, that a short one may not. make bench's scripts read that
 * detail. Under TCG the nanoseconds are the emulator's: compare rows of one
 * bench, side by side, never with a real machine's.
 */
#ifndef Y2038_BENCH_COST_H
#define Y2038_BENCH_COST_H

#include <stdlib.h>
#include "../harness.h"

#define COST_RUN_NS	(2 * NSEC_PER_MSEC)
#define COST_RUNS	61
#define COST_WARMUP_NS	(50 * NSEC_PER_MSEC)
#define COST_MAX_CALLS	(1L << 24)

/* One call of what is timed: 0, or the errno (which the timing ignores). */
typedef int (*cost_call)(void *arg);

static inline int64_t cost_time_calls(cost_call call, void *arg, long calls)
{
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	long i;

	for (i = 0; i < calls; i++)
		call(arg);
	return clock_ns(CLOCK_MONOTONIC) - t0;
}

static inline int cost_by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static inline void cost_measure(struct outcome *o, cost_call call, void *arg, const char *how)
{
	int64_t took[COST_RUNS], warm;
	long calls = 16;
	int i;

	while (cost_time_calls(call, arg, calls) < COST_RUN_NS && calls < COST_MAX_CALLS)
		calls *= 2;
	for (warm = 0; warm < COST_WARMUP_NS; )
		warm += cost_time_calls(call, arg, calls);
	for (i = 0; i < COST_RUNS; i++)
		took[i] = cost_time_calls(call, arg, calls);
	qsort(took, COST_RUNS, sizeof(took[0]), cost_by_value);
	outcome_set(o, "PASS", "%.1f ns a call (fastest of %d runs of %ld calls; median %.1f): %s",
		    (double)took[0] / calls, COST_RUNS, calls, (double)took[COST_RUNS / 2] / calls, how);
}

#endif /* Y2038_BENCH_COST_H */
