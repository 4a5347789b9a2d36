/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/mode.h - where a scenario runs, chosen once at its start:
 *
 *   guest        a lab guest (y2038.guest on the kernel command line): the
 *                harness sets CLOCK_REALTIME itself, with clock_settime64.
 *   libfaketime  this host, under Debian's libfaketime (Y2038_HOST=libfaketime,
 *                host-tools/boot/faketime.sh): the clock is never set; each
 *                case's child moves libfaketime's offset (FAKETIME, re-read on
 *                every call with FAKETIME_NO_CACHE=1) instead, a raw syscall
 *                case is skipped (the host kernel's clock is the real one),
 *                and nothing needs a loop device or a mount.
 *
 * Anywhere else a scenario refuses to run: it would set the host's clock.
 */
#ifndef Y2038_HARNESS_MODE_H
#define Y2038_HARNESS_MODE_H

#include <stdlib.h>
#include "outcome.h"

/*
 * How long one case may take before it is killed and called TIMEOUT. On the
 * host, natively or under qemu-user, nothing needs TCG's slack; a wait for a
 * deadline the real clock will not reach for years ends sooner.
 */
#ifndef Y2038_CASE_TIMEOUT_NS
#define Y2038_CASE_TIMEOUT_NS (10 * NSEC_PER_SEC)
#endif
#define Y2038_HOST_CASE_TIMEOUT_NS (4 * NSEC_PER_SEC)

struct lab_mode {
	const char *name;
	int64_t case_timeout_ns;
	/* Make CLOCK_REALTIME read ns from now on: 0 or -errno. */
	int (*set_clock)(int64_t ns);
	const char *set_clock_call;	/* what set_clock is, for an ERROR */
	/* Let CLOCK_REALTIME tick from a case's start to ns. */
	void (*tick_to)(int64_t start_ns, int64_t ns);
	/* Put the clock back to ns after a case: the guest's is really moved. */
	int moves_real_clock;
	/* Non-NULL: raw syscall cases are skipped, for this reason. */
	const char *raw_skip;
	/* A loop device and a mount (ext4 images) are available. */
	int can_mount;
	/* Where a case's scratch files on a tmpfs go. */
	const char *(*tmpfs_dir)(void);
};

/* The value of "key=" on the kernel command line, or NULL. */
static inline char *cmdline_value(const char *cmdline, const char *key, char *out,
				  size_t len)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= len)
				n = len - 1;
			memcpy(out, p + klen + 1, n);
			out[n] = '\0';
			return out;
		}
		p += klen;
	}
	return NULL;
}

/*
 * The scenarios set the wall clock. Refuse to do that anywhere but in a lab
 * guest, whose kernel command line carries "y2038.guest": the host's clock
 * must never move.
 */
static inline int inside_lab_guest(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cmdline", "r");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		found = strstr(line, "y2038.guest") != NULL;
	fclose(f);
	return found;
}

/*
 * CAP_SYS_TIME in the effective set (/proc/self/status CapEff): a process
 * that has it could move the real clock, so a faked host run refuses to
 * start with it. 1 if present or unknown.
 */
static inline int may_set_real_clock(void)
{
	char line[256];
	unsigned long long caps = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return (caps >> 25) & 1;	/* CAP_SYS_TIME */
}

static int guest_set_clock(int64_t ns)
{
	struct kts64 ts = kts64_from_ns(ns);

	return raw64_clock_settime(CLOCK_REALTIME, &ts);
}

static void guest_tick_to(int64_t start_ns, int64_t ns)
{
	struct kts64 ts = kts64_from_ns(ns);

	(void)start_ns;
	while (raw64_clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts) == -EINTR)
		;
}

/* libfaketime's offset from the real clock (this process and its children). */
static int faked_set_clock(int64_t ns)
{
	struct kts64 ts;
	char offset[48];
	int64_t diff;

	if (raw64_clock_gettime(CLOCK_REALTIME, &ts))
		return -EINVAL;
	diff = ns - kts64_to_ns(&ts);
	faked_offset_ns = diff;
	snprintf(offset, sizeof(offset), "%c%lld.%09lld", diff < 0 ? '-' : '+',
		 (long long)(llabs(diff) / NSEC_PER_SEC),
		 (long long)(llabs(diff) % NSEC_PER_SEC));
	return setenv("FAKETIME", offset, 1) ? -errno : 0;
}

/* The real clock is years away from ns: wait the difference. */
static void faked_tick_to(int64_t start_ns, int64_t ns)
{
	raw64_sleep(ns - start_ns);
}

/* The guest's /tmp is a tmpfs guest-init mounted. */
static const char *guest_tmpfs_dir(void)
{
	return "/tmp";
}

/* On the host, the tmpfs faketime.sh made for this run, never the host's /tmp. */
static const char *faked_tmpfs_dir(void)
{
	const char *dir = getenv("Y2038_TMPFS");

	return dir ? dir : "/dev/shm";
}

static const struct lab_mode lab_guest = {
	.name = "guest", .case_timeout_ns = Y2038_CASE_TIMEOUT_NS,
	.set_clock = guest_set_clock, .set_clock_call = "clock_settime64 (harness)",
	.tick_to = guest_tick_to, .moves_real_clock = 1, .can_mount = 1,
	.tmpfs_dir = guest_tmpfs_dir,
};

static const struct lab_mode lab_faked_host = {
	.name = "libfaketime", .case_timeout_ns = Y2038_HOST_CASE_TIMEOUT_NS,
	.set_clock = faked_set_clock, .set_clock_call = "setenv FAKETIME (harness)",
	.tick_to = faked_tick_to, .tmpfs_dir = faked_tmpfs_dir,
	.raw_skip = "a raw syscall reaches the host kernel, whose clock libfaketime cannot move",
};

/* The mode this program runs in; NULL until lab_mode_choose(). */
static const struct lab_mode *lab;

/*
 * Choose the mode once, at the start. NULL, with why filled in, when the
 * program must not run here (TAP "Bail out!"): *fail says whether that is
 * a failure (1) or a skip (0).
 */
static inline const struct lab_mode *lab_mode_choose(char *why, size_t len, int *fail)
{
	const char *host = getenv("Y2038_HOST");

	if (host && !strcmp(host, "libfaketime")) {
		if (may_set_real_clock()) {
			snprintf(why, len, "Y2038_HOST=libfaketime with CAP_SYS_TIME: this process could set the host's clock (run it through host-tools/boot/faketime.sh)");
			*fail = 1;
			return NULL;
		}
		return lab = &lab_faked_host;
	}
	if (!inside_lab_guest()) {
		snprintf(why, len, "not inside a y2038-lab guest (no y2038.guest on the kernel command line): refusing to set the clock");
		*fail = 0;
		return NULL;
	}
	return lab = &lab_guest;
}

#endif
