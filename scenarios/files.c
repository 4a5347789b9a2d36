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
 * Built with Y2038_FILES_ON_DISKS (the filesystems boots), the same cases run
 * on the filesystems devices ship, each image made on the host by its
 * distribution's mkfs (host-tools/initramfs/fs-image.sh) and attached as a
 * virtio-blk disk whose serial is its name: vfat, exFAT, ext2 (ext4's
 * driver, 128-byte inodes), XFS without and with bigtime, btrfs, f2fs, and
 * the read-only squashfs and ISO 9660, whose files were given the times on
 * the host (the READ cases); with 2107, 2108 and 2486 beside the times above,
 * a file created after the overflow, and the stat cases. A case reads back
 * what the filesystem stored: it syncs the filesystem and evicts the inode
 * (/proc/sys/vm/drop_caches) before it stats the file.
 *
 * Expected outcomes per ABI and kernel config: expectations.tsv.
 */
#define _GNU_SOURCE	/* statx, syncfs */
#include <fcntl.h>
#include <sys/stat.h>
#include "harness.h"
#include "harness/disks.h"

/* 64-bit targets have only the one (64-bit) utimensat. */
#ifndef __NR_utimensat_time64
#define __NR_utimensat_time64 __NR_utimensat
#endif

/*
 * The times set, in 64-bit seconds: literals, as make reads them for the
 * read-only images' files (FS_POINTS in host-tools/initramfs/initramfs.mk).
 */
#define T_2038BEFORE	2147483646LL	/* 2^31 - 2 */
#define T_2038MAX	2147483647LL	/* 2^31 - 1 */
#define T_2038AFTER	2147483648LL	/* 2^31 */
#define T_2106		4294967296LL	/* 2^32: past squashfs's U32_MAX */
#define T_2107		4354819198LL	/* 2107-12-31T23:59:58: FAT's last */
#define T_2108		4354819200LL	/* 2108-01-01: past FAT's and exFAT's */
#define T_2262		9223372035LL	/* KTIME_SEC_MAX - 1 */
#define T_2446MAX	15032385535LL	/* EXT4_EXTRA_TIMESTAMP_MAX */
#define T_2446AFTER	15032385536LL
#define T_2486MAX	16299260424LL	/* XFS bigtime's last */
#define T_2486AFTER	16299260425LL
_Static_assert(T_2038MAX == Y2038_LAST_SEC && T_2038BEFORE == T_2038MAX - 1 &&
	       T_2038AFTER == T_2038MAX + 1 && T_2106 == Y2038_WRAP &&
	       T_2446AFTER == T_2446MAX + 1 && T_2486AFTER == T_2486MAX + 1,
	       "the times are where they say they are");

/* A filesystem under test, and the limits its kernel driver sets. */
struct fs {
	struct disk disk;	/* where it is; disk.type NULL: tmpfs (no mount) */
	int64_t time_min;	/* sb->s_time_min */
	int64_t time_max;	/* sb->s_time_max */
	int mtime_gran;		/* seconds of mtime it keeps (0: 1) */
	int atime_gran;		/* and of atime */
};

/* tmpfs keeps alloc_super()'s TIME64_MIN/MAX: no limit (its dir: the lab mode's). */
static const struct fs fs_tmpfs = { .time_min = INT64_MIN, .time_max = INT64_MAX };

static const char *fs_dir(const struct fs *fs)
{
	return fs->disk.dir ? fs->disk.dir : lab->tmpfs_dir();
}
/* ext4_fill_super(): 34-bit seconds in the extra fields of big inodes... */
static const struct fs fs_ext4_256 = {
	.disk = { .type = "ext4", .dir = "/mnt/ext4-256", .image = "/images/ext4-256.img" },
	.time_min = -Y2038_LAST_SEC - 1, .time_max = T_2446MAX,
};
/* ...and only the 32-bit field in 128-byte ones. */
static const struct fs fs_ext4_128 = {
	.disk = { .type = "ext4", .dir = "/mnt/ext4-128", .image = "/images/ext4-128.img" },
	.time_min = -Y2038_LAST_SEC - 1, .time_max = Y2038_LAST_SEC,
};
/*
 * The filesystems devices ship, for the filesystems boots: one line each,
 * the one list of them. make reads each NAME from here (FS_IMAGES in
 * host-tools/initramfs/initramfs.mk), makes its image with
 * host-tools/initramfs/fs-image.sh NAME and attaches it as a disk whose
 * serial is NAME; the guest mounts it on /mnt/NAME with its mount TYPE.
 *
 *   DISK(id, "NAME", "TYPE", RW or RO, s_time_min, s_time_max, what else it keeps)
 *
 * The limits are those its fill_super() sets (the expectations name the
 * lines). An RW image is made empty and the cases set its files' times
 * (DISK_CASES); an RO one is made on the host with a file at each time,
 * which the cases read back (READ_CASES).
 */
#define DISKS(DISK) \
	/* FAT keeps mtime in 2 s and atime as a date (fat_truncate_time), exFAT */ \
	/* atime in 2 s (exfat_truncate_atime), in local time: UTC here */ \
	DISK(vfat, "vfat", "vfat", RW, 315532800, T_2107, .mtime_gran = 2, .atime_gran = 86400) \
	DISK(exfat, "exfat", "exfat", RW, 315532800, T_2107 + 1, .atime_gran = 2) \
	/* ext2 images through ext4's driver (EXT4_USE_FOR_EXT2), 128-byte inodes */ \
	DISK(ext2, "ext2", "ext2", RW, -Y2038_LAST_SEC - 1, Y2038_LAST_SEC) \
	DISK(xfs, "xfs", "xfs", RW, -Y2038_LAST_SEC - 1, Y2038_LAST_SEC) \
	DISK(xfs_bigtime, "xfs-bigtime", "xfs", RW, -Y2038_LAST_SEC - 1, T_2486MAX) \
	/* btrfs and f2fs set no limits: alloc_super()'s TIME64_MIN/MAX */ \
	DISK(btrfs, "btrfs", "btrfs", RW, INT64_MIN, INT64_MAX) \
	DISK(f2fs, "f2fs", "f2fs", RW, INT64_MIN, INT64_MAX) \
	DISK(squashfs, "squashfs", "squashfs", RO, 0, UINT32_MAX) \
	/* ISO 9660's 7-byte dates: 1900 to 2155 at zone 0 (the kernel's limits */ \
	/* add 13 hours of zone offset each way) */ \
	DISK(iso9660, "iso9660", "iso9660", RO, -2208988800LL, 5869583999LL)

#if Y2038_FILES_ON_DISKS
#define READONLY_RW	0
#define READONLY_RO	1
#define DISK_FS(id, name, fstype, rw, min, max, ...) \
	static const struct fs fs_##id = { \
		.disk = { .type = fstype, .dir = "/mnt/" name, .serial = name, \
			  .readonly = READONLY_##rw }, \
		.time_min = min, .time_max = max, __VA_ARGS__ };
DISKS(DISK_FS)
#endif

/* How a case sets the time, and what it reads it back with. */
enum how {
	UTIMENSAT,	/* utimensat() on the path */
	FUTIMENS,	/* futimens() on an open fd */
	STAT,		/* a time64 program sets it; this ABI's stat reads it */
	CREATE,		/* the file is created after the overflow */
	READ,		/* the host made it with the time: only read back */
};

/* A time as a program of this ABI holds it: a 32-bit time_t keeps 32 bits. */
static int64_t as_time_t(int64_t t)
{
	return sizeof(time_t) == 4 ? (int32_t)(uint32_t)t : t;
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
		/* This build's width: utimensat_time32 keeps t's low 32 bits. */
		raw_ts ts[2] = { { as_time_t(t), 0 }, { as_time_t(t), 0 } };

		*call = RAW_NAME(utimensat, utimensat_time64);
		return syscall(RAW_NR(utimensat, utimensat_time64), dfd, name, ts, 0) ?
		       errno : 0;
	}
}


/* t rounded down to what a filesystem keeps of it (gran seconds; 0: 1). */
static int64_t kept(int64_t t, int gran)
{
	int64_t r;

	if (gran <= 1)
		return t;
	r = t % gran;
	return t - (r < 0 ? r + gran : r);
}

/*
 * The class of a cell tells its story, decided in this order:
 *  1. the set failed: its errno (ENOSYS: no such syscall; EOVERFLOW: glibc
 *     needed a time64 syscall and had none);
 *  2. the readback (statx; stat64 where a raw32 case reads a file it did
 *     not set) against the 64-bit time meant, as the filesystem keeps it
 *     (FAT: even seconds): PASS when equal; WRAP when a 32-bit field on the
 *     way lost the high bits (the tv_sec passed, stat64's st_mtime, or for
 *     a read-only image the tool that made it or the kernel reading it,
 *     also of the fs's limit): checked before CLAMP, as a legacy
 *     2446-05-10T22:38:55 is 2^31-1 before any fs sees it; CLAMP when it is
 *     the filesystem's limit; else WRONG. atime must be mtime as the
 *     filesystem keeps atime;
 *  3. the readback right but libc stat() failed: stat's errno (EOVERFLOW),
 *     since that is all a legacy program sees; stat disagreeing: WRONG.
 */
static void judge_times(struct outcome *o, const struct fs *fs, int64_t t,
			int64_t passed, int read32, enum how how,
			const struct readback *main_rb,
			const struct readback *stat_rb)
{
	int64_t seen = main_rb->mtime, want = kept(t, fs->mtime_gran);
	int64_t atime_want = kept(seen, fs->atime_gran);
	const char *class, *why = "";
	char when[64];

	if (main_rb->err) {
		outcome_set(o, errno_name(main_rb->err), "%s: errno %d %s",
			    main_rb->call, main_rb->err,
			    errno_name(main_rb->err));
		return;
	}
	if (seen == want) {
		class = "PASS";
		if (want != t)
			why = ", as the fs keeps it";
	} else if ((passed != t && seen == kept(passed, fs->mtime_gran)) ||
		   (read32 && seen == (uint32_t)want)) {
		class = "WRAP";
		why = ", the low 32 bits";
	} else if (how == READ && (seen == (uint32_t)t || seen == (int32_t)t ||
				   seen == (int32_t)fs->time_max)) {
		/* the tool that made the image, or the kernel reading it */
		class = "WRAP";
		why = ", the low 32 bits";
	} else if (seen == fs->time_max || seen == fs->time_min) {
		class = "CLAMP";
		why = ", the fs's limit";
	} else if (read32 && seen == (uint32_t)fs->time_max) {
		class = "WRAP";
		why = ", the low 32 bits of the fs's limit";
	} else {
		class = "WRONG";
	}
	if (main_rb->atime != atime_want && !(read32 && main_rb->atime == (uint32_t)kept(t, fs->atime_gran)))
		class = "WRONG";
	if (!strcmp(class, "PASS") && stat_rb->call && stat_rb->err)
		class = errno_name(stat_rb->err);
	else if (stat_rb->call && !stat_rb->err &&
		 (stat_rb->mtime != seen || stat_rb->atime != main_rb->atime))
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

/* Read path's times back as this case's ABI does, and judge them. */
static void read_back(struct outcome *o, enum abi_kind kind, enum how how,
		      const struct fs *fs, const char *path, int64_t t,
		      int64_t passed)
{
	struct readback main_rb = { 0 }, stat_rb = { 0 };
	/* a legacy raw program's stat of a file it did not set: stat64 */
	int read32 = how != UTIMENSAT && how != FUTIMENS && kind == RAW &&
		     !Y2038_TIME64_BUILD;

	if (read32) {
		read_stat64(&main_rb, path);
	} else {
		read_statx(&main_rb, path, kind == RAW);
		if (kind == LIBC)
			read_stat(&stat_rb, path);
	}
	judge_times(o, fs, t, passed, read32, how, &main_rb, &stat_rb);
}

/* A case's argument: its filesystem, how it sets and reads a time, the time. */
struct file_point {
	const struct fs *fs;
	enum how how;
	int64_t t;
};

/* The case body: set the file's times to t, read them back, judge. */
static void file_case(struct outcome *o, const struct y2038_case *c)
{
	const struct file_point *point = c->arg;
	const struct fs *fs = point->fs;
	enum abi_kind kind = c->kind;
	enum how how = point->how;
	int64_t t = point->t;
	/* Y2038_SET_PAST's start: where every case sets the file's time. */
	const struct kts64 start = kts64_from_ns(Y2038_LAST_SEC * NSEC_PER_SEC +
						 500 * NSEC_PER_MSEC);
	static const char *const how_name[] = {
		"utimensat", "futimens", "stat", "created", "read",
	};
	/* The tv_sec that reaches the kernel: the stat cases' setup is 64-bit. */
	int64_t passed = how == STAT ? t : as_time_t(t);
	char path[128], note[200] = "";
	const char *call;
	int fd, err;

	if (fs->disk.type && !lab->can_mount) {
		outcome_set(o, "SKIP", "the %s image needs a loop device and a mount: only in a lab guest, never on the host",
			    fs->disk.type);
		return;
	}
	if (fs->disk.type) {
		if (disk_mount(o, &fs->disk))
			return;
		disk_ts_warning(fs->disk.dir, note, sizeof(note));
	}
	if (how == READ) {
		/* fs-image.sh named the file by its time */
		snprintf(path, sizeof(path), "%s/t%lld", fs_dir(fs), (long long)t);
		outcome_set(o, "PASS", "the image's file t%lld", (long long)t);
		read_back(o, kind, how, fs, path, t, t);
		outcome_append(o, "%s", note);
		return;
	}
	/* One file per case and ABI: both builds run in the same guest. */
	snprintf(path, sizeof(path), "%s/%s-%lld.%s", fs_dir(fs), how_name[how],
		 (long long)t, kind == LIBC ? Y2038_LIBC_ABI : Y2038_RAW_ABI);
	if (how == CREATE) {
		/* made now, after the overflow: its times are the clock's */
		int64_t made = clock_ns(CLOCK_REALTIME) / NSEC_PER_SEC, done;
		struct readback probe = { 0 };

		unlink(path);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0) {
			outcome_errno(o, "open O_CREAT", errno);
			return;
		}
		close(fd);
		done = clock_ns(CLOCK_REALTIME) / NSEC_PER_SEC;
		if (fs->disk.type)
			disk_evict(fs->disk.dir, note, sizeof(note));
		/* the time meant: the second it was made in, as the fs keeps it */
		read_statx(&probe, path, 1);
		t = probe.mtime >= kept(made, fs->mtime_gran) && probe.mtime <= done ?
			    probe.mtime : made;
		outcome_set(o, "PASS", "open O_CREAT at %lld", (long long)made);
		read_back(o, kind, how, fs, path, t, t);
		outcome_append(o, "%s", note);
		return;
	}
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
	if (fs->disk.type)
		disk_evict(fs->disk.dir, note, sizeof(note));
	outcome_set(o, "PASS", "%s tv_sec %lld ok", call, (long long)passed);
	read_back(o, kind, how, fs, path, t, passed);
	outcome_append(o, "%s", note);
}

/*
 * Every case: a filesystem, a point in time (the case's name is fs_point),
 * how it is set and read, the time, and the phase (set: from 03:14:07.5;
 * after: the clock ticked over the overflow); each a LIBC and a RAW row of
 * file_case over the same struct file_point.
 */
#if !Y2038_FILES_ON_DISKS
#define FILE_CASES(X) \
	TIMES_SET(X, tmpfs) \
	X(tmpfs, stat_2038after, STAT, T_2038AFTER, set) \
	X(tmpfs, stat_2106, STAT, T_2106, set) \
	TIMES_SET(X, ext4_256) \
	TIMES_SET(X, ext4_128)
#else
/* The filesystems boots: every filesystem, side by side on one kernel. */
#define FILE_CASES(X) \
	DISK_CASES(X, tmpfs) \
	DISK_CASES(X, ext4_256) \
	DISK_CASES(X, ext4_128) \
	DISKS(X##_ON_DISK)
/* A disk's cases, X LIBC_CASE or RAW_CASE: DISK_CASES, READ_CASES if RO. */
#define LIBC_CASE_ON_DISK(id, name, type, rw, ...)	CASES_##rw(LIBC_CASE, id)
#define RAW_CASE_ON_DISK(id, name, type, rw, ...)	CASES_##rw(RAW_CASE, id)
#define CASES_RW	DISK_CASES
#define CASES_RO	READ_CASES
#endif
/* The times every filesystem gets, HOW at PHASE: the matrix's... */
#define MATRIX_POINTS(X, fs, how, phase) \
	X(fs, 2038before, how, T_2038BEFORE, phase) \
	X(fs, 2038max, how, T_2038MAX, phase) \
	X(fs, 2038after, how, T_2038AFTER, phase) \
	X(fs, 2106, how, T_2106, phase) \
	X(fs, 2262, how, T_2262, phase) \
	X(fs, 2446max, how, T_2446MAX, phase) \
	X(fs, 2446after, how, T_2446AFTER, phase)
/* ...and in the filesystems boots the limits of FAT and XFS bigtime too. */
#define DISK_POINTS(X, fs, how, phase) \
	X(fs, 2107, how, T_2107, phase) \
	X(fs, 2108, how, T_2108, phase) \
	X(fs, 2486max, how, T_2486MAX, phase) \
	X(fs, 2486after, how, T_2486AFTER, phase)
/* The times set on every filesystem, by utimensat and once by futimens. */
#define TIMES_SET(X, fs) \
	MATRIX_POINTS(X, fs, UTIMENSAT, set) \
	X(fs, futimens_2038after, FUTIMENS, T_2038AFTER, set)
/* ...and on a filesystems boot's: a file made after the overflow, and a
 * legacy stat of what time64 set. */
#define DISK_CASES(X, fs) \
	TIMES_SET(X, fs) \
	DISK_POINTS(X, fs, UTIMENSAT, set) \
	X(fs, stat_2038after, STAT, T_2038AFTER, set) \
	X(fs, stat_2106, STAT, T_2106, set) \
	X(fs, created_after, CREATE, 0, after)
/* A read-only image's files, made on the host at each time, read back. */
#define READ_CASES(X, fs) \
	MATRIX_POINTS(X, fs, READ, after) \
	DISK_POINTS(X, fs, READ, after)
#define PHASE_set	Y2038_SET_PAST
#define PHASE_after	Y2038_AFTER

#define FILE_CASE(kind, fs, point, how, t, phase) \
	{ #fs "_" #point, kind, PHASE_##phase, .run_arg = file_case, \
	  .arg = &(const struct file_point){ &fs_##fs, how, t } },
#define LIBC_CASE(fs, point, how, t, phase)	FILE_CASE(LIBC, fs, point, how, t, phase)
#define RAW_CASE(fs, point, how, t, phase)	FILE_CASE(RAW, fs, point, how, t, phase)

static const struct y2038_case cases[] = {
	FILE_CASES(LIBC_CASE)
	FILE_CASES(RAW_CASE)
};

Y2038_MAIN(cases)
