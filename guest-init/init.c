// SPDX-License-Identifier: GPL-2.0
/*
 * init: PID 1 of a y2038-lab guest.
 *
 * Mounts what the scenarios need, runs each scenario named by
 * y2038.run=a,b,c on the kernel command line with a timeout, and reports in
 * TAP 13 the way kselftest's runner does: each scenario's own TAP indented by
 * "# ", then "ok N selftests: y2038: NAME", or "not ok" with "# exit=N",
 * "# TIMEOUT N seconds" or "# CRASH signal N". The TAP goes to the device
 * named by y2038.tap= (a second serial port by default), where kernel
 * messages cannot interleave with it; init's own log goes to /dev/kmsg.
 *
 * Its timeouts use the raw time64 syscalls only (see harness.h): libc's
 * timing may be what is broken on the kernel under test.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <termios.h>
#include "../scenarios/harness.h"

#define SCENARIO_DIR "/scenarios"
#define MAX_SCENARIOS 64

static int kmsg_fd = -1;
static FILE *tap;

static void klog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void klog(const char *fmt, ...)
{
	char buf[512];
	int len = snprintf(buf, sizeof(buf), "<6>y2038-init: ");
	va_list ap;

	va_start(ap, fmt);
	len += vsnprintf(buf + len, sizeof(buf) - len, fmt, ap);
	va_end(ap);
	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;
	if (kmsg_fd >= 0 && write(kmsg_fd, buf, len) < 0)
		kmsg_fd = -1;
}

static void mount_or_log(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		klog("mount %s on %s: errno %d %s\n", type, dir, errno,
		     errno_name(errno));
}

static FILE *open_tap(const char *dev)
{
	int fd = open(dev, O_WRONLY | O_NOCTTY);
	struct termios tio;

	if (fd < 0) {
		klog("cannot open TAP device %s: errno %d %s; using console\n",
		     dev, errno, errno_name(errno));
		fd = dup(STDOUT_FILENO);
	} else if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);	/* no \r\n translation: plain TAP */
		tcsetattr(fd, TCSANOW, &tio);
	}
	return fdopen(fd, "w");
}

/* Copy the child's output to the TAP stream, "# "-indented, line by line. */
static void relay_lines(char *buf, size_t *len, int final)
{
	char *start = buf, *nl;

	while ((nl = memchr(start, '\n', *len - (start - buf)))) {
		fprintf(tap, "# %.*s\n", (int)(nl - start), start);
		start = nl + 1;
	}
	*len -= start - buf;
	memmove(buf, start, *len);
	if (final && *len) {
		fprintf(tap, "# %.*s\n", (int)*len, buf);
		*len = 0;
	}
	fflush(tap);
}

/* Run one scenario; print its top-level TAP line; return its exit code. */
static int run_scenario(int num, const char *name, int64_t timeout_ns)
{
	char path[256], buf[4096];
	int pipefd[2], status = 0, timed_out = 0;
	int64_t started = clock_ns(CLOCK_MONOTONIC);
	int64_t deadline = started + timeout_ns;
	size_t len = 0;
	pid_t pid;

	snprintf(path, sizeof(path), SCENARIO_DIR "/%s", name);
	fprintf(tap, "# selftests: y2038: %s\n", name);
	fflush(tap);
	if (pipe(pipefd) || (pid = fork()) < 0) {
		fprintf(tap, "not ok %d selftests: y2038: %s # ERROR pipe/fork: errno %d %s\n",
			num, name, errno, errno_name(errno));
		return KSFT_FAIL;
	}
	if (pid == 0) {
		char *argv[] = { path, NULL };

		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		execv(path, argv);
		printf("exec %s: errno %d %s\n", path, errno, errno_name(errno));
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		int64_t left = deadline - clock_ns(CLOCK_MONOTONIC);
		ssize_t n;

		if (left <= 0 || wait_readable(pipefd[0], left) <= 0) {
			timed_out = 1;
			kill(pid, SIGKILL);
			break;
		}
		n = read(pipefd[0], buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			break;
		len += n;
		relay_lines(buf, &len, len == sizeof(buf) - 1);
	}
	relay_lines(buf, &len, 1);
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	/* for make bench: what each scenario costs, in guest time */
	fprintf(tap, "# y2038-init: %s took %.3f s\n", name,
		(clock_ns(CLOCK_MONOTONIC) - started) / 1e9);

	if (timed_out) {
		fprintf(tap, "not ok %d selftests: y2038: %s # TIMEOUT %lld seconds\n",
			num, name, (long long)(timeout_ns / NSEC_PER_SEC));
		return KSFT_FAIL;
	}
	if (WIFSIGNALED(status)) {
		fprintf(tap, "not ok %d selftests: y2038: %s # CRASH signal %d (%s)\n",
			num, name, WTERMSIG(status), strsignal(WTERMSIG(status)));
		return KSFT_FAIL;
	}
	switch (WEXITSTATUS(status)) {
	case KSFT_PASS:
		fprintf(tap, "ok %d selftests: y2038: %s\n", num, name);
		break;
	case KSFT_SKIP:
		fprintf(tap, "ok %d selftests: y2038: %s # SKIP\n", num, name);
		break;
	default:
		fprintf(tap, "not ok %d selftests: y2038: %s # exit=%d\n", num,
			name, WEXITSTATUS(status));
	}
	return WEXITSTATUS(status);
}

int main(void)
{
	char cmdline[4096] = "", list[1024], tapdev[64], tmo[16];
	char *names[MAX_SCENARIOS], *save = NULL, *tok;
	int64_t timeout_ns = 60 * NSEC_PER_SEC;
	int n = 0, i, fd;

	mount_or_log("proc", "/proc", "proc");
	mount_or_log("sysfs", "/sys", "sysfs");
	mount_or_log("devtmpfs", "/dev", "devtmpfs");
	mount_or_log("tmpfs", "/tmp", "tmpfs");
	/* the time32 census, in kernels with the lab's patches */
	mount_or_log("debugfs", "/sys/kernel/debug", "debugfs");
	kmsg_fd = open("/dev/kmsg", O_WRONLY);

	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		ssize_t len = read(fd, cmdline, sizeof(cmdline) - 1);

		cmdline[len > 0 ? len : 0] = '\0';
		close(fd);
	}
	if (!cmdline_value(cmdline, "y2038.tap", tapdev, sizeof(tapdev)))
		snprintf(tapdev, sizeof(tapdev), "/dev/ttyS1");
	if (cmdline_value(cmdline, "y2038.timeout", tmo, sizeof(tmo)))
		timeout_ns = atoll(tmo) * NSEC_PER_SEC;
	tap = open_tap(tapdev);
	if (!tap) {
		klog("no TAP output at all; giving up\n");
		reboot(RB_AUTOBOOT);
		return 1;
	}

	if (cmdline_value(cmdline, "y2038.run", list, sizeof(list)))
		for (tok = strtok_r(list, ",", &save); tok && n < MAX_SCENARIOS;
		     tok = strtok_r(NULL, ",", &save))
			names[n++] = tok;

	fprintf(tap, "TAP version 13\n");
	if (!n) {
		fprintf(tap, "Bail out! no scenarios named by y2038.run= on the kernel command line\n");
	} else {
		fprintf(tap, "1..%d\n", n);
		fprintf(tap, "# timeout set to %lld\n",
			(long long)(timeout_ns / NSEC_PER_SEC));
		/* CLOCK_BOOTTIME here: how long the kernel took to reach us */
		fprintf(tap, "# y2038-init: started %.3f s after the kernel\n",
			clock_ns(CLOCK_BOOTTIME) / 1e9);
		for (i = 0; i < n; i++) {
			klog("running %s\n", names[i]);
			run_scenario(i + 1, names[i], timeout_ns);
		}
	}
	fprintf(tap, "# y2038-init: done\n");
	fflush(tap);
	tcdrain(fileno(tap));
	klog("done, rebooting to end the guest\n");
	sync();
	/* A restart, with qemu -no-reboot, ends the guest; power-off needs ACPI. */
	reboot(RB_AUTOBOOT);
	return 0;
}
