// SPDX-License-Identifier: GPL-2.0
/*
 * mkinitramfs - write a lab guest's initramfs as an uncompressed newc cpio.
 *
 *   mkinitramfs OUT.cpio INIT [SCENARIO | DEST=SRC]...
 *
 * The archive holds /dev/console (so the kernel can give init its stdio),
 * the mount points guest-init uses, INIT as /init, each SCENARIO as
 * /scenarios/<basename>, and each DEST=SRC (data a scenario needs, such as
 * a filesystem image) as /DEST, whose directory must be one of those. Written here rather than with cpio(1) because a
 * device node needs no root this way, and every mtime is 0 so the same inputs
 * give the same bytes. Uncompressed: the kernel unpacks it fastest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static unsigned int next_ino = 1;

static void pad4(FILE *out, unsigned long n)
{
	while (n++ % 4)
		fputc(0, out);
}

static void entry(FILE *out, const char *name, unsigned int mode,
		  unsigned int rdev_major, unsigned int rdev_minor,
		  const char *data, unsigned long size)
{
	unsigned long namesize = strlen(name) + 1;

	fprintf(out, "070701%08X%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X%08lX%08X",
		next_ino++, mode, 0, 0, 1, 0, size, 0, 0, rdev_major,
		rdev_minor, namesize, 0);
	fwrite(name, 1, namesize, out);
	pad4(out, 110 + namesize);
	if (size) {
		fwrite(data, 1, size, out);
		pad4(out, size);
	}
}

static char *slurp(const char *path, unsigned long *size)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "mkinitramfs: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	buf = malloc(n ? n : 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		fprintf(stderr, "mkinitramfs: %s: cannot read\n", path);
		exit(1);
	}
	fclose(f);
	*size = n;
	return buf;
}

static void file(FILE *out, const char *name, const char *path)
{
	unsigned long size;
	char *data = slurp(path, &size);

	entry(out, name, S_IFREG | 0755, 0, 0, data, size);
	free(data);
}

int main(int argc, char **argv)
{
	static const char *const dirs[] = {
		"dev", "proc", "sys", "tmp", "mnt", "scenarios", "images",
	};
	char tmp[4096];
	FILE *out;
	size_t i;
	int a;

	if (argc < 3) {
		fprintf(stderr, "usage: mkinitramfs OUT.cpio INIT [SCENARIO | DEST=SRC]...\n");
		return 2;
	}
	/* Written aside and renamed: a guest booting the old one keeps it. */
	snprintf(tmp, sizeof(tmp), "%s.%ld", argv[1], (long)getpid());
	out = fopen(tmp, "wb");
	if (!out) {
		fprintf(stderr, "mkinitramfs: %s: %s\n", tmp, strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		entry(out, dirs[i], S_IFDIR | (strcmp(dirs[i], "tmp") ? 0755 : 01777),
		      0, 0, NULL, 0);
	entry(out, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0);
	file(out, "init", argv[2]);
	for (a = 3; a < argc; a++) {
		const char *eq = strchr(argv[a], '=');
		const char *base = strrchr(argv[a], '/');
		char name[256];

		if (eq) {
			snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[a]), argv[a]);
			file(out, name, eq + 1);
			continue;
		}
		snprintf(name, sizeof(name), "scenarios/%s", base ? base + 1 : argv[a]);
		file(out, name, argv[a]);
	}
	entry(out, "TRAILER!!!", 0, 0, 0, NULL, 0);
	if (fclose(out) || rename(tmp, argv[1])) {
		fprintf(stderr, "mkinitramfs: %s: %s\n", argv[1], strerror(errno));
		unlink(tmp);
		return 1;
	}
	return 0;
}
