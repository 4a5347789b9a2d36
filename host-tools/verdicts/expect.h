/* SPDX-License-Identifier: GPL-2.0 */
/* expect.h - the expectations table (expectations.tsv). */
#ifndef Y2038_EXPECT_H
#define Y2038_EXPECT_H

#include <stddef.h>

struct expect_row {
	char scenario[32], name[64], phase[16];	/* may be "*" */
	char abi[16], config[24], patches[8];	/* may be "*" */
	char kernel[48];	/* "*", or conditions on its version: ">=6.12,<6.16" */
	char libc[32];		/* "*", "glibc-2.41", or a prefix: "musl-*"; as long as tap.h's */
	char machine[32];	/* a machine or a kernel ARCH, or "*" */
	char accel[16];		/* how it ran (kvm, tcg, native, qemu-user), or "*" */
	char expected[16];
	char reason[256];
	int line;
};

/* A reason several rows share, written once: "@name<TAB>text". */
struct expect_reason {
	char name[48];
	char text[256];
};

struct expect_table {
	struct expect_row *rows;
	size_t nrows;
	struct expect_reason *reasons;
	size_t nreasons;
	char path[256];
};

/* One cell of the matrix, as the collector looks it up. */
struct expect_cell {
	const char *scenario, *name, *phase, *abi;
	const char *libc;	/* "glibc-2.36", "musl-1.2.5", or "-" (raw, kernel) */
	const char *config;	/* compat32-y, compat32-n, or a host column */
	const char *patches;	/* lab or none */
	const char *machine;	/* machines/<machine>.mk */
	const char *karch;	/* its kernel ARCH, or "" */
	const char *accel;	/* how it ran: kvm, tcg, native or qemu-user */
	const char *kernel;	/* its version (the Debian one: 6.1.192-3, 7.3~rc7-1~exp1), or NULL */
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

/*
 * The row that decides a cell, or NULL: the first that matches it. A host
 * column's cell (config libfaketime...) is matched by the rows naming its
 * column first; where none does, it is judged as the machine's cell of the
 * config results-record.h names for it (compat32-y).
 */
const struct expect_row *expect_lookup(const struct expect_table *t,
				       const struct expect_cell *cell);

/*
 * Does a row's kernel condition ("*", or comma-separated >=V, >V, <=V, <V,
 * =V) hold for a kernel version? Versions compare as numbers, component
 * by component, a missing one 0: 6.12 is 6.12.0; a kernel's Debian
 * version counts as its upstream one (6.1.192-3 is 6.1.192, and a
 * release candidate, 7.3~rc7-1~exp1, is 7.3). 1, 0, or -1 for a
 * condition that does not parse.
 */
int expect_kernel_holds(const char *condition, const char *version);

/* Is class a known outcome class (PASS, WRAP, ..., or an errno name)? */
int outcome_class_valid(const char *class);

/* Is config one of results-record.h's configs? */
int expect_config_known(const char *config);
/* Is config a host column (run on this machine, not a kernel config)? */
int expect_host_column(const char *config);

#endif
