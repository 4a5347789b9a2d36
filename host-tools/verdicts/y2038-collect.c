// SPDX-License-Identifier: GPL-2.0
/*
 * y2038-collect - turn a run's boots into verdicts.
 *
 *   y2038-collect [--boots B,B... | --totals | --late] EXPECTATIONS.tsv RUN_DIR
 *   y2038-collect --vocabulary
 *   y2038-collect --boot DIR --json
 *
 * RUN_DIR/boots/<boot>/ holds what one guest boot left: meta (the boot
 * record, ../boot/boot-record.h), tap.log (the guest's TAP) and console.log. For
 * every cell (scenario, case, phase, abi) of every boot this writes one
 * record to RUN_DIR/results.json, one TAP line to RUN_DIR/results.tap, and
 * the matrix to RUN_DIR/summary.txt and stdout (--totals: only the
 * mismatches and the closing line, after the blocks were printed machine by
 * machine). --boots prints the blocks of those boots (their folders' names)
 * alone and writes nothing: a machine's verdicts, as soon as it is done.
 * --late prints the boots with a cell that missed its moment (observed
 * LATE: no verdict), a line each (collect-write.h), and writes nothing:
 * the boots make run boots again, alone. A cell the guest never
 * reported (hang, panic, truncated console) still gets a record, with the
 * reason; what was observed is never dropped.
 *
 * A machine the host could not provide (meta qemu_status=skipped) gives SKIP
 * cells with its reason; they are neither matches nor mismatches. A boot
 * whose record names a config results-record.h does not know (recorded by
 * another version of the lab) is one ERROR cell saying so.
 *
 * --vocabulary prints results-record.h as JSON, for the readers of
 * results.json in other languages: {"keys": [{key, what}], "kinds": [...],
 * "columns": [...], "configs": [...], "outcomes": [...]}, each entry an
 * object of its X-macro's fields, in the header's order.
 *
 * --boot DIR --json prints one boot folder as the collector reads it, for
 * the tools that read boots (distro-verdicts.py, report.py, lava-check):
 *   {"boot": its folder's name,
 *    "record": {KEY: VALUE} of the boot-record.h keys its meta has, whole,
 *    "tap": {"version", "plan", "done", "malformed", "bail",
 *            "notes": the runner's comments outside a program [{"line", "text"}],
 *            "text": the lines that are not TAP (a probe's) [{"line", "text"}],
 *            "programs": [{"name", "plan", "libc", "libc_only", "bail",
 *                          "result": {"ok", "directive"} or null,
 *                          "totals": {"pass", "fail", ...} or null,
 *                          "cases": [{"line", "number", "ok", "abi", "case",
 *                                     "phase", "class", "detail"}],
 *                          "notes": its "# " comments [{"line", "text"}]}]},
 *    "panic": the console's "Kernel panic - not syncing" line, or null}
 * A file the boot did not leave reads as empty; "line" is the line of
 * tap.log, so that a reader can put cases and notes back in their order.
 *
 * Exit: 0 every measured cell matches its expectation or is late, 1 some
 * do not, 2 bad input.
 *
 * This file reads and judges; what it writes is collect-write.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../boot/boot-record.h"
#include "../read-file.h"
#include "collect-write.h"
#include "expect.h"
#include "results-record.h"
#include "tap.h"

/* What a program's kind says of its cells (results-record.h). */
static const struct program_kind {
	const char *kind, *libc_abi, *raw_abi, *column;
} kinds[] = {
#define KIND(kind, libc, libc_abi, raw_abi, column, what) { #kind, #libc_abi, #raw_abi, #column },
	RESULT_KINDS(KIND)
#undef KIND
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "y2038-collect: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* The whole file, NUL-terminated; NULL (and *len 0) when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
	char err[1024];
	char *buf = read_file(path, len, err, sizeof(err));

	if (!buf && errno == ENOMEM)
		die("%s", err);
	return buf;
}

static void set(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}
#define SET(dst, src) set(dst, sizeof(dst), src)

/* The record's values in the collector's fields, each cut to its size. */
static void meta_of(const struct record *r, struct meta *m)
{
	memset(m, 0, sizeof(*m));
	SET(m->qemu_status, "unknown");
#define FIELD(key, size, what) \
	if (r->value[BOOT_##key]) \
		SET(m->key, r->value[BOOT_##key]);
	BOOT_RECORD_KEYS(FIELD)
#undef FIELD
}

/* The console's "Kernel panic - not syncing: ..." line, if the guest panicked. */
static const char *panic_line(const char *console, size_t *len)
{
	const char *p = console ? strstr(console, "Kernel panic - not syncing") : NULL;

	if (p)
		*len = strcspn(p, "\r\n");
	return p;
}

static int find_panic(const char *console, char *out, size_t size)
{
	size_t n;
	const char *p = panic_line(console, &n);

	if (!p)
		return 0;
	snprintf(out, size, "kernel panic: %.*s", (int)(n > 200 ? 200 : n), p);
	return 1;
}

/* Why cells are missing when the guest as a whole did not finish. */
static void boot_failure(const struct meta *m, const struct tap_run *tap,
			 const char *console, char *class, char *note)
{
	char panic[256];

	if (!strcmp(m->qemu_status, "skipped")) {
		strcpy(class, "SKIP");
		snprintf(note, 256, "machine skipped: %.200s", m->skip_reason);
	} else if (m->error[0]) {
		strcpy(class, "ERROR");
		snprintf(note, 256, "%s", m->error);
	} else if (!strcmp(m->qemu_status, "failed")) {
		strcpy(class, "ERROR");
		snprintf(note, 256, "qemu failed to start (exit %s): see qemu.log",
			 m->qemu_exit);
	} else if (find_panic(console, panic, sizeof(panic))) {
		strcpy(class, "CRASH");
		snprintf(note, 256, "%s", panic);
	} else if (!strcmp(m->qemu_status, "timeout")) {
		strcpy(class, "TIMEOUT");
		snprintf(note, 256, "guest did not end within %s s", m->timeout_s);
	} else if (!tap->has_version || tap->plan < 0) {
		strcpy(class, "ERROR");
		snprintf(note, 256, "%s", tap->bail[0] ? tap->bail :
			 "guest TAP has no plan: init never ran or its output was lost");
	} else if (!tap->done) {
		strcpy(class, "CRASH");
		snprintf(note, 256, "guest TAP ends early (truncated) after %zu of %d scenarios",
			 tap->nbins, tap->plan);
	} else {
		class[0] = note[0] = '\0';
	}
}

/* Why one scenario binary's cell is missing. */
static void binary_failure(const struct tap_binary *b, const char *boot_class,
			   const char *boot_note, char *class, char *detail)
{
	if (b && b->bail[0]) {
		strcpy(class, "ERROR");
		snprintf(detail, 256, "scenario bailed out: %.200s", b->bail);
	} else if (b && b->has_result && !strncmp(b->directive, "TIMEOUT", 7)) {
		strcpy(class, "TIMEOUT");
		snprintf(detail, 256, "scenario killed: %s", b->directive);
	} else if (b && b->has_result && !strncmp(b->directive, "CRASH", 5)) {
		strcpy(class, "CRASH");
		snprintf(detail, 256, "scenario died: %s", b->directive);
	} else if (b && b->has_result) {
		strcpy(class, "CRASH");
		snprintf(detail, 256, "scenario ended (%s) without reporting this case",
			 b->directive[0] ? b->directive : "ok");
	} else if (boot_class[0]) {
		strcpy(class, boot_class);
		snprintf(detail, 256, "%s", boot_note);
	} else {
		strcpy(class, "ERROR");
		snprintf(detail, 256, "scenario never reported");
	}
}

#define MAX_ABIS 5

/*
 * "clock-legacy" -> scenario "clock", its kind's ABIs: legacy and raw32; a
 * kind with no raw ABI (musl) has its libc cases only. Returns the number of
 * ABIs, 0 for a kernel program (see case_abis), or -1; *kind is its kind.
 */
static int binary_abis(const char *bin, char *scenario, size_t size,
		       const char **abi, const struct program_kind **kind)
{
	const char *dash = strrchr(bin, '-');
	size_t i;

	if (!dash || (size_t)(dash - bin) >= size)
		return -1;
	snprintf(scenario, size, "%.*s", (int)(dash - bin), bin);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(dash + 1, kinds[i].kind))
			continue;
		*kind = &kinds[i];
		if (!strcmp(kinds[i].libc_abi, "kernel"))
			return 0;
		abi[0] = kinds[i].libc_abi;
		if (!strcmp(kinds[i].raw_abi, "-"))
			return 1;
		abi[1] = kinds[i].raw_abi;
		return 2;
	}
	return -1;
}

/*
 * A "NAME-kernel" binary judges the kernel, or what the other binaries did:
 * a case's ABIs are the ones its rows name ("kernel" when they say "*"), and
 * its phase is what the binary found (the rtc scenario's phase is what the
 * RTC read at boot), so a case is expected once, in any of its phases.
 */
static int case_phases(const struct expect_table *t, const struct expect_row *r)
{
	size_t i;
	int n = 0;

	for (i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].scenario, r->scenario) &&
		    !strcmp(t->rows[i].name, r->name) &&
		    strcmp(t->rows[i].phase, r->phase))
			n++;
	return n + 1;
}

static int case_abis(const struct expect_table *t, const struct expect_row *r,
		     const char **abi)
{
	size_t i;
	int n = 0, k;

	for (i = 0; i < t->nrows; i++) {
		const struct expect_row *o = &t->rows[i];

		if (strcmp(o->scenario, r->scenario) || strcmp(o->name, r->name) ||
		    !strcmp(o->abi, "*"))
			continue;
		for (k = 0; k < n && strcmp(abi[k], o->abi); k++)
			;
		if (k == n && n < MAX_ABIS)
			abi[n++] = o->abi;
	}
	if (!n)
		abi[n++] = "kernel";
	return n;
}

/*
 * Whether a (case, phase) of a binary's ABI is a cell. A scenario whose rows
 * name a raw ABI or "*" anywhere (the syscall families) has every ABI in
 * every case, so that a row missing there shows as a MISMATCH. One that
 * names neither (bookworm: Debian's programs, no raw twins, not every
 * command in both ABIs) has the ABIs its rows for that (case, phase) name.
 */
static int abi_listed(const struct expect_table *t, const struct expect_row *r,
		      const char *abi)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct expect_row *o = &t->rows[i];

		if (strcmp(o->scenario, r->scenario))
			continue;
		if (!strcmp(o->abi, "*") || !strncmp(o->abi, "raw", 3))
			return 1;
		if (!strcmp(o->name, r->name) && !strcmp(o->phase, r->phase) &&
		    !strcmp(o->abi, abi))
			return 1;
	}
	return 0;
}

/* A cell's libc: its program's for a libc ABI, "-" for a raw or kernel one. */
static const char *cell_libc(const char *abi, const char *libc)
{
	return strcmp(abi, "legacy") && strcmp(abi, "time64") ? "-" : libc;
}

/* Its column in a block and its name in TAP: its kind's for a libc cell. */
static const char *cell_column(const struct program_kind *kind, const char *abi)
{
	return !strcmp(abi, kind->libc_abi) ? kind->column : abi;
}

static struct cell *add_cell(struct boot *b)
{
	struct cell *c = realloc(b->cells, (b->ncells + 1) * sizeof(*c));

	if (!c)
		die("out of memory");
	b->cells = c;
	c = &b->cells[b->ncells++];
	memset(c, 0, sizeof(*c));
	return c;
}

/* A cell of no case: the boot or a program could not be read at all. */
static void error_cell(struct boot *b, const char *scenario, const char *detail)
{
	struct cell *c = add_cell(b);

	SET(c->scenario, scenario);
	SET(c->name, "-");
	SET(c->phase, "-");
	SET(c->abi, "-");
	SET(c->column, "-");
	SET(c->libc, "-");
	SET(c->observed, "ERROR");
	SET(c->expected, "-");
	SET(c->detail, detail);
}

/* What an outcome class means (results-record.h); "errno" for an errno name. */
static const char *outcome_meaning(const char *class)
{
	static const struct {
		const char *class, *meaning;
	} outcomes[] = {
#define OUTCOME(class, meaning, kcidb, what) { #class, #meaning },
		RESULT_OUTCOMES(OUTCOME)
#undef OUTCOME
	};
	size_t i;

	for (i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++)
		if (!strcmp(outcomes[i].class, class))
			return outcomes[i].meaning;
	return "errno";
}

static void judge(struct cell *c, const struct expect_table *t,
		  const struct meta *m)
{
	/* meta says "none", or "N patches @ hash" for any series. */
	const struct expect_cell cell = {
		.scenario = c->scenario, .name = c->name, .phase = c->phase,
		.abi = c->abi, .libc = c->libc, .config = m->config,
		.patches = strcmp(m->patches, "none") ? "lab" : "none", .kernel = m->kernel,
		.machine = m->machine, .karch = m->karch, .accel = m->accel,
	};
	const struct expect_row *r = expect_lookup(t, &cell);

	if (!strcmp(c->phase, "-")) {
		/* a NAME-kernel case the guest never reported: no phase known */
		SET(c->expected, "-");
		SET(c->reason, "the guest never said which phase this case was in");
	} else if (r) {
		SET(c->expected, r->expected);
		SET(c->reason, r->reason);
	} else {
		SET(c->expected, "UNLISTED");
		snprintf(c->reason, sizeof(c->reason), "no row in %.200s for this cell",
			 t->path);
	}
	c->match = !strcmp(c->expected, c->observed);
	c->skipped = !strcmp(m->qemu_status, "skipped");
	c->late = !c->skipped && !strcmp(outcome_meaning(c->observed), "late");
}

static void collect_binary(struct boot *b, const struct expect_table *t,
			   struct tap_run *tap, const char *bin,
			   const char *boot_class, const char *boot_note)
{
	struct tap_binary *tb = tap_find_binary(tap, bin);
	const struct program_kind *kind = NULL;
	const char *abi[MAX_ABIS];
	char scenario[32];
	const char *libc;
	char why[160];
	size_t i, j, k;
	int a, nabi, kernel, complete;

	nabi = binary_abis(bin, scenario, sizeof(scenario), abi, &kind);
	kernel = nabi == 0;
	if (nabi > 1 && tb && tb->libc_only)
		nabi = 1;	/* it has no raw cases: another program has them */
	/* A libc program says which libc it runs on; one that never ran did not. */
	libc = kernel ? "-" : tb && tb->libc[0] ? tb->libc : "unknown";
	/*
	 * A NAME-kernel binary that reported all its plan has the cases it
	 * reported: the census has one for each program the boot ran (no
	 * clock_musl where no musl program ran). So has a session: its cases
	 * are its file's (no go126_* where the distribution has no go_more).
	 */
	complete = (kernel || (tb && tb->own_cases)) && tb && tb->plan >= 0 &&
		   tb->ncells >= (size_t)tb->plan;
	if (nabi < 0) {
		int n = snprintf(why, sizeof(why), "cannot tell the ABI of \"%.64s\": want", bin);

		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && n < (int)sizeof(why); i++)
			n += snprintf(why + n, sizeof(why) - n, "%s NAME-%s",
				      i ? (i + 1 < sizeof(kinds) / sizeof(kinds[0]) ? "," : " or") : "",
				      kinds[i].kind);
		error_cell(b, bin, why);
		return;
	}
	/* Every (case, phase) the table lists for the scenario, in its order. */
	for (i = 0; i < t->nrows; i++) {
		const struct expect_row *r = &t->rows[i];

		if (strcmp(r->scenario, scenario) || !strcmp(r->name, "*") ||
		    !strcmp(r->phase, "*"))
			continue;	/* another scenario's, or a rule for many cases */
		for (j = 0; j < i; j++)
			if (!strcmp(t->rows[j].scenario, scenario) &&
			    !strcmp(t->rows[j].name, r->name) &&
			    (kernel || !strcmp(t->rows[j].phase, r->phase)))
				break;
		if (j < i)
			continue;	/* that case was listed already */
		if (kernel)
			nabi = case_abis(t, r, abi);
		for (a = 0; a < nabi; a++) {
			struct tap_cell *seen = NULL;
			struct cell *c;

			if (!kernel && !abi_listed(t, r, abi[a]))
				continue;	/* reported anyway? the loop below */
			for (k = 0; tb && k < tb->ncells && !seen; k++)
				if (!strcmp(tb->cells[k].abi, abi[a]) &&
				    !strcmp(tb->cells[k].name, r->name) &&
				    (kernel || !strcmp(tb->cells[k].phase, r->phase)))
					seen = &tb->cells[k];
			if (!seen && complete)
				continue;	/* a case this boot does not have */
			c = add_cell(b);
			SET(c->scenario, scenario);
			SET(c->name, r->name);
			SET(c->phase, r->phase);
			SET(c->abi, abi[a]);
			SET(c->column, cell_column(kind, abi[a]));
			SET(c->libc, cell_libc(abi[a], libc));
			if (seen) {
				SET(c->phase, seen->phase);
				SET(c->observed, seen->class);
				SET(c->detail, seen->detail);
			} else {
				if (kernel && case_phases(t, r) > 1)
					SET(c->phase, "-");
				binary_failure(tb, boot_class, boot_note,
					       c->observed, c->detail);
			}
			judge(c, t, &b->meta);
		}
	}
	/* Cells the guest printed that the table does not know. */
	for (k = 0; tb && k < tb->ncells; k++) {
		const struct tap_cell *tc = &tb->cells[k];
		struct cell *c;

		for (i = 0; i < b->ncells; i++)
			if (!strcmp(b->cells[i].scenario, scenario) &&
			    !strcmp(b->cells[i].name, tc->name) &&
			    !strcmp(b->cells[i].phase, tc->phase) &&
			    !strcmp(b->cells[i].abi, tc->abi) &&
			    !strcmp(b->cells[i].libc, cell_libc(tc->abi, libc)))
				break;
		if (i < b->ncells)
			continue;
		c = add_cell(b);
		SET(c->scenario, scenario);
		SET(c->name, tc->name);
		SET(c->phase, tc->phase);
		SET(c->abi, tc->abi);
		SET(c->column, cell_column(kind, tc->abi));
		SET(c->libc, cell_libc(tc->abi, libc));
		SET(c->observed, tc->class);
		SET(c->detail, tc->detail);
		judge(c, t, &b->meta);
	}
}

static void collect_boot(struct boot *b, const char *run_dir,
			 const struct expect_table *t)
{
	char path[512], boot_class[16], *list, *bin, *save = NULL;
	size_t tap_len, con_len;
	char *tap_text, *console;
	struct tap_run tap;
	struct record record;

	snprintf(path, sizeof(path), "%s/boots/%s", run_dir, b->dir);
	read_record(path, &record);
	meta_of(&record, &b->meta);
	free_record(&record);
	snprintf(path, sizeof(path), "%s/boots/%s/tap.log", run_dir, b->dir);
	tap_text = slurp(path, &tap_len);
	snprintf(path, sizeof(path), "%s/boots/%s/console.log", run_dir, b->dir);
	console = slurp(path, &con_len);
	if (tap_parse(tap_text ? tap_text : "", tap_len, &tap))
		die("out of memory parsing %s", path);
	boot_failure(&b->meta, &tap, console, boot_class, b->note);
	if (b->meta.config[0] && !expect_config_known(b->meta.config)) {
		char why[256];

		snprintf(why, sizeof(why), "the boot record's config \"%.24s\" is none of results-record.h's: a boot recorded by another version of the lab",
			 b->meta.config);
		error_cell(b, "-", why);
		goto out;
	}

	list = strdup(b->meta.scenarios);
	if (!list)
		die("out of memory");
	for (bin = strtok_r(list, " ,", &save); bin;
	     bin = strtok_r(NULL, " ,", &save))
		collect_binary(b, t, &tap, bin, boot_class, b->note);
	if (!b->meta.scenarios[0])
		error_cell(b, "-", "meta names no scenarios: the boot never started");
	free(list);
out:
	tap_free(&tap);
	free(tap_text);
	free(console);
}

/* --boot DIR --json: one boot folder, as the collector reads it. */
static int show_boot(const char *dir)
{
	char path[4096], name[256];
	size_t tap_len, con_len, panic_len = 0, n = strlen(dir);
	const char *base, *panic;
	char *tap_text, *console;
	struct record record;
	struct tap_run tap;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (base = dir + n; base > dir && base[-1] != '/'; base--)
		;
	snprintf(name, sizeof(name), "%.*s", (int)(dir + n - base), base);
	read_record(dir, &record);
	snprintf(path, sizeof(path), "%s/tap.log", dir);
	tap_text = slurp(path, &tap_len);
	snprintf(path, sizeof(path), "%s/console.log", dir);
	console = slurp(path, &con_len);
	if (tap_parse(tap_text ? tap_text : "", tap_len, &tap))
		die("out of memory parsing %s/tap.log", dir);
	panic = panic_line(console, &panic_len);
	write_boot_json(stdout, name, &record, &tap, panic, panic_len);
	tap_free(&tap);
	free_record(&record);
	free(tap_text);
	free(console);
	return fflush(stdout) ? 2 : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct boot *)a)->dir, ((const struct boot *)b)->dir);
}

/* Is name one of the comma-separated list's items? */
static int in_list(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return 1;
	return 0;
}

static FILE *open_out(const char *run_dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", run_dir, name);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

int main(int argc, char **argv)
{
	struct expect_table table;
	struct boot *boots = NULL;
	size_t nboots = 0, i, n, mismatches;
	const char *only = NULL;	/* --boots: "B,B,..." */
	int totals_only = 0, late_only = 0;
	char err[512], path[512];
	struct dirent *de;
	struct stat st;
	FILE *f;
	DIR *d;

	if (argc == 2 && !strcmp(argv[1], "--vocabulary")) {
		write_vocabulary(stdout);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--boot") && !strcmp(argv[3], "--json"))
		return show_boot(argv[2]);
	while (argc > 3 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "--boots") && argc > 4) {
			only = argv[2];
			argv += 2;
			argc -= 2;
		} else if (!strcmp(argv[1], "--totals")) {
			totals_only = 1;
			argv++;
			argc--;
		} else if (!strcmp(argv[1], "--late")) {
			late_only = 1;
			argv++;
			argc--;
		} else {
			break;
		}
	}
	if (argc != 3)
		die("usage: y2038-collect [--boots B,B... | --totals | --late] EXPECTATIONS.tsv RUN_DIR, or --vocabulary, or --boot DIR --json");
	if (expect_load(argv[1], &table, err, sizeof(err)))
		die("%s", err);
	snprintf(path, sizeof(path), "%s/boots", argv[2]);
	d = opendir(path);
	if (!d)
		die("%s: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		struct boot *nb;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(boots->dir))
			continue;
		snprintf(path, sizeof(path), "%s/boots/%s", argv[2], de->d_name);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;	/* a boot is a folder */
		nb = realloc(boots, (nboots + 1) * sizeof(*boots));
		if (!nb)
			die("out of memory");
		boots = nb;
		memset(&boots[nboots], 0, sizeof(*boots));
		SET(boots[nboots].dir, de->d_name);
		snprintf(path, sizeof(path), "%s/boots/.late/%s", argv[2], de->d_name);
		boots[nboots].again = !stat(path, &st) && S_ISDIR(st.st_mode);
		nboots++;
	}
	closedir(d);
	if (!nboots)
		die("%s: no boots to collect", path);
	qsort(boots, nboots, sizeof(*boots), by_name);
	for (i = 0; i < nboots; i++)
		collect_boot(&boots[i], argv[2], &table);

	if (late_only) {
		write_late(stdout, boots, nboots);
		mismatches = 0;
	} else if (only) {
		/* Some boots' blocks, as soon as they are done: print only. */
		for (i = n = 0; i < nboots; i++)
			if (in_list(only, boots[i].dir))
				boots[n++] = boots[i];
			else
				free(boots[i].cells);
		nboots = n;
		mismatches = write_summary(stdout, boots, nboots, 1);
	} else {
		f = open_out(argv[2], "results.json");
		write_json(f, boots, nboots);
		fclose(f);
		f = open_out(argv[2], "results.tap");
		write_tap(f, boots, nboots);
		fclose(f);
		f = open_out(argv[2], "summary.txt");
		mismatches = write_summary(f, boots, nboots, 1);
		fclose(f);
		write_summary(stdout, boots, nboots, !totals_only);
	}

	for (i = 0; i < nboots; i++)
		free(boots[i].cells);
	free(boots);
	expect_free(&table);
	return mismatches ? 1 : 0;
}
