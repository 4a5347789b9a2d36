/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/raw.h - the raw syscalls of this build's width, for the raw cells:
 * the time32 syscall in a legacy build, its time64 twin in a time64 one,
 * with the kernel's layout for each, and deadlines computed the way a
 * program computes them.
 *
 *   RAW_NR(futex, futex_time64)    __NR_futex, or __NR_futex_time64
 *   RAW_NAME(futex, futex_time64)  "syscall futex", or "syscall futex_time64"
 *   RAW_PICK(old, new)             anything else that differs: a name, a clock id
 *   raw_ts                         the timespec of this build's width
 *   struct row_ts                  a timespec of a row's kind: one body for a
 *                                  LIBC row and its RAW twin
 *   struct raw_call                a raw syscall as a row's argument
 *   raw_sleep_rel                  a case body: a relative sleep across the overflow
 */
#ifndef Y2038_HARNESS_RAW_H
#define Y2038_HARNESS_RAW_H

#include "outcome.h"
#include "cases.h"

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
 * A timespec of a row's kind (LTP's struct tst_ts), so that a LIBC row and
 * its RAW twin share one body: the call is handed .libc (the libc's struct
 * timespec, legacy or time64 as this build is) in a LIBC row, .raw in a RAW
 * one, and these read and set the one of the row's kind:
 *
 *   struct row_ts ts = ROW_TS_REL(ns)  a relative ns (under a second)
 *   row_deadline(c, &ts, ns)           "now + ns", as libc_deadline or
 *                                      raw_deadline: 0 or the errno
 *   row_arming(c)                      what read the clock for it, for a detail
 *   row_ts_sec(c, &ts), row_ts_nsec(c, &ts), row_ts_ns(c, &ts)  its fields, its ns
 *   ROW_TS_ARG(c, ts)                  the one of the row's kind, for syscall()
 */
struct row_ts {
	struct timespec libc;
	raw_ts raw;
};
#define ROW_TS_REL(ns)	((struct row_ts){ { 0, (ns) }, { 0, (ns) } })
#define ROW_TS_ARG(c, ts)	((c)->kind == RAW ? (void *)&(ts).raw : (void *)&(ts).libc)

static inline int row_deadline(const struct y2038_case *c, struct row_ts *ts, int64_t ns)
{
	return c->kind == RAW ? raw_deadline(&ts->raw, ns) : libc_deadline(&ts->libc, ns);
}

static inline const char *row_arming(const struct y2038_case *c)
{
	return c->kind == RAW ? RAW_CLOCK_GETTIME " (arming)" : "clock_gettime (arming)";
}

static inline int64_t row_ts_sec(const struct y2038_case *c, const struct row_ts *ts)
{
	return c->kind == RAW ? ts->raw.tv_sec : ts->libc.tv_sec;
}

static inline int64_t row_ts_nsec(const struct y2038_case *c, const struct row_ts *ts)
{
	return c->kind == RAW ? ts->raw.tv_nsec : ts->libc.tv_nsec;
}

static inline int64_t row_ts_ns(const struct y2038_case *c, const struct row_ts *ts)
{
	return c->kind == RAW ? TS_NS(ts->raw) : TS_NS(ts->libc);
}

/*
 * A raw syscall as a row's argument (.arg): its name for a detail, its
 * number, and the clock id it takes first (RAW_NO_CLOCK: none). Each field
 * may differ by build: RAW_NAME, RAW_NR, RAW_PICK.
 */
struct raw_call {
	const char *name;
	long nr;
	int clk;
};
#define RAW_NO_CLOCK	(-1)

/*
 * A case body: a relative sleep of Y2038_ACROSS_WAIT_NS through its row's
 * raw_call, judged: the clock id, then 0 (no flags), if it takes one (as
 * clock_nanosleep and clock_nanosleep_time64 do), then the request in this
 * build's layout and NULL.
 */
static inline void raw_sleep_rel(struct outcome *o, const struct y2038_case *c)
{
	const struct raw_call *call = c->arg;
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	raw_ts req = raw_rel(Y2038_ACROSS_WAIT_NS);
	int err;

	if (call->clk == RAW_NO_CLOCK)
		err = syscall(call->nr, &req, NULL) ? errno : 0;
	else
		err = syscall(call->nr, call->clk, 0, &req, NULL) ? errno : 0;
	judge_wait(o, call->name, err, Y2038_ACROSS_WAIT_NS, clock_ns(CLOCK_MONOTONIC) - t0);
}

#endif
