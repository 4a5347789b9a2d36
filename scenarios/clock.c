// SPDX-License-Identifier: GPL-2.0
/*
 * clock: reading the wall clock either side of the rollover, its resolution
 * and its NTP state (adjtimex, clock_adjtime) after it, setting it to a time
 * past it (clock_settime, settimeofday), and sleeping across it: to an
 * absolute deadline past it, and for a relative 100 ms.
 *
 * Each interface is read through libc (legacy or time64 glibc, whichever this
 * binary was built as) and through the raw syscall of the same width: time32
 * (time 13, gettimeofday 78, clock_gettime 265, clock_nanosleep 267 on i386)
 * in the legacy build, time64 (clock_gettime64 403, clock_nanosleep_time64
 * 407) in the time64 build. time() and gettimeofday() have no time64 twin;
 * their raw64 cell is clock_gettime64, what a time64 libc uses instead.
 * The raw cells also call the vDSO's entries of this build's width, found by
 * name (harness/vdso.h): __vdso_clock_gettime, __vdso_gettimeofday,
 * __vdso_time, __vdso_clock_getres in the legacy build, their time64 twins
 * __vdso_clock_gettime64 and __vdso_clock_getres_time64 in the time64 one
 * (Linux 7.3 drops the time32 ones with COMPAT_32BIT_TIME=n); and set the
 * clock to a time that fits 32 bits (settimeofday, which 7.3 refuses with
 * COMPAT_32BIT_TIME=n), the timezone alone (settimeofday(NULL, tz), kept),
 * and with stime where the ABI has it.
 * Expected outcomes per ABI and kernel config: expectations.tsv.
 */
#define _GNU_SOURCE	/* clock_adjtime */
#include <sys/time.h>
#include <sys/timex.h>
#include "harness.h"
#include "harness/vdso.h"

/* Bracket a reading between two raw time64 readings of the true time. */
#define READ_BETWEEN(lo, hi, expr) \
	do { (lo) = clock_ns(CLOCK_REALTIME); expr; (hi) = clock_ns(CLOCK_REALTIME); } while (0)

/*
 * The readers: each reads the wall clock's seconds one way into *sec and
 * returns 0, or the errno. The cases judge one reading; the timeline prints
 * a reading a second across the overflow.
 */
static int read_libc_time(int64_t *sec)
{
	time_t t;

	errno = 0;
	t = time(NULL);
	if (t == (time_t)-1 && errno)
		return errno;
	*sec = t;
	return 0;
}

static int read_libc_clock_gettime(int64_t *sec)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts))
		return errno;
	*sec = ts.tv_sec;
	return 0;
}

static int read_libc_gettimeofday(int64_t *sec)
{
	struct timeval tv;

	if (gettimeofday(&tv, NULL))
		return errno;
	*sec = tv.tv_sec;
	return 0;
}

/* A reader as a row's argument: the call its detail names, and the reader. */
struct reader {
	const char *call;
	int (*read)(int64_t *sec);
};

/* Judge one reading of the row's reader, bracketed between two raw time64 readings. */
static void judge_reader(struct outcome *o, const struct y2038_case *c)
{
	const struct reader *r = c->arg;
	int64_t lo, hi, sec = 0;
	int err;

	READ_BETWEEN(lo, hi, err = r->read(&sec));
	if (err)
		outcome_errno(o, r->call, err);
	else
		judge_reading(o, r->call, sec, lo, hi);
}

/* A row that judges one reader: the call it names, the reader. */
#define READER(call, fn) \
	.run_arg = judge_reader, .arg = &(const struct reader){ call, fn }

/* raw: the clock_gettime of this build's width. */
static int read_raw_clock_gettime(int64_t *sec)
{
	raw_ts ts;

	if (syscall(RAW_NR_CLOCK_GETTIME, CLOCK_REALTIME, &ts))
		return errno;
	*sec = ts.tv_sec;
	return 0;
}

/*
 * time() and gettimeofday() have no time64 twin: in a time64 build their raw
 * cells read clock_gettime64, what a time64 libc uses instead; in a legacy
 * one, the old syscalls with the kernel's 32-bit layouts.
 */
#if Y2038_TIME64_BUILD
#define RAW_READ_TIME		READER("syscall clock_gettime64 (for time)", read_raw_clock_gettime)
#define RAW_READ_GETTIMEOFDAY	READER("syscall clock_gettime64 (for gettimeofday)", read_raw_clock_gettime)
#else
#ifdef __NR_time
static int read_raw_time(int64_t *sec)
{
	long ret = syscall(__NR_time, NULL);

	if (ret == -1)
		return errno;
	*sec = (int32_t)ret;
	return 0;
}
#define RAW_READ_TIME		READER("syscall time", read_raw_time)
#else
#define RAW_READ_TIME		Y2038_SKIP("this ABI has no time syscall (ARM EABI never had one)")
#endif

static int read_raw_gettimeofday(int64_t *sec)
{
	struct old_tv32 tv;

	if (syscall(__NR_gettimeofday, &tv, NULL))
		return errno;
	*sec = tv.tv_sec;
	return 0;
}
#define RAW_READ_GETTIMEOFDAY	READER("syscall gettimeofday", read_raw_gettimeofday)
#endif

/*
 * The vDSO's entries, called as a libc calls them: a row names the entry
 * and how to read the clock's seconds through it (0 or the errno it
 * returns, negated as the kernel's are). An entry the kernel does not
 * export is ABSENT, naming what it does export.
 */
struct vdso_reader {
	const char *sym;
	int (*read)(void *fn, int64_t *sec);
};

static void judge_vdso(struct outcome *o, const struct y2038_case *c)
{
	const struct vdso_reader *r = c->arg;
	void *fn = vdso_sym(r->sym);
	int64_t lo, hi, sec = 0;
	char names[400];
	int err;

	if (!fn) {
		vdso_names(names, sizeof(names));
		outcome_set(o, "ABSENT", "%s is not in the vDSO (%s)", r->sym, names);
		return;
	}
	READ_BETWEEN(lo, hi, err = r->read(fn, &sec));
	if (err)
		outcome_errno(o, r->sym, err);
	else
		judge_reading(o, r->sym, sec, lo, hi);
}

/*
 * clock_gettime's entries read CLOCK_REALTIME_COARSE, which the vDSO
 * answers from its own page whatever the clocksource: CLOCK_REALTIME falls
 * back to the syscall where the clocksource is not readable from user space
 * (the PIT, which a TCG PC guest's watchdog often switches to from the TSC:
 * run vdso61a), and the cell would measure that syscall, not the entry.
 */
static int vdso_gettime(void *fn, int64_t *sec)
{
	raw_ts ts;
	int ret = ((int (*)(clockid_t, raw_ts *))fn)(CLOCK_REALTIME_COARSE, &ts);

	*sec = ts.tv_sec;
	return -ret;
}

/* clock_getres: a reading of the resolution, not of the time; 0 when sane */
static void judge_vdso_getres(struct outcome *o, const struct y2038_case *c)
{
	const char *sym = c->arg;
	int (*getres)(clockid_t, raw_ts *) = (int (*)(clockid_t, raw_ts *))vdso_sym(sym);
	raw_ts res = { -1, -1 };
	char names[400];
	int ret;

	if (!getres) {
		vdso_names(names, sizeof(names));
		outcome_set(o, "ABSENT", "%s is not in the vDSO (%s)", sym, names);
		return;
	}
	ret = getres(CLOCK_REALTIME, &res);
	if (ret)
		outcome_errno(o, sym, -ret);
	else if (res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 10 * NSEC_PER_MSEC)
		outcome_set(o, "PASS", "%s = %lld ns", sym, (long long)res.tv_nsec);
	else
		outcome_set(o, "WRONG", "%s = %lld s %lld ns", sym, (long long)res.tv_sec,
			    (long long)res.tv_nsec);
}

#define VDSO_READER(sym, fn)	.run_arg = judge_vdso, .arg = &(const struct vdso_reader){ sym, fn }
#define RAW_VDSO_CLOCK_GETTIME	VDSO_READER(RAW_PICK("__vdso_clock_gettime", "__vdso_clock_gettime64"), vdso_gettime)
#define RAW_VDSO_CLOCK_GETRES \
	.run_arg = judge_vdso_getres, .arg = RAW_PICK("__vdso_clock_getres", "__vdso_clock_getres_time64")
#if Y2038_TIME64_BUILD
#define RAW_VDSO_GETTIMEOFDAY	Y2038_SKIP("no time64 twin: a time64 program reads __vdso_clock_gettime64")
#define RAW_VDSO_TIME		Y2038_SKIP("no time64 twin: a time64 program reads __vdso_clock_gettime64")
#else
static int vdso_gettimeofday(void *fn, int64_t *sec)
{
	struct old_tv32 tv;
	int ret = ((int (*)(struct old_tv32 *, void *))fn)(&tv, NULL);

	*sec = tv.tv_sec;
	return -ret;
}

#define RAW_VDSO_GETTIMEOFDAY	VDSO_READER("__vdso_gettimeofday", vdso_gettimeofday)
#if defined(__i386__) || defined(__x86_64__)
static int vdso_time(void *fn, int64_t *sec)
{
	*sec = (int32_t)((long (*)(long *))fn)(NULL);
	return 0;
}

#define RAW_VDSO_TIME		VDSO_READER("__vdso_time", vdso_time)
#else
#define RAW_VDSO_TIME		Y2038_SKIP("this ABI's vDSO has no time entry (x86's alone has __vdso_time)")
#endif
#endif

/* To "now + 100 ms", computed in the row's kind as a program does (row_deadline). */
static void clock_nanosleep_abs(struct outcome *o, const struct y2038_case *c)
{
	/* before the clock is read: the deadline counts from that reading */
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	struct row_ts deadline;
	int err = row_deadline(c, &deadline, Y2038_ACROSS_WAIT_NS), raw = c->kind == RAW;

	if (err) {
		outcome_errno(o, row_arming(c), err);
		return;
	}
	do
		err = raw ? (syscall(RAW_NR(clock_nanosleep, clock_nanosleep_time64), CLOCK_REALTIME,
				     TIMER_ABSTIME, &deadline.raw, NULL) ? errno : 0) :
			    clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &deadline.libc, NULL);
	while (err == EINTR);
	judge_wait(o, raw ? RAW_NAME(clock_nanosleep, clock_nanosleep_time64) : "clock_nanosleep", err,
		   Y2038_ACROSS_WAIT_NS, clock_ns(CLOCK_MONOTONIC) - t0);
}

/*
 * The resolution of CLOCK_REALTIME: 1 ns in high-resolution mode, one jiffy
 * (up to 10 ms) before the kernel switches to it, which under TCG can be
 * seconds after init starts. Both are true answers.
 */
static void judge_resolution(struct outcome *o, const char *call,
			     int64_t sec, int64_t nsec)
{
	if (sec == 0 && nsec > 0 && nsec <= 10 * NSEC_PER_MSEC)
		outcome_set(o, "PASS", "%s = %lld ns", call, (long long)nsec);
	else
		outcome_set(o, "WRONG", "%s = %lld s %lld ns", call,
			    (long long)sec, (long long)nsec);
}

static void clock_getres_read(struct outcome *o, const struct y2038_case *c)
{
	struct row_ts res;
	int raw = c->kind == RAW;
	int err = (raw ? syscall(RAW_NR(clock_getres, clock_getres_time64), CLOCK_REALTIME, &res.raw) :
			 clock_getres(CLOCK_REALTIME, &res.libc)) ? errno : 0;
	const char *call = raw ? RAW_NAME(clock_getres, clock_getres_time64) : "clock_getres";

	if (err)
		outcome_errno(o, call, err);
	else
		judge_resolution(o, call, row_ts_sec(c, &res), row_ts_nsec(c, &res));
}

/*
 * adjtimex and clock_adjtime in read mode (modes 0) report the time in their
 * struct timex. The kernel's two layouts, up to that field:
 */
struct old_timex32_head {	/* struct old_timex32 */
	uint32_t modes;
	int32_t offset, freq, maxerror, esterror, status;
	int32_t constant, precision, tolerance;
	struct old_tv32 time;
	char rest[200];
};

struct kernel_timex64_head {	/* struct __kernel_timex */
	uint32_t modes;
	int32_t pad0;
	int64_t offset, freq, maxerror, esterror;
	int32_t status, pad1;
	int64_t constant, precision, tolerance;
	struct { int64_t tv_sec, tv_usec; } time;
	char rest[200];
};

static void libc_adjtimex(struct outcome *o)
{
	struct timex tx = { .modes = 0 };
	int64_t lo, hi;
	int ret, err;

	READ_BETWEEN(lo, hi, ret = adjtimex(&tx); err = errno);
	if (ret < 0)
		outcome_errno(o, "adjtimex", err);
	else
		judge_reading(o, "adjtimex time", tx.time.tv_sec, lo, hi);
}

static void libc_clock_adjtime(struct outcome *o)
{
	struct timex tx = { .modes = 0 };
	int64_t lo, hi;
	int ret, err;

	READ_BETWEEN(lo, hi, ret = clock_adjtime(CLOCK_REALTIME, &tx); err = errno);
	if (ret < 0)
		outcome_errno(o, "clock_adjtime", err);
	else
		judge_reading(o, "clock_adjtime time", tx.time.tv_sec, lo, hi);
}

/*
 * raw: adjtimex (124 on i386) or clock_adjtime (343), with the old layout;
 * both are clock_adjtime64 in time64. The row's raw_call says which.
 */
typedef RAW_PICK(struct old_timex32_head, struct kernel_timex64_head) raw_timex_head;

static void raw_adjtime(struct outcome *o, const struct y2038_case *c)
{
	const struct raw_call *call = c->arg;
	raw_timex_head tx = { .modes = 0 };
	int64_t lo, hi;
	long ret;
	int err;

	READ_BETWEEN(lo, hi, ret = call->clk == RAW_NO_CLOCK ? syscall(call->nr, &tx) :
			     syscall(call->nr, call->clk, &tx);
		     err = errno);
	if (ret < 0)
		outcome_errno(o, call->name, err);
	else
		judge_reading(o, call->name, tx.time.tv_sec, lo, hi);
}

static const struct raw_call raw_adjtimex = {
	RAW_PICK("syscall adjtimex", "syscall clock_adjtime64 (for adjtimex)"),
	RAW_NR(adjtimex, clock_adjtime64), RAW_PICK(RAW_NO_CLOCK, CLOCK_REALTIME),
};

static const struct raw_call raw_clock_adjtime = {
	RAW_NAME(clock_adjtime, clock_adjtime64), RAW_NR(clock_adjtime, clock_adjtime64),
	CLOCK_REALTIME,
};

/*
 * Setting the clock to 03:14:17, ten seconds past the overflow, as a program
 * does: from the tv_sec it read plus ten. In a 32-bit time_t that is 1901.
 * The clock is read back with clock_gettime64 to see what really happened.
 */
#define SET_AHEAD_S 10

static void judge_set(struct outcome *o, const char *call, int err,
		      int64_t target)
{
	int64_t now = clock_ns(CLOCK_REALTIME) / NSEC_PER_SEC;
	char when[64];

	iso8601(now, when, sizeof(when));
	if (err)
		outcome_errno(o, call, err);
	else if (now >= target && now <= target + 2)
		outcome_set(o, "PASS", "%s: the clock reads %s", call, when);
	else if (now + Y2038_WRAP >= target && now + Y2038_WRAP <= target + 2)
		outcome_set(o, "WRAP", "%s: the clock reads %s", call, when);
	else
		outcome_set(o, "WRONG", "%s: the clock reads %s, wanted %lld",
			    call, when, (long long)target);
}

static void libc_clock_settime(struct outcome *o)
{
	int64_t target = clock_ns(CLOCK_REALTIME) / NSEC_PER_SEC + SET_AHEAD_S;
	struct timespec ts = { 0, 0 };

	clock_gettime(CLOCK_REALTIME, &ts);
	TV_SEC_ADD(ts.tv_sec, SET_AHEAD_S);
	judge_set(o, "clock_settime", clock_settime(CLOCK_REALTIME, &ts) ? errno : 0,
		  target);
}

static void libc_settimeofday(struct outcome *o)
{
	int64_t target = clock_ns(CLOCK_REALTIME) / NSEC_PER_SEC + SET_AHEAD_S;
	struct timeval tv = { 0, 0 };

	gettimeofday(&tv, NULL);
	TV_SEC_ADD(tv.tv_sec, SET_AHEAD_S);
	judge_set(o, "settimeofday", settimeofday(&tv, NULL) ? errno : 0, target);
}

/*
 * raw: clock_settime (264 on i386), or settimeofday (79) with a timeval of
 * the same seconds; both are clock_settime64 in time64. The row's raw_call
 * says which (settimeofday takes no clock id).
 */
static void raw_settime(struct outcome *o, const struct y2038_case *c)
{
	const struct raw_call *call = c->arg;
	int64_t now = clock_ns(CLOCK_REALTIME), target = now / NSEC_PER_SEC + SET_AHEAD_S;
	raw_ts ts = { now / NSEC_PER_SEC, now % NSEC_PER_SEC };
	struct old_tv32 tv;
	int err;

	TV_SEC_ADD(ts.tv_sec, SET_AHEAD_S);
	if (call->clk == RAW_NO_CLOCK) {
		tv = (struct old_tv32){ ts.tv_sec, ts.tv_nsec / 1000 };
		err = syscall(call->nr, &tv, NULL) ? errno : 0;
	} else {
		err = syscall(call->nr, call->clk, &ts) ? errno : 0;
	}
	judge_set(o, call->name, err, target);
}

static const struct raw_call raw_clock_settime = {
	RAW_NAME(clock_settime, clock_settime64), RAW_NR(clock_settime, clock_settime64),
	CLOCK_REALTIME,
};

static const struct raw_call raw_settimeofday = {
	RAW_PICK("syscall settimeofday", "syscall clock_settime64 (for settimeofday)"),
	RAW_NR(settimeofday, clock_settime64), RAW_PICK(RAW_NO_CLOCK, CLOCK_REALTIME),
};

/*
 * Setting the clock ten seconds back, to 03:13:57: a time every layout
 * holds, so the call alone decides (Linux 7.3 refuses settimeofday with a
 * time, its time32 entry, when COMPAT_32BIT_TIME=n: EINVAL).
 */
#define SET_BACK_S 10

static void raw_settime_fits(struct outcome *o, const struct y2038_case *c)
{
	const struct raw_call *call = c->arg;
	int64_t now = clock_ns(CLOCK_REALTIME), target = now / NSEC_PER_SEC - SET_BACK_S;
	raw_ts ts = { target, now % NSEC_PER_SEC };
	struct old_tv32 tv = { target, now % NSEC_PER_SEC / 1000 };
	int err;

	if (call->clk == RAW_NO_CLOCK)
		err = syscall(call->nr, &tv, NULL) ? errno : 0;
	else
		err = syscall(call->nr, call->clk, &ts) ? errno : 0;
	judge_set(o, call->name, err, target);
}

/* The libc's settimeofday to a time that fits. */
static void libc_settimeofday_fits(struct outcome *o)
{
	int64_t now = clock_ns(CLOCK_REALTIME), target = now / NSEC_PER_SEC - SET_BACK_S;
	struct timeval tv = { target, now % NSEC_PER_SEC / 1000 };

	judge_set(o, "settimeofday", settimeofday(&tv, NULL) ? errno : 0, target);
}

/*
 * The timezone alone, settimeofday(NULL, tz): the same syscall in every
 * ABI (no time64 twin), which no COMPAT_32BIT_TIME removes. It sets what
 * it finds (gettimeofday's), changing nothing.
 */
static void settimeofday_tz(struct outcome *o, const struct y2038_case *c)
{
	struct timezone tz = { 0, 0 };
	int raw = c->kind == RAW;
	const char *call = raw ? "syscall settimeofday(NULL, tz)" : "settimeofday(NULL, tz)";

	if (raw ? syscall(__NR_settimeofday, NULL, &tz) : settimeofday(NULL, &tz))
		outcome_errno(o, call, errno);
	else
		outcome_set(o, "PASS", "%s: the timezone set", call);
}

/* A libc reads the clock through its own calls, never a vDSO entry by name. */
#define LIBC_NO_VDSO "a libc reads the clock with its own calls (the clock_gettime, gettimeofday and time cells): the vDSO's entries by name are the raw cells'"

/* stime (25 on i386): a 32-bit time_t, set ten seconds past the overflow. */
#if !Y2038_TIME64_BUILD && defined(__NR_stime)
static void raw_stime(struct outcome *o)
{
	int64_t target = clock_ns(CLOCK_REALTIME) / NSEC_PER_SEC + SET_AHEAD_S;
	int32_t t = (int32_t)target;

	judge_set(o, "syscall stime", syscall(__NR_stime, &t) ? errno : 0, target);
}
#define RAW_STIME	.run = raw_stime
#elif Y2038_TIME64_BUILD
#define RAW_STIME	Y2038_SKIP("no time64 twin: a time64 program sets the clock with clock_settime64")
#else
#define RAW_STIME	Y2038_SKIP("this ABI has no stime syscall (ARM EABI never had one)")
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

static const struct raw_call raw_clock_nanosleep_rel = {
	RAW_NAME(clock_nanosleep, clock_nanosleep_time64),
	RAW_NR(clock_nanosleep, clock_nanosleep_time64), CLOCK_REALTIME,
};

static const struct y2038_case cases[] = {
	{ "time", LIBC, Y2038_BEFORE, READER("time", read_libc_time) },
	{ "time", LIBC, Y2038_AFTER, READER("time", read_libc_time) },
	{ "clock_gettime", LIBC, Y2038_BEFORE, READER("clock_gettime", read_libc_clock_gettime) },
	{ "clock_gettime", LIBC, Y2038_AFTER, READER("clock_gettime", read_libc_clock_gettime) },
	{ "gettimeofday", LIBC, Y2038_BEFORE, READER("gettimeofday", read_libc_gettimeofday) },
	{ "gettimeofday", LIBC, Y2038_AFTER, READER("gettimeofday", read_libc_gettimeofday) },
	{ "clock_getres", LIBC, Y2038_AFTER, .run_arg = clock_getres_read },
	{ "adjtimex", LIBC, Y2038_AFTER, .run = libc_adjtimex },
	{ "clock_adjtime", LIBC, Y2038_AFTER, .run = libc_clock_adjtime },
	{ "clock_settime", LIBC, Y2038_SET_PAST, .run = libc_clock_settime },
	{ "settimeofday", LIBC, Y2038_SET_PAST, .run = libc_settimeofday },
	{ "clock_nanosleep_abs", LIBC, Y2038_ACROSS, .run_arg = clock_nanosleep_abs },
	{ "clock_nanosleep_rel", LIBC, Y2038_ACROSS, .run = libc_clock_nanosleep_rel },
	{ "time", RAW, Y2038_BEFORE, RAW_READ_TIME },
	{ "time", RAW, Y2038_AFTER, RAW_READ_TIME },
	{ "clock_gettime", RAW, Y2038_BEFORE, READER(RAW_CLOCK_GETTIME, read_raw_clock_gettime) },
	{ "clock_gettime", RAW, Y2038_AFTER, READER(RAW_CLOCK_GETTIME, read_raw_clock_gettime) },
	{ "gettimeofday", RAW, Y2038_BEFORE, RAW_READ_GETTIMEOFDAY },
	{ "gettimeofday", RAW, Y2038_AFTER, RAW_READ_GETTIMEOFDAY },
	{ "clock_getres", RAW, Y2038_AFTER, .run_arg = clock_getres_read },
	{ "adjtimex", RAW, Y2038_AFTER, .run_arg = raw_adjtime, .arg = &raw_adjtimex },
	{ "clock_adjtime", RAW, Y2038_AFTER, .run_arg = raw_adjtime, .arg = &raw_clock_adjtime },
	{ "clock_settime", RAW, Y2038_SET_PAST, .run_arg = raw_settime, .arg = &raw_clock_settime },
	{ "settimeofday", RAW, Y2038_SET_PAST, .run_arg = raw_settime, .arg = &raw_settimeofday },
	{ "clock_nanosleep_abs", RAW, Y2038_ACROSS, .run_arg = clock_nanosleep_abs },
	{ "clock_nanosleep_rel", RAW, Y2038_ACROSS, .run_arg = raw_sleep_rel,
	  .arg = &raw_clock_nanosleep_rel },
	{ "vdso_clock_gettime", LIBC, Y2038_BEFORE, Y2038_SKIP(LIBC_NO_VDSO) },
	{ "vdso_clock_gettime", LIBC, Y2038_AFTER, Y2038_SKIP(LIBC_NO_VDSO) },
	{ "vdso_gettimeofday", LIBC, Y2038_AFTER, Y2038_SKIP(LIBC_NO_VDSO) },
	{ "vdso_time", LIBC, Y2038_AFTER, Y2038_SKIP(LIBC_NO_VDSO) },
	{ "vdso_clock_getres", LIBC, Y2038_AFTER, Y2038_SKIP(LIBC_NO_VDSO) },
	{ "settimeofday_fits", LIBC, Y2038_SET_PAST, .run = libc_settimeofday_fits },
	{ "settimeofday_tz", LIBC, Y2038_AFTER, .run_arg = settimeofday_tz },
	{ "stime", LIBC, Y2038_SET_PAST, Y2038_SKIP("no libc declares stime() any more (glibc 2.31 made it a compatibility symbol)") },
	{ "vdso_clock_gettime", RAW, Y2038_BEFORE, RAW_VDSO_CLOCK_GETTIME },
	{ "vdso_clock_gettime", RAW, Y2038_AFTER, RAW_VDSO_CLOCK_GETTIME },
	{ "vdso_gettimeofday", RAW, Y2038_AFTER, RAW_VDSO_GETTIMEOFDAY },
	{ "vdso_time", RAW, Y2038_AFTER, RAW_VDSO_TIME },
	{ "vdso_clock_getres", RAW, Y2038_AFTER, RAW_VDSO_CLOCK_GETRES },
	{ "settimeofday_fits", RAW, Y2038_SET_PAST, .run_arg = raw_settime_fits, .arg = &raw_settimeofday },
	{ "settimeofday_tz", RAW, Y2038_AFTER, .run_arg = settimeofday_tz },
	{ "stime", RAW, Y2038_SET_PAST, RAW_STIME },
};

/* The timeline's readers: this build's libc ones and its raw syscalls. */
static const struct {
	const char *abi, *name;
	int (*read)(int64_t *sec);
} timeline_readers[] = {
	{ Y2038_LIBC_ABI, "time", read_libc_time },
	{ Y2038_LIBC_ABI, "clock_gettime", read_libc_clock_gettime },
	{ Y2038_LIBC_ABI, "gettimeofday", read_libc_gettimeofday },
#if !Y2038_TIME64_BUILD
#ifdef __NR_time
	{ Y2038_RAW_ABI, "time", read_raw_time },
#endif
	{ Y2038_RAW_ABI, "gettimeofday", read_raw_gettimeofday },
#endif
	{ Y2038_RAW_ABI, RAW_PICK("clock_gettime", "clock_gettime64"), read_raw_clock_gettime },
};

/*
 * For the report's plot, not judged (the cases are): every reader at each
 * whole second from 03:14:04 to 03:14:12, the clock set there first, as
 * "# timeline ABI READER TRUE-SECONDS VALUE", VALUE an errno's name when
 * the call failed. Then the clock is put back.
 */
static void print_timeline(void)
{
	int64_t real0 = clock_ns(CLOCK_REALTIME), mono0 = clock_ns(CLOCK_MONOTONIC);
	int64_t t;
	size_t i;

	for (t = Y2038_LAST_SEC - 3; t <= Y2038_LAST_SEC + 5; t++) {
		if (lab->set_clock(t * NSEC_PER_SEC + 100 * NSEC_PER_MSEC))
			return;
		for (i = 0; i < ARRAY_SIZE(timeline_readers); i++) {
			int64_t sec = 0;
			int err = timeline_readers[i].read(&sec);

			if (err)
				printf("# timeline %s %s %lld %s\n", timeline_readers[i].abi,
				       timeline_readers[i].name, (long long)t, errno_name(err));
			else
				printf("# timeline %s %s %lld %lld\n", timeline_readers[i].abi,
				       timeline_readers[i].name, (long long)t, (long long)sec);
		}
	}
	if (lab->moves_real_clock)
		lab->set_clock(real0 + clock_ns(CLOCK_MONOTONIC) - mono0);
}

int main(void)
{
	int ret = run_cases(cases, ARRAY_SIZE(cases));

	if (lab)	/* not where the harness refused to run */
		print_timeline();
	return ret;
}
