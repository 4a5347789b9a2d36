/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/outcome.h - what one case observed, and the judges every family
 * shares: a clock reading (PASS, WRAP to 1901, WRONG), a wait (PASS, EARLY,
 * an errno), and a deadline computed the way a program computes it.
 */
#ifndef Y2038_HARNESS_OUTCOME_H
#define Y2038_HARNESS_OUTCOME_H

#include <stdarg.h>
#include "syscalls.h"

/* What one case observed: an outcome class and a human-readable detail. */
struct outcome {
	char class[16];
	char detail[240];
	int64_t began_ns;	/* CLOCK_REALTIME as the case body began (0: never) */
	int64_t ended_ns;	/* ...and as it ended */
};

static inline void outcome_set(struct outcome *o, const char *class,
			       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void outcome_set(struct outcome *o, const char *class,
			       const char *fmt, ...)
{
	va_list ap;

	snprintf(o->class, sizeof(o->class), "%s", class);
	va_start(ap, fmt);
	vsnprintf(o->detail, sizeof(o->detail), fmt, ap);
	va_end(ap);
}

/* Add to an outcome's detail, e.g. the deadline a case computed. */
static inline void outcome_append(struct outcome *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void outcome_append(struct outcome *o, const char *fmt, ...)
{
	size_t n = strlen(o->detail);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->detail + n, sizeof(o->detail) - n, fmt, ap);
	va_end(ap);
}

/* A call failed with err: the class is the errno's name. */
static inline void outcome_errno(struct outcome *o, const char *call, int err)
{
	outcome_set(o, errno_name(err), "%s: errno %d %s", call, err,
		    errno_name(err));
}

/*
 * Setting up what is measured failed (the harness's own calls, a pipe, a
 * timer_create): the lab's error, not an observation. config names the
 * kernel option the call needs, or is NULL.
 */
static inline void outcome_setup_failed(struct outcome *o, const char *call,
					const char *config, int err)
{
	if (config)
		outcome_set(o, "ERROR", "%s: errno %d %s: is %s built in?",
			    call, err, errno_name(err), config);
	else
		outcome_set(o, "ERROR", "%s: errno %d %s", call, err,
			    errno_name(err));
}

/*
 * A case that missed its moment (harness/cases.h, guest-init/moment.h): it
 * measured the machine's load, not the overflow, so its outcome is LATE,
 * never a verdict, saying what came how far past the overflow (at_ns,
 * CLOCK_REALTIME), how long before it its clock was set (start_ns), what
 * that means, and what it would have been. E.g. "nanosleep began 3.1 ms past
 * the overflow, its clock set 50 ms before it: it did not cross it (was:
 * PASS ...)".
 */
static inline void outcome_late(struct outcome *o, const char *who, const char *what,
				int64_t at_ns, int64_t start_ns, const char *meaning)
{
	struct outcome was = *o;
	int64_t late = at_ns - (Y2038_LAST_SEC + 1) * NSEC_PER_SEC;
	int64_t lead = (Y2038_LAST_SEC + 1) * NSEC_PER_SEC - start_ns;

	outcome_set(o, "LATE", "%s %s %.*f %s past the overflow, its clock set %lld %s before it: %s (was: %s %s)",
		    who, what, late < NSEC_PER_SEC ? 1 : 2,
		    late < NSEC_PER_SEC ? late / 1e6 : late / 1e9, late < NSEC_PER_SEC ? "ms" : "s",
		    (long long)(lead < NSEC_PER_SEC ? lead / NSEC_PER_MSEC : lead / NSEC_PER_SEC),
		    lead < NSEC_PER_SEC ? "ms" : "s", meaning, was.class, was.detail);
}

/* An absolute wait also says what deadline it was given. */
static inline void outcome_deadline(struct outcome *o, int64_t sec)
{
	char when[64];

	iso8601(sec, when, sizeof(when));
	outcome_append(o, "; deadline %lld (%s)", (long long)sec, when);
}

/*
 * Judge a wall-clock reading (in seconds) taken between two raw time64
 * readings lo_ns and hi_ns: PASS when it is the time, WRAP when it is the
 * time less 2^32 s (a time32 value that went negative: 1901), else WRONG.
 */
static inline void judge_reading(struct outcome *o, const char *call,
				 int64_t seen, int64_t lo_ns, int64_t hi_ns)
{
	int64_t lo = lo_ns / NSEC_PER_SEC - 1, hi = hi_ns / NSEC_PER_SEC + 1;
	char when[64];

	iso8601(seen, when, sizeof(when));
	if (seen >= lo && seen <= hi)
		outcome_set(o, "PASS", "%s = %lld (%s)", call,
			    (long long)seen, when);
	else if (seen + Y2038_WRAP >= lo && seen + Y2038_WRAP <= hi)
		outcome_set(o, "WRAP", "%s = %lld (%s), 2^32 s behind", call,
			    (long long)seen, when);
	else
		outcome_set(o, "WRONG", "%s = %lld (%s), true time %lld", call,
			    (long long)seen, when,
			    (long long)(hi_ns / NSEC_PER_SEC));
}

#define TS_NS(ts)	((int64_t)(ts).tv_sec * NSEC_PER_SEC + (ts).tv_nsec)

/*
 * A deadline or a time to set, computed the way a program does: add to the
 * tv_sec it read. In a 32-bit time_t that sum wraps to 1901.
 */
static inline int32_t add_wrapping32(int32_t a, int64_t b)
{
	return (int32_t)(uint32_t)((uint32_t)a + (uint32_t)b);
}

/* Add sec to a tv_sec of any width, wrapping a 32-bit one as above. */
#define TV_SEC_ADD(tv_sec, sec)						\
	((tv_sec) = sizeof(tv_sec) == 4 ?				\
		add_wrapping32((tv_sec), (sec)) : (tv_sec) + (sec))

/* Advance a timespec of any layout by ns, wrapping a 32-bit tv_sec as above. */
#define TS_ADVANCE(ts, ns) do {						\
	int64_t ns_ = (ts).tv_nsec + (ns);				\
									\
	(ts).tv_nsec = ns_ % NSEC_PER_SEC;				\
	TV_SEC_ADD((ts).tv_sec, ns_ / NSEC_PER_SEC);			\
} while (0)

/* Tolerance for "returned early": timers never fire before their time. */
#define Y2038_EARLY_SLACK_NS (5 * NSEC_PER_MSEC)
/*
 * A timeout kept in jiffies (schedule_timeout: SO_RCVTIMEO, SO_SNDTIMEO) is
 * armed from the jiffies the kernel last counted. Under TCG on a busy host
 * the guest's ticks come late while its clocksource keeps the host's time,
 * so that count can be a few ticks old and the wait ends that much early:
 * measured 0.089 s of 0.100 s with four guests on two cores (HZ 250). The
 * year-2038 failures this detects return at once (0.000-0.012 s of 0.100 s).
 */
#define Y2038_JIFFIES_SLACK_NS (20 * NSEC_PER_MSEC)

/*
 * Judge a wait that should have lasted want_ns and took took_ns; err is the
 * errno it failed with, or 0. slack_ns: how much sooner still counts as the
 * full wait.
 */
static inline void judge_wait_slack(struct outcome *o, const char *call, int err,
				    int64_t want_ns, int64_t took_ns, int64_t slack_ns)
{
	if (err)
		outcome_set(o, errno_name(err),
			    "%s: errno %d %s after %.3f s of %.3f s", call, err,
			    errno_name(err), took_ns / 1e9, want_ns / 1e9);
	else if (took_ns + slack_ns < want_ns)
		outcome_set(o, "EARLY", "%s returned after %.3f s of %.3f s",
			    call, took_ns / 1e9, want_ns / 1e9);
	else
		outcome_set(o, "PASS", "%s waited %.3f s of %.3f s", call,
			    took_ns / 1e9, want_ns / 1e9);
}

static inline void judge_wait(struct outcome *o, const char *call, int err,
			      int64_t want_ns, int64_t took_ns)
{
	judge_wait_slack(o, call, err, want_ns, took_ns, Y2038_EARLY_SLACK_NS);
}

/*
 * A wait that took its time but not asleep: its thread ran for a quarter
 * or more of a wait of 50 ms or more (cpu_ns: CLOCK_THREAD_CPUTIME_ID over
 * the wait) and never blocked (blocks: the growth of the thread's
 * getrusage(RUSAGE_THREAD) ru_nvcsw, counted when a task leaves the CPU
 * not runnable, kernel/sched/core.c __schedule(): "switch_count =
 * &prev->nvcsw"). A thread asleep in a futex blocks at least once; one
 * that spins never does, and CPU time alone is not enough under TCG, where
 * a host stall while the woken thread runs is charged to it (a 0.128 s
 * wait of glibc 2.36, asleep in futex_time64, showed 0.039 s).
 * A libc that retries a call which fails at once (musl treats a futex
 * wait's ENOSYS as a spurious wakeup) waits by spinning: the device is
 * busy, and its battery drains, for as long as the wait lasts.
 */
#define Y2038_SPIN_MIN_NS (50 * NSEC_PER_MSEC)
#ifdef RUSAGE_THREAD	/* <sys/resource.h> with _GNU_SOURCE: waits.c, the unit tests */
/* The calling thread's voluntary context switches (ru_nvcsw), or -1. */
static inline long thread_blocks(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}
#endif
static inline void judge_spin(struct outcome *o, const char *call,
			      int64_t took_ns, int64_t cpu_ns, long blocks)
{
	if (strcmp(o->class, "PASS") || took_ns < Y2038_SPIN_MIN_NS ||
	    4 * cpu_ns < took_ns || blocks > 0)
		return;
	outcome_set(o, "SPIN", "%s waited %.3f s, running: %.3f s of its thread's CPU time, never blocking, where a wait sleeps",
		    call, took_ns / 1e9, cpu_ns / 1e9);
}

#endif
