// SPDX-License-Identifier: GPL-2.0
/*
 * timers: sleeps and timers armed at 03:14:07.95 that end past the rollover.
 *
 * nanosleep for 100 ms; a POSIX timer (timer_settime) and a timerfd on
 * CLOCK_REALTIME, each for a relative 100 ms and for an absolute deadline
 * "now + 100 ms" computed the way a program does (in a 32-bit time_t that is
 * 1901); setitimer(ITIMER_REAL) for 100 ms and alarm(1). Each case measures
 * when the sleep ended or the timer fired (signals are waited for with the
 * raw rt_sigtimedwait_time64, timerfds with the raw ppoll_time64), and a
 * timer's remaining time is read back right after arming: it must be
 * (0, 100 ms], not a wrapped or negative value.
 *
 * libc is legacy or time64 glibc, whichever this binary was built as. raw is
 * the time32 syscall (nanosleep 162, timer_settime/gettime 260/261,
 * timerfd_settime/gettime 325/326 on i386) in the legacy build, and its
 * time64 twin (timer_settime64/gettime64 409/408, timerfd_settime64/
 * gettime64 411/410) in the time64 build. nanosleep has no time64 twin: its
 * raw64 cell is a relative clock_nanosleep_time64 (407) on CLOCK_REALTIME,
 * what a time64 libc uses instead. setitimer/getitimer (104/105) and alarm
 * (27) have no twin either and carry no time_t: their itimerval is the
 * kernel's long-based __kernel_old_itimerval, so both raw cells call them
 * with the 32-bit layout. Expected outcomes: expectations.tsv.
 */
#include <sys/time.h>
#include <sys/timerfd.h>
#include "harness.h"

#define WAIT_NS		Y2038_ACROSS_WAIT_NS
#define ALARM_NS	NSEC_PER_SEC	/* alarm() counts whole seconds */
/* Our own bound on a timer that never fires, well inside the harness's. */
#define FIRE_TIMEOUT_NS	(3 * NSEC_PER_SEC)

/* 64-bit targets have only the one (64-bit) set of timer syscalls. */
#ifndef __NR_timer_settime64
#define __NR_timer_settime64 __NR_timer_settime
#define __NR_timer_gettime64 __NR_timer_gettime
#define __NR_timerfd_settime64 __NR_timerfd_settime
#define __NR_timerfd_gettime64 __NR_timerfd_gettime
#endif
#ifndef __NR_rt_sigtimedwait_time64
#define __NR_rt_sigtimedwait_time64 __NR_rt_sigtimedwait
#endif


struct raw_its {
	raw_ts it_interval;
	raw_ts it_value;
};

/* __kernel_old_itimerval: longs, 32 bits on every ABI this lab runs. */
struct old_itv32 {
	struct old_tv32 it_interval;
	struct old_tv32 it_value;
};

#define TV_NS(tv)	((int64_t)(tv).tv_sec * NSEC_PER_SEC + \
			 (int64_t)(tv).tv_usec * 1000)

static int raw64_sigtimedwait(const sigset_t *set, const struct kts64 *timeout)
{
	return raw64_call(__NR_rt_sigtimedwait_time64, (long)set, 0,
			  (long)timeout, KERNEL_SIGSET_SIZE, 0);
}

static void sigalrm_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGALRM);
}

/* Blocked before arming, so the signal waits for us instead of killing us. */
static int block_sigalrm(struct outcome *o)
{
	sigset_t set;

	sigalrm_set(&set);
	if (!sigprocmask(SIG_BLOCK, &set, NULL))
		return 0;
	outcome_setup_failed(o, "sigprocmask (harness)", NULL, errno);
	return -1;
}

static int sigtimedwait_alrm(void *set, const struct kts64 *left)
{
	int ret = raw64_sigtimedwait(set, left);

	return ret == -EAGAIN ? 0 : ret < 0 ? ret : 1;
}

/* Wait up to timeout_ns for SIGALRM: 1 when it came, 0 if not, or -errno. */
static int wait_sigalrm(int64_t timeout_ns)
{
	sigset_t set;

	sigalrm_set(&set);
	return wait_interrupted(timeout_ns, &set, sigtimedwait_alrm);
}

/* Arming a timer: what was called, how it went, and what it read back. */
struct arming {
	const char *set_call;	/* what armed it (or failed on the way) */
	int set_err;		/* its errno, or 0 */
	const char *get_call;	/* what read it back; NULL: nothing does */
	int get_err;
	int64_t left_ns;	/* it_value read back: the time left */
	int64_t interval_ns;	/* it_interval read back: 0, one-shot */
	int64_t t0;		/* CLOCK_MONOTONIC before the arming began */
	int abs;		/* armed to this absolute deadline: */
	int64_t deadline_sec;
};


/*
 * The time left on a timer read back right after arming it for want_ns must
 * lie in (0, want_ns]; 2^32 s off is a wrapped 32-bit tv_sec.
 */
static void judge_left(struct outcome *o, const struct arming *a,
		       int64_t want_ns)
{
	const int64_t wrap = Y2038_WRAP * NSEC_PER_SEC;
	int64_t left = a->left_ns;

	if (a->get_err)
		outcome_errno(o, a->get_call, a->get_err);
	else if (a->interval_ns)
		outcome_set(o, "WRONG", "%s: it_interval %.3f s, not one-shot",
			    a->get_call, a->interval_ns / 1e9);
	else if (left > 0 && left <= want_ns)
		outcome_set(o, "PASS", "%s: %.3f s left", a->get_call,
			    left / 1e9);
	else if ((left - wrap > 0 && left - wrap <= want_ns) ||
		 (left + wrap > 0 && left + wrap <= want_ns))
		outcome_set(o, "WRAP", "%s: %.3f s left, 2^32 s off",
			    a->get_call, left / 1e9);
	else
		outcome_set(o, "WRONG", "%s: %.3f s left of %.3f s",
			    a->get_call, left / 1e9, want_ns / 1e9);
}

/*
 * Judge an armed timer: fired is what the wait said (1 fired, 0 not within
 * FIRE_TIMEOUT_NS, -errno), took_ns how long after t0. When it fired in time
 * the read-back decides; its detail, and the deadline, are kept either way.
 */
static void judge_armed(struct outcome *o, const struct arming *a,
			int64_t want_ns, int fired, int64_t took_ns,
			const char *wait_call)
{
	struct outcome left;

	if (a->set_err) {
		outcome_errno(o, a->set_call, a->set_err);
	} else if (fired < 0) {
		outcome_setup_failed(o, wait_call, NULL, -fired);
	} else {
		if (!fired)
			outcome_set(o, "TIMEOUT",
				    "%s: not fired after %.3f s of %.3f s",
				    a->set_call, took_ns / 1e9, want_ns / 1e9);
		else
			judge_wait(o, a->set_call, 0, want_ns, took_ns);
		if (a->get_call) {
			judge_left(&left, a, want_ns);
			if (!strcmp(o->class, "PASS"))
				memcpy(o->class, left.class, sizeof(o->class));
			outcome_append(o, "; %s", left.detail);
		}
	}
	if (a->abs)
		outcome_deadline(o, a->deadline_sec);
}

/*
 * Creating a timer carries no time: when it fails, the kernel lacks the
 * interface (CONFIG_POSIX_TIMERS, CONFIG_TIMERFD), which is the lab's error,
 * not an observation about time (outcome_setup_failed).
 */

/* Timers that signal: wait for SIGALRM, then judge. */
static void finish_signal(struct outcome *o, const struct arming *a,
			  int64_t want_ns)
{
	int fired = 0;
	int64_t took = 0;

	if (!a->set_err) {
		fired = wait_sigalrm(FIRE_TIMEOUT_NS);
		took = clock_ns(CLOCK_MONOTONIC) - a->t0;
	}
	judge_armed(o, a, want_ns, fired, took,
		    "rt_sigtimedwait_time64 (harness)");
}

/* Timerfds: wait for the fd to become readable, then judge. */
static void finish_fd(struct outcome *o, const struct arming *a, int fd)
{
	int fired = 0;
	int64_t took = 0;

	if (!a->set_err) {
		fired = wait_readable(fd, FIRE_TIMEOUT_NS);
		took = clock_ns(CLOCK_MONOTONIC) - a->t0;
	}
	judge_armed(o, a, WAIT_NS, fired, took, "ppoll_time64 (harness)");
	close(fd);
}

/* --- nanosleep: relative, so the epoch should not matter. */
static void libc_nanosleep(struct outcome *o)
{
	struct timespec req = { 0, WAIT_NS };
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	int err = nanosleep(&req, NULL) ? errno : 0;

	judge_wait(o, "nanosleep", err, WAIT_NS,
		   clock_ns(CLOCK_MONOTONIC) - t0);
}

/* There is no nanosleep_time64: clock_nanosleep_time64 replaces it. */
static const struct raw_call raw_nanosleep = {
	RAW_PICK("syscall nanosleep", "syscall clock_nanosleep_time64 (nanosleep has no time64 twin)"),
	RAW_NR(nanosleep, clock_nanosleep_time64), RAW_PICK(RAW_NO_CLOCK, CLOCK_REALTIME),
};

/*
 * Arm a timer for WAIT_NS (abs: to the deadline "now + WAIT_NS", computed
 * by deadline(), a libc or raw one, which deadline_call names when it
 * fails) and read it back at once. set and get are the calls, expressions
 * that are nonzero with errno set on failure; its and cur are of any
 * layout (struct itimerspec, struct raw_its).
 */
#define ARM_AND_READ(a, its, cur, abs, deadline, deadline_call, set, get) do {	\
	(a)->t0 = clock_ns(CLOCK_MONOTONIC);				\
	if (abs) {							\
		(a)->set_err = deadline(&(its).it_value, WAIT_NS);	\
		if ((a)->set_err) {					\
			(a)->set_call = (deadline_call);		\
		} else {						\
			(a)->abs = 1;					\
			(a)->deadline_sec = (its).it_value.tv_sec;	\
		}							\
	} else {							\
		(its).it_value.tv_nsec = WAIT_NS;			\
	}								\
	if (!(a)->set_err && (set))					\
		(a)->set_err = errno;					\
	if (!(a)->set_err) {						\
		if (get)						\
			(a)->get_err = errno;				\
		(a)->left_ns = TS_NS((cur).it_value);			\
		(a)->interval_ns = TS_NS((cur).it_interval);		\
	}								\
} while (0)

/*
 * A kind of timer, the argument of a LIBC row and its RAW twin. create makes
 * one for the row's kind (0, or -1 with errno) and keeps its handle (a
 * timer_t, a kernel timer id or an fd) in a long, which holds a pointer on
 * every ABI this lab runs; creating carries no time, so a RAW row's is the
 * one syscall of every ABI. A LIBC row arms it with libc_arm (ARM_AND_READ
 * in the libc's layout), a RAW row with raw_arm, through raw_set_nr and
 * raw_get_nr. signals: it signals SIGALRM; else its fd turns readable.
 */
struct timer_kind {
	const char *create_call, *raw_create_call, *config;
	const char *set_call, *get_call, *raw_set_call, *raw_get_call;
	long raw_set_nr, raw_get_nr;
	int signals;
	int (*create)(const struct y2038_case *c, long *timer);
	void (*libc_arm)(long timer, struct arming *a, int abs);
};

/* The raw timers and timerfds: one call for both, as their flags agree. */
_Static_assert(TIMER_ABSTIME == TFD_TIMER_ABSTIME, "one flag for both");
static void raw_arm(const struct timer_kind *k, long timer, struct arming *a, int abs)
{
	struct raw_its its = { 0 }, cur = { 0 };

	ARM_AND_READ(a, its, cur, abs, raw_deadline, RAW_CLOCK_GETTIME " (arming)",
		     syscall(k->raw_set_nr, timer, abs ? TIMER_ABSTIME : 0, &its, NULL),
		     syscall(k->raw_get_nr, timer, &cur));
}

/* A timer case's argument: its kind of timer, armed for WAIT_NS or to now + WAIT_NS. */
struct timer_row {
	const struct timer_kind *kind;
	int abs;
};

static void timer_case(struct outcome *o, const struct y2038_case *c)
{
	const struct timer_row *row = c->arg;
	const struct timer_kind *k = row->kind;
	int raw = c->kind == RAW;
	struct arming a = {
		.set_call = raw ? k->raw_set_call : k->set_call,
		.get_call = raw ? k->raw_get_call : k->get_call,
	};
	long timer;

	if (k->signals && block_sigalrm(o))
		return;
	if (k->create(c, &timer)) {
		outcome_setup_failed(o, raw ? k->raw_create_call : k->create_call, k->config, errno);
		return;
	}
	if (raw)
		raw_arm(k, timer, &a, row->abs);
	else
		k->libc_arm(timer, &a, row->abs);
	if (k->signals)
		finish_signal(o, &a, WAIT_NS);
	else
		finish_fd(o, &a, (int)timer);
}

/* A row of a timer case: its kind of timer, armed relative (0) or absolute (1). */
#define TIMER(kind, abs) \
	.run_arg = timer_case, .arg = &(const struct timer_row){ &kind, abs }

/*
 * KIND: a struct timer_kind of that name, whose calls are named after the
 * libc's (their raw time64 twins end in 64); create is KIND_create, libc_arm
 * KIND_arm.
 */
#define TIMER_KIND(kind, config, create, set, get, signals)			\
	static const struct timer_kind kind = {					\
		#create, "syscall " #create, config, #set, #get,		\
		RAW_NAME(set, set##64), RAW_NAME(get, get##64),			\
		RAW_NR(set, set##64), RAW_NR(get, get##64), signals,		\
		kind##_create, kind##_arm,					\
	}

/* --- POSIX timers on CLOCK_REALTIME, signalling SIGALRM. */
static struct sigevent sigalrm_event = {
	.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM,
};

static int posix_timer_create(const struct y2038_case *c, long *timer)
{
	timer_t id;
	int kernel_id;	/* the kernel's timer_t */
	int ret = c->kind == RAW ?
		  syscall(__NR_timer_create, CLOCK_REALTIME, &sigalrm_event, &kernel_id) :
		  timer_create(CLOCK_REALTIME, &sigalrm_event, &id);

	*timer = c->kind == RAW ? kernel_id : (long)id;
	return ret;
}

static void posix_timer_arm(long timer, struct arming *a, int abs)
{
	struct itimerspec its = { 0 }, cur = { 0 };
	timer_t id = (timer_t)timer;

	ARM_AND_READ(a, its, cur, abs, libc_deadline, "clock_gettime (arming)",
		     timer_settime(id, abs ? TIMER_ABSTIME : 0, &its, NULL),
		     timer_gettime(id, &cur));
}

TIMER_KIND(posix_timer, "CONFIG_POSIX_TIMERS", timer_create, timer_settime, timer_gettime, 1);

/* --- timerfds on CLOCK_REALTIME; non-blocking, so nothing here can hang. */
static int timer_fd_create(const struct y2038_case *c, long *timer)
{
	*timer = c->kind == RAW ?
		 syscall(__NR_timerfd_create, CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC) :
		 timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
	return *timer < 0 ? -1 : 0;
}

static void timer_fd_arm(long fd, struct arming *a, int abs)
{
	struct itimerspec its = { 0 }, cur = { 0 };

	ARM_AND_READ(a, its, cur, abs, libc_deadline, "clock_gettime (arming)",
		     timerfd_settime(fd, abs ? TFD_TIMER_ABSTIME : 0, &its, NULL),
		     timerfd_gettime(fd, &cur));
}

TIMER_KIND(timer_fd, "CONFIG_TIMERFD", timerfd_create, timerfd_settime, timerfd_gettime, 0);

/*
 * --- setitimer and alarm: ITIMER_REAL, relative, no time64 twin. A RAW
 * row calls setitimer and getitimer with the kernel's long-based
 * __kernel_old_itimerval, whatever the build.
 */
static void setitimer_case(struct outcome *o, const struct y2038_case *c)
{
	struct itimerval itv = { .it_value = { 0, WAIT_NS / 1000 } }, cur = { 0 };
	struct old_itv32 itv32 = { .it_value = { 0, WAIT_NS / 1000 } }, cur32 = { 0 };
	int raw = c->kind == RAW;
	struct arming a = {
		.set_call = raw ? "syscall setitimer (no time64 twin)" : "setitimer",
		.get_call = raw ? "syscall getitimer" : "getitimer",
	};

	if (block_sigalrm(o))
		return;
	a.t0 = clock_ns(CLOCK_MONOTONIC);
	if (raw ? syscall(__NR_setitimer, ITIMER_REAL, &itv32, NULL) :
		  setitimer(ITIMER_REAL, &itv, NULL)) {
		a.set_err = errno;
	} else {
		if (raw ? syscall(__NR_getitimer, ITIMER_REAL, &cur32) : getitimer(ITIMER_REAL, &cur))
			a.get_err = errno;
		a.left_ns = raw ? TV_NS(cur32.it_value) : TV_NS(cur.it_value);
		a.interval_ns = raw ? TV_NS(cur32.it_interval) : TV_NS(cur.it_interval);
	}
	finish_signal(o, &a, WAIT_NS);
}

/*
 * alarm(1): a RAW row's argument is the alarm syscall. The libc's alarm()
 * cannot fail; neither has anything to read the time left back with.
 */
static void alarm_case(struct outcome *o, const struct y2038_case *c)
{
	const struct raw_call *call = c->arg;
	struct arming a = { .set_call = c->kind == RAW ? call->name : "alarm" };

	if (block_sigalrm(o))
		return;
	a.t0 = clock_ns(CLOCK_MONOTONIC);
	if (c->kind != RAW)
		alarm(1);
	else if (syscall(call->nr, 1) < 0)
		a.set_err = errno;
	finish_signal(o, &a, ALARM_NS);
}

#ifdef __NR_alarm
static const struct raw_call raw_alarm = {
	"syscall alarm (no time64 twin)", __NR_alarm, RAW_NO_CLOCK,
};
#define RAW_ALARM	.run_arg = alarm_case, .arg = &raw_alarm
#else
#define RAW_ALARM \
	Y2038_SKIP("this ABI has no alarm syscall (ARM EABI never had one): its libc alarm() is setitimer")
#endif

static const struct y2038_case cases[] = {
	{ "nanosleep", LIBC, Y2038_ACROSS, .run = libc_nanosleep },
	{ "timer_rel", LIBC, Y2038_ACROSS, TIMER(posix_timer, 0) },
	{ "timer_abs", LIBC, Y2038_ACROSS, TIMER(posix_timer, 1) },
	{ "timerfd_rel", LIBC, Y2038_ACROSS, TIMER(timer_fd, 0) },
	{ "timerfd_abs", LIBC, Y2038_ACROSS, TIMER(timer_fd, 1) },
	{ "setitimer", LIBC, Y2038_ACROSS, .run_arg = setitimer_case },
	{ "alarm", LIBC, Y2038_ACROSS, .run_arg = alarm_case },
	{ "nanosleep", RAW, Y2038_ACROSS, .run_arg = raw_sleep_rel, .arg = &raw_nanosleep },
	{ "timer_rel", RAW, Y2038_ACROSS, TIMER(posix_timer, 0) },
	{ "timer_abs", RAW, Y2038_ACROSS, TIMER(posix_timer, 1) },
	{ "timerfd_rel", RAW, Y2038_ACROSS, TIMER(timer_fd, 0) },
	{ "timerfd_abs", RAW, Y2038_ACROSS, TIMER(timer_fd, 1) },
	{ "setitimer", RAW, Y2038_ACROSS, .run_arg = setitimer_case },
	{ "alarm", RAW, Y2038_ACROSS, RAW_ALARM },
};

Y2038_MAIN(cases)
