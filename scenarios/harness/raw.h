/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/raw.h - the raw syscalls of this build's width, for the raw cells:
 * the time32 syscall in a legacy build, its time64 twin in a time64 one,
 * with the kernel's layout for each, and deadlines computed the way a
 * program computes them.
 *
 *   RAW_NR(futex, futex_time64)    __NR_futex, or __NR_futex_time64
 *   RAW_NAME(futex, futex_time64)  "syscall futex", or "syscall futex_time64"
 */
#ifndef Y2038_HARNESS_RAW_H
#define Y2038_HARNESS_RAW_H

#include "outcome.h"

#if Y2038_TIME64_BUILD
typedef struct kts64 raw_ts;
#define RAW_PICK(old, new)	new
#else
typedef struct old_ts32 raw_ts;
#define RAW_PICK(old, new)	old
#endif
#define RAW_NR(old, new)	RAW_PICK(__NR_##old, __NR_##new)
#define RAW_NAME(old, new)	"syscall " RAW_PICK(#old, #new)

#define RAW_NR_CLOCK_GETTIME	RAW_NR(clock_gettime, clock_gettime64)
#define RAW_CLOCK_GETTIME	RAW_NAME(clock_gettime, clock_gettime64)

/* The kernel's sigset_t is 64 signals, not glibc's 1024. */
#define KERNEL_SIGSET_SIZE 8

/* "now + ns" computed the way a program does (see TS_ADVANCE): 0 or the errno. */
static inline int libc_deadline(struct timespec *ts, int64_t ns)
{
	if (clock_gettime(CLOCK_REALTIME, ts))
		return errno;
	TS_ADVANCE(*ts, ns);
	return 0;
}

/* The same with the raw clock_gettime of this build's width. */
static inline int raw_deadline(raw_ts *ts, int64_t ns)
{
	if (syscall(RAW_NR_CLOCK_GETTIME, CLOCK_REALTIME, ts))
		return errno;
	TS_ADVANCE(*ts, ns);
	return 0;
}

/* A relative timeout of ns (under a second) in this build's layout. */
static inline raw_ts raw_rel(int64_t ns)
{
	raw_ts ts = { 0, ns };

	return ts;
}

/*
 * A relative sleep of ns (under a second) through the raw syscall of this
 * build's width, judged: clock_nanosleep_time64 on CLOCK_REALTIME in a
 * time64 build (call64 names it), else the time32 syscall nr32 (call32)
 * with an old_timespec32, after the clock id clk (clk < 0: none, as for
 * nanosleep).
 */
static inline void raw_sleep_rel(struct outcome *o, long nr32, int clk,
				 const char *call32, const char *call64, int64_t ns)
{
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	int err;
#if Y2038_TIME64_BUILD
	struct kts64 req = kts64_from_ns(ns);
	const char *call = call64;

	(void)nr32, (void)clk, (void)call32;
	err = -raw64_clock_nanosleep(CLOCK_REALTIME, 0, &req);
#else
	struct old_ts32 req = { 0, ns };
	const char *call = call32;

	(void)call64;
	if (clk < 0)
		err = syscall(nr32, &req, NULL) ? errno : 0;
	else
		err = syscall(nr32, clk, 0, &req, NULL) ? errno : 0;
#endif
	judge_wait(o, call, err, ns, clock_ns(CLOCK_MONOTONIC) - t0);
}

#endif
