/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/cases.h - a scenario's table of cases, run one by one: each in a
 * child with a timeout, at its point in time, reported as one TAP line.
 *
 * A row names its body one of two ways:
 *
 *   .run = f                 void f(struct outcome *o): a body of its own
 *   .run_arg = g, .arg = &x  void g(struct outcome *o, const struct y2038_case *c):
 *                            a body several rows share (LTP's .test(n) beside
 *                            .test_all), each row with its own argument
 *                            (c->arg: a syscall, a layout, a filesystem, of
 *                            whatever type g reads) and kind (c->kind)
 *   Y2038_SKIP("why")        no body: this build has nothing to measure
 *
 * Two signatures rather than one, so that no body is handed a parameter it
 * does not use (the programs are built with -Wall -Wextra -Werror); a shared
 * body is given its whole row, not only its argument, so that a LIBC row and
 * its RAW twin can share an argument and the body reads which kind it runs
 * as from the row, where the kind is already written, not from a copy.
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
	/*
	 * Optional: what the case needs that is not under test (a thread
	 * holding a lock), made before the clock is set, so that it takes
	 * none of the lead; 0, or -1 with o saying why.
	 */
	int (*prepare)(struct outcome *o);
	/* The body: run, or run_arg over arg (see above). */
	void (*run)(struct outcome *o);
	void (*run_arg)(struct outcome *o, const struct y2038_case *c);
	const void *arg;
};

/* Run a case's body, whichever way its row names it. */
static inline void case_body(const struct y2038_case *c, struct outcome *o)
{
	if (c->run_arg)
		c->run_arg(o, c);
	else
		c->run(o);
}

/* A row with nothing to measure in this build: SKIP, with its reason (arg). */
static inline void case_skip(struct outcome *o, const struct y2038_case *c)
{
	outcome_set(o, "SKIP", "%s", (const char *)c->arg);
}
#define Y2038_SKIP(why)	.run_arg = case_skip, .arg = (why)

/*
 * The phases: the clock is set, and if need be left to tick over. The times
 * are short because every across case waits them out in real time (108 per
 * matrix boot); their margins come from measurement: the harness records how
 * late each case body began after its clock was set (latest_begin_ns below),
 * and a case that missed its moment (an across case that began past the
 * overflow, a before case that ended past it) is LATE, not a verdict
 * (judge_lateness).
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

/* A case to run in a child, and the pipe it waits on to begin. */
struct case_start {
	const struct y2038_case *c;
	int go[2];	/* the case begins when the write end is closed by all */
	int prepared[2];	/* a byte from each: prepared, set the clock */
};

/*
 * Let the clock tick from the case's start to its moment. A tick that ends
 * before the clock reads the moment (an absolute CLOCK_REALTIME sleep that
 * returned early: linux-source-7.2 without patches/7.2/0009 does, now and
 * then, on i386) is slept
 * again, up to Y2038_TRIES times, so that the case still runs at its moment;
 * returns how early the first tick ended (0: it did not), for the detail.
 */
#define Y2038_TRIES	3
static int64_t tick_to_moment(const struct y2038_case *c)
{
	int64_t now = c->start_ns, early_ns = 0;
	int tick;

	for (tick = 0; tick < Y2038_TRIES; tick++) {
		lab->tick_to(now, c->observe_ns);
		now = clock_ns(CLOCK_REALTIME);
		if (now >= c->observe_ns)
			break;
		if (!early_ns)
			early_ns = c->observe_ns - now;
	}
	return early_ns;
}

/*
 * The case body, in a child. It prepares, waits for the parent
 * (run_together) to set the clock, then is left to tick to its moment if
 * its phase asks, runs, and writes its outcome to fd.
 */
static void run_case_child(void *arg, int fd)
{
	const struct case_start *start = arg;
	const struct y2038_case *c = start->c;
	struct outcome o = { "CRASH", "no outcome written", 0, 0 };
	int skip = lab->raw_skip && c->kind == RAW, unprepared;
	char go;

	close(start->go[1]);
	close(start->prepared[0]);
	unprepared = !skip && c->prepare && c->prepare(&o);
	(void)!write(start->prepared[1], "p", 1);
	close(start->prepared[1]);
	if (read(start->go[0], &go, 1) > 0)
		_exit(4);	/* the parent could not set the clock */
	close(start->go[0]);
	/*
	 * A faked clock is this process's environment: set here, once
	 * prepared, so that neither the fork nor the preparation (slow under
	 * qemu-user on a loaded host) takes any of the lead.
	 */
	if (!unprepared && !skip && !lab->moves_real_clock) {
		int err = lab->set_clock(c->start_ns);

		if (err) {
			outcome_setup_failed(&o, lab->set_clock_call, NULL, -err);
			unprepared = 1;
		}
	}
	if (unprepared) {
		;	/* o says why */
	} else if (skip) {
		struct kts64 now = { 0 };
		char real[64];

		raw64_clock_gettime(CLOCK_REALTIME, &now);
		iso8601(now.tv_sec, real, sizeof(real));
		outcome_set(&o, "SKIP", "%s: clock_gettime64 reads %s here", lab->raw_skip, real);
	} else {
		int64_t early_ns = c->observe_ns ? tick_to_moment(c) : 0;

		o.began_ns = clock_ns(CLOCK_REALTIME);
		case_body(c, &o);
		o.ended_ns = clock_ns(CLOCK_REALTIME);
		if (early_ns)
			outcome_append(&o, " (the tick to %s's moment, an absolute CLOCK_REALTIME sleep, ended %.1f ms before it: slept again)",
				       c->phase, early_ns / 1e6);
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
 * A case body that began late is measured; a case that missed its moment
 * measured the machine's load, not the overflow, so its outcome is LATE,
 * saying by how much, never a verdict: an across case whose body began at
 * or past the overflow did not cross it, and a before case whose body ended
 * past it may have read the clock after it. Returns 1 for those: worth
 * measuring again (run_together here, then the run boots it again alone:
 * host-tools/verdicts/verdicts.mk).
 */
static inline int judge_lateness(const struct y2038_case *c, struct outcome *o)
{
	int64_t late;

	if (!o->began_ns)
		return 0;
	late = o->began_ns - (c->observe_ns ? c->observe_ns : c->start_ns);
	if (late > latest_begin_ns)
		latest_begin_ns = late;
	/*
	 * The tick to the observed moment is an absolute CLOCK_REALTIME
	 * clock_nanosleep_time64; if every try returned before its deadline
	 * (tick_to_moment), the case ran at a moment its phase does not name.
	 */
	if (c->observe_ns && late < 0) {
		struct outcome was = *o;

		outcome_set(o, "ERROR", "clock_nanosleep_time64 TIMER_ABSTIME to %lld.%03lld returned early %d times, the last by %.1f ms: %s ran before its moment (was: %s %s)",
			    (long long)(c->observe_ns / NSEC_PER_SEC),
			    (long long)(c->observe_ns % NSEC_PER_SEC / NSEC_PER_MSEC),
			    Y2038_TRIES, -late / 1e6, c->name, was.class, was.detail);
		return 0;	/* the kernel's doing, not the machine's load */
	}
	if (!strcmp(c->phase, "across") && o->began_ns >= Y2038_OVERFLOW_NS) {
		outcome_late(o, c->name, "began", o->began_ns, c->start_ns, "it did not cross it");
		return 1;
	}
	if (!strcmp(c->phase, "before") && o->ended_ns >= Y2038_OVERFLOW_NS) {
		outcome_late(o, c->name, "ended", o->ended_ns, c->start_ns,
			     "it may have read the clock after it");
		return 1;
	}
	return 0;
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

/*
 * Run cases (one, or a case's LIBC and RAW kinds, which need the same
 * moment) at once, each in its own child: the clock is set once for them
 * all, each child waits or ticks over by itself, and a crash or a hang is
 * that case's verdict, not ours. Then the clock is put back. Returns how
 * many began too late to cross the overflow (judge_lateness).
 */
static inline int run_together_once(const struct y2038_case *const *c, struct outcome *o, int n)
{
	int missed = 0;
	int64_t real0 = clock_ns(CLOCK_REALTIME), mono0 = clock_ns(CLOCK_MONOTONIC);
	int started[2] = { 0, 0 }, go[2] = { -1, -1 }, prepared[2] = { -1, -1 }, err = 0, i;
	const char *failed = NULL;	/* the harness call that failed, if one did */
	struct case_start start[2];
	struct outcome_reader r[2];
	struct child child[2];

	/*
	 * The children are forked first, prepare and wait; the clock is set
	 * just before they all begin, so no fork lies between it and a case.
	 * On the faked host the clock is an environment variable: each child
	 * sets its own (run_case_child).
	 */
	if (pipe(go) || pipe(prepared))
		err = -errno, failed = "pipe (harness)";
	for (i = 0; i < n && !failed; i++) {
		start[i] = (struct case_start){ c[i], { go[0], go[1] }, { prepared[0], prepared[1] } };
		r[i] = (struct outcome_reader){ &o[i], 0 };
		if ((err = child_start(&child[i], CHILD_PIPE_FD, run_case_child, &start[i])))
			failed = "fork (harness)";
		else
			started[i] = 1;
	}
	/* Each child prepares (its case's prepare) before the clock is set. */
	if (prepared[1] >= 0) {
		char b;
		int ready = 0;

		close(prepared[1]);
		while (ready < n && wait_readable(prepared[0], lab->case_timeout_ns) > 0 &&
		       read(prepared[0], &b, 1) == 1)
			ready++;
		close(prepared[0]);
	}
	if (lab->moves_real_clock && !failed && (err = lab->set_clock(c[0]->start_ns)))
		failed = lab->set_clock_call;
	/* A byte each says "stop": they end without running. Closing says "go". */
	if (failed && go[1] >= 0)
		(void)!write(go[1], "xx", n);
	if (go[0] >= 0) {
		close(go[0]);
		close(go[1]);
	}
	for (i = 0; i < n; i++) {
		if (failed) {
			outcome_setup_failed(&o[i], failed, NULL, -err);
			if (started[i])
				child_finish(&child[i], mono0 + lab->case_timeout_ns, NULL, NULL);
			continue;
		}
		if (!started[i])
			continue;
		child_finish(&child[i], mono0 + lab->case_timeout_ns, read_outcome, &r[i]);
		if (child[i].timed_out && r[i].got < sizeof(o[i]))
			outcome_set(&o[i], "TIMEOUT", "%s did not return within %lld s",
				    c[i]->name, (long long)(lab->case_timeout_ns / NSEC_PER_SEC));
		else if (WIFSIGNALED(child[i].status))
			outcome_set(&o[i], "CRASH", "%s: killed by signal %d (%s)", c[i]->name,
				    WTERMSIG(child[i].status), signal_name(WTERMSIG(child[i].status)));
		else if (r[i].got < sizeof(o[i]))
			outcome_set(&o[i], "CRASH", "%s: child ended without an outcome",
				    c[i]->name);
		else
			missed += judge_lateness(c[i], &o[i]);
	}

	/* Put the clock back where it would be had no case moved it. */
	if (lab->moves_real_clock)
		lab->set_clock(real0 + clock_ns(CLOCK_MONOTONIC) - mono0);
	return missed;
}

/*
 * A case that missed its moment (judge_lateness) measured the machine's
 * load, not the overflow (a guest under a busy host, a host column under
 * qemu-user): measure again, up to Y2038_TRIES times, and say so in the
 * detail. The last try's LATE stands if every one missed it.
 */
static inline void run_together(const struct y2038_case *const *c, struct outcome *o, int n)
{
	int try = 1, i;

	while (run_together_once(c, o, n) && try < Y2038_TRIES)
		try++;
	for (i = 0; i < n && try > 1; i++)
		outcome_append(&o[i], " (try %d of %d: the earlier missed their moment)",
			       try, Y2038_TRIES);
}

/* One case by itself. */
static inline void run_case(const struct y2038_case *c, struct outcome *o)
{
	run_together(&c, o, 1);
}

/*
 * The other kind of the same case, to run with it: same interface, same
 * moment, not run yet. A case that sets the clock (phase set) runs alone.
 */
static inline int case_partner(const struct y2038_case *cases, size_t n, size_t i,
			       const char *done)
{
	size_t j;

	if (!strcmp(cases[i].phase, "set"))
		return -1;
	for (j = i + 1; j < n; j++)
		if (!done[j] && cases[j].kind != cases[i].kind &&
		    !strcmp(cases[j].name, cases[i].name) &&
		    !strcmp(cases[j].phase, cases[i].phase) &&
		    cases[j].start_ns == cases[i].start_ns &&
		    cases[j].observe_ns == cases[i].observe_ns)
			return j;
	return -1;
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
 * Where the lab put a libc of its own build in the guest (the time64-only
 * glibc: host-tools/libc/), this file names it: its loader says "2.41" as
 * the shipped one's does. 1 and the name in buf, or 0.
 */
#define LAB_LIBC_FILE "/y2038/libc"
static inline int lab_libc_name(char *buf, size_t len)
{
	FILE *f = fopen(LAB_LIBC_FILE, "r");
	int ok;

	if (!f)
		return 0;
	ok = fgets(buf, len, f) && buf[strcspn(buf, "\n")] == '\n' && buf[0] != '\n';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
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
	/*
	 * The libc this program runs on, for the collector: as the libc says
	 * itself, or the lab's name for its own build where the program was
	 * loaded by that root's loader (AT_BASE: 0 in a static program).
	 */
#if defined(__GLIBC__)
	char libc[64];

	if (getauxval(AT_BASE) && lab_libc_name(libc, sizeof(libc)))
		printf("# libc: %s\n", libc);
	else
		printf("# libc: glibc-%s\n", gnu_get_libc_version());
#elif defined(Y2038_LIBC)
	printf("# libc: %s\n", Y2038_LIBC);
#endif
	if (!Y2038_RAW_CASES)
		printf("# raw cases: none (the libc's cases only)\n");
	if (lab_mode_choose(why, sizeof(why), &fail))
		return 0;
	printf("Bail out! %s\n", why);
	return fail ? KSFT_FAIL : KSFT_SKIP;
}

/*
 * Run a scenario's case table; returns a kselftest exit code. A case's LIBC
 * and RAW kinds run at the same time (run_together), each still measured
 * by itself: the waits across the overflow, which are most of a program's
 * time, are waited once for both. The TAP lines come in table order.
 */
static inline int run_cases(const struct y2038_case *cases, size_t n)
{
	struct tally tally = { 0 };
	struct y2038_case *libc_only = NULL;
	struct outcome *o = calloc(n, sizeof(*o));
	char *done = calloc(n, 1);
	size_t i, m;
	int ret = tap_begin();

	if (!Y2038_RAW_CASES && !ret && o && done) {
		libc_only = calloc(n, sizeof(*libc_only));
		for (i = m = 0; libc_only && i < n; i++)
			if (cases[i].kind == LIBC)
				libc_only[m++] = cases[i];
		cases = libc_only;
		n = m;
	}
	if (ret || !o || !done || (!Y2038_RAW_CASES && !libc_only)) {
		free(o);
		free(done);
		free(libc_only);
		return ret ? ret : KSFT_FAIL;
	}
	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		if (!done[i]) {
			int j = case_partner(cases, n, i, done);
			const struct y2038_case *both[2] = { &cases[i], j >= 0 ? &cases[j] : NULL };
			struct outcome pair[2];

			run_together(both, pair, j >= 0 ? 2 : 1);
			o[i] = pair[0];
			done[i] = 1;
			if (j >= 0) {
				o[j] = pair[1];
				done[j] = 1;
			}
		}
		report_case(&tally, i + 1, case_abi(&cases[i]), cases[i].name, cases[i].phase, &o[i]);
	}
	printf("# harness: a case began at most %.3f ms after its clock was set (across lead %lld ms)\n",
	       latest_begin_ns / 1e6, (long long)(Y2038_ACROSS_LEAD_NS / NSEC_PER_MSEC));
	free(o);
	free(done);
	free(libc_only);
	return report_totals(&tally);
}

/* A scenario whose main is its case table, run (kselftest's TEST_HARNESS_MAIN). */
#define Y2038_MAIN(cases) \
	int main(void) \
	{ \
		return run_cases(cases, ARRAY_SIZE(cases)); \
	}

#endif
