// SPDX-License-Identifier: GPL-2.0
/*
 * glibc-run: glibc's own tests of one subdir in a lab guest, run as glibc's
 * make check runs them (make glibc-tests).
 *
 * Installed as /scenarios/glibc-run, and as /scenarios/glibc-SUBDIR, one
 * name a subdir, which init's runner (runner.h) runs each with its timeout
 * (y2038.timeout=), relaying what it prints. The first virtio disk is a
 * copy of a kept glibc build (host-tools/libc/glibc.sh tests: source/,
 * build/, root/, tests/) with glibc-tests.env beside them (tree=, the
 * folder it was built in, which its tests name; libc=; timeoutfactor=;
 * outer_timeout=). The first program mounts it there, and makes its
 * root/lib the guest's /lib (for a program a test runs without the build's
 * ld.so), busybox's applets /bin's, a tmpfs /dev/shm and cgroup2 on
 * /sys/fs/cgroup.
 *
 * Each line of tests/SUBDIR.list, NAME<TAB>KIND<TAB>LINE, is what glibc's
 * make check runs for the test NAME (make -n xcheck printed it, its
 * test-wrapper y2038-glibc-test-wrapper, which is dropped here): LINE runs
 * under /bin/sh -c in the subdir's source folder, as make runs it, with
 * TIMEOUTFACTOR and GLIBC_TEST_ALLOW_TIME_SETTING=1 in its environment (a
 * guest may set its clock), in a process group killed after
 * outer_timeout s (a test outliving its driver's own timeout). glibc's
 * scripts/evaluate-test.sh, in LINE, writes build/NAME.test-result from
 * the exit status (0 PASS, 77 UNSUPPORTED, any other FAIL), which this
 * reads. Prints TAP 13, one line per test:
 *
 *   ok N NAME # PASS exit=0 s=0.52
 *   ok N NAME # SKIP UNSUPPORTED exit=77 s=0.10
 *   not ok N NAME # FAIL exit=1 s=3.20     ("TIMEOUT": the outer timeout)
 *   ok N NAME # SKIP UNSUPPORTED exit=77 s=0 tests-unsupported
 *                                          (glibc's make says so without
 *                                           building it: KIND unsupported)
 *   ok N localedata/L/LC_CTYPE # PASS ...  (KIND locale: a locale the
 *                                           tests read, made first)
 *   ok N NAME # SKIP NOT-RUN KIND          (container, other: not a program
 *                                           of the build run through the
 *                                           wrapper; not-built: make -k left
 *                                           it out)
 *
 * each after "# out: " lines (its .out, the test's stdout), "# err: " lines
 * (its stderr; both cut in the middle when long) and, where the kernel
 * keeps the time32 census (the lab's patched COMPAT_32BIT_TIME=y kernels),
 * "# time32: IFACE+N ..." (the time32 system calls made while it ran: this
 * runner makes none, its clock is the raw time64 one).
 *
 * Then each test that failed is run once more, after the others, and
 * "# rerun NAME # VERDICT exit=N s=S" says how that went: glibc's verdict
 * is the first run's; a rerun that differs marks a test that depends on
 * the timing of an emulated CPU on a busy host.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include "../scenarios/harness.h"

#define DISK "/dev/vda"
#define MNT "/mnt/glibc"
#define ENV_FILE MNT "/glibc-tests.env"
#define READY "/tmp/.glibc-tests-ready"
#define WRAPPER "y2038-glibc-test-wrapper"
#define CENSUS "/sys/kernel/debug/time32_census"
#define MAX_IFACES 64
#define OUT_MAX (256 * 1024)
#define RELAY_EDGE 100		/* lines kept from each end of a long output */

static char tree[512], libc_name[128], factor[16] = "5";
static int64_t outer_s = 900;

static void bail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void bail(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

/* glibc-tests.env's KEY=VALUE lines (a shell's quotes around a value dropped). */
static void read_env(void)
{
	FILE *f = fopen(ENV_FILE, "r");
	char line[1024];

	if (!f)
		bail("%s has no glibc-tests.env: not a glibc tests disk", DISK);
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, '='), *end;

		if (!v)
			continue;
		*v++ = '\0';
		v[strcspn(v, "\n")] = '\0';
		if (*v == '\'' && (end = strrchr(v + 1, '\'')))
			*end = '\0', v++;
		if (!strcmp(line, "tree"))
			snprintf(tree, sizeof(tree), "%s", v);
		else if (!strcmp(line, "libc"))
			snprintf(libc_name, sizeof(libc_name), "%s", v);
		else if (!strcmp(line, "timeoutfactor"))
			snprintf(factor, sizeof(factor), "%s", v);
		else if (!strcmp(line, "outer_timeout"))
			outer_s = atoll(v);
	}
	fclose(f);
}

static void mkdirs(const char *path)
{
	char p[512];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

static void run_quietly(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/* Once per boot: the tree at its own path, /lib, busybox's applets, /dev/shm. */
static void setup(void)
{
	char lib[600];

	if (!access(READY, F_OK)) {
		read_env();
		return;
	}
	mkdirs(MNT);
	if (mount(DISK, MNT, "ext4", 0, NULL))
		bail("mount %s on %s: errno %d %s", DISK, MNT, errno, errno_name(errno));
	read_env();
	if (!tree[0])
		bail("%s names no tree=", ENV_FILE);
	mkdirs(tree);
	if (mount(MNT, tree, NULL, MS_BIND, NULL))
		bail("mount --bind %s %s: errno %d %s", MNT, tree, errno, errno_name(errno));
	snprintf(lib, sizeof(lib), "%s/root/lib", tree);
	if (access("/lib", F_OK) && symlink(lib, "/lib"))
		bail("symlink %s /lib: errno %d %s", lib, errno, errno_name(errno));
	snprintf(lib, sizeof(lib), "%s/root/usr", tree);
	if (access("/usr", F_OK) && symlink(lib, "/usr"))
		bail("symlink %s /usr: errno %d %s", lib, errno, errno_name(errno));
	mkdirs("/dev/shm");
	if (mount("shm", "/dev/shm", "tmpfs", 0, NULL))
		bail("mount tmpfs on /dev/shm: errno %d %s", errno, errno_name(errno));
	/* as systemd mounts it (tst-spawn-cgroup); a kernel without cgroups
	 * leaves it unmounted, and that test says so */
	mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL);
	run_quietly((char *const[]){ "/bin/busybox", "--install", "-s", "/bin", NULL });
	close(open(READY, O_WRONLY | O_CREAT, 0644));
}

/* The census's interface counts; 0 where the kernel keeps none. */
struct census {
	int n;
	char name[MAX_IFACES][40];
	long count[MAX_IFACES];
};

static void census_read(struct census *c)
{
	FILE *f = fopen(CENSUS, "r");
	char line[256];

	c->n = 0;
	if (!f)
		return;
	while (c->n < MAX_IFACES && fgets(line, sizeof(line), f))
		if (sscanf(line, "interface %39s %ld", c->name[c->n], &c->count[c->n]) == 2)
			c->n++;
	fclose(f);
}

static void census_grown(const struct census *a, const struct census *b, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < b->n; i++)
		for (int j = 0; j < a->n; j++)
			if (!strcmp(a->name[j], b->name[i]) && b->count[i] > a->count[j] && len < size)
				len += snprintf(out + len, size - len, "%s%s+%ld", len ? " " : "",
						b->name[i], b->count[i] - a->count[j]);
}

/* Text as "# PREFIX: " lines: the first and last RELAY_EDGE of a long one. */
static void relay(const char *prefix, const char *text, size_t len)
{
	size_t lines = 0, i, line = 0;

	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		lines++;
	for (i = 0; i < len; line++) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (lines <= 2 * RELAY_EDGE || line < RELAY_EDGE || line >= lines - RELAY_EDGE)
			printf("# %s: %.*s\n", prefix, (int)(end - i), text + i);
		else if (line == RELAY_EDGE)
			printf("# %s: [... %zu lines ...]\n", prefix, lines - 2 * RELAY_EDGE);
		i = end + 1;
	}
}

static size_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, len = 0;

	if (fd < 0)
		return 0;
	while ((size_t)len < size && (n = read(fd, buf + len, size - len)) > 0)
		len += n;
	close(fd);
	return len;
}

struct output {
	char buf[OUT_MAX];
	size_t len;
};

static int collect(void *arg, const char *buf, size_t n)
{
	struct output *o = arg;

	if (n > sizeof(o->buf) - o->len)
		n = sizeof(o->buf) - o->len;
	memcpy(o->buf + o->len, buf, n);
	o->len += n;
	return 0;
}

struct test_line {
	const char *cwd, *line;
};

/*
 * In the child: the line under /bin/sh, in the subdir's source folder,
 * with only stdin, stdout and stderr open, as make leaves them (not init's
 * /dev/kmsg and TAP device, nor this runner's list).
 */
static void exec_line(void *arg, int fd)
{
	const struct test_line *t = arg;

	(void)fd;
	for (int i = 3; i < 1024; i++)
		close(i);
	if (chdir(t->cwd))
		printf("chdir %s: errno %d %s\n", t->cwd, errno, errno_name(errno));
	execl("/bin/sh", "sh", "-c", t->line, (char *)NULL);
	printf("exec /bin/sh: errno %d %s\n", errno, errno_name(errno));
}

/* LINE without the test-wrapper word. */
static void drop_wrapper(char *line)
{
	char *w;

	while ((w = strstr(line, WRAPPER))) {
		size_t skip = strlen(WRAPPER) + (w[strlen(WRAPPER)] == ' ');

		memmove(w, w + skip, strlen(w + skip) + 1);
	}
}

static struct output err;
static char out[OUT_MAX];

/* One run of a test's line: glibc's verdict (PASS, UNSUPPORTED, FAIL). */
struct run {
	const char *verdict;
	int status;		/* the test's exit status, or -1 */
	double s;
	int timed_out;
	char used[512];		/* the time32 calls the census saw */
	size_t out_len;		/* its .out, in out[] */
};

static void run_test(const char *cwd, const char *name, const char *cmd, struct run *r)
{
	char path[sizeof(tree) + 16384 + 32], result[sizeof(path)], res[512] = "";
	struct test_line t = { cwd, cmd };
	struct census before, after;
	struct child c;
	size_t len;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	snprintf(path, sizeof(path), "%s/build/%s.out", tree, name);
	snprintf(result, sizeof(result), "%s/build/%s.test-result", tree, name);
	unlink(path);
	unlink(result);
	err.len = 0;
	census_read(&before);
	if (child_start(&c, CHILD_PIPE_STDIO, exec_line, &t)) {
		r->verdict = "FAIL";
		snprintf(r->used, sizeof(r->used), "%s", "");
		return;
	}
	child_finish(&c, c.started_ns + outer_s * NSEC_PER_SEC, collect, &err);
	r->s = child_took_ns(&c) / 1e9;
	r->timed_out = c.timed_out;
	census_read(&after);
	census_grown(&before, &after, r->used, sizeof(r->used));
	r->out_len = read_file(path, out, sizeof(out));
	len = read_file(result, res, sizeof(res) - 1);
	res[len] = '\0';
	if (strstr(res, "original exit status "))
		r->status = atoi(strstr(res, "original exit status ") + 21);
	if (c.timed_out || !len)
		r->verdict = "FAIL";
	else if (!strncmp(res, "PASS:", 5) || !strncmp(res, "XPASS:", 6))
		r->verdict = "PASS";
	else if (!strncmp(res, "UNSUPPORTED:", 12))
		r->verdict = "UNSUPPORTED";
	else
		r->verdict = "FAIL";
}

/* The lines of the tests that failed, run once more at the end. */
#define MAX_RERUNS 1024
static char *rerun_name[MAX_RERUNS], *rerun_cmd[MAX_RERUNS];
static int reruns;

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	char subdir[64], list[700], cwd[700], line[16384];
	int i = 0, pass = 0, fail = 0, unsupported = 0, notrun = 0, n = 0;
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 1)
		bail("usage: glibc-SUBDIR (no arguments: glibc-tests.env on %s says the rest)", DISK);
	if (strncmp(base, "glibc-", 6) || !strcmp(base, "glibc-run"))
		bail("run me as glibc-SUBDIR (%s)", base);
	snprintf(subdir, sizeof(subdir), "%s", base + 6);
	setup();
	snprintf(list, sizeof(list), "%s/tests/%s.list", tree, subdir);
	snprintf(cwd, sizeof(cwd), "%s/source/%s", tree, subdir);
	if (!(f = fopen(list, "r")))
		bail("no %s: the build's tests of %s were not listed", list, subdir);
	setenv("TIMEOUTFACTOR", factor, 1);
	setenv("GLIBC_TEST_ALLOW_TIME_SETTING", "1", 1);
	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	printf("# libc: %s\n", libc_name);
	printf("# tree: %s, TIMEOUTFACTOR=%s, outer timeout %lld s\n", tree, factor, (long long)outer_s);
	while (fgets(line, sizeof(line), f))
		n++;
	rewind(f);
	printf("1..%d\n", n);
	while (fgets(line, sizeof(line), f)) {
		char *name = line, *kind, *cmd, path[sizeof(tree) + sizeof(line) + 32];
		struct run r;

		i++;
		line[strcspn(line, "\n")] = '\0';
		if (!(kind = strchr(name, '\t')) || !(cmd = strchr(kind + 1, '\t'))) {
			printf("not ok %d %s # FAIL malformed line of %s\n", i, name, list);
			fail++;
			continue;
		}
		*kind++ = '\0';
		*cmd++ = '\0';
		snprintf(path, sizeof(path), "%s/build/%s", tree, name);
		if (!strcmp(kind, "unsupported")) {
			printf("ok %d %s # SKIP UNSUPPORTED exit=77 s=0 tests-unsupported\n", i, name);
			unsupported++;
			continue;
		}
		if (strcmp(kind, "locale") && (strcmp(kind, "run") || access(path, X_OK))) {
			printf("ok %d %s # SKIP NOT-RUN %s\n", i, name, strcmp(kind, "run") ? kind : "not-built");
			notrun++;
			continue;
		}
		drop_wrapper(cmd);
		run_test(cwd, name, cmd, &r);
		relay("out", out, r.out_len);
		relay("err", err.buf, err.len);
		if (r.used[0])
			printf("# time32: %s\n", r.used);
		if (!strcmp(r.verdict, "PASS")) {
			printf("ok %d %s # PASS exit=%d s=%.2f\n", i, name, r.status, r.s);
			pass++;
		} else if (!strcmp(r.verdict, "UNSUPPORTED")) {
			printf("ok %d %s # SKIP UNSUPPORTED exit=%d s=%.2f\n", i, name, r.status, r.s);
			unsupported++;
		} else {
			if (r.timed_out)
				printf("not ok %d %s # FAIL exit=- s=%.2f TIMEOUT %lld s\n", i, name, r.s, (long long)outer_s);
			else if (r.status < 0)
				printf("not ok %d %s # FAIL exit=- s=%.2f no test-result\n", i, name, r.s);
			else
				printf("not ok %d %s # FAIL exit=%d s=%.2f\n", i, name, r.status, r.s);
			fail++;
			if (reruns < MAX_RERUNS && strcmp(kind, "locale")) {
				rerun_name[reruns] = strdup(name);
				rerun_cmd[reruns++] = strdup(cmd);
			}
		}
	}
	fclose(f);
	printf("# %s: %d PASS, %d FAIL, %d UNSUPPORTED, %d not run\n", subdir, pass, fail, unsupported, notrun);
	/*
	 * Each test that failed, once more, after the others: glibc's verdict
	 * is the first run's, and a rerun that differs says the test depends
	 * on the timing of an emulated CPU on a busy host, not on the kernel.
	 */
	for (i = 0; i < reruns; i++) {
		struct run r;

		run_test(cwd, rerun_name[i], rerun_cmd[i], &r);
		printf("# rerun %s # %s exit=%d s=%.2f%s\n", rerun_name[i], r.verdict, r.status, r.s,
		       r.timed_out ? " TIMEOUT" : "");
	}
	return fail ? KSFT_FAIL : KSFT_PASS;
}
