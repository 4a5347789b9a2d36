// SPDX-License-Identifier: GPL-2.0
/*
 * rtc: the wall clock at boot, as the kernel set it from the RTC.
 *
 * Runs first in a guest, before any scenario moves the clock. The phase is
 * what the RTC reads: "before" the overflow (the lab's usual boot) or
 * "after" it (a device that boots after 2038-01-19T03:14:07Z). Two cases:
 *   clock_at_boot  does CLOCK_REALTIME agree with the RTC? UNSET when it is
 *                  still near 1970: nothing set it.
 *   hctosys        did rtc0 set it (rtc_hctosys, /sys/class/rtc/rtc0/hctosys)?
 *                  An architecture may set the clock earlier by itself (x86
 *                  reads the CMOS clock in timekeeping_init), so the two can
 *                  differ.
 * Built as a time64 binary, and reads the clock with raw time64 syscalls.
 */
#include <fcntl.h>
#include "harness.h"

#define RTC_DIR "/sys/class/rtc/rtc0"
/* Up to 1 s of RTC resolution, and hctosys's half second. */
#define CLOCK_AGREES_NS (2 * NSEC_PER_SEC)
/* A clock before 2000 was never set: it counts up from 1970 at boot. */
#define CLOCK_SET_AFTER 946684800LL

/* Read a sysfs file of one line; 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY), err;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int main(void)
{
	struct tally tally = { 0 };
	struct outcome clock = { "ERROR", "", 0, 0 }, hctosys = { "ERROR", "", 0, 0 };
	int64_t real_ns = clock_ns(CLOCK_REALTIME);
	int64_t boot_ns = clock_ns(CLOCK_BOOTTIME);
	char buf[64], rtc_iso[64], real_iso[64];
	const char *phase = "before";
	long long rtc;
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..2\n");
	err = read_line(RTC_DIR "/since_epoch", buf, sizeof(buf));
	if (err) {
		outcome_set(&clock, "SKIP", "no RTC: read %s: errno %d %s",
			    RTC_DIR "/since_epoch", -err, errno_name(-err));
		hctosys = clock;
	} else {
		rtc = atoll(buf);
		if (rtc > Y2038_LAST_SEC)
			phase = "after";
		iso8601(rtc, rtc_iso, sizeof(rtc_iso));
		iso8601(real_ns / NSEC_PER_SEC, real_iso, sizeof(real_iso));
		if (llabs(real_ns - rtc * NSEC_PER_SEC) <= CLOCK_AGREES_NS)
			outcome_set(&clock, "PASS", "CLOCK_REALTIME %s, RTC %s",
				    real_iso, rtc_iso);
		else if (real_ns / NSEC_PER_SEC < CLOCK_SET_AFTER)
			outcome_set(&clock, "UNSET",
				    "CLOCK_REALTIME %s after %.1f s of uptime: never set; RTC %s",
				    real_iso, boot_ns / 1e9, rtc_iso);
		else
			outcome_set(&clock, "WRONG", "CLOCK_REALTIME %s, RTC %s",
				    real_iso, rtc_iso);

		err = read_line(RTC_DIR "/hctosys", buf, sizeof(buf));
		if (err)
			outcome_errno(&hctosys, "read " RTC_DIR "/hctosys", -err);
		else if (!strcmp(buf, "1"))
			outcome_set(&hctosys, "PASS",
				    "rtc0 set the system clock at boot (hctosys=1)");
		else
			outcome_set(&hctosys, "UNSET",
				    "rtc0 did not set the system clock at boot (hctosys=%s)",
				    buf);
	}
	report_case(&tally, 1, "kernel", "clock_at_boot", phase, &clock);
	report_case(&tally, 2, "kernel", "hctosys", phase, &hctosys);
	return report_totals(&tally);
}
