// SPDX-License-Identifier: GPL-2.0
/*
 * expect.c - read expectations.tsv: one row per (scenario, case, phase, abi,
 * libc, config, patches, machine, accel) with the expected outcome and the reason for
 * it, and the reasons several rows share ("@name<TAB>text", used as
 * "@name"). Any column but the outcome may be "*"; the first matching row
 * wins. A table
 * that cannot be read exactly is rejected whole, with the line that is
 * wrong: a verdict is only as true as the expectation it is judged against.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../read-file.h"
#include "expect.h"
#include "results-record.h"

/* The outcome classes (results-record.h); "errno" stands for every errno name. */
static const char *const outcome_classes[] = {
#define OUTCOME(class, meaning, kcidb, what) #class,
	RESULT_OUTCOMES(OUTCOME)
#undef OUTCOME
};

int outcome_class_valid(const char *class)
{
	size_t i;

	for (i = 0; i < sizeof(outcome_classes) / sizeof(outcome_classes[0]); i++)
		if (strcmp(outcome_classes[i], "errno") && !strcmp(class, outcome_classes[i]))
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

/* A cell's ABI: the ABIs of results-record.h's columns (musl's is time64). */
static const char *const abis[] = {
#define COLUMN(column, abi, what) #abi,
	RESULT_COLUMNS(COLUMN)
#undef COLUMN
	"*", NULL
};
/*
 * The configs (results-record.h): a kernel config, or a host column and the
 * config its cells are judged as where no row of its own decides them.
 */
static const struct config {
	const char *name, *where, *judged_as;
} configs[] = {
#define CONFIG(config, where, role, judged_as, heading, what) { #config, #where, #judged_as },
	RESULT_CONFIGS(CONFIG)
#undef CONFIG
};

static const struct config *config_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++)
		if (!strcmp(configs[i].name, name))
			return &configs[i];
	return NULL;
}

int expect_config_known(const char *config)
{
	return config_of(config) != NULL;
}
static const char *const patch_sets[] = { "lab", "none", "*", NULL };
/* The boot record's accel: a guest's accelerator, or how this host ran a column. */
static const char *const accels[] = { "kvm", "tcg", "native", "qemu-user", "*", NULL };

static int field_ok(const char *f, size_t len, size_t size)
{
	return len > 0 && len < size && !memchr(f, ' ', len);
}

int expect_host_column(const char *config)
{
	const struct config *c = config_of(config);

	return c && !strcmp(c->where, "host");
}

static int field_covers(const char *a, const char *b)
{
	return !strcmp(a, "*") || !strcmp(a, b);
}

/*
 * A libc: "*", a name and version ("glibc-2.41"), or all versions of a name
 * ("musl-*": a trailing "*" matches any rest).
 */
static int libc_covers(const char *a, const char *b)
{
	size_t n = strlen(a);

	return field_covers(a, b) || (n > 1 && a[n - 1] == '*' && !strncmp(a, b, n - 1));
}

static int libc_valid(const char *libc)
{
	const char *p = libc;

	if (!strcmp(libc, "*"))
		return 1;
	for (; *p && *p != '*'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
			return 0;
	return p > libc && (!*p || !p[1]);
}

/* A row's config "*" is either kernel config, never a host column. */
static int config_covers(const char *a, const char *b)
{
	return !strcmp(a, b) || (!strcmp(a, "*") && !expect_host_column(b));
}

/* Does row a match everything row b matches? */
static int covers(const struct expect_row *a, const struct expect_row *b)
{
	return field_covers(a->scenario, b->scenario) &&
	       field_covers(a->name, b->name) &&
	       field_covers(a->phase, b->phase) &&
	       field_covers(a->abi, b->abi) &&
	       libc_covers(a->libc, b->libc) &&
	       config_covers(a->config, b->config) &&
	       field_covers(a->patches, b->patches) &&
	       field_covers(a->kernel, b->kernel) &&
	       field_covers(a->machine, b->machine) &&
	       field_covers(a->accel, b->accel);
}

#define NCOLS 12

/* A version's next number (at *p, moved past it and a '.'), or 0. */
static long version_part(const char **p)
{
	long v = 0;

	while (**p >= '0' && **p <= '9')
		v = v * 10 + (*(*p)++ - '0');
	if (**p == '.')
		(*p)++;
	return v;
}

/* <0, 0, >0 as a < b; each stops at anything not a digit or a '.' */
static int version_cmp(const char *a, const char *b)
{
	int i;

	for (i = 0; i < 4; i++) {
		long x = version_part(&a), y = version_part(&b);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

int expect_kernel_holds(const char *condition, const char *version)
{
	const char *p = condition;
	int holds = 1;

	if (!strcmp(condition, "*"))
		return 1;
	while (*p) {
		static const char *const ops[] = { ">=", "<=", ">", "<", "=" };
		const char *op = NULL, *v;
		size_t i;
		int c;

		for (i = 0; i < sizeof(ops) / sizeof(ops[0]) && !op; i++)
			if (!strncmp(p, ops[i], strlen(ops[i])))
				op = ops[i];
		if (!op)
			return -1;
		v = p += strlen(op);
		if (*p < '0' || *p > '9')
			return -1;
		while ((*p >= '0' && *p <= '9') || *p == '.')
			p++;
		if (p[-1] == '.' || (*p && *p != ','))
			return -1;
		if (*p == ',' && !*++p)
			return -1;
		if (!version || !*version) {
			holds = 0;	/* no version: only "*" holds */
			continue;
		}
		c = version_cmp(version, v);
		if (!strcmp(op, ">=") ? c < 0 : !strcmp(op, "<=") ? c > 0 :
		    !strcmp(op, ">") ? c <= 0 : !strcmp(op, "<") ? c >= 0 : c != 0)
			holds = 0;
	}
	return holds;
}

/* Does a reason name a commit: a word of 12 to 40 hex digits? */
static int names_commit(const char *reason)
{
	const char *p = reason;

	while (*p) {
		size_t n = strspn(p, "0123456789abcdef");

		if (n >= 12 && n <= 40 && (p == reason || !strchr("0123456789abcdefABCDEF", p[-1])) &&
		    !((p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
			return 1;
		p += n ? n : 1;
	}
	return 0;
}

/* The text of "@name", or NULL when no reason of that name came before. */
static const char *named_reason(const struct expect_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nreasons; i++)
		if (!strcmp(t->reasons[i].name, name))
			return t->reasons[i].text;
	return NULL;
}

/* "@name<TAB>text": a reason rows may name; names are unique. */
static int parse_reason(char *line, int lineno, struct expect_table *t,
			const char *name, char *err, size_t errlen)
{
	char *tab = strchr(line, '\t');
	struct expect_reason *r;
	size_t i;

	if (!tab || tab == line + 1 || (size_t)(tab - line - 1) >= sizeof(r->name) ||
	    !tab[1] || strchr(tab + 1, '\t')) {
		snprintf(err, errlen, "%s:%d: a named reason is @name<TAB>text", name, lineno);
		return -1;
	}
	if (strlen(tab + 1) >= sizeof(r->text)) {
		snprintf(err, errlen, "%s:%d: a reason's text is at most %zu characters",
			 name, lineno, sizeof(r->text) - 1);
		return -1;
	}
	*tab = '\0';
	for (i = 1; line[i]; i++)
		if (!((line[i] >= 'a' && line[i] <= 'z') || (line[i] >= '0' && line[i] <= '9') ||
		      line[i] == '-' || line[i] == '_')) {
			snprintf(err, errlen, "%s:%d: a reason's name is lower case letters, digits, - and _", name, lineno);
			return -1;
		}
	if (named_reason(t, line + 1)) {
		snprintf(err, errlen, "%s:%d: the reason %s is named twice", name, lineno, line);
		return -1;
	}
	r = realloc(t->reasons, (t->nreasons + 1) * sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	t->reasons = r;
	r = &t->reasons[t->nreasons++];
	memcpy(r->name, line + 1, tab - line);	/* with its '\0' */
	memcpy(r->text, tab + 1, strlen(tab + 1) + 1);
	return 0;
}

static int parse_row(char *line, int lineno, struct expect_row *r,
		     const struct expect_table *t, const char *name,
		     char *err, size_t errlen)
{
	char *col[NCOLS];
	size_t size[NCOLS - 1] = {
		sizeof(r->scenario), sizeof(r->name), sizeof(r->phase),
		sizeof(r->abi), sizeof(r->libc), sizeof(r->config),
		sizeof(r->patches), sizeof(r->kernel), sizeof(r->machine), sizeof(r->accel),
		sizeof(r->expected),
	};
	char *dst[NCOLS - 1] = {
		r->scenario, r->name, r->phase, r->abi, r->libc, r->config,
		r->patches, r->kernel, r->machine, r->accel, r->expected,
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
		snprintf(err, errlen, "%s:%d: %d tab-separated columns, want %d (scenario case phase abi libc config patches kernel machine accel expected reason)",
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
	{
		/* The columns whose values are a vocabulary, and what it is. */
		const struct { const char *column, *value; const char *const *set, *choices; } vocab[] = {
			{ "abi", r->abi, abis, "an ABI of results-record.h's columns, or *" },
			{ "patches", r->patches, patch_sets, "lab, none or *" },
			{ "accel", r->accel, accels, "kvm, tcg, native, qemu-user or *" },
		};

		for (i = 0; i < (int)(sizeof(vocab) / sizeof(vocab[0])); i++)
			if (!one_of(vocab[i].value, vocab[i].set)) {
				snprintf(err, errlen, "%s:%d: unknown %s \"%s\" (%s)", name, lineno,
					 vocab[i].column, vocab[i].value, vocab[i].choices);
				return -1;
			}
	}
	if (strcmp(r->config, "*") && !expect_config_known(r->config)) {
		snprintf(err, errlen, "%s:%d: unknown config \"%s\" (a config of results-record.h, or *)",
			 name, lineno, r->config);
		return -1;
	}
	if (!libc_valid(r->libc)) {
		snprintf(err, errlen, "%s:%d: libc \"%s\" is not *, NAME-VERSION (glibc-2.41) or NAME-* (musl-*)",
			 name, lineno, r->libc);
		return -1;
	}
	if (!outcome_class_valid(r->expected)) {
		snprintf(err, errlen, "%s:%d: \"%s\" is not an outcome class to expect",
			 name, lineno, r->expected);
		return -1;
	}
	if (col[NCOLS - 1][0] == '@') {
		const char *text = named_reason(t, col[NCOLS - 1] + 1);

		if (!text) {
			snprintf(err, errlen, "%s:%d: no reason named %.60s above this row",
				 name, lineno, col[NCOLS - 1]);
			return -1;
		}
		col[NCOLS - 1] = (char *)text;
	}
	if (!*col[NCOLS - 1] || strlen(col[NCOLS - 1]) >= sizeof(r->reason)) {
		snprintf(err, errlen, "%s:%d: the reason is empty or too long",
			 name, lineno);
		return -1;
	}
	strcpy(r->reason, col[NCOLS - 1]);
	if (expect_kernel_holds(r->kernel, "") < 0) {
		snprintf(err, errlen, "%s:%d: kernel \"%s\" is not * or comma-separated conditions (>=6.12,<6.16)",
			 name, lineno, r->kernel);
		return -1;
	}
	if (strcmp(r->kernel, "*") && !names_commit(r->reason)) {
		snprintf(err, errlen, "%s:%d: a row keyed on a kernel names the commit that makes the difference (12 or more hex digits) in its reason",
			 name, lineno);
		return -1;
	}
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
		long n = next_line(buf, len, &i, line, sizeof(line), name, ++lineno, err, errlen);

		if (n < 0)
			goto fail;
		if (n && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		if (!n || line[0] == '#')
			continue;
		if (line[0] == '@') {
			if (parse_reason(line, lineno, t, name, err, errlen))
				goto fail;
			continue;
		}
		if (parse_row(line, lineno, &row, t, name, err, errlen))
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

static int parse_buffer(const char *buf, size_t len, const char *name, void *out,
			char *err, size_t errlen)
{
	return expect_parse(buf, len, name, out, err, errlen);
}

int expect_load(const char *path, struct expect_table *t, char *err, size_t errlen)
{
	return parse_file(path, t, parse_buffer, err, errlen);
}

void expect_free(struct expect_table *t)
{
	free(t->rows);
	free(t->reasons);
	t->rows = NULL;
	t->nrows = 0;
	t->reasons = NULL;
	t->nreasons = 0;
}

/* Does the row match the cell, its config read as config? */
static int row_matches(const struct expect_row *r, const struct expect_cell *c,
		       const char *config)
{
	return field_covers(r->scenario, c->scenario) &&
	       field_covers(r->name, c->name) &&
	       field_covers(r->phase, c->phase) &&
	       field_covers(r->abi, c->abi) &&
	       libc_covers(r->libc, c->libc ? c->libc : "-") &&
	       config_covers(r->config, config) &&
	       field_covers(r->patches, c->patches) &&
	       expect_kernel_holds(r->kernel, c->kernel) == 1 &&
	       (!strcmp(r->machine, "*") || !strcmp(r->machine, c->machine) ||
		(c->karch && !strcmp(r->machine, c->karch))) &&
	       field_covers(r->accel, c->accel ? c->accel : "-");
}

const struct expect_row *expect_lookup(const struct expect_table *t,
				       const struct expect_cell *cell)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (row_matches(&t->rows[i], cell, cell->config))
			return &t->rows[i];
	if (!expect_host_column(cell->config))
		return NULL;
	/* A host column's cell no row of its column decides: as the config it is judged as. */
	for (i = 0; i < t->nrows; i++)
		if (row_matches(&t->rows[i], cell, config_of(cell->config)->judged_as))
			return &t->rows[i];
	return NULL;
}
