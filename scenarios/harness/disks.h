/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/disks.h - the filesystems a case writes to and reads back, each
 * mounted by whichever case needs it first: an image in the initramfs on a
 * loop device, or a virtio-blk disk found by its serial (the filesystems
 * boots attach each image as a disk whose serial is its name). Only in a
 * lab guest (lab->can_mount). The files family includes it after
 * harness.h, with _GNU_SOURCE defined (syncfs).
 *
 *   static const struct disk d = { .type = "ext4", .dir = "/mnt/ext4-256",
 *                                  .image = "/images/ext4-256.img" };
 *
 *   disk_mount(o, &d)               mounted (0), or -1 and o is the ERROR
 *                                   that says what is missing
 *   disk_ts_warning(d.dir, note, n) the kernel's mount-time warning that its
 *                                   timestamps end within 30 years, or ""
 *   disk_evict(d.dir, note, n)      written out and its inodes evicted: the
 *                                   next stat reads what the disk stored
 *                                   (note says when it could not be)
 */
#ifndef Y2038_HARNESS_DISKS_H
#define Y2038_HARNESS_DISKS_H

#include <dirent.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "outcome.h"

/* A filesystem to mount: an image on a loop device, or a disk. */
struct disk {
	const char *type;	/* mount(2)'s type */
	const char *dir;	/* where it is mounted */
	const char *image;	/* a loop image in the initramfs, or NULL: */
	const char *serial;	/* the disk with this serial (/sys/block/vd*) */
	int readonly;		/* mounted read-only: an image made on the host */
};

/* Whether something is mounted on dir (/proc/mounts). */
static inline int mounted(const char *dir)
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
static inline int open_loop(int n, char *dev, size_t len)
{
	int fd;

	snprintf(dev, len, "/dev/loop%d", n);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT &&
	    !mknod(dev, S_IFBLK | 0600, makedev(7, n)))
		fd = open(dev, O_RDWR | O_CLOEXEC);
	return fd;
}

/* Attach image to a free loop device; its name in dev. 0, or the call that failed. */
static inline const char *attach_loop(const char *image, char *dev, size_t len)
{
	const char *call = image;
	int ctl = -1, imgfd, loopfd = -1, n;
	struct loop_config cfg;

	imgfd = open(image, O_RDWR | O_CLOEXEC);
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
	loopfd = open_loop(n, dev, len);
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
	call = NULL;
out:
	if (loopfd >= 0)
		close(loopfd);	/* the mount keeps the loop device bound */
	if (ctl >= 0)
		close(ctl);
	if (imgfd >= 0)
		close(imgfd);
	return call;
}

/* The virtio-blk disk whose serial is serial: /dev/vdX in dev. 0, or -1. */
static inline int find_disk(const char *serial, char *dev, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while (!found && (e = readdir(d))) {
		char path[300], got[64] = "";
		FILE *f;

		if (strncmp(e->d_name, "vd", 2))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/serial", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(got, sizeof(got), f))
			got[strcspn(got, "\n")] = '\0';
		fclose(f);
		if (!strcmp(got, serial)) {
			snprintf(dev, len, "/dev/%.20s", e->d_name);
			found = 1;
		}
	}
	closedir(d);
	errno = found ? 0 : ENODEV;
	return found ? 0 : -1;
}

/*
 * Mount d on its dir (its image on a loop device, or its disk), unless an
 * earlier case already did: cases run in any order, each in a fresh child.
 * 0, or -1 with the outcome set to ERROR.
 */
static inline int disk_mount(struct outcome *o, const struct disk *d)
{
	char dev[32], call[64];
	const char *failed;

	if (mounted(d->dir))
		return 0;
	mkdir(d->dir, 0755);
	if (d->image) {
		failed = attach_loop(d->image, dev, sizeof(dev));
		if (failed) {
			outcome_set(o, "ERROR",
				    "%s: errno %d %s: is CONFIG_BLK_DEV_LOOP built in, is %s in the initramfs?",
				    failed, errno, errno_name(errno), d->image);
			return -1;
		}
	} else if (find_disk(d->serial, dev, sizeof(dev))) {
		outcome_set(o, "ERROR",
			    "no disk with serial %s in /sys/block: is its image (FS_IMAGES) attached, and CONFIG_VIRTIO_BLK built in?",
			    d->serial);
		return -1;
	}
	snprintf(call, sizeof(call), "mount %s %s", d->type, dev);
	/* EBUSY: a case started beside this one mounted it first */
	if (mount(dev, d->dir, d->type, d->readonly ? MS_RDONLY : 0, NULL) &&
	    !(errno == EBUSY && mounted(d->dir))) {
		outcome_set(o, "ERROR",
			    "%s: errno %d %s: is its driver built in (patches/config/flavour-filesystems.config)?",
			    call, errno, errno_name(errno));
		return -1;
	}
	return 0;
}

/*
 * Make the next stat read what the filesystem stored, not the inode the
 * kernel keeps: write it out and evict it (dentries and inodes). Says in
 * note when it could not.
 */
static inline void disk_evict(const char *dir, char *note, size_t len)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ok = 0;

	if (fd >= 0) {
		ok = !syncfs(fd);
		close(fd);
	}
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	ok = ok && fd >= 0 && write(fd, "2\n", 2) == 2;
	if (fd >= 0)
		close(fd);
	if (!ok)
		snprintf(note + strlen(note), len - strlen(note),
			 "; read from the inode cache (syncfs or drop_caches: errno %d %s)",
			 errno, errno_name(errno));
}

/*
 * The kernel's mount-time warning about dir ("ext4 filesystem being mounted
 * at DIR supports timestamps until 2038-01-19 (0x7fffffff)"), shortened into
 * note, or "". It is printed once per superblock, maybe by an earlier case:
 * a fresh open of /dev/kmsg reads the whole buffer from its oldest record.
 */
static inline void disk_ts_warning(const char *dir, char *note, size_t len)
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

#endif
