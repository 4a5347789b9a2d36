// SPDX-License-Identifier: GPL-2.0
/*
 * files: file timestamps past the rollover. A file's atime and mtime are set
 * to 2038-01-19T03:14:06 and 03:14:07 (2^31-2, 2^31-1: still 32-bit), 03:14:08
 * (2^31), 2106 (2^32), 2262 (9223372035 s, the edge of 64-bit nanoseconds)
 * and 2446-05-10T22:38:55 (15032385535 s, ext4's EXT4_EXTRA_TIMESTAMP_MAX =
 * 2^34 - 1 - 2^31) and one second after it, then read back with stat() and
 * statx(). On three filesystems, whose limits (the kernel's s_time_min/max)
 * differ: tmpfs (/tmp, none), ext4 with 256-byte inodes (34-bit seconds, up
 * to 2446) and ext4 with 128-byte inodes (32-bit seconds: 1901 to 2038). A
 * time past a filesystem's limit is clamped to it (timestamp_truncate), and
 * the kernel warns at mount time when a filesystem's limit is less than 30
 * years away; the 128-byte cases report that warning.
 *
 * libc is utimensat()/futimens() then stat() and statx() of legacy or time64
 * glibc, whichever this binary was built as. raw is the utimensat syscall of
 * this build's width (utimensat 320 = utimensat_time32 on i386 in the legacy
 * build, utimensat_time64 412 in the time64 build), read back with the statx
 * syscall (383 on i386), which is 64-bit in every ABI. A 32-bit time_t cannot
 * hold 2^31 or later: the legacy build passes what a program would hold, the
 * low 32 bits (2^31 becomes 1901).
 *
 * The stat cases read a file whose time a time64 program (the raw
 * utimensat_time64) set past the rollover, as a legacy program does: libc
 * stat(), or in raw32 the stat64 syscall (195), whose times are the kernel's
 * 32-bit unsigned long with no overflow check and no COMPAT_32BIT_TIME gate.
 * Expected outcomes per ABI and kernel config: expectations.tsv.
 */
#define _GNU_SOURCE	/* statx */
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "harness.h"

/* 64-bit targets have only the one (64-bit) utimensat. */
#ifndef __NR_utimensat_time64
#define __NR_utimensat_time64 __NR_utimensat
#endif

/* The times set, in 64-bit seconds. */
#define T_2038BEFORE	(Y2038_LAST_SEC - 1)
#define T_2038MAX	Y2038_LAST_SEC
#define T_2038AFTER	(Y2038_LAST_SEC + 1)
#define T_2106		Y2038_WRAP
#define T_2262		9223372035LL	/* KTIME_SEC_MAX - 1 */
#define T_2446MAX	15032385535LL	/* EXT4_EXTRA_TIMESTAMP_MAX */
#define T_2446AFTER	(T_2446MAX + 1)

/* A filesystem under test, and the limits its kernel driver sets. */
struct fs {
	const char *dir;	/* where its files go */
	int inode_size;		/* ext4's image: /images/ext4-N.img; 0 tmpfs */
	int64_t time_min;	/* sb->s_time_min */
	int64_t time_max;	/* sb->s_time_max */
};

/* tmpfs keeps alloc_super()'s TIME64_MIN/MAX: no limit (its dir: the lab mode's). */
static const struct fs fs_tmpfs = { NULL, 0, INT64_MIN, INT64_MAX };

static const char *fs_dir(const struct fs *fs)
{
	return fs->dir ? fs->dir : lab->tmpfs_dir();
}
/* ext4_fill_super(): 34-bit seconds in the extra fields of big inodes... */
static const struct fs fs_ext4_256 = {
	"/mnt/ext4-256", 256, -Y2038_LAST_SEC - 1, T_2446MAX,
};
/* ...and only the 32-bit field in 128-byte ones. */
static const struct fs fs_ext4_128 = {
	"/mnt/ext4-128", 128, -Y2038_LAST_SEC - 1, Y2038_LAST_SEC,
};

/* How a case sets the time, and what it reads it back with. */
enum how {
	UTIMENSAT,	/* utimensat() on the path */
	FUTIMENS,	/* futimens() on an open fd */
	STAT,		/* a time64 program sets it; this ABI's stat reads it */
};

/* A time as a program of this ABI holds it: a 32-bit time_t keeps 32 bits. */
static int64_t as_time_t(int64_t t)
{
	return sizeof(time_t) == 4 ? (int32_t)(uint32_t)t : t;
}

static int mounted(const char *dir)
{
	char line[512], want[80];
	FILE *f = fopen("/proc/mounts", "r");
	int found = 0;

	if (!f)
		return 0;
	snprintf(want, sizeof(want), " %s ", dir);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	fclose(f);
	return found;
}

/* Open /dev/loopN; devtmpfs may not have the node of one made on demand. */
static int open_loop(int n, char *dev, size_t len)
{
	int fd;

	snprintf(dev, len, "/dev/loop%d", n);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT &&
	    !mknod(dev, S_IFBLK | 0600, makedev(7, n)))
		fd = open(dev, O_RDWR | O_CLOEXEC);
	return fd;
}

/*
 * Attach /images/ext4-N.img to a free loop device and mount it on
 * /mnt/ext4-N, unless an earlier case already did: cases run in any order,
 * each in a fresh child. 0, or -1 with the outcome set to ERROR.
 */
static int mount_ext4(struct outcome *o, int inode_size)
{
	char img[64], dir[64], dev[32];
	const char *call;
	int ctl = -1, imgfd = -1, loopfd = -1, n, ret = -1;
	struct loop_config cfg;

	snprintf(img, sizeof(img), "/images/ext4-%d.img", inode_size);
	snprintf(dir, sizeof(dir), "/mnt/ext4-%d", inode_size);
	if (mounted(dir))
		return 0;
	mkdir(dir, 0755);
	call = img;
	imgfd = open(img, O_RDWR | O_CLOEXEC);
	if (imgfd < 0)
		goto out;
	call = "/dev/loop-control";
	ctl = open(call, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		goto out;
	call = "LOOP_CTL_GET_FREE";
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (n < 0)
		goto out;
	call = dev;
	loopfd = open_loop(n, dev, sizeof(dev));
	if (loopfd < 0)
		goto out;
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = imgfd;
	call = "LOOP_CONFIGURE";
	if (ioctl(loopfd, LOOP_CONFIGURE, &cfg)) {
		/* Before 5.8 there was only LOOP_SET_FD. */
		if (errno != EINVAL && errno != ENOTTY)
			goto out;
		call = "LOOP_SET_FD";
		if (ioctl(loopfd, LOOP_SET_FD, imgfd))
			goto out;
	}
	call = "mount ext4";
	if (mount(dev, dir, "ext4", 0, NULL))
		goto out;
	ret = 0;
out:
	if (ret)
		outcome_set(o, "ERROR",
			    "%s: errno %d %s: are CONFIG_BLK_DEV_LOOP and CONFIG_EXT4_FS built in, is %s in the initramfs?",
			    call, errno, errno_name(errno), img);
	if (loopfd >= 0)
		close(loopfd);	/* the mount keeps the loop device bound */
	if (ctl >= 0)
		close(ctl);
	if (imgfd >= 0)
		close(imgfd);
	return ret;
}

/*
 * The kernel's mount-time warning about dir ("ext4 filesystem being mounted
 * at DIR supports timestamps until 2038-01-19 (0x7fffffff)"), shortened into
 * note, or "". It is printed once per superblock, maybe by an earlier case:
 * a fresh open of /dev/kmsg reads the whole buffer from its oldest record.
 */
static void kmsg_ts_warning(const char *dir, char *note, size_t len)
{
	char rec[8192], want[96];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;

	note[0] = '\0';
	if (fd < 0)
		return;
	snprintf(want, sizeof(want), " at %s supports timestamps until ", dir);
	for (;;) {
		char *msg, *at, *end;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;	/* EPIPE: records overwritten meanwhile */
		if (n <= 0)
			break;		/* EAGAIN: the end of the buffer */
		rec[n] = '\0';
		msg = strchr(rec, ';');
		at = strstr(rec, want);
		if (!msg || !at)
			continue;
		end = strchr(at, '\n');
		if (end)
			*end = '\0';
		/* "kernel: ext4 supports timestamps until ..." */
		snprintf(note, len, "; kernel: %.*s%s",
			 (int)strcspn(msg + 1, " "), msg + 1,
			 at + strlen(" at ") + strlen(dir));
	}
	close(fd);
}

/* One readback: what a stat call said the mtime (and atime) is. */
struct readback {
	const char *call;	/* NULL: not read this way */
	int err;		/* its errno, or 0 */
	int64_t mtime;
	int64_t atime;
};

static void read_statx(struct readback *r, const char *path, int raw)
{
	struct statx stx = { 0 };
	int ret;

	r->call = raw ? "syscall statx" : "statx";
	ret = raw ? syscall(__NR_statx, AT_FDCWD, path, 0, STATX_BASIC_STATS,
			    &stx) :
		    statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx);
	r->err = ret ? errno : 0;
	r->mtime = stx.stx_mtime.tv_sec;
	r->atime = stx.stx_atime.tv_sec;
}

/* libc stat(): in a legacy build, 32-bit st_mtime, or EOVERFLOW. */
static void read_stat(struct readback *r, const char *path)
{
	struct stat st = { 0 };

	r->call = "stat";
	r->err = stat(path, &st) ? errno : 0;
	r->mtime = st.st_mtime;
	r->atime = st.st_atime;
}

/*
 * The stat64 syscall's struct stat64, the same declaration on i386 and ARM:
 * its times are unsigned long, 32 bits, and the kernel (cp_new_stat64) stores
 * them without an overflow check. (Its times are renamed: glibc's <sys/stat.h>
 * makes st_atime and friends macros.)
 */
struct kernel_stat64 {
	unsigned long long st_dev;
	unsigned char __pad0[4];
	uint32_t __st_ino;
	uint32_t st_mode;
	uint32_t st_nlink;
	uint32_t st_uid;
	uint32_t st_gid;
	unsigned long long st_rdev;
	unsigned char __pad3[4];
	long long st_size;
	uint32_t st_blksize;
	unsigned long long st_blocks;
	uint32_t k_atime;
	uint32_t k_atime_nsec;
	uint32_t k_mtime;
	uint32_t k_mtime_nsec;
	uint32_t k_ctime;
	uint32_t k_ctime_nsec;
	unsigned long long st_ino;
};

static void read_stat64(struct readback *r, const char *path)
{
#ifdef __NR_stat64
	struct kernel_stat64 st = { 0 };

	r->call = "syscall stat64";
	r->err = syscall(__NR_stat64, path, &st) ? errno : 0;
	r->mtime = st.k_mtime;
	r->atime = st.k_atime;
#else
	/* 64-bit targets: stat has 64-bit times; read what a program reads. */
	read_stat(r, path);
#endif
}

/* Set path's (or fd's) atime and mtime to t as this case does. */
static int set_times(enum abi_kind kind, enum how how, const char *path,
		     int fd, int64_t t, const char **call)
{
	int dfd = how == FUTIMENS ? fd : AT_FDCWD;
	const char *name = how == FUTIMENS ? NULL : path;

	if (how == STAT) {
		/* The file comes from a time64 program: set it with 64 bits. */
		struct kts64 ts[2] = { { t, 0 }, { t, 0 } };

		*call = "syscall utimensat_time64 (setup)";
		return -raw64_call(__NR_utimensat_time64, AT_FDCWD, (long)path,
				   (long)ts, 0, 0);
	}
	if (kind == LIBC) {
		struct timespec ts[2] = { { 0, 0 }, { 0, 0 } };

		ts[0].tv_sec = ts[1].tv_sec = as_time_t(t);
		*call = how == FUTIMENS ? "futimens" : "utimensat";
		if (how == FUTIMENS)
			return futimens(fd, ts) ? errno : 0;
		return utimensat(AT_FDCWD, path, ts, 0) ? errno : 0;
	} else {
#if Y2038_TIME64_BUILD
		struct kts64 ts[2] = { { t, 0 }, { t, 0 } };

		*call = "syscall utimensat_time64";
		return -raw64_call(__NR_utimensat_time64, dfd, (long)name,
				   (long)ts, 0, 0);
#else
		/* utimensat_time32: old_timespec32, the low 32 bits of t. */
		int32_t sec = as_time_t(t);
		struct old_ts32 ts[2] = { { sec, 0 }, { sec, 0 } };

		*call = "syscall utimensat";
		return syscall(__NR_utimensat, dfd, name, ts, 0) ? errno : 0;
#endif
	}
}


/*
 * The class of a cell tells its story, decided in this order:
 *  1. the set failed: its errno (ENOSYS: no such syscall; EOVERFLOW: glibc
 *     needed a time64 syscall and had none);
 *  2. the readback (statx; stat64 in a raw32 stat case) against the 64-bit
 *     time meant: PASS when equal; WRAP when a 32-bit field on the way lost
 *     the high bits (the tv_sec passed, or stat64's st_mtime): checked before
 *     CLAMP, as a legacy 2446-05-10T22:38:55 is 2^31-1 before any fs sees
 *     it; CLAMP when it is the filesystem's limit; else WRONG. atime must
 *     equal mtime;
 *  3. the readback right but libc stat() failed: stat's errno (EOVERFLOW),
 *     since that is all a legacy program sees; stat disagreeing: WRONG.
 */
static void judge_times(struct outcome *o, const struct fs *fs, int64_t t,
			int64_t passed, int read32,
			const struct readback *main_rb,
			const struct readback *stat_rb)
{
	int64_t seen = main_rb->mtime;
	const char *class, *why = "";
	char when[64];

	if (main_rb->err) {
		outcome_set(o, errno_name(main_rb->err), "%s: errno %d %s",
			    main_rb->call, main_rb->err,
			    errno_name(main_rb->err));
		return;
	}
	if (seen == t) {
		class = "PASS";
	} else if ((passed != t && seen == passed) ||
		   (read32 && seen == (uint32_t)t)) {
		class = "WRAP";
		why = ", the low 32 bits";
	} else if (seen == fs->time_max || seen == fs->time_min) {
		class = "CLAMP";
		why = ", the fs's limit";
	} else {
		class = "WRONG";
	}
	if (main_rb->atime != seen)
		class = "WRONG";
	if (!strcmp(class, "PASS") && stat_rb->call && stat_rb->err)
		class = errno_name(stat_rb->err);
	else if (stat_rb->call && !stat_rb->err &&
		 (stat_rb->mtime != seen || stat_rb->atime != seen))
		class = "WRONG";

	snprintf(o->class, sizeof(o->class), "%s", class);
	if (stat_rb->call) {
		if (stat_rb->err)
			outcome_append(o, "; %s %s", stat_rb->call,
				       errno_name(stat_rb->err));
		else
			outcome_append(o, "; %s %lld", stat_rb->call,
				       (long long)stat_rb->mtime);
	}
	iso8601(seen, when, sizeof(when));
	outcome_append(o, "; %s %lld (%s)%s", main_rb->call, (long long)seen,
		       when, why);
	if (main_rb->atime != seen)
		outcome_append(o, ", atime %lld", (long long)main_rb->atime);
	if (strcmp(class, "PASS") && strcmp(class, "WRAP") &&
	    strcmp(class, "CLAMP") && seen != t)
		outcome_append(o, ", meant %lld", (long long)t);
}

/* The case body: set the file's times to t, read them back, judge. */
static void file_case(struct outcome *o, enum abi_kind kind, enum how how,
		      const struct fs *fs, int64_t t)
{
	/* Y2038_SET_PAST's start: where every case sets the file's time. */
	const struct kts64 start = kts64_from_ns(Y2038_LAST_SEC * NSEC_PER_SEC +
						 500 * NSEC_PER_MSEC);
	static const char *const how_name[] = { "utimensat", "futimens", "stat" };
	struct readback main_rb = { 0 }, stat_rb = { 0 };
	/* The tv_sec that reaches the kernel: the stat cases' setup is 64-bit. */
	int64_t passed = how == STAT ? t : as_time_t(t);
	int read32 = how == STAT && kind == RAW && !Y2038_TIME64_BUILD;
	char path[128], note[120] = "";
	const char *call;
	int fd, err;

	if (fs->inode_size && !lab->can_mount) {
		outcome_set(o, "SKIP", "the ext4 image needs a loop device and a mount: only in a lab guest, never on the host");
		return;
	}
	if (fs->inode_size) {
		if (mount_ext4(o, fs->inode_size))
			return;
		kmsg_ts_warning(fs->dir, note, sizeof(note));
	}
	/* One file per case and ABI: both builds run in the same guest. */
	snprintf(path, sizeof(path), "%s/%s-%lld.%s", fs_dir(fs), how_name[how],
		 (long long)t, kind == LIBC ? Y2038_LIBC_ABI : Y2038_RAW_ABI);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		outcome_setup_failed(o, path, NULL, errno);
		return;
	}
	/*
	 * Mounting takes a while under TCG: put the clock back to 03:14:07.5 so
	 * the ctime utimensat sets still fits 32 bits, and a legacy stat() that
	 * fails does so for the time set, not for the ctime.
	 */
	lab->set_clock(kts64_to_ns(&start));

	err = set_times(kind, how, path, fd, t, &call);
	close(fd);
	if (err) {
		outcome_errno(o, call, err);
		outcome_append(o, " for tv_sec %lld%s", (long long)passed, note);
		return;
	}
	outcome_set(o, "PASS", "%s tv_sec %lld ok", call, (long long)passed);
	if (read32) {
		read_stat64(&main_rb, path);
	} else {
		read_statx(&main_rb, path, kind == RAW);
		if (kind == LIBC)
			read_stat(&stat_rb, path);
	}
	judge_times(o, fs, t, passed, read32, &main_rb, &stat_rb);
	outcome_append(o, "%s", note);
}

/*
 * Every case: a filesystem, a point in time (the case's name is fs_point),
 * how it is set and read, and the time. The harness's run() takes only the
 * outcome, so each case gets a one-line wrapper per ABI kind.
 */
#define FILE_CASES(X) \
	TIMES_SET(X, tmpfs) \
	X(tmpfs, stat_2038after, STAT, T_2038AFTER) \
	X(tmpfs, stat_2106, STAT, T_2106) \
	TIMES_SET(X, ext4_256) \
	TIMES_SET(X, ext4_128)
/* The times set on every filesystem, by utimensat and once by futimens. */
#define TIMES_SET(X, fs) \
	X(fs, 2038before, UTIMENSAT, T_2038BEFORE) \
	X(fs, 2038max, UTIMENSAT, T_2038MAX) \
	X(fs, 2038after, UTIMENSAT, T_2038AFTER) \
	X(fs, 2106, UTIMENSAT, T_2106) \
	X(fs, 2262, UTIMENSAT, T_2262) \
	X(fs, 2446max, UTIMENSAT, T_2446MAX) \
	X(fs, 2446after, UTIMENSAT, T_2446AFTER) \
	X(fs, futimens_2038after, FUTIMENS, T_2038AFTER)

#define WRAPPERS(fs, point, how, t) \
	static void libc_##fs##_##point(struct outcome *o) \
	{ file_case(o, LIBC, how, &fs_##fs, t); } \
	static void raw_##fs##_##point(struct outcome *o) \
	{ file_case(o, RAW, how, &fs_##fs, t); }
FILE_CASES(WRAPPERS)

#define LIBC_CASE(fs, point, how, t) \
	{ #fs "_" #point, LIBC, Y2038_SET_PAST, .run = libc_##fs##_##point },
#define RAW_CASE(fs, point, how, t) \
	{ #fs "_" #point, RAW, Y2038_SET_PAST, .run = raw_##fs##_##point },

static const struct y2038_case cases[] = {
	FILE_CASES(LIBC_CASE)
	FILE_CASES(RAW_CASE)
};

Y2038_MAIN(cases)
