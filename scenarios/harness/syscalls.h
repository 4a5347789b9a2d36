/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/syscalls.h - the kernel's time layouts and the raw time64 system
 * calls the harness times itself with, whatever COMPAT_32BIT_TIME is and
 * whichever time_t the program was built with; errno names and dates
 * printed without libc's time_t.
 */
#ifndef Y2038_HARNESS_SYSCALLS_H
#define Y2038_HARNESS_SYSCALLS_H

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#include <sys/auxv.h>
#endif

/*
 * Built with -D_TIME_BITS=64 on a 32-bit target, or on a 64-bit target (a
 * time64 libc; its raw cells are the time64 syscalls), or not (legacy).
 */
#if defined(__USE_TIME_BITS64) || (defined(__TIMESIZE) && __TIMESIZE == 64) || \
	defined(Y2038_MUSL)
#define Y2038_TIME64_BUILD 1
#define Y2038_LIBC_ABI "time64"
#define Y2038_RAW_ABI "raw64"
#else
#define Y2038_TIME64_BUILD 0
#define Y2038_LIBC_ABI "legacy"
#define Y2038_RAW_ABI "raw32"
#endif

/*
 * A musl build (Y2038_MUSL, with Y2038_LIBC="musl-1.2.5" from the package it
 * links) runs its libc cases only: a raw syscall does not depend on the libc,
 * and the glibc time64 build has the same raw64 cells. So does a build with
 * Y2038_RAW_CASES=0 (the lab's programs run on a distribution's libc).
 */
#ifndef Y2038_RAW_CASES
#ifdef Y2038_MUSL
#define Y2038_RAW_CASES 0
#else
#define Y2038_RAW_CASES 1
#endif
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
/* 2038-01-19T03:14:07Z: the last second a signed 32-bit time_t can hold. */
#define Y2038_LAST_SEC	2147483647LL
#define Y2038_WRAP	4294967296LL	/* what a 32-bit value loses */

/* 64-bit targets have only the one (64-bit) set of time syscalls. */
#ifndef __NR_clock_gettime64
#define __NR_clock_gettime64 __NR_clock_gettime
#define __NR_clock_settime64 __NR_clock_settime
#define __NR_clock_nanosleep_time64 __NR_clock_nanosleep
#define __NR_ppoll_time64 __NR_ppoll
#endif
/* musl 1.2 names the old calls by what they are (clock_nanosleep_time32). */
#if defined(__NR_clock_nanosleep_time32) && !defined(__NR_clock_nanosleep)
#define __NR_clock_nanosleep __NR_clock_nanosleep_time32
#endif
#if defined(__NR_settimeofday_time32) && !defined(__NR_settimeofday)
#define __NR_settimeofday __NR_settimeofday_time32
#endif
#if defined(__NR_clock_gettime32) && !defined(__NR_clock_gettime)
#define __NR_clock_gettime __NR_clock_gettime32
#endif
#if defined(__NR_gettimeofday_time32) && !defined(__NR_gettimeofday)
#define __NR_gettimeofday __NR_gettimeofday_time32
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

/* Sleep for ns of CLOCK_MONOTONIC, whatever interrupts it. */
static inline void raw64_sleep(int64_t ns)
{
	struct kts64 ts = kts64_from_ns(ns);

	while (raw64_clock_nanosleep(CLOCK_MONOTONIC, 0, &ts) == -EINTR)
		;
}

/*
 * How far the lab's CLOCK_REALTIME is ahead of the kernel's: 0 in a guest,
 * whose clock is set; libfaketime's offset on the host (harness/mode.h).
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
 * Call wait(arg, left) with what is left of timeout_ns (CLOCK_MONOTONIC)
 * until it returns anything but -EINTR; 0 when the time ran out first.
 */
static inline int wait_interrupted(int64_t timeout_ns, void *arg,
				   int (*wait)(void *arg, const struct kts64 *left))
{
	int64_t deadline = clock_ns(CLOCK_MONOTONIC) + timeout_ns;

	for (;;) {
		int64_t left = deadline - clock_ns(CLOCK_MONOTONIC);
		struct kts64 ts;
		int ret;

		if (left <= 0)
			return 0;
		ts = kts64_from_ns(left);
		ret = wait(arg, &ts);
		if (ret != -EINTR)
			return ret;
	}
}

static int poll_readable(void *fd, const struct kts64 *left)
{
	struct pollfd pfd = { .fd = *(int *)fd, .events = POLLIN };

	return raw64_ppoll(&pfd, 1, left);
}

/*
 * Wait up to timeout_ns for fd to become readable or hang up.
 * Returns 1 when it did, 0 on timeout, -errno on error.
 */
static inline int wait_readable(int fd, int64_t timeout_ns)
{
	return wait_interrupted(timeout_ns, &fd, poll_readable);
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

/* A number's name in a table of them, or PREFIX and the number. */
struct number_name {
	int number;
	const char *name;
};

static inline const char *number_name(const struct number_name *t, size_t n, int number,
				      const char *prefix, char *other, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].number == number)
			return t[i].name;
	snprintf(other, len, "%s%d", prefix, number);
	return other;
}

static inline const char *errno_name(int err)
{
	static const struct number_name names[] = {
		{ EOVERFLOW, "EOVERFLOW" }, { ENOSYS, "ENOSYS" },
		{ EINVAL, "EINVAL" }, { EFAULT, "EFAULT" }, { EPERM, "EPERM" },
		{ EINTR, "EINTR" }, { EAGAIN, "EAGAIN" }, { ENOENT, "ENOENT" },
		{ ETIMEDOUT, "ETIMEDOUT" }, { ENOTSUP, "ENOTSUP" },
		{ EBADF, "EBADF" }, { ERANGE, "ERANGE" }, { EACCES, "EACCES" },
		{ ENOMEM, "ENOMEM" }, { ESRCH, "ESRCH" },
		{ ENOPROTOOPT, "ENOPROTOOPT" }, { 0, "0" },
	};
	static char other[16];

	return number_name(names, ARRAY_SIZE(names), err, "E", other, sizeof(other));
}

/*
 * A signal's name, the lab's own (not strsignal(), whose text depends on the
 * libc and the locale): a crash reads the same from a guest, this host,
 * static or dynamic, glibc or musl. Numbers are Linux's, the same on every
 * machine of the lab (i386, x86_64, arm, arm64).
 */
static inline const char *signal_name(int sig)
{
	static const struct number_name names[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGSTKFLT, "SIGSTKFLT" }, { SIGCHLD, "SIGCHLD" }, { SIGXCPU, "SIGXCPU" },
		{ SIGXFSZ, "SIGXFSZ" }, { SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" },
		{ SIGSYS, "SIGSYS" },
	};
	static char other[16];

	return number_name(names, ARRAY_SIZE(names), sig, "SIG", other, sizeof(other));
}

#endif
