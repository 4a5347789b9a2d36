// SPDX-License-Identifier: GPL-2.0
/*
 * init-watch: the probe of a root's own init when it is not systemd (make
 * validate-distro DISTRO_INIT=yes: busybox init, toybox init, sysvinit,
 * OpenRC's, OpenWrt's procd; systemd's probe is init-probe, a unit).
 *
 * The kernel runs it as PID 1 (init=/y2038/init-watch). It forks the
 * watcher, then execs the root's own init in its place (init= in
 * /y2038/init-watch.conf, which validate-distro.sh writes from what
 * inspect-root.py found), so that the init is PID 1 as on the device and
 * the watcher one more child of it. The watcher depends on nothing of the
 * root's: it is the lab's static program, and its clock reads are time64.
 * It reads the processes in a proc of its own (/y2038/proc) every half
 * second and writes to the TAP port (y2038.tap=, a devtmpfs of its own at
 * /y2038/dev) one "y2038-probe: WHAT" line each:
 *
 *   started at uptime S s (init KIND PATH)
 *   settled at uptime S s: N services      ("unsettled ...": SETTLE_MAX_S passed)
 *   service PID COMMAND                    each child of init when it settled
 *   respawned N COMMAND                    init ran the command N more times
 *   gone COMMAND (pid P, from A s to B s)  a service that ended, not run again
 *   clock YYYY-MM-DDTHH:MM:SSZ at uptime S s
 *   shutdown requested at uptime S s (KIND: HOW)
 *   shutdown forced at uptime S s: init did not shut down within 30 s
 *
 * "Services" are init's children (parent PID 1): what its inittab or rc
 * started and daemons that detached. The boot settles when that set has
 * not changed for SETTLE_S; the watcher then watches until y2038.hold=
 * seconds of uptime (across the overflow) and WATCH_S at least, and asks
 * the init for a reboot its own way. The host judges the lines with the
 * console (host-tools/distro/distro_judge.py, init_boot()).
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include "../../scenarios/harness.h"

#define CONF		"/y2038/init-watch.conf"
#define PROC		"/y2038/proc"
#define DEV		"/y2038/dev"
#define POLL_NS		(500 * NSEC_PER_MSEC)
#define SETTLE_S	10
#define SETTLE_MAX_S	240
#define WATCH_S		20
#define SHUTDOWN_S	30
#define MAX_PROCS	1024

struct proc {
	int pid;
	char cmd[200];
	int64_t from_s, to_s;
	int alive, service;
};

static struct proc procs[MAX_PROCS];
static int nprocs;
static FILE *tap;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("y2038-probe: ", tap);
	va_start(ap, fmt);
	vfprintf(tap, fmt, ap);
	va_end(ap);
	fputc('\n', tap);
	fflush(tap);
}

static int64_t uptime_s(void)
{
	return clock_ns(CLOCK_BOOTTIME) / NSEC_PER_SEC;
}

/* KEY's value in CONF (a line "KEY=VALUE"), or DEF. */
static const char *conf(const char *key, const char *def)
{
	static char line[256];
	size_t n = strlen(key);
	FILE *f = fopen(CONF, "r");
	const char *found = def;

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, key, n) && line[n] == '=') {
			found = line + n + 1;
			break;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* y2038.KEY= of the kernel command line, or DEF. */
static void cmdline_arg(const char *key, char *out, size_t size, const char *def)
{
	char buf[4096], *word;
	FILE *f = fopen(PROC "/cmdline", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	snprintf(out, size, "%s", def);
	for (word = strtok(buf, " \n"); word; word = strtok(NULL, " \n"))
		if (!strncmp(word, key, strlen(key)))
			snprintf(out, size, "%s", word + strlen(key));
}

static size_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	return n > 0 ? n : 0;
}

/* Init's children now: each marked alive, a new one added. */
static void scan(int64_t now)
{
	char path[64], buf[512], *p;
	struct dirent *d;
	DIR *dir = opendir(PROC);
	int i, pid, ppid;
	char state;
	size_t n;

	for (i = 0; i < nprocs; i++)
		procs[i].alive = 0;
	while (dir && (d = readdir(dir))) {
		pid = atoi(d->d_name);
		if (pid <= 1 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), PROC "/%d/stat", pid);
		if (!read_file(path, buf, sizeof(buf)) || !(p = strrchr(buf, ')')) ||
		    sscanf(p + 1, " %c %d", &state, &ppid) != 2 || ppid != 1 || state == 'Z')
			continue;
		for (i = 0; i < nprocs && procs[i].pid != pid; i++)
			;
		if (i == nprocs) {
			if (nprocs == MAX_PROCS)
				continue;
			snprintf(path, sizeof(path), PROC "/%d/cmdline", pid);
			n = read_file(path, procs[i].cmd, sizeof(procs[i].cmd));
			while (n > 0 && !procs[i].cmd[n - 1])
				n--;
			for (size_t j = 0; j < n; j++)
				if (!procs[i].cmd[j] || procs[i].cmd[j] == '\n')
					procs[i].cmd[j] = ' ';
			procs[i].cmd[n] = 0;
			if (!n)
				continue;	/* exiting: no command line to tell */
			procs[i].pid = pid;
			procs[i].from_s = now;
			procs[i].service = 0;
			nprocs++;
		}
		procs[i].alive = 1;
		procs[i].to_s = now;
	}
	if (dir)
		closedir(dir);
}

/* How many processes ran CMD, and whether one runs it now. */
static int runs(const char *cmd, int *alive)
{
	int i, n = 0;

	*alive = 0;
	for (i = 0; i < nprocs; i++)
		if (!strcmp(procs[i].cmd, cmd)) {
			n++;
			*alive |= procs[i].alive;
		}
	return n;
}

static int run_wait(char *const argv[])
{
	int status = -1;
	pid_t pid = fork();

	if (!pid) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	return status;
}

/* Asks the init for a reboot the way it takes one (its signals, or its
 * own tool); says how, and whether that failed. */
static void ask_shutdown(const char *kind, const char *init)
{
	int64_t now = uptime_s();

	if (!strcmp(kind, "sysvinit")) {
		/* sysvinit's /sbin/init not as PID 1 is telinit */
		char *argv[] = { (char *)init, "6", NULL };
		int status;

		say("shutdown requested at uptime %lld s (sysvinit: %s 6)", (long long)now, init);
		status = run_wait(argv);
		if (status)
			say("error %s 6: wait status %d", init, status);
	} else if (!strcmp(kind, "openrc-init")) {
		char *argv[] = { "/sbin/openrc-shutdown", "-r", "now", NULL };
		int status;

		say("shutdown requested at uptime %lld s (openrc-init: openrc-shutdown -r now)", (long long)now);
		status = run_wait(argv);
		if (status)
			say("error openrc-shutdown -r now: wait status %d", status);
	} else {
		/* busybox, toybox and procd reboot on SIGTERM */
		say("shutdown requested at uptime %lld s (%s: SIGTERM to PID 1)", (long long)now, kind);
		if (kill(1, SIGTERM))
			say("error kill 1 SIGTERM: errno %d %s", errno, errno_name(errno));
	}
}

static void watch(const char *kind, const char *init)
{
	char tap_dev[128], hold_s[32], dev[160];
	int64_t now, changed = 0, settled = -1, hold, end = 0, i;
	int before = -1, alive, n;
	struct timespec ts;
	struct termios tio;
	struct tm tm;

	mkdir(PROC, 0555);
	mkdir(DEV, 0755);
	mount("proc", PROC, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount("devtmpfs", DEV, "devtmpfs", MS_NOSUID | MS_NOEXEC, NULL);
	cmdline_arg("y2038.tap=", tap_dev, sizeof(tap_dev), "/dev/console");
	cmdline_arg("y2038.hold=", hold_s, sizeof(hold_s), "0");
	hold = atoll(hold_s);
	snprintf(dev, sizeof(dev), DEV "/%s", strrchr(tap_dev, '/') ? strrchr(tap_dev, '/') + 1 : tap_dev);
	for (i = 0; i < 100 && !(tap = fopen(dev, "w")); i++)
		raw64_sleep(100 * NSEC_PER_MSEC);	/* a virtio console may come late */
	if (!tap && !(tap = fopen(DEV "/console", "w")))
		_exit(1);
	if (!tcgetattr(fileno(tap), &tio)) {
		cfmakeraw(&tio);	/* no \r\n translation: lines as written */
		tcsetattr(fileno(tap), TCSANOW, &tio);
	}
	say("started at uptime %lld s (init %s %s)", (long long)uptime_s(), kind, init);
	for (;;) {
		now = uptime_s();
		scan(now);
		for (n = 0, i = 0; i < nprocs; i++)
			n += procs[i].alive;
		n += nprocs * MAX_PROCS;
		if (n != before) {	/* a child came or went */
			before = n;
			changed = now;
		}
		if (settled < 0 && (now - changed >= SETTLE_S || now >= SETTLE_MAX_S)) {
			settled = now;
			for (n = 0, i = 0; i < nprocs; i++)
				n += procs[i].service = procs[i].alive;
			say("%s at uptime %lld s: %d services", now - changed >= SETTLE_S ? "settled" : "unsettled",
			    (long long)now, n);
			for (i = 0; i < nprocs; i++)
				if (procs[i].service)
					say("service %d %s", procs[i].pid, procs[i].cmd);
			end = settled + WATCH_S > hold ? settled + WATCH_S : hold;
		}
		if (settled >= 0 && now >= end)
			break;
		raw64_sleep(POLL_NS);
	}
	for (i = 0; i < nprocs; i++) {
		int j, first = 1;

		for (j = 0; j < i; j++)
			first &= !!strcmp(procs[j].cmd, procs[i].cmd);
		n = runs(procs[i].cmd, &alive);
		if (first && n > 1)
			say("respawned %d %s", n - 1, procs[i].cmd);
		if (procs[i].service && !procs[i].alive && !alive)
			say("gone %s (pid %d, from %lld s to %lld s)", procs[i].cmd, procs[i].pid,
			    (long long)procs[i].from_s, (long long)procs[i].to_s);
	}
	if (clock_gettime(CLOCK_REALTIME, &ts) || !gmtime_r(&ts.tv_sec, &tm))
		say("error clock_gettime CLOCK_REALTIME: errno %d %s", errno, errno_name(errno));
	else
		say("clock %04d-%02d-%02dT%02d:%02d:%02dZ at uptime %lld s", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long long)uptime_s());
	ask_shutdown(kind, init);
	end = uptime_s() + SHUTDOWN_S;
	while (uptime_s() < end)
		raw64_sleep(POLL_NS);
	say("shutdown forced at uptime %lld s: init did not shut down within %d s", (long long)uptime_s(),
	    SHUTDOWN_S);
	sync();
	reboot(RB_AUTOBOOT);
	say("error reboot: errno %d %s", errno, errno_name(errno));
	_exit(1);
}

int main(int argc, char **argv)
{
	char init[128], kind[32];
	pid_t pid;

	(void)argc;
	snprintf(init, sizeof(init), "%s", conf("init", "/sbin/init"));
	snprintf(kind, sizeof(kind), "%s", conf("kind", "unknown"));
	if (getpid() != 1) {
		fprintf(stderr, "init-watch: PID 1 only (the kernel's init=)\n");
		return 2;
	}
	pid = fork();
	if (!pid) {
		/* init's shutdown SIGTERMs every process: the watcher stays to force it */
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGINT, SIG_IGN);
		setsid();
		watch(kind, init);
	}
	argv[0] = init;
	execv(init, argv);
	/* PID 1 ends here: the kernel's panic names the exit, the console this */
	fprintf(stderr, "y2038-init-watch: cannot run the root's init %s: errno %d %s\n", init, errno,
		errno_name(errno));
	return 127;
}
