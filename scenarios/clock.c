// SPDX-License-Identifier: GPL-2.0
/*
 * clock: reading the wall clock either side of the rollover, and sleeping
 * across it: to an absolute deadline past it, and for a relative 500 ms.
 *
 * Each interface is read through libc (legacy or time64 glibc, whichever this
 * binary was built as) and through the raw syscall of the same width: time32
 * (time 13, gettimeofday 78, clock_gettime 265, clock_nanosleep 267 on i386)
 * in the legacy build, time64 (clock_gettime64 403, clock_nanosleep_time64
 * 407) in the time64 build. time() and gettimeofday() have no time64 twin;
 * their raw64 cell is clock_gettime64, what a time64 libc uses instead.
 * Expected outcomes per ABI and kernel config: expectations.tsv.
 */
#include <sys/time.h>
#include "harness.h"

/* Bracket a reading between two raw time64 readings of the true time. */
#define READ_BETWEEN(lo, hi, expr) \
	do { (lo) = clock_ns(CLOCK_REALTIME); expr; (hi) = clock_ns(CLOCK_REALTIME); } while (0)

static void libc_time(struct outcome *o)
{
	int64_t lo, hi;
	time_t t;
	int err;

	errno = 0;
	READ_BETWEEN(lo, hi, t = time(NULL); err = errno);
	if (t == (time_t)-1 && err)
		outcome_errno(o, "time", err);
	else
		judge_reading(o, "time", t, lo, hi);
}

static void libc_clock_gettime(struct outcome *o)
{
	struct timespec ts;
	int64_t lo, hi;
	int ret, err;

	READ_BETWEEN(lo, hi, ret = clock_gettime(CLOCK_REALTIME, &ts); err = errno);
	if (ret)
		outcome_errno(o, "clock_gettime", err);
	else
		judge_reading(o, "clock_gettime", ts.tv_sec, lo, hi);
}

static void libc_gettimeofday(struct outcome *o)
{
	struct timeval tv;
	int64_t lo, hi;
	int ret, err;

	READ_BETWEEN(lo, hi, ret = gettimeofday(&tv, NULL); err = errno);
	if (ret)
		outcome_errno(o, "gettimeofday", err);
	else
		judge_reading(o, "gettimeofday", tv.tv_sec, lo, hi);
}

#if Y2038_TIME64_BUILD
/* raw64: the one time64 syscall that replaces all three readers. */
static void raw_clock_read(struct outcome *o, const char *what)
{
	struct kts64 ts;
	int64_t lo, hi;
	int ret;

	READ_BETWEEN(lo, hi, ret = raw64_clock_gettime(CLOCK_REALTIME, &ts));
	if (ret)
		outcome_errno(o, what, -ret);
	else
		judge_reading(o, what, ts.tv_sec, lo, hi);
}

static void raw_time(struct outcome *o)
{
	raw_clock_read(o, "syscall clock_gettime64 (for time)");
}

static void raw_gettimeofday(struct outcome *o)
{
	raw_clock_read(o, "syscall clock_gettime64 (for gettimeofday)");
}

static void raw_clock_gettime(struct outcome *o)
{
	raw_clock_read(o, "syscall clock_gettime64");
}
#else
/* raw32: the old syscalls, with the kernel's 32-bit layouts. */
static void raw_time(struct outcome *o)
{
#ifdef __NR_time
	int64_t lo, hi;
	long ret;
	int err;

	READ_BETWEEN(lo, hi, ret = syscall(__NR_time, NULL); err = errno);
	if (ret == -1)
		outcome_errno(o, "syscall time", err);
	else
		judge_reading(o, "syscall time", (int32_t)ret, lo, hi);
#else
	outcome_set(o, "SKIP", "this ABI has no time syscall (ARM EABI never had one)");
#endif
}

static void raw_gettimeofday(struct outcome *o)
{
	struct old_tv32 tv;
	int64_t lo, hi;
	long ret;
	int err;

	READ_BETWEEN(lo, hi, ret = syscall(__NR_gettimeofday, &tv, NULL); err = errno);
	if (ret)
		outcome_errno(o, "syscall gettimeofday", err);
	else
		judge_reading(o, "syscall gettimeofday", tv.tv_sec, lo, hi);
}

static void raw_clock_gettime(struct outcome *o)
{
	struct old_ts32 ts;
	int64_t lo, hi;
	long ret;
	int err;

	READ_BETWEEN(lo, hi, ret = syscall(__NR_clock_gettime, CLOCK_REALTIME, &ts); err = errno);
	if (ret)
		outcome_errno(o, "syscall clock_gettime", err);
	else
		judge_reading(o, "syscall clock_gettime", ts.tv_sec, lo, hi);
}
#endif

/*
 * Armed at 03:14:07.75 for "now + 500 ms", computed the way a program does:
 * add to the tv_sec it read. In a 32-bit time_t that sum wraps to 1901.
 */
static int32_t add_wrapping32(int32_t a, int64_t b)
{
	return (int32_t)(uint32_t)((uint32_t)a + (uint32_t)b);
}

static void libc_clock_nanosleep_abs(struct outcome *o)
{
	struct timespec deadline;
	int64_t t0, nsec;
	int err;

	if (clock_gettime(CLOCK_REALTIME, &deadline)) {
		outcome_errno(o, "clock_gettime (arming)", errno);
		return;
	}
	nsec = deadline.tv_nsec + Y2038_ACROSS_WAIT_NS;
	deadline.tv_nsec = nsec % NSEC_PER_SEC;
	if (sizeof(time_t) == 4)
		deadline.tv_sec = add_wrapping32(deadline.tv_sec, nsec / NSEC_PER_SEC);
	else
		deadline.tv_sec += nsec / NSEC_PER_SEC;
	t0 = clock_ns(CLOCK_MONOTONIC);
	do
		err = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &deadline, NULL);
	while (err == EINTR);
	judge_wait(o, "clock_nanosleep", err, Y2038_ACROSS_WAIT_NS,
		   clock_ns(CLOCK_MONOTONIC) - t0);
}

#if Y2038_TIME64_BUILD
static void raw_clock_nanosleep_abs(struct outcome *o)
{
	struct kts64 deadline;
	int64_t t0;
	int err;

	raw64_clock_gettime(CLOCK_REALTIME, &deadline);
	deadline = kts64_from_ns(kts64_to_ns(&deadline) + Y2038_ACROSS_WAIT_NS);
	t0 = clock_ns(CLOCK_MONOTONIC);
	do
		err = -raw64_clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &deadline);
	while (err == EINTR);
	judge_wait(o, "syscall clock_nanosleep_time64", err,
		   Y2038_ACROSS_WAIT_NS, clock_ns(CLOCK_MONOTONIC) - t0);
}
#else
static void raw_clock_nanosleep_abs(struct outcome *o)
{
	struct old_ts32 deadline;
	int64_t t0, nsec;
	int err;

	if (syscall(__NR_clock_gettime, CLOCK_REALTIME, &deadline)) {
		outcome_errno(o, "syscall clock_gettime (arming)", errno);
		return;
	}
	nsec = deadline.tv_nsec + Y2038_ACROSS_WAIT_NS;
	deadline.tv_nsec = nsec % NSEC_PER_SEC;
	deadline.tv_sec = add_wrapping32(deadline.tv_sec, nsec / NSEC_PER_SEC);
	t0 = clock_ns(CLOCK_MONOTONIC);
	do
		err = syscall(__NR_clock_nanosleep, CLOCK_REALTIME, TIMER_ABSTIME,
			      &deadline, NULL) ? errno : 0;
	while (err == EINTR);
	judge_wait(o, "syscall clock_nanosleep", err, Y2038_ACROSS_WAIT_NS,
		   clock_ns(CLOCK_MONOTONIC) - t0);
}
#endif

/*
 * A relative sleep across the overflow: the epoch should not matter, but
 * which syscall libc picks for a request that fits 32 bits does.
 */
static void libc_clock_nanosleep_rel(struct outcome *o)
{
	struct timespec req = { 0, Y2038_ACROSS_WAIT_NS };
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	int err;

	err = clock_nanosleep(CLOCK_REALTIME, 0, &req, NULL);
	judge_wait(o, "clock_nanosleep", err, Y2038_ACROSS_WAIT_NS,
		   clock_ns(CLOCK_MONOTONIC) - t0);
}

static void raw_clock_nanosleep_rel(struct outcome *o)
{
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	int err;
#if Y2038_TIME64_BUILD
	struct kts64 req = kts64_from_ns(Y2038_ACROSS_WAIT_NS);
	const char *call = "syscall clock_nanosleep_time64";

	err = -raw64_clock_nanosleep(CLOCK_REALTIME, 0, &req);
#else
	struct old_ts32 req = { 0, Y2038_ACROSS_WAIT_NS };
	const char *call = "syscall clock_nanosleep";

	err = syscall(__NR_clock_nanosleep, CLOCK_REALTIME, 0, &req, NULL) ? errno : 0;
#endif
	judge_wait(o, call, err, Y2038_ACROSS_WAIT_NS,
		   clock_ns(CLOCK_MONOTONIC) - t0);
}

static const struct y2038_case cases[] = {
	{ "time", LIBC, Y2038_BEFORE, .run = libc_time },
	{ "time", LIBC, Y2038_AFTER, .run = libc_time },
	{ "clock_gettime", LIBC, Y2038_BEFORE, .run = libc_clock_gettime },
	{ "clock_gettime", LIBC, Y2038_AFTER, .run = libc_clock_gettime },
	{ "gettimeofday", LIBC, Y2038_BEFORE, .run = libc_gettimeofday },
	{ "gettimeofday", LIBC, Y2038_AFTER, .run = libc_gettimeofday },
	{ "clock_nanosleep_abs", LIBC, Y2038_ACROSS, .run = libc_clock_nanosleep_abs },
	{ "clock_nanosleep_rel", LIBC, Y2038_ACROSS, .run = libc_clock_nanosleep_rel },
	{ "time", RAW, Y2038_BEFORE, .run = raw_time },
	{ "time", RAW, Y2038_AFTER, .run = raw_time },
	{ "clock_gettime", RAW, Y2038_BEFORE, .run = raw_clock_gettime },
	{ "clock_gettime", RAW, Y2038_AFTER, .run = raw_clock_gettime },
	{ "gettimeofday", RAW, Y2038_BEFORE, .run = raw_gettimeofday },
	{ "gettimeofday", RAW, Y2038_AFTER, .run = raw_gettimeofday },
	{ "clock_nanosleep_abs", RAW, Y2038_ACROSS, .run = raw_clock_nanosleep_abs },
	{ "clock_nanosleep_rel", RAW, Y2038_ACROSS, .run = raw_clock_nanosleep_rel },
};

int main(void)
{
	return run_cases(cases, ARRAY_SIZE(cases));
}
