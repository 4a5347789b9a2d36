/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/cases.h - a scenario's table of cases, run one by one: each in a
 * child with a timeout, at its point in time, reported as one TAP line.
 */
#ifndef Y2038_HARNESS_CASES_H
#define Y2038_HARNESS_CASES_H

#include "child.h"
#include "mode.h"

/* kselftest exit codes */
#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_XFAIL	2
#define KSFT_XPASS	3
#define KSFT_SKIP	4

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

/* The case body, in a child, at its point in time; writes its outcome to fd. */
static void run_case_child(void *arg, int fd)
{
	const struct y2038_case *c = arg;
	struct outcome o = { "CRASH", "no outcome written", 0 };
	int err;

	if (lab->raw_skip && c->kind == RAW) {
		struct kts64 now = { 0 };
		char real[64];

		raw64_clock_gettime(CLOCK_REALTIME, &now);
		iso8601(now.tv_sec, real, sizeof(real));
		outcome_set(&o, "SKIP", "%s: clock_gettime64 reads %s here", lab->raw_skip, real);
	} else if ((err = lab->set_clock(c->start_ns))) {
		outcome_setup_failed(&o, lab->set_clock_call, NULL, -err);
	} else {
		if (c->observe_ns)
			lab->tick_to(c->start_ns, c->observe_ns);
		o.began_ns = clock_ns(CLOCK_REALTIME);
		c->run(&o);
	}
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

/* The outcome's bytes, as the child writes them; done when all are here. */
struct outcome_reader {
	struct outcome *o;
	size_t got;
};

static int read_outcome(void *arg, const char *buf, size_t n)
{
	struct outcome_reader *r = arg;

	if (n > sizeof(*r->o) - r->got)
		n = sizeof(*r->o) - r->got;
	memcpy((char *)r->o + r->got, buf, n);
	r->got += n;
	return r->got == sizeof(*r->o);
}

/* Run one case in a child; a crash or a hang is its verdict, not ours. */
static inline void run_case(const struct y2038_case *c, struct outcome *o)
{
	int64_t real0 = clock_ns(CLOCK_REALTIME), mono0 = clock_ns(CLOCK_MONOTONIC);
	struct outcome_reader r = { o, 0 };
	struct child child;
	int err;

	err = child_start(&child, CHILD_PIPE_FD, run_case_child, (void *)c);
	if (err) {
		outcome_setup_failed(o, "pipe/fork (harness)", NULL, -err);
		return;
	}
	child_finish(&child, mono0 + lab->case_timeout_ns, read_outcome, &r);
	if (child.timed_out && r.got < sizeof(*o))
		outcome_set(o, "TIMEOUT", "%s did not return within %lld s",
			    c->name, (long long)(lab->case_timeout_ns / NSEC_PER_SEC));
	else if (WIFSIGNALED(child.status))
		outcome_set(o, "CRASH", "%s: killed by signal %d (%s)", c->name,
			    WTERMSIG(child.status), strsignal(WTERMSIG(child.status)));
	else if (r.got < sizeof(*o))
		outcome_set(o, "CRASH", "%s: child ended without an outcome",
			    c->name);
	else
		judge_lateness(c, o);

	/* Put the clock back where it would be had no case moved it. */
	if (lab->moves_real_clock)
		lab->set_clock(real0 + clock_ns(CLOCK_MONOTONIC) - mono0);
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

/*
 * TAP's header, and the lab mode chosen: 0 to go on, or the kselftest exit
 * code to return after "Bail out!" (this is not a place to set the clock).
 */
static inline int tap_begin(void)
{
	char why[200];
	int fail = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (lab_mode_choose(why, sizeof(why), &fail))
		return 0;
	printf("Bail out! %s\n", why);
	return fail ? KSFT_FAIL : KSFT_SKIP;
}

/* Run a scenario's case table; returns a kselftest exit code. */
static inline int run_cases(const struct y2038_case *cases, size_t n)
{
	struct tally tally = { 0 };
	size_t i;
	int ret = tap_begin();

	if (ret)
		return ret;
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

#endif
