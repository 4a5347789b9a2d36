/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - the one runner of the lab's programs: guest-init (init.c) runs
 * the scenarios with it in a guest, and host-run.c runs the same programs
 * with it on this host for the libfaketime column. It reports in TAP 13 the
 * way kselftest's runner does:
 *
 *   TAP version 13
 *   1..N
 *   # timeout set to T
 *   # selftests: y2038: NAME
 *   # <the program's own TAP, each line indented by "# ">
 *   # y2038-init: NAME took S s
 *   ok 1 selftests: y2038: NAME             (or "# SKIP", or not ok with
 *                                            "# exit=N", "# TIMEOUT T seconds",
 *                                            "# CRASH signal N (SIGNAME)")
 *   # y2038-init: done
 *
 * The last line is the collector's proof that the run was not cut short.
 */
#ifndef Y2038_RUNNER_H
#define Y2038_RUNNER_H

#include "../scenarios/harness.h"

struct runner {
	FILE *tap;		/* where the TAP goes */
	const char *dir;	/* where the programs are */
	char **prefix;		/* run each program through these, or NULL */
	int nprefix;
	const char *cwd;	/* the programs' working directory, or NULL */
	int64_t timeout_ns;	/* per program */
};

/* A program's output, relayed line by line, "# "-indented. */
struct relay {
	FILE *tap;
	char buf[4096];
	size_t len;
};

static void relay_flush(struct relay *r, int final)
{
	char *start = r->buf, *nl;

	while ((nl = memchr(start, '\n', r->len - (start - r->buf)))) {
		fprintf(r->tap, "# %.*s\n", (int)(nl - start), start);
		start = nl + 1;
	}
	r->len -= start - r->buf;
	memmove(r->buf, start, r->len);
	if ((final || r->len == sizeof(r->buf)) && r->len) {
		fprintf(r->tap, "# %.*s\n", (int)r->len, r->buf);
		r->len = 0;
	}
	fflush(r->tap);
}

static int relay_sink(void *arg, const char *buf, size_t n)
{
	struct relay *r = arg;

	while (n) {
		size_t take = sizeof(r->buf) - r->len < n ? sizeof(r->buf) - r->len : n;

		memcpy(r->buf + r->len, buf, take);
		r->len += take;
		buf += take;
		n -= take;
		relay_flush(r, 0);
	}
	return 0;
}

struct program {
	const struct runner *runner;
	const char *path;
};

/*
 * A program the lab could not build is not on the initramfs, but why is,
 * beside where it would be: PATH.not-built (initramfs.mk). Said as the
 * program's own bail-out, its cells are ERROR with that reason, not a
 * missing program's crash.
 */
static int not_built(const char *path, char *why, size_t len)
{
	char file[600];
	FILE *f;
	int got;

	snprintf(file, sizeof(file), "%s.not-built", path);
	f = fopen(file, "r");
	if (!f)
		return 0;
	got = fgets(why, (int)len, f) != NULL;
	fclose(f);
	if (got)
		why[strcspn(why, "\n")] = '\0';
	return got;
}

/* In the child: exec the program (through the prefix), its output the pipe's. */
static void exec_program(void *arg, int fd)
{
	const struct program *p = arg;
	const struct runner *r = p->runner;
	char *argv[64];
	int i, n = 0;

	(void)fd;
	for (i = 0; i < r->nprefix && n < (int)ARRAY_SIZE(argv) - 2; i++)
		argv[n++] = r->prefix[i];
	argv[n++] = (char *)p->path;
	argv[n] = NULL;
	if (r->cwd && chdir(r->cwd))
		printf("chdir %s: errno %d %s\n", r->cwd, errno, errno_name(errno));
	execvp(argv[0], argv);
	if (errno == ENOENT) {
		char why[400];

		if (not_built(p->path, why, sizeof(why))) {
			printf("TAP version 13\nBail out! not built: %s\n", why);
			fflush(stdout);	/* the child leaves with _exit() */
			return;
		}
	}
	printf("exec %s: errno %d %s\n", argv[0], errno, errno_name(errno));
	fflush(stdout);
}

/* Run one program; print its top-level TAP line; return its exit code. */
static int runner_run_one(const struct runner *r, int num, const char *name)
{
	char path[512];
	struct program p = { r, path };
	struct relay relay = { .tap = r->tap };
	struct child c;
	int err, code;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	fprintf(r->tap, "# selftests: y2038: %s\n", name);
	fflush(r->tap);
	err = child_start(&c, CHILD_PIPE_STDIO, exec_program, &p);
	if (err) {
		fprintf(r->tap, "not ok %d selftests: y2038: %s # ERROR pipe/fork: errno %d %s\n",
			num, name, -err, errno_name(-err));
		return KSFT_FAIL;
	}
	child_finish(&c, c.started_ns + r->timeout_ns, relay_sink, &relay);
	relay_flush(&relay, 1);
	/* for make bench: what each program costs */
	fprintf(r->tap, "# y2038-init: %s took %.3f s\n", name, child_took_ns(&c) / 1e9);

	if (c.timed_out) {
		fprintf(r->tap, "not ok %d selftests: y2038: %s # TIMEOUT %lld seconds\n",
			num, name, (long long)(r->timeout_ns / NSEC_PER_SEC));
		return KSFT_FAIL;
	}
	if (WIFSIGNALED(c.status)) {
		fprintf(r->tap, "not ok %d selftests: y2038: %s # CRASH signal %d (%s)\n",
			num, name, WTERMSIG(c.status), signal_name(WTERMSIG(c.status)));
		return KSFT_FAIL;
	}
	code = WEXITSTATUS(c.status);
	if (code == KSFT_PASS)
		fprintf(r->tap, "ok %d selftests: y2038: %s\n", num, name);
	else if (code == KSFT_SKIP)
		fprintf(r->tap, "ok %d selftests: y2038: %s # SKIP\n", num, name);
	else
		fprintf(r->tap, "not ok %d selftests: y2038: %s # exit=%d\n", num, name, code);
	return code;
}

/*
 * The header, every program in order, and the end marker. note is one more
 * header comment, or NULL; with no programs, "Bail out!" says why_none.
 */
static void runner_run_all(const struct runner *r, char **names, int n,
			   const char *note, const char *why_none)
{
	int i;

	fprintf(r->tap, "TAP version 13\n");
	if (!n) {
		fprintf(r->tap, "Bail out! %s\n", why_none);
	} else {
		fprintf(r->tap, "1..%d\n", n);
		fprintf(r->tap, "# timeout set to %lld\n",
			(long long)(r->timeout_ns / NSEC_PER_SEC));
		if (note)
			fprintf(r->tap, "# %s\n", note);
		for (i = 0; i < n; i++)
			runner_run_one(r, i + 1, names[i]);
	}
	fprintf(r->tap, "# y2038-init: done\n");
	fflush(r->tap);
}

/* Split a comma-separated list in place into names[]; returns how many. */
static int runner_split(char *list, char **names, int max)
{
	char *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(list, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save))
		names[n++] = tok;
	return n;
}

#endif
