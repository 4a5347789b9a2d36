/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read-file.h - a whole file into memory, for the host tools' parsers
 * (kernel/kconfig-parse.c, verdicts/expect.c, verdicts/y2038-collect.c).
 */
#ifndef Y2038_READ_FILE_H
#define Y2038_READ_FILE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The file's bytes, NUL-terminated (it may hold NULs: *len says how many),
 * to free(); NULL with "path: why" in err when it cannot be read.
 */
static inline char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, n;

	*len = 0;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (*len + 65536 + 1 > cap) {
			nb = realloc(buf, cap = cap * 2 + 65536 + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
	} while (n);
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

/*
 * Read path whole and hand it to parse(buf, len, path, out, err, errlen), a
 * parser of the buffer; its result, or -1 when the file cannot be read.
 */
static inline int parse_file(const char *path, void *out,
			     int (*parse)(const char *buf, size_t len, const char *name,
					  void *out, char *err, size_t errlen),
			     char *err, size_t errlen)
{
	size_t len;
	char *buf = read_file(path, &len, err, errlen);
	int ret;

	if (!buf)
		return -1;
	ret = parse(buf, len, path, out, err, errlen);
	free(buf);
	return ret;
}

/*
 * The next line of buf (len bytes) from *pos into line (size bytes, without
 * its '\n'), *pos moved past it: its length, or -1 when it is too long or
 * not text (a NUL in it), with "name:lineno: ..." in err.
 */
static inline long next_line(const char *buf, size_t len, size_t *pos, char *line,
			     size_t size, const char *name, int lineno, char *err,
			     size_t errlen)
{
	size_t n = 0;

	while (*pos < len && buf[*pos] != '\n') {
		if (n >= size - 1 || buf[*pos] == '\0') {
			snprintf(err, errlen, "%s:%d: line too long or not text", name, lineno);
			return -1;
		}
		line[n++] = buf[(*pos)++];
	}
	(*pos)++;
	line[n] = '\0';
	return n;
}

#endif
