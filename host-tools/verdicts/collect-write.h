/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect-write.h - what y2038-collect writes, apart from how it judges:
 * results.json (a record per cell, its keys results-record.h's),
 * results.tap, the matrix (summary.txt and the blocks printed as a run
 * goes), and results-record.h itself as JSON. The collector fills a
 * struct boot per boot folder (y2038-collect.c) and hands them here.
 */
#ifndef Y2038_COLLECT_WRITE_H
#define Y2038_COLLECT_WRITE_H

#include <stddef.h>
#include <stdio.h>
#include "../boot/boot-record.h"
#include "tap.h"

/* The boot record's keys (boot-record.h), as numbers. */
enum boot_key {
#define KEY(key, size, what) BOOT_##key,
	BOOT_RECORD_KEYS(KEY)
#undef KEY
	NBOOT_KEYS
};

/*
 * A boot record as its files have it: each key's whole value, NULL where
 * none. The plan (boot.sh writes it as the boot starts) says what was to be
 * booted; meta, written when it ended, what became of it: a key of meta's
 * wins.
 */
struct record {
	char *text, *plan_text;	/* the files, cut into their values */
	const char *value[NBOOT_KEYS];
};

/*
 * A boot's record (read-record.c, the one reader): its plan (DIR/plan),
 * then what its meta says (DIR/meta) over it; a file that is not there
 * gives no values. The other tools take it from --boot DIR --json.
 */
void read_record(const char *dir, struct record *r);
void free_record(struct record *r);

/* The boot record, field by field, each value cut to its size. */
struct meta {
#define FIELD(key, size, what) char key[size];
	BOOT_RECORD_KEYS(FIELD)
#undef FIELD
};

struct cell {
	char scenario[32], name[64], phase[16], abi[16];
	char column[16];	/* its column in a block (results-record.h) */
	char libc[32];		/* what its program said it ran on, or "-" */
	char expected[16], observed[16];
	char detail[256], reason[256];
	int match;
	int skipped;		/* the machine was not available: not measured */
	int late;		/* it missed its moment (an outcome meaning "late") */
};

struct boot {
	char dir[64];
	struct meta meta;
	struct cell *cells;
	size_t ncells;
	char note[256];		/* why the boot did not finish, or "" */
	int again;		/* booted again alone: its first is boots/.late/<dir> */
};

/* One JSON string, escaped, and "key":"value" with a comma unless last. */
void json_string(FILE *f, const char *s);
void json_field(FILE *f, const char *key, const char *val, int last);

/* results.json: one record per cell of every boot. */
void write_json(FILE *f, const struct boot *boots, size_t nboots);
/* results.tap: one TAP line per cell, ok when it matches. */
void write_tap(FILE *f, const struct boot *boots, size_t nboots);
/*
 * The matrix, one block per boot, each followed by its mismatches, and the
 * closing line; with blocks 0, only the mismatches (naming their boots) and
 * the closing line. Returns the number of mismatches. A late cell (it
 * missed its moment) is neither: it is counted apart, and named.
 */
size_t write_summary(FILE *f, const struct boot *boots, size_t nboots, int blocks);
/*
 * The boots with late cells, one line each: "BOOT<TAB>N<TAB>the first's
 * column, scenario.case.phase and detail" (y2038-collect --late): the
 * ones make run boots again, alone; but not one booted again already.
 */
void write_late(FILE *f, const struct boot *boots, size_t nboots);
/* results-record.h as JSON (y2038-collect --vocabulary). */
void write_vocabulary(FILE *f);
/*
 * One boot folder as JSON (y2038-collect --boot DIR --json), for the tools
 * that read a boot: its name, its record (the keys it has, whole), its TAP
 * as tap.c read it, and the console's panic line (panic_len bytes) or null.
 */
void write_boot_json(FILE *f, const char *name, const struct record *r,
		     const struct tap_run *tap, const char *panic, size_t panic_len);

#endif
