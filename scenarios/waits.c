// SPDX-License-Identifier: GPL-2.0
/*
 * waits: blocking calls armed at 03:14:07.95 whose timeout or deadline ends
 * past the rollover, on things that never become ready, so each one must run
 * out its 100 ms: not fail, not return at once, not hang.
 *
 * futex FUTEX_WAIT for a relative 100 ms, and FUTEX_WAIT_BITSET with
 * FUTEX_CLOCK_REALTIME to an absolute deadline "now + 100 ms" computed the
 * way a program does (in a 32-bit time_t that is 1901); a mutex another
 * thread holds (pthread_mutex_timedlock) and a condition nobody signals
 * (pthread_cond_timedwait) to the same deadline; ppoll, pselect6 and select
 * on a pipe nobody writes to; rt_sigtimedwait for a blocked signal nobody
 * sends; mq_timedsend to a full queue and mq_timedreceive from an empty one,
 * to the deadline; semtimedop on a SysV semaphore that stays 0;
 * io_getevents and io_pgetevents on an AIO context with nothing submitted;
 * recvmmsg on a UDP socket nobody sends to. And sched_rr_get_interval, a
 * reading rather than a wait, after the rollover. Every wait is measured
 * with the raw clock_gettime64(CLOCK_MONOTONIC).
 *
 * libc is legacy or time64 glibc, whichever this binary was built as. glibc
 * has no futex wrapper: its libc cell is syscall(SYS_futex), as a program
 * writes it, and SYS_futex is the time32 futex (240) in both builds. Nor has
 * it io_getevents or io_pgetevents: those libc cells are SKIPs. The pthread
 * calls have no syscall of their own: their raw cells are SKIPs. raw is the
 * time32 syscall in the legacy build (futex 240, ppoll 309, pselect6 308,
 * rt_sigtimedwait 177, mq_timedsend/receive 279/280, io_getevents 247,
 * io_pgetevents 385, recvmmsg 337, sched_rr_get_interval 161 on i386; i386
 * has no semtimedop but ipc(SEMTIMEDOP) 117, armhf has semtimedop 312) and
 * its time64 twin in the time64 build (futex_time64 422, ppoll_time64 414,
 * pselect6_time64 413, rt_sigtimedwait_time64 421, mq_timedsend/
 * receive_time64 418/419, semtimedop_time64 420, io_pgetevents_time64 416,
 * recvmmsg_time64 417, sched_rr_get_interval_time64 423). io_getevents has
 * no twin: its raw64 cell is io_pgetevents_time64 with a NULL sigmask.
 * select (_newselect 142) has none either and carries the long-based
 * __kernel_old_timeval: both raw cells call it. Expected: expectations.tsv.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/futex.h>
#include <mqueue.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/time.h>
#include "harness.h"

#define WAIT_NS		Y2038_ACROSS_WAIT_NS
/*
 * Our own bound on recvmmsg, whose timeout cannot end a wait for nothing:
 * long enough past its timeout that the two cannot be mistaken.
 */
#define RCVTIMEO_NS	(5 * WAIT_NS)
/* How long the mutex holder may take to say it holds it. */
#define READY_TIMEOUT_NS (2 * NSEC_PER_SEC)
#define MSG_SIZE	8
/* ipc(2)'s SEMTIMEDOP call (linux/ipc.h), clashing with sys/ipc.h. */
#define IPC_SEMTIMEDOP	4

/* 64-bit targets have only the one (64-bit) set of these syscalls. */
#ifndef __NR_futex_time64
#define __NR_futex_time64 __NR_futex
#define __NR_pselect6_time64 __NR_pselect6
#define __NR_rt_sigtimedwait_time64 __NR_rt_sigtimedwait
#define __NR_mq_timedsend_time64 __NR_mq_timedsend
#define __NR_mq_timedreceive_time64 __NR_mq_timedreceive
#define __NR_semtimedop_time64 __NR_semtimedop
#define __NR_io_pgetevents_time64 __NR_io_pgetevents
#define __NR_recvmmsg_time64 __NR_recvmmsg
#define __NR_sched_rr_get_interval_time64 __NR_sched_rr_get_interval
#endif

/* The raw syscalls of this build's width (harness/raw.h). */
#define NR_FUTEX		RAW_NR(futex, futex_time64)
#define NR_PPOLL		RAW_NR(ppoll, ppoll_time64)
#define NR_PSELECT6		RAW_NR(pselect6, pselect6_time64)
#define NR_SIGTIMEDWAIT		RAW_NR(rt_sigtimedwait, rt_sigtimedwait_time64)
#define NR_MQ_TIMEDSEND		RAW_NR(mq_timedsend, mq_timedsend_time64)
#define NR_MQ_TIMEDRECEIVE	RAW_NR(mq_timedreceive, mq_timedreceive_time64)
#define NR_IO_PGETEVENTS	RAW_NR(io_pgetevents, io_pgetevents_time64)
#define NR_RECVMMSG		RAW_NR(recvmmsg, recvmmsg_time64)
#define NR_SCHED_RR		RAW_NR(sched_rr_get_interval, sched_rr_get_interval_time64)

/*
 * A wait begins: its CLOCK_MONOTONIC start, returned, and the thread's CPU
 * time and voluntary switches then, to tell a wait that slept from one that
 * spun (judge_spin).
 */
static int64_t wait_cpu0;
static long wait_blocks0;

static int64_t wait_begin(void)
{
	wait_blocks0 = thread_blocks();
	wait_cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return clock_ns(CLOCK_MONOTONIC);
}

static void wait_judge_spin(struct outcome *o, const char *call, int64_t took)
{
	long blocks = thread_blocks();

	/* unknown (-1): counted as blocked, so never called SPIN */
	judge_spin(o, call, took, clock_ns(CLOCK_THREAD_CPUTIME_ID) - wait_cpu0,
		   blocks < 0 || wait_blocks0 < 0 ? 1 : blocks - wait_blocks0);
}

/*
 * Judge a wait for something that never comes, begun at t0. ret is what the
 * call returned (negative: it failed with err); it says it ran out with the
 * errno expired (ETIMEDOUT, EAGAIN), or, when expired is 0, by returning 0.
 * Anything else it returned is a wakeup that nothing could have caused.
 */
static void judge_expiry(struct outcome *o, const char *call, long ret,
			 int err, int expired, int64_t t0)
{
	int64_t took = clock_ns(CLOCK_MONOTONIC) - t0;

	if (ret < 0 && expired && err == expired)
		judge_wait(o, call, 0, WAIT_NS, took);
	else if (ret < 0)
		judge_wait(o, call, err, WAIT_NS, took);
	else if (ret == 0 && !expired)
		judge_wait(o, call, 0, WAIT_NS, took);
	else
		outcome_set(o, "WRONG",
			    "%s returned %ld after %.3f s: nothing could wake it",
			    call, ret, took / 1e9);
	wait_judge_spin(o, call, took);
}

/*
 * A wait for what never comes, to the deadline "now + WAIT_NS" computed the
 * way a program does, in row c's kind (row_deadline: libc's clock_gettime,
 * or the raw one of this build's width), into ts (a struct row_ts). wait is
 * the call, an expression using ts.libc or ts.raw that fails with -1 and
 * errno; judged by judge_expiry (expired: the errno that means it ran out),
 * the deadline reported with it.
 */
#define WAIT_UNTIL(o, c, call, wait, expired) do {			\
	int64_t t0_ = wait_begin();					\
	(o)->began_ns = clock_ns(CLOCK_REALTIME); /* after its setup */	\
	struct row_ts ts;						\
	int err_ = row_deadline(c, &ts, WAIT_NS);			\
	long ret_;							\
									\
	if (err_) {							\
		outcome_errno(o, row_arming(c), err_);			\
		break;							\
	}								\
	ret_ = (wait);							\
	judge_expiry(o, call, ret_, errno, expired, t0_);		\
	outcome_deadline(o, row_ts_sec(c, &ts));			\
} while (0)
/* A pthread call returns its error: as -1 and errno, for WAIT_UNTIL. */
#define PTHREAD_ERRNO(call) ((errno = (call)) ? -1 : 0)
/* A relative wait of WAIT_NS for what never comes: wait as in WAIT_UNTIL. */
#define WAIT_FOR(o, call, wait, expired) do {				\
	int64_t t0_ = wait_begin();					\
	long ret_ = (wait);						\
									\
	judge_expiry(o, call, ret_, errno, expired, t0_);		\
} while (0)

/* --- futex: a word that stays 0, and nobody to FUTEX_WAKE it. */
static uint32_t futex_word;

/* A futex case's argument: the op, and whether it waits to a deadline. */
struct futex_op {
	const char *name;
	int op, abs;
	uint32_t val3;
};

static const struct futex_op futex_wait_rel = { "FUTEX_WAIT", FUTEX_WAIT_PRIVATE, 0, 0 };
static const struct futex_op futex_wait_abs = {
	"FUTEX_WAIT_BITSET", FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 1, FUTEX_BITSET_MATCH_ANY,
};

/*
 * glibc has no futex(): a LIBC row is syscall(SYS_futex, ...) with the
 * program's struct timespec, as programs write it. SYS_futex is the time32
 * futex in both builds, so in the time64 one the kernel reads the low half
 * of a 64-bit tv_sec as tv_sec and its high half as tv_nsec. A RAW row is
 * the futex of this build's width.
 */
static void futex_wait(struct outcome *o, const struct y2038_case *c)
{
	const struct futex_op *op = c->arg;
	int raw = c->kind == RAW;
	long nr = raw ? NR_FUTEX : SYS_futex;
	char call[96];

	if (raw)
		snprintf(call, sizeof(call), "%s %s", RAW_NAME(futex, futex_time64), op->name);
	else
		snprintf(call, sizeof(call), "syscall(SYS_futex = %d, %s) with a %zu-bit tv_sec",
			 (int)SYS_futex, op->name, sizeof(time_t) * 8);
	if (op->abs) {
		WAIT_UNTIL(o, c, call, syscall(nr, &futex_word, op->op, 0, ROW_TS_ARG(c, ts), NULL,
					       op->val3), ETIMEDOUT);
	} else {
		struct row_ts ts = ROW_TS_REL(WAIT_NS);

		WAIT_FOR(o, call, syscall(nr, &futex_word, op->op, 0, ROW_TS_ARG(c, ts), NULL,
					  op->val3), ETIMEDOUT);
	}
}

/*
 * The LIBC futex_wait_abs row's prepare: on the host (libfaketime) a time64
 * program's clock is not faked, and the time32 futex reads only the whole
 * second of its deadline (tv_nsec 0). Armed in the last 0.1 s of a real
 * second, that second is ahead, and for 5 ms in each second the wait lasts
 * its full 100 ms: the outcome would depend on the moment. Armed in the
 * first half of a second, the deadline it reads is always just past.
 * Nothing to do in a guest or for a 32-bit time_t, whose deadline the
 * kernel reads whole.
 */
static int host_time64_first_half_second(struct outcome *o)
{
	int64_t frac = clock_ns(CLOCK_REALTIME) % NSEC_PER_SEC;

	(void)o;
	if (lab == &lab_faked_host && sizeof(time_t) == 8 && frac >= NSEC_PER_SEC / 2)
		raw64_sleep(NSEC_PER_SEC - frac);
	return 0;
}

/* --- pthreads: futex underneath, to the same absolute deadline. */
struct holder {
	pthread_mutex_t *mutex;
	int ready;	/* written once the mutex is held */
	int never;	/* nobody writes to it: the holder blocks on it */
	int64_t hold_ns;	/* how long it holds the mutex; 0: until the case ends */
};

static void *hold_mutex(void *arg)
{
	struct holder *h = arg;
	char c = 0;

	pthread_mutex_lock(h->mutex);
	if (write(h->ready, &c, 1) != 1)
		return NULL;
	if (!h->hold_ns) {
		/* Hold it until the case's process exits. */
		while (read(h->never, &c, 1) < 0 && errno == EINTR)
			;
		return NULL;
	}
	wait_readable(h->never, h->hold_ns);
	pthread_mutex_unlock(h->mutex);
	return NULL;
}

/* Start a thread holding h->mutex; 0 once it holds it, else -1. */
static int start_holder(struct outcome *o, struct holder *h)
{
	int ready[2], never[2], err;
	pthread_t thread;
	char c;

	if (pipe(ready) || pipe(never)) {
		outcome_setup_failed(o, "pipe", NULL, errno);
		return -1;
	}
	h->ready = ready[1];
	h->never = never[0];
	err = pthread_create(&thread, NULL, hold_mutex, h);
	if (err) {
		outcome_setup_failed(o, "pthread_create", NULL, err);
		return -1;
	}
	/* Synchronised by the pipe: the mutex is held once it is readable. */
	if (wait_readable(ready[0], READY_TIMEOUT_NS) <= 0 ||
	    read(ready[0], &c, 1) != 1) {
		outcome_set(o, "ERROR", "the holder thread never held the mutex");
		return -1;
	}
	return 0;
}

/* The lock a timed lock waits for: held, from before the clock is set. */
static pthread_mutex_t held_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct holder held = { .mutex = &held_mutex };

static int hold_mutex_prepare(struct outcome *o)
{
	return start_holder(o, &held);
}

static void libc_mutex_timedlock(struct outcome *o, const struct y2038_case *c)
{
	WAIT_UNTIL(o, c, "pthread_mutex_timedlock",
		   PTHREAD_ERRNO(pthread_mutex_timedlock(&held_mutex, &ts.libc)), ETIMEDOUT);
}

/*
 * A plain contended pthread_mutex_lock, no timeout at all: glibc's lock waits
 * in the futex syscall of its own width, whatever time_t the program has.
 * The holder lets go after CONTENDED_NS, timed by the raw ppoll_time64.
 */
#define CONTENDED_NS (200 * NSEC_PER_MSEC)

static void libc_mutex_lock(struct outcome *o)
{
	static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
	struct holder h = { .mutex = &mutex, .hold_ns = CONTENDED_NS };
	int64_t t0, took;
	int err;

	if (start_holder(o, &h))
		return;
	t0 = wait_begin();
	err = pthread_mutex_lock(&mutex);
	took = clock_ns(CLOCK_MONOTONIC) - t0;
	if (err)
		outcome_errno(o, "pthread_mutex_lock", err);
	else
		outcome_set(o, "PASS", "pthread_mutex_lock (contended) acquired after %.3f s",
			    took / 1e9);
	wait_judge_spin(o, "pthread_mutex_lock (contended)", took);
}

static void libc_cond_timedwait(struct outcome *o, const struct y2038_case *c)
{
	static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
	static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

	pthread_mutex_lock(&mutex);
	/* Nobody signals it: a wakeup is spurious, and a wakeup is a result. */
	WAIT_UNTIL(o, c, "pthread_cond_timedwait",
		   PTHREAD_ERRNO(pthread_cond_timedwait(&cond, &mutex, &ts.libc)), ETIMEDOUT);
}

/* The pthread calls' raw rows. */
#define NO_SYSCALL_OF_ITS_OWN "no syscall of its own: futex underneath (see futex_wait_abs)"

/*
 * --- ppoll, pselect6, select: a pipe nobody writes to (the write end stays
 * open), as a pollfd and as an fd_set; 0, or -1 with the lab's ERROR set.
 */
static int watch_pipe(struct outcome *o, struct pollfd *pfd, fd_set *rfds)
{
	int fds[2];

	if (pipe(fds)) {
		outcome_setup_failed(o, "pipe", NULL, errno);
		return -1;
	}
	pfd->fd = fds[0];
	pfd->events = POLLIN;
	FD_ZERO(rfds);
	FD_SET(fds[0], rfds);
	return 0;
}

/*
 * WAIT_FOR a call that watches a fresh pipe (watch_pipe), as the pollfd pfd
 * or the fd_set rfds, which wait names.
 */
#define WAIT_WATCHED(o, call, wait) do {				\
	struct pollfd pfd;						\
	fd_set rfds;							\
									\
	if (!watch_pipe(o, &pfd, &rfds))				\
		WAIT_FOR(o, call, wait, 0);				\
} while (0)

static void ppoll_wait(struct outcome *o, const struct y2038_case *c)
{
	struct row_ts ts = ROW_TS_REL(WAIT_NS);
	int raw = c->kind == RAW;

	WAIT_WATCHED(o, raw ? RAW_NAME(ppoll, ppoll_time64) : "ppoll",
		     raw ? syscall(NR_PPOLL, &pfd, 1, &ts.raw, NULL, KERNEL_SIGSET_SIZE) :
			   ppoll(&pfd, 1, &ts.libc, NULL));
}

/* The raw call's sixth argument, { sigmask, size }, may be NULL: no mask. */
static void pselect6_wait(struct outcome *o, const struct y2038_case *c)
{
	struct row_ts ts = ROW_TS_REL(WAIT_NS);
	int raw = c->kind == RAW;

	WAIT_WATCHED(o, raw ? RAW_NAME(pselect6, pselect6_time64) : "pselect",
		     raw ? syscall(NR_PSELECT6, pfd.fd + 1, &rfds, NULL, NULL, &ts.raw, NULL) :
			   pselect(pfd.fd + 1, &rfds, NULL, NULL, &ts.libc, NULL));
}

/*
 * select: a RAW row's argument is _newselect, which carries the long-based
 * __kernel_old_timeval whatever the build.
 */
static void select_wait(struct outcome *o, const struct y2038_case *c)
{
	const struct raw_call *call = c->arg;
	struct timeval tv = { 0, WAIT_NS / 1000 };
	struct old_tv32 tv32 = { 0, WAIT_NS / 1000 };
	int raw = c->kind == RAW;

	WAIT_WATCHED(o, raw ? call->name : "select",
		     raw ? syscall(call->nr, pfd.fd + 1, &rfds, NULL, NULL, &tv32) :
			   select(pfd.fd + 1, &rfds, NULL, NULL, &tv));
}

#ifdef __NR__newselect
static const struct raw_call raw_newselect = {
	"syscall _newselect (no time64 twin)", __NR__newselect, RAW_NO_CLOCK,
};
#define RAW_SELECT	.run_arg = select_wait, .arg = &raw_newselect
#else
#define RAW_SELECT	Y2038_SKIP("this ABI has no _newselect syscall: select is pselect6 underneath")
#endif

/* --- rt_sigtimedwait: SIGUSR1, blocked, and nobody sends it. */
static int block_sigusr1(struct outcome *o, sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGUSR1);
	if (!sigprocmask(SIG_BLOCK, set, NULL))
		return 0;
	outcome_setup_failed(o, "sigprocmask", NULL, errno);
	return -1;
}

static void sigtimedwait_wait(struct outcome *o, const struct y2038_case *c)
{
	struct row_ts ts = ROW_TS_REL(WAIT_NS);
	int raw = c->kind == RAW;
	sigset_t set;

	if (!block_sigusr1(o, &set))
		WAIT_FOR(o, raw ? RAW_NAME(rt_sigtimedwait, rt_sigtimedwait_time64) : "sigtimedwait",
			 raw ? syscall(NR_SIGTIMEDWAIT, &set, NULL, &ts.raw, KERNEL_SIGSET_SIZE) :
			       sigtimedwait(&set, NULL, &ts.libc), EAGAIN);
}

/*
 * --- POSIX message queues: one message deep. mq_open needs no mounted
 * mqueue fs (the kernel has its own mount), only CONFIG_POSIX_MQUEUE.
 */
static mqd_t open_queue(struct outcome *o, int full)
{
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = MSG_SIZE };
	char name[32], msg[MSG_SIZE] = "y2038";
	mqd_t q;

	snprintf(name, sizeof(name), "/y2038-waits-%d", (int)getpid());
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
	if (q == (mqd_t)-1) {
		outcome_setup_failed(o, "mq_open", "CONFIG_POSIX_MQUEUE", errno);
		return q;
	}
	mq_unlink(name);	/* nothing is left behind */
	/*
	 * Filled with the raw time64 call: even mq_send() is the time32
	 * mq_timedsend underneath in a glibc built for pre-5.1 kernels.
	 */
	if (full && syscall(__NR_mq_timedsend_time64, q, msg, MSG_SIZE, 0,
			    NULL)) {
		outcome_setup_failed(o, "mq_timedsend_time64 (filling)", NULL, errno);
		mq_close(q);
		return (mqd_t)-1;
	}
	return q;
}

/*
 * The argument of both rows of a queue case: a send to a full queue or a
 * receive from an empty one, and its raw syscall of this build's width.
 */
struct mq_op {
	int send;
	const char *raw_call;
	long raw_nr;
};

static const struct mq_op timedsend = {
	1, RAW_NAME(mq_timedsend, mq_timedsend_time64), NR_MQ_TIMEDSEND,
};
static const struct mq_op timedreceive = {
	0, RAW_NAME(mq_timedreceive, mq_timedreceive_time64), NR_MQ_TIMEDRECEIVE,
};

static void mq_wait(struct outcome *o, const struct y2038_case *c)
{
	const struct mq_op *op = c->arg;
	char msg[MSG_SIZE] = "y2038";
	mqd_t q = open_queue(o, op->send);

	if (q == (mqd_t)-1)
		return;
	/* The raw calls' fourth argument: send's priority, receive's pointer to it. */
	if (c->kind == RAW)
		WAIT_UNTIL(o, c, op->raw_call, syscall(op->raw_nr, q, msg, MSG_SIZE, 0L, &ts.raw),
			   ETIMEDOUT);
	else if (op->send)
		WAIT_UNTIL(o, c, "mq_timedsend", mq_timedsend(q, msg, MSG_SIZE, 0, &ts.libc), ETIMEDOUT);
	else
		WAIT_UNTIL(o, c, "mq_timedreceive", mq_timedreceive(q, msg, MSG_SIZE, NULL, &ts.libc),
			   ETIMEDOUT);
	mq_close(q);
}

/* --- semtimedop: take one from a SysV semaphore that stays 0. */
static int new_sem(struct outcome *o)
{
	int id = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);

	if (id < 0)
		outcome_setup_failed(o, "semget", "CONFIG_SYSVIPC", errno);
	return id;
}

/*
 * A RAW row's call: the semtimedop of this build's width; i386 had no
 * semtimedop of its own before semtimedop_time64, only ipc(2)'s SEMTIMEDOP
 * (ipc).
 */
static const struct {
	const char *name;
	long nr;
	int ipc;
} raw_semtimedop_call =
#if Y2038_TIME64_BUILD
	{ "syscall semtimedop_time64", __NR_semtimedop_time64, 0 };
#elif defined(__NR_semtimedop)
	{ "syscall semtimedop", __NR_semtimedop, 0 };
#else
	{ "syscall ipc(SEMTIMEDOP)", __NR_ipc, 1 };
#endif

static void semtimedop_wait(struct outcome *o, const struct y2038_case *c)
{
	struct sembuf op = { .sem_num = 0, .sem_op = -1 };
	struct row_ts ts = ROW_TS_REL(WAIT_NS);
	int id = new_sem(o), raw = c->kind == RAW;

	if (id < 0)
		return;
	WAIT_FOR(o, raw ? raw_semtimedop_call.name : "semtimedop",
		 !raw ? semtimedop(id, &op, 1, &ts.libc) : raw_semtimedop_call.ipc ?
		 syscall(raw_semtimedop_call.nr, IPC_SEMTIMEDOP, id, 1, 0, &op, &ts.raw) :
		 syscall(raw_semtimedop_call.nr, id, &op, 1, &ts.raw), EAGAIN);
	semctl(id, 0, IPC_RMID);
}

/*
 * --- AIO: a context with nothing submitted; 0 events when it runs out.
 * glibc has no wrapper for either: their libc rows are SKIPs.
 */
#define NO_IO_GETEVENTS_WRAPPER \
	"glibc has no io_getevents wrapper; libaio's io_getevents is itself the raw time32 syscall (see raw32)"
#define NO_IO_PGETEVENTS_WRAPPER \
	"glibc has no io_pgetevents wrapper: programs make the raw syscall (see raw32, raw64)"

/*
 * The row's raw_call with a NULL sigmask, the sixth argument, which
 * io_getevents (five) does not read.
 */
static void raw_aio(struct outcome *o, const struct y2038_case *c)
{
	const struct raw_call *call = c->arg;
	struct io_event ev;
	aio_context_t ctx = 0;
	raw_ts ts = raw_rel(WAIT_NS);

	if (syscall(__NR_io_setup, 1, &ctx)) {
		outcome_setup_failed(o, "syscall io_setup", "CONFIG_AIO", errno);
		return;
	}
	WAIT_FOR(o, call->name, syscall(call->nr, ctx, 1, 1, &ev, &ts, NULL), 0);
	syscall(__NR_io_destroy, ctx);
}

/* io_getevents has no time64 twin: io_pgetevents_time64 stands in. */
static const struct raw_call raw_io_getevents = {
	RAW_PICK("syscall io_getevents",
		 "syscall io_pgetevents_time64, NULL sigmask (io_getevents has no time64 twin)"),
	RAW_NR(io_getevents, io_pgetevents_time64), RAW_NO_CLOCK,
};
static const struct raw_call raw_io_pgetevents = {
	RAW_NAME(io_pgetevents, io_pgetevents_time64), NR_IO_PGETEVENTS, RAW_NO_CLOCK,
};

/*
 * --- recvmmsg on a UDP socket on 127.0.0.1 nobody sends to. Its timeout is
 * only looked at after a datagram (do_recvmmsg in net/socket.c): with none,
 * the wait is bounded by our SO_RCVTIMEO, and that is what is reported.
 */
static int quiet_socket(struct outcome *o)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct timeval bound = { RCVTIMEO_NS / NSEC_PER_SEC,
				 (RCVTIMEO_NS % NSEC_PER_SEC) / 1000 };
	int fd, err = loopback_up();

	if (err) {
		outcome_setup_failed(o, "lo up (SIOCSIFFLAGS, bind 127.0.0.1)", "CONFIG_NET", err);
		return -1;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		outcome_setup_failed(o, "socket", "CONFIG_INET", errno);
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, sizeof(bound))) {
		outcome_setup_failed(o, "bind/SO_RCVTIMEO", NULL, errno);
		close(fd);
		return -1;
	}
	return fd;
}

static void judge_recvmmsg(struct outcome *o, const char *call, long ret,
			   int err, int64_t t0)
{
	int64_t took = clock_ns(CLOCK_MONOTONIC) - t0;

	if (ret < 0 && err == EAGAIN)
		outcome_set(o, "TIMEOUT",
			    "%s: its %.3f s timeout did not end the wait: errno EAGAIN after %.3f s, from our SO_RCVTIMEO of %.3f s",
			    call, WAIT_NS / 1e9, took / 1e9, RCVTIMEO_NS / 1e9);
	else
		judge_expiry(o, call, ret, err, 0, t0);
}

static void recvmmsg_wait(struct outcome *o, const struct y2038_case *c)
{
	char buf[MSG_SIZE];
	struct iovec iov = { buf, sizeof(buf) };
	struct mmsghdr msg = { .msg_hdr = { .msg_iov = &iov, .msg_iovlen = 1 } };
	struct row_ts ts = ROW_TS_REL(WAIT_NS);
	int fd = quiet_socket(o), raw = c->kind == RAW;
	int64_t t0;
	long ret;

	if (fd < 0)
		return;
	t0 = wait_begin();
	ret = raw ? syscall(NR_RECVMMSG, fd, &msg, 1, 0, &ts.raw) : recvmmsg(fd, &msg, 1, 0, &ts.libc);
	judge_recvmmsg(o, raw ? RAW_NAME(recvmmsg, recvmmsg_time64) : "recvmmsg", ret, errno, t0);
	close(fd);
}

/*
 * --- sched_rr_get_interval: a reading, not a wait; under SCHED_RR, set with
 * the raw syscall: musl's sched_setscheduler() is ENOSYS on purpose (Linux
 * sets a thread's policy, POSIX a process's), and the setup is not under test.
 */
static int become_rr(struct outcome *o)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (!syscall(__NR_sched_setscheduler, 0, SCHED_RR, &sp))
		return 0;
	outcome_setup_failed(o, "syscall sched_setscheduler SCHED_RR", NULL, errno);
	return -1;
}

/* The round-robin quantum is a fraction of a second, never 0 or negative. */
static void judge_quantum(struct outcome *o, const char *call, int err,
			  int64_t ns)
{
	if (err)
		outcome_errno(o, call, err);
	else if (ns > 0 && ns <= NSEC_PER_SEC)
		outcome_set(o, "PASS", "%s = %.3f s", call, ns / 1e9);
	else
		outcome_set(o, "WRONG", "%s = %.3f s, not in (0, 1] s", call,
			    ns / 1e9);
}

static void sched_rr_get_interval_read(struct outcome *o, const struct y2038_case *c)
{
	struct row_ts ts = ROW_TS_REL(0);
	int err, raw = c->kind == RAW;

	if (become_rr(o))
		return;
	err = (raw ? syscall(NR_SCHED_RR, 0, &ts.raw) : sched_rr_get_interval(0, &ts.libc)) ? errno : 0;
	judge_quantum(o, raw ? RAW_NAME(sched_rr_get_interval, sched_rr_get_interval_time64) :
		      "sched_rr_get_interval", err, row_ts_ns(c, &ts));
}

static const struct y2038_case cases[] = {
	{ "futex_wait_rel", LIBC, Y2038_ACROSS, .run_arg = futex_wait, .arg = &futex_wait_rel },
	{ "futex_wait_abs", LIBC, Y2038_ACROSS, .prepare = host_time64_first_half_second,
	  .run_arg = futex_wait, .arg = &futex_wait_abs },
	{ "mutex_lock", LIBC, Y2038_ACROSS, .run = libc_mutex_lock },
	{ "mutex_timedlock", LIBC, Y2038_ACROSS, .prepare = hold_mutex_prepare,
	  .run_arg = libc_mutex_timedlock },
	{ "cond_timedwait", LIBC, Y2038_ACROSS, .run_arg = libc_cond_timedwait },
	{ "ppoll", LIBC, Y2038_ACROSS, .run_arg = ppoll_wait },
	{ "pselect6", LIBC, Y2038_ACROSS, .run_arg = pselect6_wait },
	{ "select", LIBC, Y2038_ACROSS, .run_arg = select_wait },
	{ "sigtimedwait", LIBC, Y2038_ACROSS, .run_arg = sigtimedwait_wait },
	{ "mq_timedsend", LIBC, Y2038_ACROSS, .run_arg = mq_wait, .arg = &timedsend },
	{ "mq_timedreceive", LIBC, Y2038_ACROSS, .run_arg = mq_wait, .arg = &timedreceive },
	{ "semtimedop", LIBC, Y2038_ACROSS, .run_arg = semtimedop_wait },
	{ "io_getevents", LIBC, Y2038_ACROSS, Y2038_SKIP(NO_IO_GETEVENTS_WRAPPER) },
	{ "io_pgetevents", LIBC, Y2038_ACROSS, Y2038_SKIP(NO_IO_PGETEVENTS_WRAPPER) },
	{ "recvmmsg", LIBC, Y2038_ACROSS, .run_arg = recvmmsg_wait },
	{ "sched_rr_get_interval", LIBC, Y2038_AFTER, .run_arg = sched_rr_get_interval_read },
	{ "futex_wait_rel", RAW, Y2038_ACROSS, .run_arg = futex_wait, .arg = &futex_wait_rel },
	{ "futex_wait_abs", RAW, Y2038_ACROSS, .run_arg = futex_wait, .arg = &futex_wait_abs },
	{ "mutex_lock", RAW, Y2038_ACROSS, Y2038_SKIP(NO_SYSCALL_OF_ITS_OWN) },
	{ "mutex_timedlock", RAW, Y2038_ACROSS, Y2038_SKIP(NO_SYSCALL_OF_ITS_OWN) },
	{ "cond_timedwait", RAW, Y2038_ACROSS, Y2038_SKIP(NO_SYSCALL_OF_ITS_OWN) },
	{ "ppoll", RAW, Y2038_ACROSS, .run_arg = ppoll_wait },
	{ "pselect6", RAW, Y2038_ACROSS, .run_arg = pselect6_wait },
	{ "select", RAW, Y2038_ACROSS, RAW_SELECT },
	{ "sigtimedwait", RAW, Y2038_ACROSS, .run_arg = sigtimedwait_wait },
	{ "mq_timedsend", RAW, Y2038_ACROSS, .run_arg = mq_wait, .arg = &timedsend },
	{ "mq_timedreceive", RAW, Y2038_ACROSS, .run_arg = mq_wait, .arg = &timedreceive },
	{ "semtimedop", RAW, Y2038_ACROSS, .run_arg = semtimedop_wait },
	{ "io_getevents", RAW, Y2038_ACROSS, .run_arg = raw_aio, .arg = &raw_io_getevents },
	{ "io_pgetevents", RAW, Y2038_ACROSS, .run_arg = raw_aio, .arg = &raw_io_pgetevents },
	{ "recvmmsg", RAW, Y2038_ACROSS, .run_arg = recvmmsg_wait },
	{ "sched_rr_get_interval", RAW, Y2038_AFTER, .run_arg = sched_rr_get_interval_read },
};

Y2038_MAIN(cases)
