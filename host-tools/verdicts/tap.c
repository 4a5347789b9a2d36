// SPDX-License-Identifier: GPL-2.0
/*
 * tap.c - parse guest TAP: top-level lines from guest-init, each scenario's
 * own TAP nested under "# ". Input is untrusted (a guest may die mid-line),
 * so every field is bounded and anything unreadable is counted, not trusted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"

static void copy_field(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* "ok N rest" or "not ok N rest": 1 and *ok and *rest set, else 0. */
static int result_line(const char *line, int *ok, const char **rest)
{
	const char *p;

	if (starts_with(line, "ok ")) {
		*ok = 1;
		p = line + 3;
	} else if (starts_with(line, "not ok ")) {
		*ok = 0;
		p = line + 7;
	} else {
		return 0;
	}
	if (*p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	while (*p == ' ')
		p++;
	*rest = p;
	return 1;
}

/* The next space-separated word of *p, copied into dst. */
static int next_word(const char **p, char *dst, size_t size)
{
	const char *s = *p, *e;

	while (*s == ' ')
		s++;
	e = s;
	while (*e && *e != ' ')
		e++;
	if (e == s)
		return 0;
	copy_field(dst, size, s, e - s);
	*p = e;
	return 1;
}

static int plan_line(const char *line)
{
	char *end;
	long n;

	if (!starts_with(line, "1.."))
		return -1;
	n = strtol(line + 3, &end, 10);
	if (end == line + 3 || n < 0 || n > 1000000)
		return -1;
	return (int)n;
}

static struct tap_binary *add_binary(struct tap_run *run, const char *name)
{
	struct tap_binary *b = realloc(run->bins, (run->nbins + 1) * sizeof(*b));

	if (!b)
		return NULL;
	run->bins = b;
	b = &run->bins[run->nbins++];
	memset(b, 0, sizeof(*b));
	b->plan = -1;
	copy_field(b->name, sizeof(b->name), name, strlen(name));
	return b;
}

/* A scenario's case line: "abi name phase # CLASS detail". */
static int add_cell(struct tap_run *run, struct tap_binary *b, const char *rest)
{
	struct tap_cell c, *cells;
	const char *p = rest, *hash;

	memset(&c, 0, sizeof(c));
	hash = strstr(rest, " # ");
	if (!hash || !next_word(&p, c.abi, sizeof(c.abi)) ||
	    !next_word(&p, c.name, sizeof(c.name)) ||
	    !next_word(&p, c.phase, sizeof(c.phase)) || p != hash) {
		run->malformed++;
		return 0;
	}
	p = hash + 3;
	if (!next_word(&p, c.class, sizeof(c.class))) {
		run->malformed++;
		return 0;
	}
	while (*p == ' ')
		p++;
	copy_field(c.detail, sizeof(c.detail), p, strlen(p));
	cells = realloc(b->cells, (b->ncells + 1) * sizeof(*cells));
	if (!cells)
		return -1;
	b->cells = cells;
	b->cells[b->ncells++] = c;
	return 0;
}

static int nested_line(struct tap_run *run, struct tap_binary *b,
		       const char *line)
{
	const char *rest;
	int ok;

	if (starts_with(line, "Bail out!")) {
		copy_field(b->bail, sizeof(b->bail), line + 9 + (line[9] == ' '),
			   strlen(line + 9 + (line[9] == ' ')));
		return 0;
	}
	if (plan_line(line) >= 0) {
		b->plan = plan_line(line);
		return 0;
	}
	if (starts_with(line, "# raw cases: none")) {
		b->libc_only = 1;
		return 0;
	}
	if (starts_with(line, "# libc: ")) {
		copy_field(b->libc, sizeof(b->libc), line + 8, strlen(line + 8));
		return 0;
	}
	if (result_line(line, &ok, &rest))
		return add_cell(run, b, rest);
	return 0;
}

#define BINARY_PREFIX "selftests: y2038: "

static int top_line(struct tap_run *run, struct tap_binary **cur,
		    const char *line)
{
	const char *rest;
	int ok;

	if (!strcmp(line, "TAP version 13")) {
		run->has_version = 1;
	} else if (plan_line(line) >= 0 && run->plan < 0) {
		run->plan = plan_line(line);
	} else if (starts_with(line, "Bail out!")) {
		copy_field(run->bail, sizeof(run->bail), line, strlen(line));
	} else if (starts_with(line, "# " BINARY_PREFIX)) {
		*cur = add_binary(run, line + 2 + strlen(BINARY_PREFIX));
		if (!*cur)
			return -1;
	} else if (!strcmp(line, "# y2038-init: done")) {
		run->done = 1;
	} else if (starts_with(line, "# ")) {
		if (*cur)
			return nested_line(run, *cur, line + 2);
	} else if (result_line(line, &ok, &rest)) {
		struct tap_binary *b;
		const char *hash;
		char name[64];

		if (!starts_with(rest, BINARY_PREFIX)) {
			run->malformed++;
			return 0;
		}
		rest += strlen(BINARY_PREFIX);
		hash = strstr(rest, " # ");
		copy_field(name, sizeof(name), rest,
			   hash ? (size_t)(hash - rest) : strlen(rest));
		b = tap_find_binary(run, name);
		if (!b) {
			run->malformed++;
			return 0;
		}
		b->has_result = 1;
		b->ok = ok;
		if (hash)
			copy_field(b->directive, sizeof(b->directive), hash + 3,
				   strlen(hash + 3));
		*cur = NULL;
	}
	return 0;
}

int tap_parse(const char *buf, size_t len, struct tap_run *run)
{
	struct tap_binary *cur = NULL;
	char line[1024];
	size_t i = 0;

	memset(run, 0, sizeof(*run));
	run->plan = -1;
	while (i < len) {
		size_t n = 0;

		while (i < len && buf[i] != '\n') {
			/* A console may add \r; a dying guest may add NULs. */
			if (buf[i] != '\r' && buf[i] != '\0' && n < sizeof(line) - 1)
				line[n++] = buf[i];
			i++;
		}
		if (i >= len)
			break;	/* a last line without its newline was cut */
		i++;
		line[n] = '\0';
		if (top_line(run, &cur, line)) {
			tap_free(run);
			return -1;
		}
	}
	return 0;
}

struct tap_binary *tap_find_binary(struct tap_run *run, const char *name)
{
	size_t i;

	for (i = 0; i < run->nbins; i++)
		if (!strcmp(run->bins[i].name, name))
			return &run->bins[i];
	return NULL;
}

void tap_free(struct tap_run *run)
{
	size_t i;

	for (i = 0; i < run->nbins; i++)
		free(run->bins[i].cells);
	free(run->bins);
	run->bins = NULL;
	run->nbins = 0;
}
