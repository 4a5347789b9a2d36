// SPDX-License-Identifier: GPL-2.0
/*
 * unit.c - unit tests of the host tools' parsers and of the scenario
 * harness's judgements, run on the host. Each check prints one line, "pass
 * WHAT" or "fail FILE:LINE: WHAT", and the last is followed by "end": the
 * lab's one TAP writer (host-tools/tap.sh) makes them TAP and counts them,
 * through tests/unit/unit-c.sh. Exits 1 on a failure.
 */
#define _GNU_SOURCE	/* RUSAGE_THREAD */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "../../host-tools/verdicts/expect.h"
#include "../../host-tools/kernel/kconfig-parse.h"
#include "../../host-tools/verdicts/tap.h"
#include "../../scenarios/harness.h"
#include "../../guest-init/moment.h"

static int failures;

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)
static void check(int ok, const char *what, const char *file, int line)
{
	if (!ok) {
		failures++;
		printf("fail %s:%d: %s\n", file, line, what);
	} else {
		printf("pass %s\n", what);
	}
}

#define CHECK_STR(a, b) CHECK(!strcmp((a), (b)))

static const char good_tap[] =
	"TAP version 13\n"
	"1..2\n"
	"# timeout set to 60\n"
	"# selftests: y2038: clock-legacy\n"
	"# TAP version 13\n"
	"# 1..2\n"
	"# ok 1 legacy time before # PASS time = 2147483647 (2038-01-19T03:14:07Z)\n"
	"# not ok 2 raw32 time after # WRAP syscall time = -2147483648 (1901-12-13T20:45:52Z), 2^32 s behind\n"
	"not ok 1 selftests: y2038: clock-legacy # exit=1\n"
	"# selftests: y2038: clock-time64\n"
	"# TAP version 13\n"
	"# 1..1\n"
	"# ok 1 time64 time after # PASS time = 2147483648\r\n"
	"ok 2 selftests: y2038: clock-time64\n"
	"# y2038-init: done\n";

static void test_tap(void)
{
	struct tap_run run;
	struct tap_binary *b;

	CHECK(tap_parse(good_tap, strlen(good_tap), &run) == 0);
	CHECK(run.has_version && run.plan == 2 && run.done);
	CHECK(run.nbins == 2 && run.malformed == 0);
	b = tap_find_binary(&run, "clock-legacy");
	CHECK(b && b->has_result && !b->ok && b->ncells == 2 && b->plan == 2);
	if (b && b->ncells == 2) {
		CHECK_STR(b->directive, "exit=1");
		CHECK_STR(b->cells[1].abi, "raw32");
		CHECK_STR(b->cells[1].name, "time");
		CHECK_STR(b->cells[1].phase, "after");
		CHECK_STR(b->cells[1].class, "WRAP");
		CHECK(strstr(b->cells[1].detail, "1901-12-13") != NULL);
	}
	b = tap_find_binary(&run, "clock-time64");
	CHECK(b && b->ok && b->ncells == 1 && !strcmp(b->cells[0].detail, "time = 2147483648"));
	tap_free(&run);

	/* Cut in the middle of a line: that line is dropped, the rest kept. */
	CHECK(tap_parse(good_tap, strstr(good_tap, "# not ok 2") - good_tap + 20, &run) == 0);
	b = tap_find_binary(&run, "clock-legacy");
	CHECK(b && b->ncells == 1 && !b->has_result && !run.done);
	tap_free(&run);

	/* Garbage: nothing trusted, nothing crashes. */
	CHECK(tap_parse("\0\0ok\nnot ok x\n# ok 1\n1..-3\n", 26, &run) == 0);
	CHECK(run.nbins == 0 && run.plan == -1 && !run.has_version);
	tap_free(&run);

	/* A case line without its class is counted as malformed. */
	CHECK(tap_parse("# selftests: y2038: a-legacy\n# ok 1 legacy time before\n", 55, &run) == 0);
	CHECK(run.nbins == 1 && run.bins[0].ncells == 0 && run.malformed == 1);
	tap_free(&run);
	/* What the other tools read through --boot DIR --json: each case's line,
	 * number and result, a program's comments and totals, the runner's
	 * comments, the lines that are not TAP, and a detail however long. */
	CHECK(tap_parse(good_tap, strlen(good_tap), &run) == 0);
	b = tap_find_binary(&run, "clock-legacy");
	CHECK(b && b->ncells == 2 && b->cells[1].line == 8 && b->cells[1].number == 2 && !b->cells[1].ok &&
	      b->cells[0].ok && b->nnotes == 0);
	CHECK(run.nnotes == 1 && run.notes[0].line == 3 && !strcmp(run.notes[0].text, "timeout set to 60") &&
	      run.ntext == 0);
	tap_free(&run);
	{
		static char tap[4096];
		char detail[2001];

		memset(detail, 'x', sizeof(detail) - 1);
		detail[sizeof(detail) - 1] = '\0';
		snprintf(tap, sizeof(tap), "y2038-probe: started\r\n# selftests: y2038: a-legacy\n"
			 "# # timeline legacy time 2147483647 2147483647\n# ok 1 legacy time before # PASS %s\n"
			 "# # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0\n", detail);
		CHECK(tap_parse(tap, strlen(tap), &run) == 0);
		b = tap_find_binary(&run, "a-legacy");
		CHECK(b && b->ncells == 1 && strlen(b->cells[0].detail) == 2000 && b->nnotes == 2 &&
		      b->notes[0].line == 3 && !strcmp(b->notes[0].text, "timeline legacy time 2147483647 2147483647"));
		CHECK(b && b->has_totals && b->totals.pass == 1 && b->totals.fail == 0);
		CHECK(run.ntext == 1 && run.text[0].line == 1 && !strcmp(run.text[0].text, "y2038-probe: started"));
		tap_free(&run);
	}
}

static int parse_table(const char *text, struct expect_table *t, char *err)
{
	return expect_parse(text, strlen(text), "t.tsv", t, err, 256);
}

/* A cell as the collector looks it up, on machine i386 (karch i386). */
static const struct expect_row *lookup(const struct expect_table *t,
				       const char *scenario, const char *name,
				       const char *phase, const char *abi,
				       const char *config, const char *patches,
				       const char *machine, const char *karch)
{
	const struct expect_cell cell = {
		scenario, name, phase, abi, "glibc-2.36", config, patches, machine, karch, "tcg", NULL,
	};

	return expect_lookup(t, &cell);
}

/* The same cell, its libc named. */
static const struct expect_row *lookup_libc(const struct expect_table *t,
					    const char *abi, const char *libc)
{
	const struct expect_cell cell = {
		"clock", "time", "after", abi, libc, "compat32-n", "lab", "i386", "i386", "tcg", NULL,
	};

	return expect_lookup(t, &cell);
}
#define LOOKUP(t, sc, n, ph, abi, conf) lookup(t, sc, n, ph, abi, conf, "lab", "i386", "i386")

/* Is r a row, and does it expect want? */
static int expected_is(const struct expect_row *r, const char *want)
{
	return r && !strcmp(r->expected, want);
}

static void test_expect(void)
{
	struct expect_table t;
	const struct expect_row *r;
	char err[256];

	CHECK(parse_table("# c\n\nclock\ttime\tafter\traw32\t*\tcompat32-n\t*\t*\t*\t*\tENOSYS\tgone\n"
			  "clock\ttime\tafter\t*\t*\t*\t*\t*\t*\t*\tPASS\tfits\n", &t, err) == 0);
	r = LOOKUP(&t, "clock", "time", "after", "raw32", "compat32-n");
	CHECK(r && !strcmp(r->expected, "ENOSYS") && r->line == 3);
	CHECK(expected_is(LOOKUP(&t, "clock", "time", "after", "raw32", "compat32-y"), "PASS"));
	CHECK(LOOKUP(&t, "clock", "time", "before", "raw32", "compat32-y") == NULL);
	expect_free(&t);

	CHECK(parse_table("clock\ttime\tafter\t*\t*\t*\t*\t*\t*\t*\tPASS\tfits\n"
			  "clock\ttime\tafter\traw32\t*\tcompat32-n\t*\t*\t*\t*\tENOSYS\tgone\n", &t, err) == -1);
	CHECK(strstr(err, "t.tsv:2: never used: line 1") != NULL);
	CHECK(parse_table("clock\ttime\tafter\t*\t*\t*\t*\t*\t*\t*\tMAYBE\tx\n", &t, err) == -1);
	CHECK(strstr(err, "t.tsv:1:") && strstr(err, "MAYBE"));
	CHECK(parse_table("clock\ttime\tafter\t*\t*\t*\t*\tPASS\tx\n", &t, err) == -1);
	CHECK(strstr(err, "columns") != NULL);
	CHECK(parse_table("clock\ttime\tafter\tlegacy32\t*\t*\t*\t*\t*\t*\tPASS\tx\n", &t, err) == -1);
	CHECK(strstr(err, "unknown abi") != NULL);
	/* A scenario "*" is a rule for every family; it covers the rows after it. */
	CHECK(parse_table("*\t*\t*\traw32\t*\tlibfaketime\t*\t*\t*\t*\tSKIP\thost\n"
			  "clock\ttime\tafter\traw32\t*\tlibfaketime\t*\t*\t*\t*\tPASS\tx\n", &t, err) == -1);
	CHECK(strstr(err, "t.tsv:2: never used: line 1") != NULL);
	/* A host column's cell: its own rows first, then as the compat32-y cell. */
	CHECK(parse_table("*\t*\t*\traw32\t*\tlibfaketime\t*\t*\t*\t*\tSKIP\thost\n"
			  "clock\ttime\tafter\tlegacy\t*\tcompat32-y\t*\t*\t*\t*\tEOVERFLOW\ty\n"
			  "clock\ttime\tafter\t*\t*\t*\t*\t*\t*\t*\tPASS\tfits\n", &t, err) == 0);
	CHECK(expected_is(LOOKUP(&t, "clock", "time", "after", "raw32", "libfaketime"), "SKIP"));
	CHECK(expected_is(LOOKUP(&t, "waits", "futex", "across", "raw32", "libfaketime"), "SKIP"));
	r = LOOKUP(&t, "clock", "time", "after", "legacy", "libfaketime");
	CHECK(r && !strcmp(r->expected, "EOVERFLOW") && r->line == 2);
	CHECK(expected_is(LOOKUP(&t, "clock", "time", "after", "raw32", "compat32-y"), "PASS"));
	/* ... a config "*" is either kernel config, never a host column */
	r = LOOKUP(&t, "clock", "time", "after", "time64", "libfaketime-static");
	CHECK(r && !strcmp(r->expected, "PASS") && r->line == 3);
	expect_free(&t);
	CHECK(parse_table("clock\ttime\t*\t*\t*\t*\t*\t*\t*\t*\tPASS\tall\n"
			  "clock\ttime\tafter\tlegacy\t*\tlibfaketime\t*\t*\t*\t*\tWRAP\tfaked\n", &t, err) == 0);
	expect_free(&t);
	CHECK(parse_table("clock\ttime\tafter\tlegacy\t*\tcompat=y\t*\t*\t*\t*\tPASS\tx\n", &t, err) == -1);
	CHECK(parse_table("clock\ttime\tafter\tlegacy\t*\t*\t*\t*\t*\t*\tPASS\t\n", &t, err) == -1);
	CHECK(parse_table("# only comments\n", &t, err) == -1);
	/* The patches column tells the lab's kernels from unpatched ones; the
	 * arch column names a machine or its kernel ARCH. */
	CHECK(parse_table("rtc\thctosys\tafter\tkernel\t*\t*\tnone\t*\tarm\t*\tUNSET\tERANGE\n"
			  "rtc\thctosys\tafter\tkernel\t*\t*\t*\t*\t*\t*\tPASS\tset\n", &t, err) == 0);
	CHECK(expected_is(lookup(&t, "rtc", "hctosys", "after", "kernel", "compat32-y", "none", "armv7", "arm"), "UNSET"));
	CHECK(expected_is(lookup(&t, "rtc", "hctosys", "after", "kernel", "compat32-y", "none", "armv7-lpae", "arm"), "UNSET"));
	CHECK(expected_is(lookup(&t, "rtc", "hctosys", "after", "kernel", "compat32-y", "none", "arm64", "arm64"), "PASS"));
	CHECK(expected_is(lookup(&t, "rtc", "hctosys", "after", "kernel", "compat32-y", "lab", "armv7", "arm"), "PASS"));
	expect_free(&t);
	CHECK(parse_table("rtc\thctosys\tafter\tkernel\t*\t*\tpatched\t*\t*\t*\tPASS\tx\n", &t, err) == -1);
	CHECK(strstr(err, "unknown patches") != NULL);
	/* A reason several rows share is named once, above them. */
	CHECK(parse_table("@gone\tbuilt only with COMPAT_32BIT_TIME\n"
			  "clock\ttime\tafter\traw32\t*\tcompat32-n\t*\t*\t*\t*\tENOSYS\t@gone\n"
			  "clock\ttime\tbefore\traw32\t*\tcompat32-n\t*\t*\t*\t*\tENOSYS\t@gone\n", &t, err) == 0);
	r = LOOKUP(&t, "clock", "time", "before", "raw32", "compat32-n");
	CHECK(r && !strcmp(r->reason, "built only with COMPAT_32BIT_TIME"));
	expect_free(&t);
	CHECK(parse_table("clock\ttime\tafter\traw32\t*\tcompat32-n\t*\t*\t*\t*\tENOSYS\t@gone\n", &t, err) == -1);
	CHECK(strstr(err, "t.tsv:1: no reason named @gone") != NULL);
	CHECK(parse_table("@gone\tone\n@gone\ttwo\n", &t, err) == -1);
	CHECK(strstr(err, "t.tsv:2: the reason @gone is named twice") != NULL);
	CHECK(parse_table("@Gone Away\tx\n", &t, err) == -1);
	CHECK(parse_table("@gone\n", &t, err) == -1);
	/* The libc column: a version, all versions of a name, or any. */
	CHECK(parse_table("clock\ttime\tafter\ttime64\tmusl-*\t*\t*\t*\t*\t*\tENOSYS\tm\n"
			  "clock\ttime\tafter\ttime64\tglibc-2.41\t*\t*\t*\t*\t*\tEINVAL\tg\n"
			  "clock\ttime\tafter\t*\t*\t*\t*\t*\t*\t*\tPASS\tany\n", &t, err) == 0);
	CHECK(expected_is(lookup_libc(&t, "time64", "musl-1.2.5"), "ENOSYS"));
	CHECK(expected_is(lookup_libc(&t, "time64", "glibc-2.41"), "EINVAL"));
	CHECK(expected_is(lookup_libc(&t, "time64", "glibc-2.36"), "PASS"));
	CHECK(expected_is(lookup_libc(&t, "raw64", "-"), "PASS"));
	CHECK(expected_is(lookup_libc(&t, "time64", "muslim"), "PASS"));
	expect_free(&t);
	CHECK(parse_table("clock\ttime\tafter\ttime64\tmusl-*\t*\t*\t*\t*\t*\tENOSYS\tm\n"
			  "clock\ttime\tafter\ttime64\tmusl-1.2.5\t*\t*\t*\t*\t*\tPASS\tx\n", &t, err) == -1);
	CHECK(strstr(err, "t.tsv:2: never used: line 1") != NULL);
	CHECK(parse_table("clock\ttime\tafter\ttime64\tGlibc 2\t*\t*\t*\t*\t*\tPASS\tx\n", &t, err) == -1);
	CHECK(parse_table("clock\ttime\tafter\ttime64\tmu*sl\t*\t*\t*\t*\t*\tPASS\tx\n", &t, err) == -1);
	CHECK(strstr(err, "libc \"mu*sl\"") != NULL);
	/* The accel column: how a cell ran (a host column natively or under
	 * qemu-user) decides where the emulator is the cause. */
	CHECK(parse_table("sockets\tso_rcvtimeo\tacross\ttime64\t*\tlibfaketime\t*\t*\t*\tqemu-user\tWRONG\tq\n"
			  "sockets\tso_rcvtimeo\tacross\t*\t*\t*\t*\t*\t*\t*\tPASS\tany\n", &t, err) == 0);
	{
		struct expect_cell cell = {
			"sockets", "so_rcvtimeo", "across", "time64", "glibc-2.36",
			"libfaketime", "lab", "i386", "i386", "qemu-user", NULL,
		};

		CHECK(expected_is(expect_lookup(&t, &cell), "WRONG"));
		cell.accel = "native";
		CHECK(expected_is(expect_lookup(&t, &cell), "PASS"));
		cell.accel = NULL;	/* a record without one: only "*" */
		CHECK(expected_is(expect_lookup(&t, &cell), "PASS"));
	}
	expect_free(&t);
	CHECK(parse_table("clock\ttime\tafter\t*\t*\t*\t*\t*\t*\tqemu\tPASS\tx\n", &t, err) == -1);
	CHECK(strstr(err, "unknown accel \"qemu\"") != NULL);
	/* The kernel column: a version range, decided by the kernel's version. */
	CHECK(expect_kernel_holds("*", NULL) == 1 && expect_kernel_holds(">=6.12", NULL) == 0);
	CHECK(expect_kernel_holds(">=6.12", "6.12.118-1~deb12u1") == 1);
	CHECK(expect_kernel_holds(">=6.12", "6.1.192-3") == 0);
	CHECK(expect_kernel_holds("<7.3", "7.3~rc7-1~exp1") == 0 && expect_kernel_holds(">=7.3", "7.3~rc7-1~exp1") == 1);
	CHECK(expect_kernel_holds(">=6.12.35,<6.13", "6.12.34-1") == 0 && expect_kernel_holds(">=6.12.35,<6.13", "6.12.35-1") == 1);
	CHECK(expect_kernel_holds("=6.1", "6.1.0-30-amd64") == 1 && expect_kernel_holds(">6.1", "6.1.0") == 0);
	CHECK(expect_kernel_holds("6.12", "6.12") == -1 && expect_kernel_holds(">=6.", "6.1") == -1 &&
	      expect_kernel_holds(">=6.12,", "6.1") == -1 && expect_kernel_holds(">=6.12x", "6.1") == -1);
	CHECK(parse_table("files\tiso\tafter\ttime64\t*\t*\t*\t>=6.12\t*\t*\tPASS\tfixed by 5ea45f54c8d6\n"
			  "files\tiso\tafter\ttime64\t*\t*\t*\t*\t*\t*\tWRAP\tan int\n", &t, err) == 0);
	{
		struct expect_cell cell = {
			"files", "iso", "after", "time64", "glibc-2.36", "compat32-y", "lab", "i386", "i386", "tcg",
			"6.12.118-1~deb12u1",
		};

		CHECK(expected_is(expect_lookup(&t, &cell), "PASS"));
		cell.kernel = "6.1.192-3";
		CHECK(expected_is(expect_lookup(&t, &cell), "WRAP"));
	}
	expect_free(&t);
	CHECK(parse_table("files\tiso\tafter\ttime64\t*\t*\t*\t>=6.12\t*\t*\tPASS\tfixed upstream\n", &t, err) == -1);
	CHECK(strstr(err, "names the commit") != NULL);
	CHECK(parse_table("files\tiso\tafter\ttime64\t*\t*\t*\t6.12+\t*\t*\tPASS\tfixed by 5ea45f54c8d6\n", &t, err) == -1);
	CHECK(strstr(err, "kernel \"6.12+\"") != NULL);
	CHECK(outcome_class_valid("EOVERFLOW") && outcome_class_valid("E2BIG") &&
	      !outcome_class_valid("E") && !outcome_class_valid("eoverflow"));
}

static void test_kconfig(void)
{
	static const char text[] =
		"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
		"CONFIG_64BIT=y\n"
		"# CONFIG_COMPAT_32BIT_TIME is not set\n"
		"CONFIG_NR_CPUS=8\n"
		"CONFIG_CMDLINE=\"console=ttyS0 quiet\"\n"
		"CONFIG_64BIT=n\n";
	struct kconfig cfg;
	char err[256];

	CHECK(kconfig_parse(text, strlen(text), "c", &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.n == 4);
	CHECK_STR(kconfig_get(&cfg, "CONFIG_COMPAT_32BIT_TIME"), "n");
	CHECK_STR(kconfig_get(&cfg, "CONFIG_64BIT"), "n");	/* last one wins */
	CHECK_STR(kconfig_get(&cfg, "CONFIG_CMDLINE"), "\"console=ttyS0 quiet\"");
	CHECK(kconfig_get(&cfg, "CONFIG_NOPE") == NULL);
	kconfig_free(&cfg);

	CHECK(kconfig_parse("CONFIG_X=y\nCOMPAT=y\n", 20, "c", &cfg, err, sizeof(err)) == -1);
	CHECK(strstr(err, "c:2: not a config line") != NULL);
	CHECK(kconfig_parse("CONFIG_X=\n", 10, "c", &cfg, err, sizeof(err)) == -1);
	CHECK(kconfig_parse("CONFIG_X=\"open\n", 15, "c", &cfg, err, sizeof(err)) == -1);
	CHECK(kconfig_parse("CONFIG_X=y\0", 11, "c", &cfg, err, sizeof(err)) == -1);
}

static void test_harness_judgements(void)
{
	const int64_t now = (Y2038_LAST_SEC + 1) * NSEC_PER_SEC;
	struct outcome o;
	char when[64];

	iso8601(Y2038_LAST_SEC, when, sizeof(when));
	CHECK_STR(when, "2038-01-19T03:14:07Z");
	iso8601(-Y2038_LAST_SEC - 1, when, sizeof(when));
	CHECK_STR(when, "1901-12-13T20:45:52Z");
	iso8601(4294967296LL, when, sizeof(when));
	CHECK_STR(when, "2106-02-07T06:28:16Z");
	iso8601(0, when, sizeof(when));
	CHECK_STR(when, "1970-01-01T00:00:00Z");

	judge_reading(&o, "time", Y2038_LAST_SEC + 1, now, now);
	CHECK_STR(o.class, "PASS");
	judge_reading(&o, "time", (int32_t)(uint32_t)(Y2038_LAST_SEC + 1), now, now);
	CHECK_STR(o.class, "WRAP");
	CHECK(strstr(o.detail, "1901-12-13T20:45:52Z") != NULL);
	judge_reading(&o, "time", 0, now, now);
	CHECK_STR(o.class, "WRONG");

	judge_wait(&o, "nanosleep", 0, 500 * NSEC_PER_MSEC, 500 * NSEC_PER_MSEC + 1);
	CHECK_STR(o.class, "PASS");
	judge_wait(&o, "nanosleep", 0, 500 * NSEC_PER_MSEC, 1000);
	CHECK_STR(o.class, "EARLY");
	/* A jiffies timeout a few late ticks short is the full wait; at once is not. */
	judge_wait(&o, "recv", 0, 100 * NSEC_PER_MSEC, 89 * NSEC_PER_MSEC);
	CHECK_STR(o.class, "EARLY");
	judge_wait_slack(&o, "recv", 0, 100 * NSEC_PER_MSEC, 89 * NSEC_PER_MSEC, Y2038_JIFFIES_SLACK_NS);
	CHECK_STR(o.class, "PASS");
	judge_wait_slack(&o, "recv", 0, 100 * NSEC_PER_MSEC, 12 * NSEC_PER_MSEC, Y2038_JIFFIES_SLACK_NS);
	CHECK_STR(o.class, "EARLY");
	judge_wait(&o, "nanosleep", ENOSYS, 500 * NSEC_PER_MSEC, 1000);
	CHECK_STR(o.class, "ENOSYS");
	CHECK(strstr(o.detail, "nanosleep: errno 38 ENOSYS") != NULL);

	/*
	 * A full wait is SPIN when its thread ran for a quarter of it or more
	 * and never blocked; one that blocked slept, whatever CPU time a host
	 * stall charged to it.
	 */
	{
		int64_t cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t0 = clock_ns(CLOCK_MONOTONIC), cpu;
		long blocks0 = thread_blocks();
		struct timespec ms = { 0, NSEC_PER_MSEC };

		/*
		 * This thread spins for 60 ms of its own CPU time, a wait that
		 * long: on a loaded machine its wall time is longer, and its
		 * share of it no measure of a spin.
		 */
		while ((cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0) < 60 * NSEC_PER_MSEC)
			;
		judge_wait(&o, "futex", 0, 60 * NSEC_PER_MSEC, cpu);
		judge_spin(&o, "futex", cpu, cpu, thread_blocks() - blocks0);
		CHECK_STR(o.class, "SPIN");
		CHECK(strstr(o.detail, "futex waited 0.0") && strstr(o.detail, "of its thread's CPU time, never blocking"));
		judge_wait(&o, "futex", 0, 60 * NSEC_PER_MSEC, 60 * NSEC_PER_MSEC);
		judge_spin(&o, "futex", 60 * NSEC_PER_MSEC, 0, 0);	/* it slept: no CPU */
		CHECK_STR(o.class, "PASS");
		blocks0 = thread_blocks();
		nanosleep(&ms, NULL);	/* blocks, then runs 60 ms as a stall would */
		cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t0 = clock_ns(CLOCK_MONOTONIC);
		while (clock_ns(CLOCK_MONOTONIC) - t0 < 60 * NSEC_PER_MSEC)
			;
		CHECK(thread_blocks() > blocks0);
		judge_wait(&o, "futex", 0, 60 * NSEC_PER_MSEC, 61 * NSEC_PER_MSEC);
		judge_spin(&o, "futex", 61 * NSEC_PER_MSEC, clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0,
			   thread_blocks() - blocks0);
		CHECK_STR(o.class, "PASS");
		judge_wait(&o, "futex", ENOSYS, 60 * NSEC_PER_MSEC, 0);
		judge_spin(&o, "futex", 60 * NSEC_PER_MSEC, NSEC_PER_SEC, 0);
		CHECK_STR(o.class, "ENOSYS");	/* only a wait that passed can be SPIN */
	}
}

/* The across margin: a case that began past the overflow did not cross it: LATE. */
static void test_harness_lateness(void)
{
	const struct y2038_case across = { "nanosleep", LIBC, Y2038_ACROSS };
	const struct y2038_case after = { "time", LIBC, Y2038_AFTER };
	struct outcome o = { "PASS", "nanosleep waited 0.100 s of 0.100 s", 0, 0 };

	CHECK(Y2038_OVERFLOW_NS - Y2038_ACROSS_LEAD_NS + Y2038_ACROSS_WAIT_NS > Y2038_OVERFLOW_NS);
	latest_begin_ns = 0;
	o.began_ns = across.start_ns + 3 * NSEC_PER_MSEC;
	judge_lateness(&across, &o);
	CHECK_STR(o.class, "PASS");
	CHECK(latest_begin_ns == 3 * NSEC_PER_MSEC);

	o.began_ns = Y2038_OVERFLOW_NS;
	CHECK(judge_lateness(&across, &o) == 1);
	CHECK_STR(o.class, "LATE");
	CHECK_STR(o.detail, "nanosleep began 0.0 ms past the overflow, its clock set 50 ms before it: it did not cross it (was: PASS nanosleep waited 0.100 s of 0.100 s)");
	CHECK(latest_begin_ns == Y2038_ACROSS_LEAD_NS);

	/* an after case is meant to begin past the overflow: measured only */
	snprintf(o.class, sizeof(o.class), "EOVERFLOW");
	o.began_ns = after.observe_ns + NSEC_PER_MSEC;
	CHECK(judge_lateness(&after, &o) == 0);
	CHECK_STR(o.class, "EOVERFLOW");
	CHECK(latest_begin_ns == Y2038_ACROSS_LEAD_NS);

	/* a case that never ran (began_ns 0) is neither judged nor measured */
	o.began_ns = 0;
	judge_lateness(&across, &o);
	CHECK_STR(o.class, "EOVERFLOW");
}

/*
 * A mode whose clock is set like libfaketime's (an offset), and set late:
 * the first late_tries times by late_ns (60 ms: past the 50 ms lead of an
 * across case), as a busy machine would.
 */
/* Shared with the children, which set a faked clock themselves. */
struct late_clock {
	int tries;
	int64_t ns;
};
static struct late_clock *late_clock_shared(void)
{
	static struct late_clock *late;

	if (!late) {
		late = mmap(NULL, sizeof(*late), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (late == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		late->ns = 60 * NSEC_PER_MSEC;
	}
	return late;
}
#define late_tries (late_clock_shared()->tries)
#define late_ns (late_clock_shared()->ns)
static int late_set_clock(int64_t ns)
{
	struct kts64 now;

	if (raw64_clock_gettime(CLOCK_REALTIME, &now))
		return -EINVAL;
	faked_offset_ns = ns - kts64_to_ns(&now);
	if (late_tries-- > 0)
		faked_offset_ns += late_ns;
	return 0;
}

static void measure_nothing(struct outcome *o)
{
	outcome_set(o, "PASS", "measured");
}

/*
 * A case that missed its moment is measured again, and says so; if it
 * misses it every time, it is LATE, not a verdict, and says by how much: an
 * across case that began past the overflow, a before case that ended past
 * it. One that began late but within its lead is a verdict.
 */
/* Run case c with the clock set late the first tries times: its outcome. */
static struct outcome run_late(const struct y2038_case *c, int tries)
{
	struct outcome o;

	late_tries = tries;
	run_case(c, &o);
	return o;
}

static void test_harness_retry(void)
{
	const struct lab_mode late_mode = {
		.name = "late", .case_timeout_ns = 5 * NSEC_PER_SEC,
		.set_clock = late_set_clock, .set_clock_call = "late_set_clock",
	};
	const struct y2038_case across = { "nanosleep", LIBC, Y2038_ACROSS, .run = measure_nothing };
	const struct y2038_case before = { "time", LIBC, Y2038_BEFORE, .run = measure_nothing };
	struct outcome o;

	lab = &late_mode;
	o = run_late(&across, 0);
	CHECK(!strcmp(o.class, "PASS") && !strstr(o.detail, "try"));
	o = run_late(&across, 1);
	CHECK(!strcmp(o.class, "PASS") &&
	      strstr(o.detail, "measured (try 2 of 3: the earlier missed their moment)"));
	o = run_late(&across, Y2038_TRIES);
	CHECK_STR(o.class, "LATE");
	CHECK(!strncmp(o.detail, "nanosleep began ", 16) &&
	      strstr(o.detail, " ms past the overflow, its clock set 50 ms before it: it did not cross it (was: PASS measured) (try 3 of 3"));
	CHECK(late_tries == 0);

	/* 60 ms late is within a before case's 500 ms lead: a verdict. */
	o = run_late(&before, Y2038_TRIES);
	CHECK(!strcmp(o.class, "PASS") && !strcmp(o.detail, "measured"));
	late_ns = 600 * NSEC_PER_MSEC;
	o = run_late(&before, 1);
	CHECK(!strcmp(o.class, "PASS") && strstr(o.detail, "(try 2 of 3"));
	o = run_late(&before, Y2038_TRIES);
	CHECK_STR(o.class, "LATE");
	CHECK(!strncmp(o.detail, "time ended ", 11) &&
	      strstr(o.detail, " ms past the overflow, its clock set 500 ms before it: it may have read the clock after it (was: PASS measured)"));
	late_ns = 60 * NSEC_PER_MSEC;
	late_tries = 0;
	lab = NULL;
	faked_offset_ns = 0;
}

/* A body that rows share: it is given its row, argument and kind. */
static void echo_row(struct outcome *o, const struct y2038_case *c)
{
	outcome_set(o, "PASS", "%s %s", (const char *)c->arg, c->kind == RAW ? "raw" : "libc");
}

static void test_harness_run_arg(void)
{
	const struct lab_mode mode = {
		.name = "late", .case_timeout_ns = 5 * NSEC_PER_SEC,
		.set_clock = late_set_clock, .set_clock_call = "late_set_clock",
	};
	const struct y2038_case rows[] = {
		{ "so_rcvtimeo", LIBC, Y2038_ACROSS, .run_arg = echo_row, .arg = "SO_RCVTIMEO" },
		{ "so_rcvtimeo", RAW, Y2038_ACROSS, .run_arg = echo_row, .arg = "SO_RCVTIMEO_OLD" },
		{ "alarm", RAW, Y2038_ACROSS, Y2038_SKIP("this ABI has no alarm syscall") },
	};
	struct outcome o;

	lab = &mode;
	late_tries = 0;
	run_case(&rows[0], &o);
	CHECK_STR(o.class, "PASS");
	CHECK_STR(o.detail, "SO_RCVTIMEO libc");
	run_case(&rows[1], &o);
	CHECK_STR(o.detail, "SO_RCVTIMEO_OLD raw");
	run_case(&rows[2], &o);
	CHECK_STR(o.class, "SKIP");
	CHECK_STR(o.detail, "this ABI has no alarm syscall");
	lab = NULL;
	faked_offset_ns = 0;
}

/*
 * A case's prepare (a thread holding a lock, say) takes none of the across
 * lead: 80 ms of it, longer than the 50 ms lead, and the case still crosses.
 * Here in the faked host's way (the clock set before the fork, and again
 * in the child once prepared); a guest sets it once every child is prepared,
 * which the guests' boots measure (the lateness printed by every program).
 */
static int slow_prepare(struct outcome *o)
{
	(void)o;
	raw64_sleep(80 * NSEC_PER_MSEC);
	return 0;
}

static int failed_prepare(struct outcome *o)
{
	outcome_setup_failed(o, "pthread_create", NULL, EAGAIN);
	return -1;
}

/* The slow setup done in the body, where it counts against the lead. */
static void slow_prepare_run(struct outcome *o)
{
	slow_prepare(o);
	o->began_ns = clock_ns(CLOCK_REALTIME);	/* as WAIT_UNTIL does */
	measure_nothing(o);
}

static void test_harness_prepare(void)
{
	const struct lab_mode mode = {
		.name = "late", .case_timeout_ns = 5 * NSEC_PER_SEC,
		.set_clock = late_set_clock, .set_clock_call = "late_set_clock",
	};
	const struct y2038_case slow = { "mutex_timedlock", LIBC, Y2038_ACROSS,
					 .prepare = slow_prepare, .run = measure_nothing };
	const struct y2038_case unprepared = { "mutex_timedlock", LIBC, Y2038_ACROSS,
					       .run = slow_prepare_run };
	const struct y2038_case broken = { "mutex_timedlock", LIBC, Y2038_ACROSS,
					   .prepare = failed_prepare, .run = measure_nothing };
	struct outcome o;

	lab = &mode;
	late_tries = 0;
	run_case(&slow, &o);
	CHECK_STR(o.class, "PASS");
	CHECK_STR(o.detail, "measured");
	/* The same 80 ms in the case's body would have it begin late. */
	run_case(&unprepared, &o);
	CHECK_STR(o.class, "LATE");
	CHECK(strstr(o.detail, "did not cross it") != NULL);
	run_case(&broken, &o);
	CHECK_STR(o.class, "ERROR");
	CHECK(strstr(o.detail, "pthread_create") != NULL);
	lab = NULL;
	faked_offset_ns = 0;
}

/*
 * A mode whose tick to a moment ends 30 ms before it the first early_ticks
 * times, as an absolute CLOCK_REALTIME sleep on linux-source-7.2 i386 can
 * without patches/7.2/0009.
 */
static int early_ticks;
static void early_tick_to(int64_t start_ns, int64_t ns)
{
	int64_t now = clock_ns(CLOCK_REALTIME);

	(void)start_ns;
	if (early_ticks-- > 0)
		ns -= 30 * NSEC_PER_MSEC;
	if (ns > now)
		raw64_sleep(ns - now);
}

/* An after case runs at its moment even if a tick to it ended early. */
#define TICK_EARLY "measured (the tick to after's moment, an absolute CLOCK_REALTIME sleep, ended "
#define TICKS_EARLY "returned early 3 times, the last by "
static void test_harness_early_tick(void)
{
	const struct lab_mode early_mode = {
		.name = "early", .case_timeout_ns = 5 * NSEC_PER_SEC,
		.set_clock = late_set_clock, .set_clock_call = "late_set_clock",
		.tick_to = early_tick_to,
	};
	const struct y2038_case after = { "time", LIBC, Y2038_AFTER, .run = measure_nothing };
	struct outcome o;
	const char *early;
	double ms = 0;

	lab = &early_mode;
	late_tries = 0;
	early_ticks = 0;
	run_case(&after, &o);
	CHECK_STR(o.class, "PASS");
	CHECK_STR(o.detail, "measured");

	early_ticks = 1;
	run_case(&after, &o);
	CHECK_STR(o.class, "PASS");
	early = strstr(o.detail, TICK_EARLY);
	CHECK(early && sscanf(early + strlen(TICK_EARLY), "%lf ms before it: slept again)", &ms) == 1);
	CHECK(ms > 20 && ms <= 30);	/* 30 ms less the sleep's overshoot */

	early_ticks = Y2038_TRIES;
	run_case(&after, &o);
	CHECK_STR(o.class, "ERROR");
	early = strstr(o.detail, TICKS_EARLY);
	CHECK(early && sscanf(early + strlen(TICKS_EARLY), "%lf ms: ", &ms) == 1 && ms > 20 && ms <= 30);
	CHECK(strstr(o.detail, "time ran before its moment (was: PASS measured (the tick") != NULL);
	lab = NULL;
	faked_offset_ns = 0;
}

/* A child's output, as the harness runs one: echo's words, and nothing else. */
static void say_words(void *arg, int fd)
{
	(void)fd;
	execl("/bin/sh", "sh", "-c", (const char *)arg, (char *)NULL);
}

static int keep_output(void *arg, const char *buf, size_t n)
{
	strncat(arg, buf, n);
	return 0;
}

/*
 * The lab's read end of a child's output is O_NOATIME: reading it past the
 * overflow must not change what the child can see of its stdout (child.h).
 */
static void test_child_output(void)
{
	struct child c;
	char out[64] = "";

	CHECK(child_start(&c, CHILD_PIPE_STDIO, say_words, "echo words") == 0);
	CHECK(fcntl(c.fd, F_GETFL) & O_NOATIME);
	child_finish(&c, clock_ns(CLOCK_MONOTONIC) + 5 * NSEC_PER_SEC, keep_output, out);
	CHECK_STR(out, "words\n");
	CHECK(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0 && !c.timed_out);
}

/*
 * A session's command and its moment (guest-init/moment.h): its marker
 * lines are taken out of its output as they arrive, in any pieces, and the
 * first one's arrival kept; one that came past the overflow is LATE, and so
 * is a before command without one that ended past it, an across command
 * without one that started past it. Every other command keeps its verdict.
 */
static void test_session_moment(void)
{
	const int64_t overflow = (Y2038_LAST_SEC + 1) * NSEC_PER_SEC;
	const int64_t across = Y2038_LAST_SEC * NSEC_PER_SEC, before = across - 7 * NSEC_PER_SEC;
	const char *pieces[] = { "first\ny2038-ar", "med\nsecond y2038-armed\n", "y2038-armed\nlast" };
	struct moments m = { 0 };
	struct outcome o;
	char out[128];
	size_t len = 0, i;

	for (i = 0; i < ARRAY_SIZE(pieces); i++) {
		memcpy(out + len, pieces[i], strlen(pieces[i]));
		len += strlen(pieces[i]);
		armed_take(&m, out, &len, (int64_t)(i + 1) * 100);
	}
	out[len] = '\0';
	CHECK_STR(out, "first\nsecond y2038-armed\nlast");
	CHECK(m.armed_ns == 200);

	/* armed 0.41 s past the overflow: LATE, saying so, and what it was */
	m = (struct moments){ .started_ns = across + 10, .armed_ns = overflow + 410 * NSEC_PER_MSEC, .ended_ns = overflow + NSEC_PER_SEC };
	outcome_set(&o, "WRONG", "exit 0 in 2.40 s: \"2038-01-19 03:14:08\"");
	judge_moment(&o, "across", across, &m, 0);
	CHECK_STR(o.class, "LATE");
	CHECK_STR(o.detail, "it printed y2038-armed 410.0 ms past the overflow, its clock set 1 s before it: it missed its moment (was: WRONG exit 0 in 2.40 s: \"2038-01-19 03:14:08\")");
	/* armed in time: the verdict stands, whenever it ended */
	m.armed_ns = overflow - NSEC_PER_MSEC;
	outcome_set(&o, "PASS", "exit 0 in 1.00 s");
	judge_moment(&o, "across", across, &m, 0);
	CHECK_STR(o.class, "PASS");
	/* a marker is a before command's moment too (a wait armed before it) */
	m = (struct moments){ .started_ns = before, .armed_ns = before + NSEC_PER_SEC, .ended_ns = overflow + 2 * NSEC_PER_SEC };
	judge_moment(&o, "before", before, &m, 0);
	CHECK_STR(o.class, "PASS");
	/* no marker: a before command that ended past the overflow is LATE... */
	m.armed_ns = 0;
	judge_moment(&o, "before", before, &m, 0);
	CHECK_STR(o.class, "LATE");
	CHECK(!strncmp(o.detail, "it ended 2.00 s past the overflow, its clock set 8 s before it: it may have read the clock after it (was: PASS", 104));
	/* ...but not one that hung: that is its verdict */
	outcome_set(&o, "TIMEOUT", "did not end within 10 s");
	judge_moment(&o, "before", before, &m, 1);
	CHECK_STR(o.class, "TIMEOUT");
	/* an across command without a marker: only its start can say */
	outcome_set(&o, "CRASH", "killed by signal 6 (SIGABRT)");
	m = (struct moments){ .started_ns = across + 5 * NSEC_PER_MSEC, .armed_ns = 0, .ended_ns = overflow + 3 * NSEC_PER_SEC };
	judge_moment(&o, "across", across, &m, 0);
	CHECK_STR(o.class, "CRASH");
	m.started_ns = overflow + 20 * NSEC_PER_MSEC;
	judge_moment(&o, "across", across, &m, 0);
	CHECK_STR(o.class, "LATE");
	CHECK(!strncmp(o.detail, "it started 20.0 ms past the overflow", 36));
	/*
	 * A buffered command says its moment by its own clock: believed where
	 * it lies between the phase's clock and the marker's arrival.
	 */
	len = 0;
	memcpy(out, "a\ny2038-armed 2147483647.95\nb\n", 31);
	len = 31;
	m = (struct moments){ 0 };
	armed_take(&m, out, &len, overflow + 2 * NSEC_PER_SEC);
	out[len] = '\0';
	CHECK(!strcmp(out, "a\nb\n") && m.said_ns / NSEC_PER_MSEC == Y2038_LAST_SEC * 1000 + 950);
	m.started_ns = across;
	outcome_set(&o, "PASS", "exit 0");
	judge_moment(&o, "across", across, &m, 0);
	CHECK_STR(o.class, "PASS");
	m.said_ns = overflow + 100 * NSEC_PER_MSEC;
	judge_moment(&o, "across", across, &m, 0);
	CHECK(!strcmp(o.class, "LATE") && !strncmp(o.detail, "it said by its own clock it was armed 100.0 ms past", 51));
	/* ...but not a 1901 or a 1970, nor a time after its line came: the arrival is */
	m.said_ns = -1;
	outcome_set(&o, "PASS", "exit 0");
	judge_moment(&o, "across", across, &m, 0);
	CHECK(!strcmp(o.class, "LATE") && !strncmp(o.detail, "it printed y2038-armed 2.00 s past", 34));
	len = 0;
	memcpy(out, "y2038-armed -2147483648\ny2038-armedx\n", 37);
	len = 37;
	m = (struct moments){ 0 };
	armed_take(&m, out, &len, 5);
	out[len] = '\0';
	CHECK(!strcmp(out, "y2038-armedx\n") && m.armed_ns == 5 && m.said_ns == -1);
	/* other phases have no moment to miss */
	outcome_set(&o, "PASS", "exit 0");
	m = (struct moments){ .started_ns = overflow + 60 * NSEC_PER_SEC, .armed_ns = overflow + 61 * NSEC_PER_SEC, .ended_ns = overflow + 62 * NSEC_PER_SEC };
	judge_moment(&o, "after", overflow + 2 * NSEC_PER_SEC, &m, 0);
	CHECK_STR(o.class, "PASS");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);	/* every check's line, even before a crash */
	test_tap();
	test_expect();
	test_kconfig();
	test_harness_judgements();
	test_harness_lateness();
	test_harness_retry();
	test_harness_early_tick();
	test_harness_prepare();
	test_harness_run_arg();
	test_child_output();
	test_session_moment();
	printf("end\n");
	return failures ? 1 : 0;
}
