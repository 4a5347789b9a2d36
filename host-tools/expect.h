/* SPDX-License-Identifier: GPL-2.0 */
/* expect.h - the expectations table (expectations.tsv). */
#ifndef Y2038_EXPECT_H
#define Y2038_EXPECT_H

#include <stddef.h>

struct expect_row {
	char scenario[32], name[64], phase[16];	/* exact, never "*" */
	char abi[16], config[24], patches[8];	/* may be "*" */
	char arch[32];				/* may be "*" */
	char expected[16];
	char reason[256];
	int line;
};

struct expect_table {
	struct expect_row *rows;
	size_t nrows;
	char path[256];
};

/*
 * Load and validate a table. On error returns -1 and writes
 * "path:line: what is wrong" into err.
 */
int expect_load(const char *path, struct expect_table *t, char *err,
		size_t errlen);
/* The same, from a buffer (for tests and fuzzing). */
int expect_parse(const char *buf, size_t len, const char *name,
		 struct expect_table *t, char *err, size_t errlen);
void expect_free(struct expect_table *t);

/* The first row that matches the cell, or NULL. */
const struct expect_row *expect_lookup(const struct expect_table *t,
				       const char *scenario, const char *name,
				       const char *phase, const char *abi,
				       const char *config, const char *patches,
				       const char *arch);

/* Is class a known outcome class (PASS, WRAP, ..., or an errno name)? */
int outcome_class_valid(const char *class);

#endif
