// SPDX-License-Identifier: GPL-2.0
/*
 * session: run real programs (a distribution's own binaries) at set points
 * around the overflow, as a user would, and judge what each printed.
 *
 * Installed as /scenarios/NAME-ABI (ABI: what the programs it runs are);
 * reads /y2038/NAME-ABI.tsv, one command per line, tab-separated:
 *
 *	phase	case	takes	pass-regex	shell command
 *
 * The phase sets the wall clock (raw clock_settime64) just before the
 * command: before = 03:14:00, across = 03:14:07 (a command that waits runs
 * across the overflow), after = 03:14:10, ordinary = 2025-07-01T00:00:00Z
 * (the same command at a date that troubles nobody); now leaves it as it
 * runs. takes is the least time a correct run takes, "-" for any, then
 * "..LIMIT" where a command may run longer than 10 s (a test suite; a
 * before command's 10 s count from the overflow, by which it must end). The
 * command runs under the guest's /bin/sh -c in /tmp/session/N (N: its line
 * number among the commands), stdin /dev/null, and is killed at its limit.
 * Its environment has Y2038_OVERFLOW, the first second a signed 32-bit
 * time_t cannot hold, so a command that waits for it names no number, and
 * Y2038_WAIT, a program that sleeps until a time it is given ("$Y2038_WAIT"
 * "$Y2038_OVERFLOW": wait_until), which works on every kernel config.
 * The transcript (command and output) goes into the TAP as comments, then
 * one case line "ok N ABI CASE PHASE # OUTCOME detail".
 *
 * A command whose moment matters (before or across the overflow) prints
 * the line "y2038-armed" as its moment comes (its environment names it,
 * Y2038_ARMED, for a program that prints it itself); one that missed its
 * moment is LATE, never a verdict (moment.h), and the run boots its boot
 * again, alone (host-tools/verdicts/verdicts.mk). The outcomes:
 *
 *	CRASH      killed by a signal, or its runtime said it died of one or
 *	           of a fatal error (Go's) and exited
 *	EOVERFLOW, ENOSYS, EINVAL, EPERM
 *	           the program printed that errno's message (whatever else)
 *	PASS       exit 0, the output matches pass-regex (POSIX ERE), and it
 *	           took at least "takes" seconds ("-": any time)
 *	EARLY      all that, but sooner: a wait that did not wait
 *	WRAP       the output shows 1901
 *	WRONG      anything else (exit status and first line in the detail)
 *	TIMEOUT, ERROR (the session could not run it)
 *	LATE       it missed its moment (above): no verdict
 *
 * With the kernel's time32 census (the lab's compat32-y kernels), a case
 * whose outcome is not PASS ends its detail with the time32 calls of the
 * programs its command ran ("time32: /usr/bin/openssl clock_gettime32"),
 * and at the end the census is copied in as "# census: " comments.
 */
#include <fcntl.h>
#include <libgen.h>
#include <regex.h>
#include <sys/stat.h>
#include "../scenarios/harness.h"
#include "moment.h"

#define SESSION_DIR "/y2038"
#define WORK_DIR "/tmp/session"
#define CENSUS_FILE "/sys/kernel/debug/time32_census"
#define COMMAND_TIMEOUT_NS (10 * NSEC_PER_SEC)
#define CENSUS_MAX 65536
#define OUTPUT_MAX 65536
#define TRANSCRIPT_HEAD 12
#define TRANSCRIPT_TAIL 12

static const struct {
	const char *name;
	int64_t start_sec;
} phases[] = {
	{ "before", Y2038_LAST_SEC - 7 },
	{ "across", Y2038_LAST_SEC },
	{ "after", Y2038_LAST_SEC + 3 },
	{ "ordinary", 1751328000 },	/* 2025-07-01T00:00:00Z */
	{ "now", -1 },
};

/* What a program prints for an errno (glibc's strerror), and its name. */
static const struct {
	const char *message, *name;
} errno_messages[] = {
	{ "Value too large for defined data type", "EOVERFLOW" },
	{ "Function not implemented", "ENOSYS" },
	{ "Invalid argument", "EINVAL" },
	{ "Operation not permitted", "EPERM" },
};

struct run {
	char out[OUTPUT_MAX];
	size_t len;
	int status, timed_out;
	int64_t elapsed_ns;
	struct moments moments;	/* when it started, met its moment, ended */
	char error[80];	/* the session could not run the command at all */
};

/* The exit status the child uses when /bin/sh itself cannot be run. */
#define EXEC_FAILED 127

/* Keep the first OUTPUT_MAX - 1 bytes, and its moment (moment.h); drain the rest. */
static int collect_output(void *arg, const char *buf, size_t n)
{
	struct run *r = arg;
	size_t room = sizeof(r->out) - 1 - r->len;

	if (n > room)
		n = room;
	memcpy(r->out + r->len, buf, n);
	r->len += n;
	armed_take(&r->moments, r->out, &r->len, clock_ns(CLOCK_REALTIME));
	return 0;
}

/*
 * Each command runs in a folder of its own, WORK_DIR/N, all made when the
 * session starts (before the overflow, as a device's files are): a program
 * that stats "." after the overflow sees an mtime past 2038 only if its own
 * command wrote there, not because an earlier command did.
 */
static char work_dir[64] = WORK_DIR;

/* In the child: the command under the guest's /bin/sh, in work_dir. */
static void exec_shell(void *arg, int fd)
{
	(void)fd;
	if (chdir(work_dir))
		printf("chdir %s: errno %d\n", work_dir, errno);
	execl("/bin/sh", "sh", "-c", (const char *)arg, (char *)NULL);
	printf("y2038-session: exec /bin/sh: errno %d %s\n", errno, errno_name(errno));
	fflush(stdout);
	_exit(EXEC_FAILED);
}

static void run_command(const char *command, int64_t limit_ns, struct run *r)
{
	struct child c;
	int err;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	r->moments.started_ns = clock_ns(CLOCK_REALTIME);
	err = child_start(&c, CHILD_PIPE_STDIO, exec_shell, (void *)command);
	if (err) {
		snprintf(r->error, sizeof(r->error), "pipe/fork: errno %d %s", -err, errno_name(-err));
		return;
	}
	child_finish(&c, c.started_ns + limit_ns, collect_output, r);
	r->moments.ended_ns = clock_ns(CLOCK_REALTIME);
	r->out[r->len] = '\0';
	r->status = c.status;
	r->timed_out = c.timed_out;
	r->elapsed_ns = child_took_ns(&c);
	if (WIFEXITED(r->status) && WEXITSTATUS(r->status) == EXEC_FAILED &&
	    strstr(r->out, "y2038-session: exec /bin/sh"))
		snprintf(r->error, sizeof(r->error), "%.*s", (int)strcspn(r->out, "\n"), r->out);
}

/*
 * The command and what it printed (its first OUTPUT_MAX bytes), as TAP
 * comments: the first TRANSCRIPT_HEAD lines and the last TRANSCRIPT_TAIL
 * (where an error usually is), and how many were left out between.
 */
static void print_transcript(const char *clock, const char *command,
			     const struct run *r)
{
	const char *p = r->out;
	int lines = 0, line = 0;

	for (; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n'))
		lines++;
	printf("# [%s] $ %s\n", clock, command);
	if (r->moments.armed_ns) {
		char at[64];

		iso8601(r->moments.armed_ns / NSEC_PER_SEC, at, sizeof(at));
		printf("#   (" ARMED_MARK " at %s +%03lld ms", at,
		       (long long)(r->moments.armed_ns % NSEC_PER_SEC / NSEC_PER_MSEC));
		if (r->moments.said_ns) {
			iso8601(r->moments.said_ns / NSEC_PER_SEC, at, sizeof(at));
			printf(", it said %s +%03lld ms", at,
			       (long long)(r->moments.said_ns % NSEC_PER_SEC / NSEC_PER_MSEC));
		}
		printf(")\n");
	}
	for (p = r->out; *p; line++) {
		size_t n = strcspn(p, "\n");

		if (line < TRANSCRIPT_HEAD || line >= lines - TRANSCRIPT_TAIL)
			printf("#   %.*s\n", (int)n, p);
		else if (line == TRANSCRIPT_HEAD)
			printf("#   (%d lines left out)\n", lines - TRANSCRIPT_HEAD - TRANSCRIPT_TAIL);
		p += n + (p[n] == '\n');
	}
}

/*
 * The line a detail quotes: the first with words in it. An abort's message
 * may follow blank lines, or V8's lines of "#" (Node.js's do).
 */
static const char *first_words(const char *out)
{
	const char *line;
	size_t len;

	for (line = out; *line; line += len + (line[len] == '\n')) {
		len = strcspn(line, "\n");
		if (strspn(line, "# \t") < len)
			return line;
	}
	return out;
}

/*
 * A language runtime that catches its own fatal signal or error, prints it
 * and exits (Go's throw: "fatal error: ...", or "SIGSEGV: segmentation
 * violation" and its registers, then exit 2) died as a program killed by the
 * signal does; which of the two a dying Go program manages varies from run
 * to run, the verdict must not.
 */
static int runtime_died(const char *out)
{
	return !strncmp(out, "fatal error: ", 13) || strstr(out, "\nfatal error: ") ||
	       strstr(out, "SIGSEGV: segmentation violation");
}

static void judge(const struct run *r, const regex_t *pass, double takes,
		  int64_t limit_ns, struct outcome *o)
{
	char first[120];
	const char *line = first_words(r->out);
	size_t i;
	int exit_code = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;

	snprintf(first, sizeof(first), "%.*s", (int)strcspn(line, "\n"), line);
	if (r->error[0]) {
		outcome_set(o, "ERROR", "the session could not run it: %s", r->error);
		return;
	}
	if (r->timed_out) {
		outcome_set(o, "TIMEOUT", "did not end within %lld s: \"%s\"",
			    (long long)(limit_ns / NSEC_PER_SEC), first);
		return;
	}
	if (WIFSIGNALED(r->status)) {
		outcome_set(o, "CRASH", "killed by signal %d (%s): \"%s\"",
			    WTERMSIG(r->status), signal_name(WTERMSIG(r->status)), first);
		return;
	}
	/* The shell's "exit 128+N": a program it ran died of signal N. */
	if (exit_code > 128 && exit_code < 128 + 32) {
		outcome_set(o, "CRASH", "exit %d: the shell saw signal %d (%s): \"%s\"",
			    exit_code, exit_code - 128, signal_name(exit_code - 128), first);
		return;
	}
	if (exit_code != 0 && runtime_died(r->out)) {
		outcome_set(o, "CRASH", "exit %d: its runtime reported a fatal signal or error: \"%s\"",
			    exit_code, first);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(errno_messages); i++) {
		const char *at = strstr(r->out, errno_messages[i].message);

		if (at) {
			const char *bol = at;

			while (bol > r->out && bol[-1] != '\n')
				bol--;
			outcome_set(o, errno_messages[i].name, "exit %d: \"%.*s\"",
				    exit_code, (int)strcspn(bol, "\n"), bol);
			return;
		}
	}
	if (exit_code == 0 && !regexec(pass, r->out, 0, NULL, 0)) {
		double took = (double)r->elapsed_ns / NSEC_PER_SEC;

		outcome_set(o, took < takes ? "EARLY" : "PASS",
			    "exit 0 in %.2f s%s: \"%s\"", took,
			    took < takes ? " (a wait that should take longer)" : "",
			    first);
		return;
	}
	/* A 1901 date: "1901-12-13" or "Dec 13 20:45:52 UTC 1901". */
	outcome_set(o, strstr(r->out, "1901-") || strstr(r->out, " 1901") ? "WRAP" : "WRONG",
		    "exit %d in %.2f s: \"%s\"", exit_code,
		    (double)r->elapsed_ns / NSEC_PER_SEC, first);
}

/*
 * The census lines ("program PID PATH CALLS") that were not there when
 * this was last called, as "PATH CALLS; ..." in out; seen keeps them all.
 */
static void census_news(char *seen, size_t seen_size, char *out, size_t size)
{
	FILE *f = fopen(CENSUS_FILE, "r");
	char line[1024];
	size_t used = strlen(seen), n = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int at = 0;

		if (strncmp(line, "program ", 8) || strstr(seen, line))
			continue;
		if (used + strlen(line) < seen_size) {
			strcpy(seen + used, line);
			used += strlen(line);
		}
		/* "program PID PATH CALLS\n" -> "PATH CALLS" */
		sscanf(line, "program %*d %n", &at);
		line[strcspn(line, "\n")] = '\0';
		if (at && n < size)
			n += snprintf(out + n, size - n, "%s%s", n ? "; " : "", line + at);
	}
	fclose(f);
}

static void copy_census(void)
{
	FILE *f = fopen(CENSUS_FILE, "r");
	char line[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		printf("# census: %s", line);
	fclose(f);
}

/* Split "a\tb\tc\td" into n fields in place; 0 when there are fewer. */
static int split_tabs(char *line, char **field, int n)
{
	int i;

	for (i = 0; i < n - 1; i++) {
		char *tab = strchr(line, '\t');

		if (!tab)
			return 0;
		*tab = '\0';
		field[i] = line;
		line = tab + 1;
	}
	field[n - 1] = line;
	return 1;
}

/*
 * "# libc: glibc-2.41": the C library of the programs the session runs (the
 * root's), as its dynamic loader says ("... release version 2.41."; musl's:
 * "Version 1.2.5"), for the collector's libc column, or the lab's name for
 * its own build there (lab_libc_name). Nothing when there is none to ask
 * (a static root).
 */
#define LOADERS "/lib/ld-linux*.so.* /lib/ld-musl-*.so.1"
static void print_libc(void)
{
	static const struct {
		const char *says, *name;
	} loaders[] = { { "release version ", "glibc" }, { "Version ", "musl" } };
	struct run r;
	char lab[64];
	size_t i, n;

	if (lab_libc_name(lab, sizeof(lab))) {
		printf("# libc: %s\n", lab);
		return;
	}
	run_command("for l in " LOADERS "; do [ -x \"$l\" ] && exec \"$l\" --version 2>&1; done",
		    COMMAND_TIMEOUT_NS, &r);
	for (i = 0; i < ARRAY_SIZE(loaders); i++) {
		const char *v = strstr(r.out, loaders[i].says);

		if (!v)
			continue;
		v += strlen(loaders[i].says);
		for (n = strspn(v, "0123456789."); n && v[n - 1] == '.'; n--)
			;
		printf("# libc: %s-%.*s\n", loaders[i].name, (int)n, v);
		return;
	}
}

/*
 * Run as WAIT_NAME (the link the session makes to itself, Y2038_WAIT in its
 * commands' environment): sleep until the wall clock reads SECONDS (since
 * the epoch, a fraction allowed), with the raw time64 absolute sleep, so
 * that a command waits for the overflow without spinning on date and
 * without libc's sleep, which on a kernel without the time32 calls may be
 * what is broken (glibc 2.41's nanosleep: ENOSYS on =n).
 */
#define WAIT_NAME "y2038-wait"
static int wait_until(const char *arg)
{
	char *end;
	double sec = arg ? strtod(arg, &end) : 0;
	struct kts64 ts;
	int err;

	if (!arg || end == arg || *end || sec <= 0 || sec > 1e11) {
		fprintf(stderr, WAIT_NAME ": want SECONDS since the epoch, not %s\n", arg ? arg : "nothing");
		return 2;
	}
	ts = kts64_from_ns((int64_t)(sec * NSEC_PER_SEC));
	while ((err = raw64_clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts)) == -EINTR)
		;
	if (err)
		fprintf(stderr, WAIT_NAME ": clock_nanosleep_time64: errno %d %s\n", -err, errno_name(-err));
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	static char census_seen[CENSUS_MAX];
	char self[256], path[300], line[2048], news[512], *abi, exe[256];
	struct tally tally = { 0 };
	unsigned int n = 0;
	ssize_t len;
	FILE *f;

	snprintf(self, sizeof(self), "%s", basename(argv[0]));
	if (!strcmp(self, WAIT_NAME))
		return wait_until(argc > 1 ? argv[1] : NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	snprintf(path, sizeof(path), SESSION_DIR "/%s.tsv", self);
	abi = strrchr(self, '-');
	if (!abi) {
		printf("Bail out! name this program NAME-ABI, not %s\n", self);
		return KSFT_FAIL;
	}
	abi++;
	if (!inside_lab_guest()) {
		printf("Bail out! not inside a y2038-lab guest (no y2038.guest on the kernel command line): refusing to set the clock\n");
		return KSFT_SKIP;
	}
	f = fopen(path, "r");
	if (!f) {
		printf("Bail out! no session %s: errno %d %s\n", path, errno,
		       errno_name(errno));
		return KSFT_FAIL;
	}
	snprintf(line, sizeof(line), "%lld", Y2038_LAST_SEC + 1);
	setenv("Y2038_OVERFLOW", line, 1);
	setenv("Y2038_ARMED", ARMED_MARK, 1);	/* for a program that prints it itself */
	mkdir(WORK_DIR, 0755);
	/* Y2038_WAIT SECONDS: sleep until then (wait_until), a link to this program */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		unlink(WORK_DIR "/" WAIT_NAME);
		if (!symlink(exe, WORK_DIR "/" WAIT_NAME))
			setenv("Y2038_WAIT", WORK_DIR "/" WAIT_NAME, 1);
	}
	while (fgets(line, sizeof(line), f))
		if (line[0] != '\n' && line[0] != '#') {
			snprintf(work_dir, sizeof(work_dir), WORK_DIR "/%u", ++n);
			mkdir(work_dir, 0755);
		}
	rewind(f);
	n = 0;
	snprintf(work_dir, sizeof(work_dir), WORK_DIR);
	print_libc();
	printf("# raw cases: none (the programs' own)\n");
	/* Its cases are its file's, which differs by distribution (go_more). */
	printf("# cases: the session's own (%s)\n", path);
	census_news(census_seen, sizeof(census_seen), news, sizeof(news));
	while (fgets(line, sizeof(line), f)) {
		char *field[5], clock[64], *limit;
		int64_t limit_ns = COMMAND_TIMEOUT_NS;
		struct outcome o;
		struct kts64 ts;
		struct run r;
		regex_t pass;
		size_t p;
		int err, compiled;

		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		n++;
		snprintf(work_dir, sizeof(work_dir), WORK_DIR "/%u", n);
		if (!split_tabs(line, field, 5)) {
			printf("not ok %u %s line%u - # ERROR want phase, case, takes, regex, command\n",
			       n, abi, n);
			tally.fail++;
			continue;
		}
		for (p = 0; p < ARRAY_SIZE(phases) && strcmp(phases[p].name, field[0]); p++)
			;
		compiled = !regcomp(&pass, field[3], REG_EXTENDED | REG_NOSUB | REG_NEWLINE);
		if (p == ARRAY_SIZE(phases) || !compiled) {
			outcome_set(&o, "ERROR", "bad %s \"%s\"", compiled ? "phase" : "regex",
				    compiled ? field[0] : field[3]);
		} else {
			err = 0;
			if (phases[p].start_sec >= 0) {
				ts = kts64_from_ns(phases[p].start_sec * NSEC_PER_SEC);
				err = raw64_clock_settime(CLOCK_REALTIME, &ts);
			}
			iso8601(clock_ns(CLOCK_REALTIME) / NSEC_PER_SEC, clock, sizeof(clock));
			if (err) {
				outcome_setup_failed(&o, "clock_settime64 (session)", NULL, -err);
			} else {
				limit = strstr(field[2], "..");
				if (limit)
					limit_ns = (int64_t)(atof(limit + 2) * NSEC_PER_SEC);
				else if (!strcmp(phases[p].name, "before"))
					/*
					 * It must end by the overflow: its 10 s count
					 * from there, so that one a loaded host slowed
					 * ends LATE (booted again), not TIMEOUT (make
					 * check's run 20261207T210741Z-419: Node.js
					 * took over 10 s to start at load 17).
					 */
					limit_ns += (Y2038_LAST_SEC + 1 - phases[p].start_sec) * NSEC_PER_SEC;
				run_command(field[4], limit_ns, &r);
				print_transcript(clock, field[4], &r);
				judge(&r, &pass, atof(field[2]), limit_ns, &o);
				if (phases[p].start_sec >= 0)
					judge_moment(&o, phases[p].name, phases[p].start_sec * NSEC_PER_SEC,
						     &r.moments, r.timed_out);
				census_news(census_seen, sizeof(census_seen), news, sizeof(news));
				if (news[0] && strcmp(o.class, "PASS"))
					outcome_append(&o, "; time32: %s", news);
			}
		}
		if (compiled)
			regfree(&pass);
		report_case(&tally, n, abi, field[1], field[0], &o);
	}
	fclose(f);
	printf("1..%u\n", n);
	copy_census();
	return report_totals(&tally);
}
