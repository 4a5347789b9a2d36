// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-record.c - libFuzzer target for the boot record's reader
 * (host-tools/verdicts/read-record.c): make lava-collect writes a boot's
 * record from what a LAVA server answers, and the collector reads it back.
 * The input is a boot folder: up to its first form feed, the plan; the
 * rest, the meta (no form feed: no plan at all). Every value must lie in
 * its file's text, end before its end and hold no newline, and be what a
 * plain reading of the lines gives: KEY=VALUE, the last of a key, nothing
 * after a NUL, meta's over the plan's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../host-tools/verdicts/collect-write.h"

static const char *const keys[] = {
#define KEY(key, size, what) #key,
	BOOT_RECORD_KEYS(KEY)
#undef KEY
};

static char dir[PATH_MAX];

static void remove_dir(void)
{
	char path[PATH_MAX + 8];

	snprintf(path, sizeof(path), "%s/plan", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/meta", dir);
	unlink(path);
	rmdir(dir);
}

/* FILE in the boot folder holds data[0..size), or is not there (data NULL). */
static void put(const char *file, const char *data, size_t size)
{
	char path[PATH_MAX + 8];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!data) {
		unlink(path);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd))
		abort();
}

/* The value the last "KEY=" line of data (up to its first NUL) gives, or NULL. */
static const char *expected(const char *data, size_t size, const char *key, size_t *len)
{
	const char *p = data, *end, *found = NULL;
	size_t klen = strlen(key);

	if (!data)
		return NULL;
	end = memchr(data, '\0', size);
	end = end ? end : data + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *eol = nl ? nl : end;

		if ((size_t)(eol - p) > klen && !memcmp(p, key, klen) && p[klen] == '=') {
			found = p + klen + 1;
			*len = eol - found;
		}
		p = eol + 1;
	}
	return found;
}

/* v lies in text (len bytes) and ends within it. */
static int inside(const char *v, const char *text, size_t len)
{
	return text && v >= text && v <= text + len && strlen(v) <= len - (size_t)(v - text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *ff = memchr(in, '\f', size);
	const char *plan = ff ? in : NULL, *meta = ff ? ff + 1 : in;
	size_t plan_len = ff ? (size_t)(ff - in) : 0, meta_len = size - (ff ? plan_len + 1 : 0);
	struct record r;
	size_t i;

	if (!dir[0]) {
		/* two files written per input: in memory where there is /dev/shm */
		snprintf(dir, sizeof(dir), "%s/fuzz-record.XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
	}
	put("plan", plan, plan_len);
	put("meta", meta, meta_len);
	read_record(dir, &r);
	if (!r.text || !plan != !r.plan_text)
		abort();	/* a file that is there is read, one that is not is not */
	for (i = 0; i < NBOOT_KEYS; i++) {
		const char *v = r.value[i], *want;
		size_t want_len = 0;
		int from_meta;

		want = expected(meta, meta_len, keys[i], &want_len);
		from_meta = want != NULL;
		if (!want)
			want = expected(plan, plan_len, keys[i], &want_len);
		if (!v != !want)
			abort();	/* a key read that is not there, or missed */
		if (!v)
			continue;
		if (from_meta ? !inside(v, r.text, meta_len) : !inside(v, r.plan_text, plan_len))
			abort();	/* not in its file's text, or not ended within it */
		if (strchr(v, '\n') || strlen(v) != want_len || memcmp(v, want, want_len))
			abort();	/* not the line's value */
	}
	free_record(&r);
	return 0;
}
