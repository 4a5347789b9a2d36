/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - parse the TAP a y2038-lab guest prints (guest-init/runner.h): the
 * runner's own lines, each program's TAP nested under "# ", and whatever
 * else reached the port (a probe's lines). The one parser of it: the other
 * tools read what it found through y2038-collect --boot DIR --json.
 */
#ifndef Y2038_TAP_H
#define Y2038_TAP_H

#include <stddef.h>

/* One case line of a scenario: "ok 3 legacy time after # CLASS detail". */
struct tap_cell {
	int line;		/* its line in the TAP, from 1 */
	int number;		/* its number, 3 */
	int ok;			/* ok, or not ok */
	char abi[16];
	char name[64];
	char phase[16];
	char class[16];
	char *detail;		/* all of it */
};

/* A comment ("# text") or a line that is not TAP, and its line in the TAP. */
struct tap_note {
	int line;
	char *text;		/* after the "# " */
};

/* A program's "# Totals: pass:N fail:N xfail:N xpass:N skip:N error:N". */
struct tap_totals {
	int pass, fail, xfail, xpass, skip, error;
};

/* One scenario binary, as guest-init ran it. */
struct tap_binary {
	char name[64];
	int has_result;		/* guest-init printed its ok/not ok line */
	int ok;
	char directive[160];	/* "exit=1", "TIMEOUT 60 seconds", "CRASH ..." */
	char bail[256];		/* the scenario's own "Bail out!" reason */
	char libc[32];		/* its "# libc: glibc-2.36", or "" */
	int libc_only;		/* it said "# raw cases: none" */
	int own_cases;		/* it said "# cases: the session's own": its
				   cases are its file's, not the table's */
	int plan;		/* its "1..N", or -1 */
	int has_totals;
	struct tap_totals totals;
	size_t ncells;
	struct tap_cell *cells;
	size_t nnotes;		/* its own comments ("# # text"), in order */
	struct tap_note *notes;
};

struct tap_run {
	int has_version;	/* "TAP version 13" at top level */
	int plan;		/* top-level "1..N", or -1 */
	int done;		/* "# y2038-init: done": init got to the end */
	char bail[256];		/* top-level "Bail out!" reason */
	size_t malformed;	/* result lines that could not be read */
	size_t nbins;
	struct tap_binary *bins;
	size_t nnotes;		/* the runner's comments outside any program */
	struct tap_note *notes;
	size_t ntext;		/* lines that are not TAP at all (a probe's) */
	struct tap_note *text;
};

/*
 * Parse len bytes of TAP (need not be NUL-terminated). A console's \r and a
 * dying guest's NULs are dropped, and a last line without its newline (cut
 * off) is not read. 0, or -1 on ENOMEM.
 */
int tap_parse(const char *buf, size_t len, struct tap_run *run);
void tap_free(struct tap_run *run);

/* The binary named name, or NULL. */
struct tap_binary *tap_find_binary(struct tap_run *run, const char *name);

#endif
