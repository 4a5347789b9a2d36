/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - the y2038-lab scenario harness (header-only).
 *
 * A scenario is a table of cases. Each case names an interface, an ABI kind
 * (libc or raw syscall) and a phase relative to the rollover; the harness sets
 * CLOCK_REALTIME for it, runs it in a child with a timeout, and prints one TAP
 * 13 line that says what the interface really did:
 *
 *   ok 1 legacy time before # PASS time = 2147483647 (2038-01-19T03:14:07Z)
 *   not ok 2 legacy time after # EOVERFLOW time: errno 75 EOVERFLOW
 *
 * "ok" means the interface gave the correct time or waited the full time. The
 * class after '#' is the observation; whether it was *expected* is decided on
 * the host by the collector from expectations.tsv, never here.
 *
 * The harness's own clock work (setting the clock, timing, timeouts) uses the
 * raw time64 system calls only, so it works whatever COMPAT_32BIT_TIME is and
 * whichever time_t the scenario was built with.
 *
 * On the host, with Y2038_HOST=libfaketime (host-tools/faketime.sh), the
 * clock is never set: each case's child moves libfaketime's offset instead
 * (FAKETIME, re-read on every call with FAKETIME_NO_CACHE=1), and a raw
 * syscall case is skipped, since the host kernel's clock is the real one.
 */
#ifndef Y2038_HARNESS_H
#define Y2038_HARNESS_H

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
/* 2038-01-19T03:14:07Z: the last second a signed 32-bit time_t can hold. */
#define Y2038_LAST_SEC	2147483647LL
#define Y2038_WRAP	4294967296LL	/* what a 32-bit value loses */

/* kselftest exit codes */
#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_XFAIL	2
#define KSFT_XPASS	3
#define KSFT_SKIP	4

/* Built with -D_TIME_BITS=64 on a 32-bit target, or on a 64-bit target. */
#if defined(__USE_TIME_BITS64) || (defined(__TIMESIZE) && __TIMESIZE == 64)
#define Y2038_TIME64_BUILD 1
#define Y2038_LIBC_ABI "time64"
#define Y2038_RAW_ABI "raw64"
#else
#define Y2038_TIME64_BUILD 0
#define Y2038_LIBC_ABI "legacy"
#define Y2038_RAW_ABI "raw32"
#endif

/* 64-bit targets have only the one (64-bit) set of time syscalls. */
#ifndef __NR_clock_gettime64
#define __NR_clock_gettime64 __NR_clock_gettime
#define __NR_clock_settime64 __NR_clock_settime
#define __NR_clock_nanosleep_time64 __NR_clock_nanosleep
#define __NR_ppoll_time64 __NR_ppoll
#endif

/* The kernel's two timespec layouts, independent of the libc's time_t. */
struct kts64 {
	int64_t tv_sec;
	int64_t tv_nsec;
};

struct old_ts32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

struct old_tv32 {
	int32_t tv_sec;
	int32_t tv_usec;
};

static inline struct kts64 kts64_from_ns(int64_t ns)
{
	struct kts64 ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return ts;
}

static inline int64_t kts64_to_ns(const struct kts64 *ts)
{
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

/* raw time64 syscalls: 0 or -errno, never touching errno's meaning. */
static inline int raw64_call(long nr, long a, long b, long c, long d, long e)
{
	long ret = syscall(nr, a, b, c, d, e);

	return ret < 0 ? -errno : (int)ret;
}

static inline int raw64_clock_gettime(clockid_t clk, struct kts64 *ts)
{
	return raw64_call(__NR_clock_gettime64, clk, (long)ts, 0, 0, 0);
}

static inline int raw64_clock_settime(clockid_t clk, const struct kts64 *ts)
{
	return raw64_call(__NR_clock_settime64, clk, (long)ts, 0, 0, 0);
}

static inline int raw64_clock_nanosleep(clockid_t clk, int flags,
					const struct kts64 *req)
{
	return raw64_call(__NR_clock_nanosleep_time64, clk, flags, (long)req,
			  0, 0);
}

static inline int raw64_ppoll(struct pollfd *fds, unsigned int n,
			      const struct kts64 *timeout)
{
	return raw64_call(__NR_ppoll_time64, (long)fds, n, (long)timeout, 0,
			  sizeof(sigset_t));
}

/*
 * On the host under libfaketime, how far the faked CLOCK_REALTIME is ahead
 * of the real one (lab_set_clock sets both); 0 in a guest, whose clock is set.
 */
static int64_t faked_offset_ns;

/* The true time of the lab: the real clock in a guest, the faked one on the host. */
static inline int64_t clock_ns(clockid_t clk)
{
	struct kts64 ts;

	if (raw64_clock_gettime(clk, &ts))
		return -1;
	return kts64_to_ns(&ts) + (clk == CLOCK_REALTIME ? faked_offset_ns : 0);
}

/*
 * Wait up to timeout_ns for fd to become readable or hang up.
 * Returns 1 when it did, 0 on timeout, -errno on error.
 */
static inline int wait_readable(int fd, int64_t timeout_ns)
{
	int64_t deadline = clock_ns(CLOCK_MONOTONIC) + timeout_ns;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - clock_ns(CLOCK_MONOTONIC);
		struct kts64 ts;
		int ret;

		if (left <= 0)
			return 0;
		ts = kts64_from_ns(left);
		ret = raw64_ppoll(&pfd, 1, &ts);
		if (ret == -EINTR)
			continue;
		return ret;
	}
}

/* Proleptic Gregorian date of a 64-bit Unix time, without libc's time_t. */
static inline void iso8601(int64_t t, char *buf, size_t len)
{
	int64_t days = t / 86400, sod = t % 86400;
	int64_t era, doe, yoe, doy, mp, y, m, d;

	if (sod < 0) {
		sod += 86400;
		days--;
	}
	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y = yoe + era * 400 + (m <= 2);
	snprintf(buf, len, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
		 (long long)y, (long long)m, (long long)d,
		 (long long)(sod / 3600), (long long)(sod / 60 % 60),
		 (long long)(sod % 60));
}

static inline const char *errno_name(int err)
{
	static const struct { int err; const char *name; } names[] = {
		{ EOVERFLOW, "EOVERFLOW" }, { ENOSYS, "ENOSYS" },
		{ EINVAL, "EINVAL" }, { EFAULT, "EFAULT" }, { EPERM, "EPERM" },
		{ EINTR, "EINTR" }, { EAGAIN, "EAGAIN" }, { ENOENT, "ENOENT" },
		{ ETIMEDOUT, "ETIMEDOUT" }, { ENOTSUP, "ENOTSUP" },
		{ EBADF, "EBADF" }, { ERANGE, "ERANGE" }, { EACCES, "EACCES" },
		{ ENOMEM, "ENOMEM" }, { ESRCH, "ESRCH" },
		{ ENOPROTOOPT, "ENOPROTOOPT" }, { 0, "0" },
	};
	static char other[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(other, sizeof(other), "E%d", err);
	return other;
}

/* What one case observed: an outcome class and a human-readable detail. */
struct outcome {
	char class[16];
	char detail[240];
	int64_t began_ns;	/* CLOCK_REALTIME as the case body began (0: never) */
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

/* Advance a timespec of any layout by ns, wrapping a 32-bit tv_sec as above. */
#define TS_ADVANCE(ts, ns) do {						\
	int64_t ns_ = (ts).tv_nsec + (ns);				\
									\
	(ts).tv_nsec = ns_ % NSEC_PER_SEC;				\
	if (sizeof((ts).tv_sec) == 4)					\
		(ts).tv_sec = add_wrapping32((ts).tv_sec, ns_ / NSEC_PER_SEC); \
	else								\
		(ts).tv_sec += ns_ / NSEC_PER_SEC;			\
} while (0)

/* Tolerance for "returned early": timers never fire before their time. */
#define Y2038_EARLY_SLACK_NS (5 * NSEC_PER_MSEC)

/*
 * Judge a wait that should have lasted want_ns and took took_ns; err is the
 * errno it failed with, or 0.
 */
static inline void judge_wait(struct outcome *o, const char *call, int err,
			      int64_t want_ns, int64_t took_ns)
{
	if (err)
		outcome_set(o, errno_name(err),
			    "%s: errno %d %s after %.3f s of %.3f s", call, err,
			    errno_name(err), took_ns / 1e9, want_ns / 1e9);
	else if (took_ns + Y2038_EARLY_SLACK_NS < want_ns)
		outcome_set(o, "EARLY", "%s returned after %.3f s of %.3f s",
			    call, took_ns / 1e9, want_ns / 1e9);
	else
		outcome_set(o, "PASS", "%s waited %.3f s of %.3f s", call,
			    took_ns / 1e9, want_ns / 1e9);
}

enum abi_kind { LIBC, RAW };

struct y2038_case {
	const char *name;	/* the interface under test */
	enum abi_kind kind;	/* the libc call, or the raw syscall */
	const char *phase;	/* before | after | across the rollover */
	int64_t start_ns;	/* CLOCK_REALTIME is set to this first, */
	int64_t observe_ns;	/* then left to tick up to this (0: don't) */
	void (*run)(struct outcome *o);
};

/*
 * The phases: the clock is set, and if need be left to tick over. The times
 * are short because every across case waits them out in real time (108 per
 * matrix boot); their margins come from measurement: the harness records how
 * late each case body began after its clock was set (latest_begin_ns below) and
 * calls an across case that began past the overflow an ERROR, not a verdict.
 */
#define Y2038_OVERFLOW_NS	((Y2038_LAST_SEC + 1) * NSEC_PER_SEC)
/* An across wait is armed this long before the overflow... */
#define Y2038_ACROSS_LEAD_NS	(50 * NSEC_PER_MSEC)
/* ...and lasts this long: its end is as far past the overflow. */
#define Y2038_ACROSS_WAIT_NS	(2 * Y2038_ACROSS_LEAD_NS)
/* An after case is set this far before the overflow and ticks as far past. */
#define Y2038_AFTER_TICK_NS	(20 * NSEC_PER_MSEC)
#define Y2038_BEFORE \
	.phase = "before", .start_ns = Y2038_LAST_SEC * NSEC_PER_SEC + 500 * NSEC_PER_MSEC
#define Y2038_AFTER \
	.phase = "after", .start_ns = Y2038_OVERFLOW_NS - Y2038_AFTER_TICK_NS, \
	.observe_ns = Y2038_OVERFLOW_NS + Y2038_AFTER_TICK_NS
/* A wait armed at 03:14:07.95 for 100 ms ends after the overflow. */
#define Y2038_ACROSS \
	.phase = "across", .start_ns = Y2038_OVERFLOW_NS - Y2038_ACROSS_LEAD_NS
/* Set from 03:14:07.5 to a time past the overflow, through the interface. */
#define Y2038_SET_PAST \
	.phase = "set", .start_ns = Y2038_LAST_SEC * NSEC_PER_SEC + 500 * NSEC_PER_MSEC

/*
 * How long one case may take before it is killed and called TIMEOUT. On the
 * host, natively or under qemu-user, nothing needs TCG's slack; a wait for a
 * deadline the real clock will not reach for years ends sooner.
 */
#ifndef Y2038_CASE_TIMEOUT_NS
#define Y2038_CASE_TIMEOUT_NS (10 * NSEC_PER_SEC)
#endif
#define Y2038_HOST_CASE_TIMEOUT_NS (4 * NSEC_PER_SEC)

/* The value of "key=" on the kernel command line, or NULL. */
static inline char *cmdline_value(const char *cmdline, const char *key, char *out,
					  size_t len)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= len)
				n = len - 1;
			memcpy(out, p + klen + 1, n);
			out[n] = '\0';
			return out;
		}
		p += klen;
	}
	return NULL;
}

/*
 * The scenarios set the wall clock. Refuse to do that anywhere but in a lab
 * guest, whose kernel command line carries "y2038.guest": the host's clock
 * must never move.
 */
static inline int inside_lab_guest(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cmdline", "r");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		found = strstr(line, "y2038.guest") != NULL;
	fclose(f);
	return found;
}

/* On the host under libfaketime (host-tools/faketime.sh), not in a guest. */
static inline int on_faked_host(void)
{
	const char *host = getenv("Y2038_HOST");

	return host && !strcmp(host, "libfaketime");
}

static inline int64_t case_timeout_ns(void)
{
	return on_faked_host() ? Y2038_HOST_CASE_TIMEOUT_NS : Y2038_CASE_TIMEOUT_NS;
}

/*
 * CAP_SYS_TIME in the effective set (/proc/self/status CapEff): a process
 * that has it could move the real clock, so a faked host run refuses to
 * start with it. 1 if present or unknown.
 */
static inline int may_set_real_clock(void)
{
	char line[256];
	unsigned long long caps = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return (caps >> 25) & 1;	/* CAP_SYS_TIME */
}

/*
 * Make CLOCK_REALTIME read ns from now on: in a lab guest, set it; on the
 * host, set libfaketime's offset from the real clock (this process and its
 * children only). 0 or -errno.
 */
static inline int lab_set_clock(int64_t ns)
{
	struct kts64 ts = kts64_from_ns(ns);
	char offset[48];
	int64_t diff;

	if (!on_faked_host())
		return raw64_clock_settime(CLOCK_REALTIME, &ts);
	if (raw64_clock_gettime(CLOCK_REALTIME, &ts))
		return -EINVAL;
	diff = ns - kts64_to_ns(&ts);
	faked_offset_ns = diff;
	snprintf(offset, sizeof(offset), "%c%lld.%09lld", diff < 0 ? '-' : '+',
		 (long long)(llabs(diff) / NSEC_PER_SEC),
		 (long long)(llabs(diff) % NSEC_PER_SEC));
	return setenv("FAKETIME", offset, 1) ? -errno : 0;
}

/* Let CLOCK_REALTIME tick from the case's start to ns. */
static inline void tick_to(int64_t start_ns, int64_t ns)
{
	struct kts64 ts = kts64_from_ns(ns);

	if (on_faked_host()) {
		/* the real clock is years away from ns: wait the difference */
		ts = kts64_from_ns(ns - start_ns);
		while (raw64_clock_nanosleep(CLOCK_MONOTONIC, 0, &ts) == -EINTR)
			;
		return;
	}
	while (raw64_clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts) == -EINTR)
		;
}

/* The case body, in a child, at its point in time. */
static inline void run_case_child(const struct y2038_case *c, int fd)
{
	struct outcome o = { "CRASH", "no outcome written", 0 };
	int err;

	if (on_faked_host() && c->kind == RAW) {
		struct kts64 now = { 0 };
		char real[64];

		raw64_clock_gettime(CLOCK_REALTIME, &now);
		iso8601(now.tv_sec, real, sizeof(real));
		outcome_set(&o, "SKIP", "a raw syscall reaches the host kernel, whose clock libfaketime cannot move: clock_gettime64 reads %s here",
			    real);
		goto out;
	}
	err = lab_set_clock(c->start_ns);
	if (err) {
		outcome_errno(&o, on_faked_host() ? "setenv FAKETIME (harness)" :
			      "clock_settime64 (harness)", -err);
		snprintf(o.class, sizeof(o.class), "ERROR");
	} else {
		if (c->observe_ns)
			tick_to(c->start_ns, c->observe_ns);
		o.began_ns = clock_ns(CLOCK_REALTIME);
		c->run(&o);
	}
out:
	if (write(fd, &o, sizeof(o)) != sizeof(o))
		_exit(3);
	_exit(0);
}

static inline const char *case_abi(const struct y2038_case *c)
{
	return c->kind == LIBC ? Y2038_LIBC_ABI : Y2038_RAW_ABI;
}

/*
 * The latest any case body began after the time its clock was set (or ticked)
 * to, over the whole program: the measured side of the phases' margins.
 */
static int64_t latest_begin_ns;

/*
 * A case body that began late is measured, and an across case that began at
 * or past the overflow did not cross it: its outcome says nothing about the
 * crossing, so it is an ERROR naming the lateness, not a verdict.
 */
static inline void judge_lateness(const struct y2038_case *c, struct outcome *o)
{
	int64_t late;

	if (!o->began_ns)
		return;
	late = o->began_ns - (c->observe_ns ? c->observe_ns : c->start_ns);
	if (late > latest_begin_ns)
		latest_begin_ns = late;
	if (!strcmp(c->phase, "across") && o->began_ns >= Y2038_OVERFLOW_NS) {
		struct outcome was = *o;

		outcome_set(o, "ERROR", "%s began %.1f ms after its clock was set, past the overflow: it did not cross it (lead %lld ms; was: %s %s)",
			    c->name, late / 1e6,
			    (long long)(Y2038_ACROSS_LEAD_NS / NSEC_PER_MSEC),
			    was.class, was.detail);
	}
}

/* Run one case in a child; a crash or a hang is its verdict, not ours. */
static inline void run_case(const struct y2038_case *c, struct outcome *o)
{
	int64_t real0 = clock_ns(CLOCK_REALTIME), mono0 = clock_ns(CLOCK_MONOTONIC);
	struct kts64 restore;
	int pipefd[2], status = 0, ready;
	pid_t pid;

	outcome_set(o, "ERROR", "harness: pipe/fork failed");
	if (pipe(pipefd))
		return;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		close(pipefd[0]);
		run_case_child(c, pipefd[1]);
	}
	close(pipefd[1]);
	ready = wait_readable(pipefd[0], case_timeout_ns());
	if (ready <= 0) {
		kill(pid, SIGKILL);
		outcome_set(o, "TIMEOUT", "%s did not return within %lld s",
			    c->name,
			    (long long)(case_timeout_ns() / NSEC_PER_SEC));
	} else if (read(pipefd[0], o, sizeof(*o)) != sizeof(*o)) {
		outcome_set(o, "CRASH", "%s: child ended without an outcome",
			    c->name);
	}
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status) && strcmp(o->class, "TIMEOUT"))
		outcome_set(o, "CRASH", "%s: killed by signal %d (%s)", c->name,
			    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		judge_lateness(c, o);

	/* Put the clock back where it would be had no case moved it. */
	if (!on_faked_host()) {
		restore = kts64_from_ns(real0 + clock_ns(CLOCK_MONOTONIC) - mono0);
		raw64_clock_settime(CLOCK_REALTIME, &restore);
	}
}

/* Counts of what report_case printed, for the Totals line. */
struct tally {
	unsigned int pass, fail, skip;
};

/* Print case n's TAP line: ok only for PASS; SKIP carries its reason. */
static inline void report_case(struct tally *t, unsigned int n, const char *abi,
			       const char *name, const char *phase,
			       const struct outcome *o)
{
	if (!strcmp(o->class, "SKIP")) {
		printf("ok %u %s %s %s # SKIP %s\n", n, abi, name, phase,
		       o->detail);
		t->skip++;
		return;
	}
	printf("%s %u %s %s %s # %s %s\n",
	       strcmp(o->class, "PASS") ? "not ok" : "ok", n, abi, name, phase,
	       o->class, o->detail);
	if (strcmp(o->class, "PASS"))
		t->fail++;
	else
		t->pass++;
}

/* The Totals line, and the kselftest exit code it means. */
static inline int report_totals(const struct tally *t)
{
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n",
	       t->pass, t->fail, t->skip);
	if (t->fail)
		return KSFT_FAIL;
	return t->pass ? KSFT_PASS : KSFT_SKIP;
}

/* Run a scenario's case table; returns a kselftest exit code. */
static inline int run_cases(const struct y2038_case *cases, size_t n)
{
	struct tally tally = { 0 };
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (on_faked_host()) {
		if (may_set_real_clock()) {
			printf("Bail out! Y2038_HOST=libfaketime with CAP_SYS_TIME: this process could set the host's clock (run it through host-tools/faketime.sh)\n");
			return KSFT_FAIL;
		}
	} else if (!inside_lab_guest()) {
		printf("Bail out! not inside a y2038-lab guest (no y2038.guest on the kernel command line): refusing to set the clock\n");
		return KSFT_SKIP;
	}
	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		const struct y2038_case *c = &cases[i];
		struct outcome o;

		run_case(c, &o);
		report_case(&tally, i + 1, case_abi(c), c->name, c->phase, &o);
	}
	printf("# harness: a case began at most %.3f ms after its clock was set (across lead %lld ms)\n",
	       latest_begin_ns / 1e6, (long long)(Y2038_ACROSS_LEAD_NS / NSEC_PER_MSEC));
	return report_totals(&tally);
}

#endif /* Y2038_HARNESS_H */
