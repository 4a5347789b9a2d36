// SPDX-License-Identifier: GPL-2.0
/*
 * scan-util.c - y2038-scan's allocation, which exits on failure, and its
 * lists of strings (struct strv). See scan.h.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scan.h"

__attribute__((noreturn)) void out_of_memory(void)
{
	fputs("y2038-scan: out of memory\n", stderr);
	exit(2);
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

__attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return s;
}

/* Add a formatted string; returns it. */
__attribute__((format(printf, 2, 3))) const char *strv_add(struct strv *s, const char *fmt, ...)
{
	va_list ap;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	va_start(ap, fmt);
	if (vasprintf(&s->v[s->n], fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return s->v[s->n++];
}

int strv_has(const struct strv *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], str))
			return 1;
	return 0;
}

void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* "a, b, c, ... (9 in all)", kept in POOL: at most max names, all if max is 0. */
const char *join(struct strv *pool, const struct strv *s, const char *sep, size_t max)
{
	size_t shown = max && s->n > max ? max : s->n, len = 32;
	char *out;

	for (size_t i = 0; i < shown; i++)
		len += strlen(s->v[i]) + strlen(sep);
	out = xrealloc(NULL, len);
	out[0] = '\0';
	for (size_t i = 0; i < shown; i++)
		strcat(strcat(out, i ? sep : ""), s->v[i]);
	if (shown < s->n)
		sprintf(out + strlen(out), ", ... (%zu in all)", s->n);
	strv_add(pool, "%s", out);
	free(out);
	return pool->v[pool->n - 1];
}

char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return !slash ? xasprintf(".") : xasprintf("%.*s", slash == path ? 1 : (int)(slash - path), path);
}
