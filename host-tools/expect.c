// SPDX-License-Identifier: GPL-2.0
/*
 * expect.c - read expectations.tsv: one row per (scenario, case, phase, abi,
 * config, patches, arch) with the expected outcome and the reason for it. All
 * but the scenario may be "*"; the first matching row wins. A table that cannot be read
 * exactly is rejected whole, with the line that is wrong: a verdict is only
 * as true as the expectation it is judged against.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expect.h"

static const char *const fixed_classes[] = {
	"PASS", "WRAP", "CLAMP", "EARLY", "WRONG", "TIMEOUT", "CRASH", "ERROR",
	"SKIP", "LISTED", "ABSENT", "UNSET",
};

int outcome_class_valid(const char *class)
{
	size_t i;

	for (i = 0; i < sizeof(fixed_classes) / sizeof(fixed_classes[0]); i++)
		if (!strcmp(class, fixed_classes[i]))
			return 1;
	/* an errno name: E followed by capitals and digits */
	if (class[0] != 'E' || !class[1])
		return 0;
	for (i = 1; class[i]; i++)
		if (!((class[i] >= 'A' && class[i] <= 'Z') ||
		      (class[i] >= '0' && class[i] <= '9')))
			return 0;
	return 1;
}

static int one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(s, *set))
			return 1;
	return 0;
}

static const char *const abis[] = { "legacy", "time64", "raw32", "raw64", "kernel", "*", NULL };
static const char *const configs[] = {
	"compat32=y", "compat32=n", "libfaketime", "libfaketime-static", "*", NULL
};
static const char *const patch_sets[] = { "lab", "none", "*", NULL };

static int field_ok(const char *f, size_t len, size_t size)
{
	return len > 0 && len < size && !memchr(f, ' ', len);
}

/* Does row a match everything row b matches? */
static int covers(const struct expect_row *a, const struct expect_row *b)
{
	return !strcmp(a->scenario, b->scenario) &&
	       (!strcmp(a->name, "*") || !strcmp(a->name, b->name)) &&
	       (!strcmp(a->phase, "*") || !strcmp(a->phase, b->phase)) &&
	       (!strcmp(a->abi, "*") || !strcmp(a->abi, b->abi)) &&
	       (!strcmp(a->config, "*") || !strcmp(a->config, b->config)) &&
	       (!strcmp(a->patches, "*") || !strcmp(a->patches, b->patches)) &&
	       (!strcmp(a->arch, "*") || !strcmp(a->arch, b->arch));
}

#define NCOLS 9

static int parse_row(char *line, int lineno, struct expect_row *r,
		     const char *name, char *err, size_t errlen)
{
	char *col[NCOLS];
	size_t size[NCOLS - 1] = {
		sizeof(r->scenario), sizeof(r->name), sizeof(r->phase),
		sizeof(r->abi), sizeof(r->config), sizeof(r->patches),
		sizeof(r->arch), sizeof(r->expected),
	};
	char *dst[NCOLS - 1] = {
		r->scenario, r->name, r->phase, r->abi, r->config, r->patches,
		r->arch, r->expected,
	};
	int n = 0, i;
	char *p = line;

	memset(r, 0, sizeof(*r));
	r->line = lineno;
	col[n++] = p;
	while (n < NCOLS && (p = strchr(p, '\t'))) {
		*p++ = '\0';
		col[n++] = p;
	}
	if (n != NCOLS) {
		snprintf(err, errlen, "%s:%d: %d tab-separated columns, want %d (scenario case phase abi config patches arch expected reason)",
			 name, lineno, n, NCOLS);
		return -1;
	}
	for (i = 0; i < NCOLS - 1; i++) {
		if (!field_ok(col[i], strlen(col[i]), size[i])) {
			snprintf(err, errlen, "%s:%d: column %d is empty, too long or has a space",
				 name, lineno, i + 1);
			return -1;
		}
		strcpy(dst[i], col[i]);
	}
	/* A case or phase "*" is a rule for a whole column (libfaketime's raw
	 * syscalls); the scenario is always named, its cases come from rows. */
	if (!strcmp(r->scenario, "*")) {
		snprintf(err, errlen, "%s:%d: the scenario must be named, not \"*\"",
			 name, lineno);
		return -1;
	}
	if (!one_of(r->abi, abis)) {
		snprintf(err, errlen, "%s:%d: unknown abi \"%s\" (legacy, time64, raw32, raw64, kernel or *)",
			 name, lineno, r->abi);
		return -1;
	}
	if (!one_of(r->config, configs)) {
		snprintf(err, errlen, "%s:%d: unknown config \"%s\" (compat32=y, compat32=n, libfaketime, libfaketime-static or *)",
			 name, lineno, r->config);
		return -1;
	}
	if (!one_of(r->patches, patch_sets)) {
		snprintf(err, errlen, "%s:%d: unknown patches \"%s\" (lab, none or *)",
			 name, lineno, r->patches);
		return -1;
	}
	if (!outcome_class_valid(r->expected)) {
		snprintf(err, errlen, "%s:%d: \"%s\" is not an outcome class to expect",
			 name, lineno, r->expected);
		return -1;
	}
	if (!*col[NCOLS - 1] || strlen(col[NCOLS - 1]) >= sizeof(r->reason)) {
		snprintf(err, errlen, "%s:%d: the reason is empty or too long",
			 name, lineno);
		return -1;
	}
	strcpy(r->reason, col[NCOLS - 1]);
	return 0;
}

int expect_parse(const char *buf, size_t len, const char *name,
		 struct expect_table *t, char *err, size_t errlen)
{
	size_t i = 0, j;
	int lineno = 0;
	char line[1024];

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", name);
	while (i < len) {
		struct expect_row row, *rows;
		size_t n = 0;

		lineno++;
		while (i < len && buf[i] != '\n') {
			if (n >= sizeof(line) - 1 || buf[i] == '\0') {
				snprintf(err, errlen, "%s:%d: line too long or not text",
					 name, lineno);
				goto fail;
			}
			line[n++] = buf[i++];
		}
		i++;
		if (n && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		if (!n || line[0] == '#')
			continue;
		if (parse_row(line, lineno, &row, name, err, errlen))
			goto fail;
		for (j = 0; j < t->nrows; j++)
			if (covers(&t->rows[j], &row)) {
				snprintf(err, errlen, "%s:%d: never used: line %d already matches every cell it would",
					 name, lineno, t->rows[j].line);
				goto fail;
			}
		rows = realloc(t->rows, (t->nrows + 1) * sizeof(*rows));
		if (!rows) {
			snprintf(err, errlen, "%s: out of memory", name);
			goto fail;
		}
		t->rows = rows;
		t->rows[t->nrows++] = row;
	}
	if (!t->nrows) {
		snprintf(err, errlen, "%s: no expectations in it", name);
		goto fail;
	}
	return 0;
fail:
	expect_free(t);
	return -1;
}

int expect_load(const char *path, struct expect_table *t, char *err,
		size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 4096);

			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	ret = expect_parse(buf, len, path, t, err, errlen);
	free(buf);
	return ret;
}

void expect_free(struct expect_table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

const struct expect_row *expect_lookup(const struct expect_table *t,
				       const char *scenario, const char *name,
				       const char *phase, const char *abi,
				       const char *config, const char *patches,
				       const char *arch)
{
	struct expect_row cell;
	size_t i;

	snprintf(cell.scenario, sizeof(cell.scenario), "%s", scenario);
	snprintf(cell.name, sizeof(cell.name), "%s", name);
	snprintf(cell.phase, sizeof(cell.phase), "%s", phase);
	snprintf(cell.abi, sizeof(cell.abi), "%s", abi);
	snprintf(cell.config, sizeof(cell.config), "%s", config);
	snprintf(cell.patches, sizeof(cell.patches), "%s", patches);
	snprintf(cell.arch, sizeof(cell.arch), "%s", arch);
	for (i = 0; i < t->nrows; i++)
		if (covers(&t->rows[i], &cell))
			return &t->rows[i];
	return NULL;
}
