// SPDX-License-Identifier: GPL-2.0
/*
 * futex-cost: what glibc's futex operations and a timed call cost on the
 * libc this program is loaded with, as the kernel is and as a kernel before
 * Linux 5.1 would be: make bench-glibc (glibc-cost.sh boots it on
 * COMPAT_32BIT_TIME=y and =n, with trixie's glibc as shipped, the lab's
 * glibc-2.41-debian-fallback and glibc-2.41-time64only).
 *
 * The ways, one row each:
 *   pthread_once     a first pthread_once: its init routine, then always
 *                    a FUTEX_WAKE (the untimed futex of lowlevellock-futex.h)
 *   sem_pingpong     two threads handing a token back and forth through two
 *                    semaphores: per call two FUTEX_WAIT_BITSET without a
 *                    timeout (futex-internal.c) and two FUTEX_WAKE, and two
 *                    switches of thread
 *   sem_timedwait    an absolute deadline already past: one timed
 *                    FUTEX_WAIT_BITSET, which the kernel ends at once
 *   clock_nanosleep  a zero relative sleep: one clock_nanosleep (and the
 *                    timer's slack, which is most of it)
 *   ppoll            no descriptors and a zero timeout: one ppoll, which
 *                    returns at once
 * With the Debian floor's build, each makes the time32 system call first;
 * where the kernel lacks it (=n) the series adds one failed call and the
 * time64 one; where a kernel lacks the time64 calls (before 5.1) nothing.
 * The -pre51 rows run each way after a seccomp filter made the time64
 * system calls fail with ENOSYS, as a kernel before 5.1 would: there the
 * time64-only build has nothing to time (its loader refuses such a kernel,
 * "FATAL: kernel too old"), and says so, as does a kernel without seccomp
 * filters (the lab flavour's: make bench-glibc boots the distro flavour).
 *
 * The cost is cost.h's. A way that fails is a failure naming the call
 * and its errno.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* ppoll */
#endif
#include <linux/filter.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <sys/prctl.h>
#include "cost.h"

#define COST_PHASE \
	.phase = "hour-before", .start_ns = (Y2038_LAST_SEC - 3600) * NSEC_PER_SEC

#if defined(__i386__)
#define BENCH_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__arm__)
#define BENCH_AUDIT_ARCH AUDIT_ARCH_ARM
#else
#error "futex-cost: the lab's 32-bit userlands are i386 and armhf"
#endif

/*
 * The time64 system calls a kernel before 5.1 lacks that these ways use (not
 * clock_gettime64, which the harness times with).
 */
static const unsigned int time64_calls[] = {
	__NR_futex_time64, __NR_clock_nanosleep_time64, __NR_ppoll_time64,
};

/* Make them fail with ENOSYS in this process: 0, or the errno of prctl. */
static int block_time64(void)
{
	struct sock_filter f[4 + 2 * ARRAY_SIZE(time64_calls) + 1] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BENCH_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(f), .filter = f };
	size_t i, n = 4;

	for (i = 0; i < ARRAY_SIZE(time64_calls); i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, time64_calls[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
	}
	f[n] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return errno;
	return 0;
}

/* --- The ways: one call each, 0 or the errno. */

static void nothing(void)
{
}

static pthread_once_t once;

static int first_once(void *arg)
{
	(void)arg;
	once = (pthread_once_t)PTHREAD_ONCE_INIT;
	return pthread_once(&once, nothing);
}

static sem_t ping, pong;

static void *partner(void *arg)
{
	(void)arg;
	for (;;) {
		while (sem_wait(&ping))
			;
		sem_post(&pong);
	}
	return NULL;
}

static int pingpong(void *arg)
{
	(void)arg;
	if (sem_post(&ping))
		return errno;
	while (sem_wait(&pong))
		if (errno != EINTR)
			return errno;
	return 0;
}

static sem_t never;
static struct timespec past;

static int expired_wait(void *arg)
{
	(void)arg;
	return sem_timedwait(&never, &past) == 0 ? EAGAIN : errno == ETIMEDOUT ? 0 : errno;
}

static int zero_sleep(void *arg)
{
	static const struct timespec zero;

	(void)arg;
	return clock_nanosleep(CLOCK_MONOTONIC, 0, &zero, NULL);
}

static int zero_poll(void *arg)
{
	static const struct timespec zero;

	(void)arg;
	return ppoll(NULL, 0, &zero, NULL) < 0 ? errno : 0;
}

struct way {
	const char *call;	/* what a detail names */
	cost_call one;
	int pre51;		/* after the time64 system calls were blocked */
};

static int lab_libc_is(const char *suffix)
{
	char name[64];
	size_t n = strlen(suffix), len;

	if (!lab_libc_name(name, sizeof(name)))
		return 0;
	len = strlen(name);
	return len >= n && !strcmp(name + len - n, suffix);
}

static void measure(struct outcome *o, const struct y2038_case *c)
{
	const struct way *w = c->arg;
	pthread_t t;
	int err;

	if (w->pre51 && lab_libc_is("-time64only")) {
		outcome_set(o, "SKIP", "pre-5.1: a glibc built with --enable-kernel=5.1 does not run on such a kernel");
		return;
	}
	if (w->pre51 && (err = block_time64())) {
		if (err == EINVAL)
			outcome_set(o, "SKIP", "pre-5.1: prctl(PR_SET_SECCOMP): errno %d %s, the kernel has no seccomp filters",
				    err, errno_name(err));
		else
			outcome_errno(o, "prctl(PR_SET_SECCOMP)", err);
		return;
	}
	if (sem_init(&ping, 0, 0) || sem_init(&pong, 0, 0) || sem_init(&never, 0, 0)) {
		outcome_errno(o, "sem_init", errno);
		return;
	}
	if (w->one == pingpong && (err = pthread_create(&t, NULL, partner, NULL))) {
		outcome_errno(o, "pthread_create", err);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &past);
	past.tv_sec -= 1;
	if ((err = w->one(NULL))) {
		outcome_errno(o, w->call, err);
		return;
	}
	cost_measure(o, w->one, NULL, w->pre51 ? "time64 system calls blocked (a kernel before 5.1)"
					       : "the kernel as it is");
}

#define WAY(call, one, pre51)	.run_arg = measure, .arg = &(const struct way){ call, one, pre51 }

static const struct y2038_case ways[] = {
	{ "pthread_once", LIBC, COST_PHASE, WAY("pthread_once", first_once, 0) },
	{ "sem_pingpong", LIBC, COST_PHASE, WAY("sem_post+sem_wait", pingpong, 0) },
	{ "sem_timedwait", LIBC, COST_PHASE, WAY("sem_timedwait", expired_wait, 0) },
	{ "clock_nanosleep", LIBC, COST_PHASE, WAY("clock_nanosleep", zero_sleep, 0) },
	{ "ppoll", LIBC, COST_PHASE, WAY("ppoll", zero_poll, 0) },
	{ "pthread_once-pre51", LIBC, COST_PHASE, WAY("pthread_once", first_once, 1) },
	{ "sem_pingpong-pre51", LIBC, COST_PHASE, WAY("sem_post+sem_wait", pingpong, 1) },
	{ "sem_timedwait-pre51", LIBC, COST_PHASE, WAY("sem_timedwait", expired_wait, 1) },
	{ "clock_nanosleep-pre51", LIBC, COST_PHASE, WAY("clock_nanosleep", zero_sleep, 1) },
	{ "ppoll-pre51", LIBC, COST_PHASE, WAY("ppoll", zero_poll, 1) },
};

Y2038_MAIN(ways)
