// SPDX-License-Identifier: GPL-2.0
/*
 * init: PID 1 of a y2038-lab guest.
 *
 * Mounts what the scenarios need and runs each program named by
 * y2038.run=a,b,c on the kernel command line from /scenarios, each with the
 * timeout y2038.timeout= (seconds), through the lab's one runner
 * (runner.h), which reports in TAP 13 as kselftest's runner does. The TAP
 * goes to the device named by y2038.tap= (a second serial port by default),
 * where kernel messages cannot interleave with it; init's own log goes to
 * /dev/kmsg. When all have run, the guest ends.
 *
 * Its timeouts use the raw time64 syscalls only (see harness.h): libc's
 * timing may be what is broken on the kernel under test.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <termios.h>
#include "runner.h"

#define SCENARIO_DIR "/scenarios"
#define MAX_SCENARIOS 64

static int kmsg_fd = -1;

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

/*
 * The TAP device, once it is there: a virtio console can register after
 * init has started when the host is loaded (run order-..., arm64: hvc0
 * missing, the TAP went to the console and was lost to the collector).
 */
#define TAP_WAIT_NS (10 * NSEC_PER_SEC)
#define TAP_POLL_NS (20 * NSEC_PER_MSEC)

static FILE *open_tap(const char *dev)
{
	int64_t t0 = clock_ns(CLOCK_MONOTONIC), waited;
	struct termios tio;
	int fd;

	while ((fd = open(dev, O_WRONLY | O_NOCTTY)) < 0 &&
	       (errno == ENOENT || errno == ENODEV || errno == ENXIO) &&
	       clock_ns(CLOCK_MONOTONIC) - t0 < TAP_WAIT_NS)
		raw64_sleep(TAP_POLL_NS);
	waited = clock_ns(CLOCK_MONOTONIC) - t0;
	if (fd >= 0 && waited >= TAP_POLL_NS)
		klog("TAP device %s appeared after %.2f s\n", dev, waited / 1e9);
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

int main(void)
{
	char cmdline[4096] = "", list[1024] = "", tapdev[64], tmo[16], note[80];
	char *names[MAX_SCENARIOS];
	struct runner r = { .dir = SCENARIO_DIR, .timeout_ns = 60 * NSEC_PER_SEC };
	int n = 0, fd, err;

	mount_or_log("proc", "/proc", "proc");
	mount_or_log("sysfs", "/sys", "sysfs");
	mount_or_log("devtmpfs", "/dev", "devtmpfs");
	/* pseudo-terminals, for the programs that want one (script, login) */
	mount_or_log("devpts", "/dev/pts", "devpts");
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
		r.timeout_ns = atoll(tmo) * NSEC_PER_SEC;
	r.tap = open_tap(tapdev);
	if (!r.tap) {
		klog("no TAP output at all; giving up\n");
		reboot(RB_AUTOBOOT);
		return 1;
	}
	if (cmdline_value(cmdline, "y2038.run", list, sizeof(list)))
		n = runner_split(list, names, MAX_SCENARIOS);

	/* as any init does, and before programs that use it start together */
	err = loopback_up();
	if (err)
		klog("lo up: %s; the socket cases will say so\n", strerror(err));

	/* CLOCK_BOOTTIME here: how long the kernel took to reach us */
	snprintf(note, sizeof(note), "y2038-init: started %.3f s after the kernel",
		 clock_ns(CLOCK_BOOTTIME) / 1e9);
	klog("running %d programs\n", n);
	runner_run_all(&r, names, n, note,
		       "no scenarios named by y2038.run= on the kernel command line");
	tcdrain(fileno(r.tap));
	klog("done, rebooting to end the guest\n");
	sync();
	/* A restart, with qemu -no-reboot, ends the guest; power-off needs ACPI. */
	reboot(RB_AUTOBOOT);
	return 0;
}
