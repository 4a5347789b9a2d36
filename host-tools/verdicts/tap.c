// SPDX-License-Identifier: GPL-2.0
/*
 * tap.c - parse guest TAP: top-level lines from guest-init, each scenario's
 * own TAP nested under "# ", and what else reached the port. Input is
 * untrusted (a guest may die mid-line), so every short field is bounded
 * (a detail and a comment are kept whole) and anything unreadable is
 * counted, not trusted.
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

/* "ok N rest" or "not ok N rest": 1 and *ok, *number and *rest set, else 0. */
static int result_line(const char *line, int *ok, int *number, const char **rest)
{
	const char *p;
	long n = 0;

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
	while (*p >= '0' && *p <= '9') {
		if (n < 1000000000)
			n = n * 10 + (*p - '0');
		p++;
	}
	while (*p == ' ')
		p++;
	*number = (int)n;
	*rest = p;
	return 1;
}

/* Add a copy of text to a list of notes. 0, or -1 on ENOMEM. */
static int add_note(struct tap_note **notes, size_t *n, int line, const char *text)
{
	struct tap_note *more = realloc(*notes, (*n + 1) * sizeof(**notes));
	char *copy = strdup(text);

	if (more)
		*notes = more;
	if (!more || !copy) {
		free(copy);
		return -1;
	}
	more[*n].line = line;
	more[*n].text = copy;
	(*n)++;
	return 0;
}

/* "Totals: pass:N fail:N xfail:N xpass:N skip:N error:N" */
static void totals_line(struct tap_binary *b, const char *text)
{
	struct tap_totals t;

	if (sscanf(text, "Totals: pass:%d fail:%d xfail:%d xpass:%d skip:%d error:%d",
		   &t.pass, &t.fail, &t.xfail, &t.xpass, &t.skip, &t.error) == 6) {
		b->totals = t;
		b->has_totals = 1;
	}
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
static int add_cell(struct tap_run *run, struct tap_binary *b, int line, int ok,
		    int number, const char *rest)
{
	struct tap_cell c, *cells;
	const char *p = rest, *hash;

	memset(&c, 0, sizeof(c));
	c.line = line;
	c.ok = ok;
	c.number = number;
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
	c.detail = strdup(p);
	cells = c.detail ? realloc(b->cells, (b->ncells + 1) * sizeof(*cells)) : NULL;
	if (!cells) {
		free(c.detail);
		return -1;
	}
	b->cells = cells;
	b->cells[b->ncells++] = c;
	return 0;
}

static int nested_line(struct tap_run *run, struct tap_binary *b, int lineno,
		       const char *line)
{
	const char *rest;
	int ok, number;

	if (starts_with(line, "Bail out!")) {
		copy_field(b->bail, sizeof(b->bail), line + 9 + (line[9] == ' '),
			   strlen(line + 9 + (line[9] == ' ')));
		return 0;
	}
	if (plan_line(line) >= 0) {
		b->plan = plan_line(line);
		return 0;
	}
	if (starts_with(line, "# ")) {
		/* its comments, kept; some of them say what it is */
		if (starts_with(line, "# raw cases: none"))
			b->libc_only = 1;
		else if (starts_with(line, "# cases: the session's own"))
			b->own_cases = 1;
		else if (starts_with(line, "# libc: "))
			copy_field(b->libc, sizeof(b->libc), line + 8, strlen(line + 8));
		else if (starts_with(line, "# Totals: "))
			totals_line(b, line + 2);
		return add_note(&b->notes, &b->nnotes, lineno, line + 2);
	}
	if (result_line(line, &ok, &number, &rest)) {
		size_t malformed = run->malformed;

		if (add_cell(run, b, lineno, ok, number, rest))
			return -1;
		/*
		 * A result line not in the lab's form (a kselftest's own, as
		 * make hrtimer-check boots one) is kept with the program's
		 * comments, whole: what was observed is never dropped.
		 */
		if (run->malformed != malformed)
			return add_note(&b->notes, &b->nnotes, lineno, line);
	}
	return 0;
}

#define BINARY_PREFIX "selftests: y2038: "

static int top_line(struct tap_run *run, struct tap_binary **cur, int lineno,
		    const char *line)
{
	const char *rest;
	int ok, number;

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
			return nested_line(run, *cur, lineno, line + 2);
		return add_note(&run->notes, &run->nnotes, lineno, line + 2);
	} else if (result_line(line, &ok, &number, &rest)) {
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
	} else if (line[0] && line[0] != '#' && plan_line(line) < 0) {
		/* not TAP: kept, for a reader of what else was on the port */
		return add_note(&run->text, &run->ntext, lineno, line);
	}
	return 0;
}

int tap_parse(const char *buf, size_t len, struct tap_run *run)
{
	struct tap_binary *cur = NULL;
	char *line = malloc(len + 1);	/* the longest line fits */
	size_t i = 0;
	int lineno = 0;

	memset(run, 0, sizeof(*run));
	run->plan = -1;
	if (!line)
		return -1;
	while (i < len) {
		size_t n = 0;

		while (i < len && buf[i] != '\n') {
			/* A console may add \r; a dying guest may add NULs. */
			if (buf[i] != '\r' && buf[i] != '\0')
				line[n++] = buf[i];
			i++;
		}
		if (i >= len)
			break;	/* a last line without its newline was cut */
		i++;
		line[n] = '\0';
		if (top_line(run, &cur, ++lineno, line)) {
			free(line);
			tap_free(run);
			return -1;
		}
	}
	free(line);
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

static void free_notes(struct tap_note **notes, size_t *n)
{
	size_t i;

	for (i = 0; i < *n; i++)
		free((*notes)[i].text);
	free(*notes);
	*notes = NULL;
	*n = 0;
}

void tap_free(struct tap_run *run)
{
	size_t i, k;

	for (i = 0; i < run->nbins; i++) {
		for (k = 0; k < run->bins[i].ncells; k++)
			free(run->bins[i].cells[k].detail);
		free(run->bins[i].cells);
		free_notes(&run->bins[i].notes, &run->bins[i].nnotes);
	}
	free(run->bins);
	run->bins = NULL;
	run->nbins = 0;
	free_notes(&run->notes, &run->nnotes);
	free_notes(&run->text, &run->ntext);
}
