// SPDX-License-Identifier: GPL-2.0
/*
 * collect-write.c - y2038-collect's writers (collect-write.h): results.json,
 * results.tap, the matrix, and the results vocabulary as JSON.
 */
#include <stdio.h>
#include <string.h>
#include "collect-write.h"
#include "results-record.h"

/* A block's columns (results-record.h). */
static const char *const columns[] = {
#define COLUMN(column, abi, what) #column,
	RESULT_COLUMNS(COLUMN)
#undef COLUMN
};
#define NCOLUMNS ((int)(sizeof(columns) / sizeof(columns[0])))

/* len bytes of s as a JSON string: a byte past ASCII is written as it is. */
static void json_string_n(FILE *f, const char *s, size_t len)
{
	const char *end = s + len;

	fputc('"', f);
	for (; s < end; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

void json_string(FILE *f, const char *s)
{
	json_string_n(f, s, strlen(s));
}

void json_field(FILE *f, const char *key, const char *val, int last)
{
	json_string(f, key);
	fputc(':', f);
	json_string(f, val);
	fputs(last ? "" : ",", f);
}

static const char *verdict(const struct cell *c)
{
	return c->skipped ? "skip" : c->late ? "late" : c->match ? "match" : "MISMATCH";
}

/* A record's keys, in order (results-record.h), as names and as numbers. */
static const char *const result_keys[] = {
#define KEY(key, what) #key,
	RESULT_KEYS(KEY)
#undef KEY
};
enum result_key {
#define KEY(key, what) RESULT_##key,
	RESULT_KEYS(KEY)
#undef KEY
	NRESULT_KEYS
};

/*
 * The value of a record's key for cell c of boot b. A case for every key
 * of RESULT_KEYS and no default: a key declared there and not written here
 * is a compiler's error (-Wswitch), not a run's.
 */
static const char *record_value(const struct boot *b, const struct cell *c, enum result_key key)
{
	const struct meta *m = &b->meta;

	switch (key) {
	case RESULT_run_id: return m->run_id;
	case RESULT_boot: return b->dir;
	case RESULT_kind: return m->kind[0] ? m->kind : "-";
	case RESULT_machine: return m->machine;
	case RESULT_karch: return m->karch[0] ? m->karch : "-";
	case RESULT_userland: return m->userland;
	case RESULT_distro: return m->distro[0] ? m->distro : "-";
	case RESULT_kernel: return m->kernel;
	case RESULT_kernel_source: return m->kernel_source;
	case RESULT_config: return m->config;
	case RESULT_patches: return m->patches;
	case RESULT_rtc_base: return m->rtc_base;
	case RESULT_accel: return m->accel;
	case RESULT_accel_note: return m->accel_note;
	case RESULT_abi: return c->abi;
	case RESULT_libc: return c->libc;
	case RESULT_column: return c->column;
	case RESULT_scenario: return c->scenario;
	case RESULT_case: return c->name;
	case RESULT_phase: return c->phase;
	case RESULT_expected: return c->expected;
	case RESULT_observed: return c->observed;
	case RESULT_detail: return c->detail;
	case RESULT_reason: return c->reason;
	case RESULT_verdict: return verdict(c);
	case NRESULT_KEYS: break;
	}
	return "";	/* not a key: never asked */
}

void write_json(FILE *f, const struct boot *boots, size_t nboots)
{
	size_t i, j;
	int k, first = 1;

	fputs("[\n", f);
	for (i = 0; i < nboots; i++) {
		for (j = 0; j < boots[i].ncells; j++) {
			fputs(first ? "{" : ",\n{", f);
			first = 0;
			for (k = 0; k < NRESULT_KEYS; k++)
				json_field(f, result_keys[k],
					   record_value(&boots[i], &boots[i].cells[j], k),
					   k + 1 == NRESULT_KEYS);
			fputc('}', f);
		}
	}
	fputs(first ? "]\n" : "\n]\n", f);
}

void write_tap(FILE *f, const struct boot *boots, size_t nboots)
{
	size_t i, j, n = 0, total = 0;

	for (i = 0; i < nboots; i++)
		total += boots[i].ncells;
	fprintf(f, "TAP version 13\n1..%zu\n", total);
	for (i = 0; i < nboots; i++) {
		const struct meta *m = &boots[i].meta;

		for (j = 0; j < boots[i].ncells; j++) {
			const struct cell *c = &boots[i].cells[j];

			if (c->skipped || c->late)
				fprintf(f, "ok %zu %s %s %s %s.%s.%s # SKIP %s%s\n",
					++n, m->machine, m->config, c->column,
					c->scenario, c->name, c->phase,
					c->late ? "LATE, no verdict: " : "", c->detail);
			else
				fprintf(f, "%s %zu %s %s %s %s.%s.%s # %s (expected %s) %s\n",
					c->match ? "ok" : "not ok", ++n, m->machine,
					m->config, c->column, c->scenario, c->name,
					c->phase, c->observed, c->expected, c->detail);
		}
	}
}

/* Cells counted for the closing line. */
struct totals {
	size_t cells, mismatches, skipped, late, late_again;
};

/* One boot's block of the matrix: a row per (case, phase), a column per ABI. */
static void write_block(FILE *f, const struct boot *b)
{
	size_t j, k;
	int a;

	fprintf(f, "\n%s %s  kernel %s %s  patches %s  rtc %s  accel %s  %s s%s%s\n",
		b->meta.machine, b->meta.config, b->meta.kernel_source,
		b->meta.kernel, b->meta.patches,
		b->meta.rtc_base[0] ? b->meta.rtc_base : "-", b->meta.accel,
		b->meta.wall_s, b->note[0] ? "  -- " : "", b->note);
	if (b->meta.accel_note[0])
		fprintf(f, "  (why %s: %s)\n", b->meta.accel, b->meta.accel_note);
	fprintf(f, "  %-8s %-22s %-7s", "scenario", "case", "phase");
	for (a = 0; a < NCOLUMNS; a++)
		fprintf(f, " %-20s", columns[a]);
	fputc('\n', f);
	for (j = 0; j < b->ncells; j++) {
		const struct cell *c = &b->cells[j];

		for (k = 0; k < j; k++)
			if (!strcmp(b->cells[k].scenario, c->scenario) &&
			    !strcmp(b->cells[k].name, c->name) &&
			    !strcmp(b->cells[k].phase, c->phase))
				break;
		if (k < j)
			continue;	/* row printed already */
		fprintf(f, "  %-8s %-22s %-7s", c->scenario, c->name, c->phase);
		for (a = 0; a < NCOLUMNS; a++) {
			char text[48] = "-";

			for (k = j; k < b->ncells; k++) {
				const struct cell *d = &b->cells[k];

				if (strcmp(d->scenario, c->scenario) ||
				    strcmp(d->name, c->name) ||
				    strcmp(d->phase, c->phase) ||
				    strcmp(d->column, columns[a]))
					continue;
				if (d->match || d->skipped || d->late)
					snprintf(text, sizeof(text), "%s", d->observed);
				else
					snprintf(text, sizeof(text), "%s!=%s",
						 d->observed, d->expected);
			}
			fprintf(f, " %-20s", text);
		}
		fputc('\n', f);
	}
}

/* Count a boot's cells; name each mismatch, under its boot when asked. */
static void write_mismatches(FILE *f, const struct boot *b, struct totals *t,
			     int name_boot)
{
	size_t j;

	for (j = 0; j < b->ncells; j++) {
		const struct cell *c = &b->cells[j];

		t->cells++;
		if (c->skipped) {
			t->skipped++;
		} else if (c->late) {
			t->late++;
			t->late_again += b->again;
			fprintf(f, "  LATE     %s%s%s %s.%s.%s: no verdict, it missed its moment (expected %s): %s\n",
				name_boot ? b->dir : "", name_boot ? " " : "",
				c->column, c->scenario, c->name, c->phase,
				c->expected, c->detail);
		} else if (!c->match) {
			t->mismatches++;
			fprintf(f, "  MISMATCH %s%s%s %s.%s.%s: observed %s, expected %s (%s): %s\n",
				name_boot ? b->dir : "", name_boot ? " " : "",
				c->column, c->scenario, c->name, c->phase, c->observed,
				c->expected, c->reason, c->detail);
		}
	}
}

static void write_totals(FILE *f, const struct totals *t)
{
	fprintf(f, "\n%zu cells, %zu as expected, %zu not", t->cells,
		t->cells - t->mismatches - t->skipped - t->late, t->mismatches);
	if (t->skipped)
		fprintf(f, ", %zu skipped (machine not available)", t->skipped);
	if (t->late_again)
		fprintf(f, ", %zu late (no verdict: missed their moment even when booted again alone; fewer guests at once: make bench measures how many this machine keeps up with, or make run TIMED_GUESTS=1)",
			t->late);
	else if (t->late)
		fprintf(f, ", %zu late (no verdict: missed their moment; make run boots them again alone)",
			t->late);
	fputc('\n', f);
}

void write_late(FILE *f, const struct boot *boots, size_t nboots)
{
	size_t i, j, n;

	for (i = 0; i < nboots; i++) {
		const struct cell *first = NULL;

		if (boots[i].again)
			continue;	/* booted again once already: late again stays late */
		for (j = n = 0; j < boots[i].ncells; j++)
			if (boots[i].cells[j].late && !n++)
				first = &boots[i].cells[j];
		if (first)
			fprintf(f, "%s\t%zu\t%s %s.%s.%s: %s\n", boots[i].dir, n,
				first->column, first->scenario, first->name,
				first->phase, first->detail);
	}
}

/* The matrix (collect-write.h). */
size_t write_summary(FILE *f, const struct boot *boots, size_t nboots, int blocks)
{
	struct totals t = { 0 };
	size_t i;

	for (i = 0; i < nboots; i++) {
		if (blocks)
			write_block(f, &boots[i]);
		write_mismatches(f, &boots[i], &t, !blocks);
	}
	write_totals(f, &t);
	return t.mismatches;
}

/* One entry of the vocabulary: {"name": "value", ...} from name, value pairs. */
static void vocabulary_entry(FILE *f, int *first, const char *const *kv, size_t n)
{
	size_t i;

	fputs(*first ? "\n{" : ",\n{", f);
	*first = 0;
	for (i = 0; i + 1 < n; i += 2)
		json_field(f, kv[i], kv[i + 1], i + 2 >= n);
	fputc('}', f);
}
#define ENTRY(...) vocabulary_entry(f, &first, (const char *const[]){ __VA_ARGS__ }, \
				    sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))

/* results-record.h as JSON: each X-macro's entries, in order. */
void write_vocabulary(FILE *f)
{
	int first;

	fputs("{\"keys\": [", f);
	first = 1;
#define KEY(key, what) ENTRY("key", #key, "what", what);
	RESULT_KEYS(KEY)
#undef KEY
	fputs("],\n\"kinds\": [", f);
	first = 1;
#define KIND(kind, libc, libc_abi, raw_abi, column, what) \
	ENTRY("kind", #kind, "libc", #libc, "libc_abi", #libc_abi, "raw_abi", #raw_abi, \
	      "column", #column, "what", what);
	RESULT_KINDS(KIND)
#undef KIND
	fputs("],\n\"columns\": [", f);
	first = 1;
#define COLUMN(column, abi, what) ENTRY("column", #column, "abi", #abi, "what", what);
	RESULT_COLUMNS(COLUMN)
#undef COLUMN
	fputs("],\n\"configs\": [", f);
	first = 1;
#define CONFIG(config, where, role, judged_as, heading, what) \
	ENTRY("config", #config, "where", #where, "role", #role, "judged_as", #judged_as, "heading", heading, "what", what);
	RESULT_CONFIGS(CONFIG)
#undef CONFIG
	fputs("],\n\"outcomes\": [", f);
	first = 1;
#define OUTCOME(class, meaning, kcidb, what) \
	ENTRY("class", #class, "meaning", #meaning, "kcidb", #kcidb, "what", what);
	RESULT_OUTCOMES(OUTCOME)
#undef OUTCOME
	fputs("]}\n", f);
}
#undef ENTRY

/* "key": */
static void json_key(FILE *f, const char *key)
{
	json_string(f, key);
	fputc(':', f);
}

/* A string, or null for an empty one. */
static void json_text(FILE *f, const char *s)
{
	if (s && *s)
		json_string(f, s);
	else
		fputs("null", f);
}

static void json_notes(FILE *f, const char *key, const struct tap_note *notes, size_t n)
{
	size_t i;

	json_key(f, key);
	fputc('[', f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s{\"line\":%d,", i ? ",\n" : "\n", notes[i].line);
		json_field(f, "text", notes[i].text, 1);
		fputc('}', f);
	}
	fputs("]", f);
}

static void json_program(FILE *f, const struct tap_binary *b)
{
	size_t k;

	fputc('{', f);
	json_field(f, "name", b->name, 0);
	fprintf(f, "\"plan\":%d,\"libc\":", b->plan);
	json_text(f, b->libc);
	fprintf(f, ",\"libc_only\":%s,\"bail\":", b->libc_only ? "true" : "false");
	json_text(f, b->bail);
	fputs(",\"result\":", f);
	if (b->has_result) {
		fprintf(f, "{\"ok\":%s,\"directive\":", b->ok ? "true" : "false");
		json_text(f, b->directive);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fputs(",\"totals\":", f);
	if (b->has_totals)
		fprintf(f, "{\"pass\":%d,\"fail\":%d,\"xfail\":%d,\"xpass\":%d,\"skip\":%d,\"error\":%d}",
			b->totals.pass, b->totals.fail, b->totals.xfail, b->totals.xpass,
			b->totals.skip, b->totals.error);
	else
		fputs("null", f);
	fputs(",\"cases\":[", f);
	for (k = 0; k < b->ncells; k++) {
		const struct tap_cell *c = &b->cells[k];

		fprintf(f, "%s{\"line\":%d,\"number\":%d,\"ok\":%s,", k ? ",\n" : "\n",
			c->line, c->number, c->ok ? "true" : "false");
		json_field(f, "abi", c->abi, 0);
		json_field(f, "case", c->name, 0);
		json_field(f, "phase", c->phase, 0);
		json_field(f, "class", c->class, 0);
		json_field(f, "detail", c->detail, 1);
		fputc('}', f);
	}
	fputs("],", f);
	json_notes(f, "notes", b->notes, b->nnotes);
	fputc('}', f);
}

void write_boot_json(FILE *f, const char *name, const struct record *r,
		     const struct tap_run *tap, const char *panic, size_t panic_len)
{
	static const char *const keys[] = {
#define KEY(key, size, what) #key,
		BOOT_RECORD_KEYS(KEY)
#undef KEY
	};
	const char *sep = "";
	size_t i;

	fputc('{', f);
	json_field(f, "boot", name, 0);
	json_key(f, "record");
	fputc('{', f);
	for (i = 0; i < NBOOT_KEYS; i++)
		if (r->value[i]) {
			fputs(sep, f);
			json_field(f, keys[i], r->value[i], 1);
			sep = ",";
		}
	fprintf(f, "},\n\"tap\":{\"version\":%s,\"plan\":%d,\"done\":%s,\"malformed\":%zu,\"bail\":",
		tap->has_version ? "true" : "false", tap->plan, tap->done ? "true" : "false",
		tap->malformed);
	json_text(f, tap->bail);
	fputs(",\n", f);
	json_notes(f, "notes", tap->notes, tap->nnotes);
	fputs(",\n", f);
	json_notes(f, "text", tap->text, tap->ntext);
	fputs(",\n\"programs\":[", f);
	for (i = 0; i < tap->nbins; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_program(f, &tap->bins[i]);
	}
	fputs("]},\n\"panic\":", f);
	if (panic)
		json_string_n(f, panic, panic_len);
	else
		fputs("null", f);
	fputs("}\n", f);
}
