// SPDX-License-Identifier: GPL-2.0
/*
 * y2038-scan.c - y2038-scan: which time_t ABI does a 32-bit Linux binary use?
 *
 * A dynamic binary says so in its imports: glibc 2.34 and musl 1.2 give every
 * time64 entry point a new name (__clock_gettime64) and keep the old name for
 * the 32-bit ABI. So the undefined dynamic symbols, with their versions,
 * classify a file, and the libraries it loads classify its closure. A static
 * binary imports nothing; there we look for the syscall numbers its code
 * loads. What is time32 and what is time64 is data: data/time-symbols.tsv.
 *
 * The parts: scan.h.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scan.h"

#define DETAIL_LIST_MAX	6	/* symbols a text detail spells out */

/* --- Classes and output. */

enum class { C_TIME32, C_TIME64, C_MIXED, C_NEUTRAL, C_STATIC, C_ERROR, NCLASSES };
static const char *const class_names[] = { "time32", "time64", "mixed", "time-neutral", "static", "error" };

static enum class classify(const struct obj *o, const struct closure *c, char **detail)
{
	struct strv pool = { 0 };	/* the strings below, freed at the end */
	const char *t32 = join(&pool, &o->time32, ", ", DETAIL_LIST_MAX);
	const char *t64 = join(&pool, &o->time64, ", ", DETAIL_LIST_MAX);
	const char *libs32 = join(&pool, &c->time32, ", ", DETAIL_LIST_MAX);
	const char *s32 = join(&pool, &o->sys32, ",", 0), *s64 = join(&pool, &o->sys64, ",", 0);
	const struct machine *m = machine_of(o->machine);
	enum class cls = C_NEUTRAL;

	if (o->error) {
		cls = C_ERROR;
		*detail = xasprintf("%s", o->error);
	} else if (o->elf_class == 64 || o->machine == EM_X86_64) {
		cls = C_TIME64;
		*detail = xasprintf("%s: time_t is 64-bit", o->elf_class == 64 ? "64-bit" : "x32");
	} else if (o->is_static) {
		cls = C_STATIC;
		if (o->scan_unsupported)
			*detail = xasprintf("static: unknown (raw syscall scan not supported for %s%s)",
					    m ? m->name : "this machine", o->big_endian ? " big-endian" : "");
		else if (o->sys32.n && o->sys64.n)
			*detail = xasprintf("static: time32 syscalls %s; time64 syscalls %s "
					    "(a libc with time64 syscalls and time32 fallbacks)", s32, s64);
		else if (o->sys32.n)
			*detail = xasprintf("static: time32 syscalls only: %s", s32);
		else
			*detail = xasprintf("static: no time32 syscall found%s%s",
					    o->sys64.n ? "; time64 syscalls " : "", s64);
	} else if (o->time32.n && o->time64.n) {
		cls = C_MIXED;
		*detail = xasprintf("imports time32 %s and time64 %s", t32, t64);
	} else if (o->time64.n) {
		cls = c->time32.n ? C_MIXED : C_TIME64;
		*detail = xasprintf("imports time64 %s%s%s", t64,
				    c->time32.n ? ", but loads time32 libraries: " : "", libs32);
	} else if (o->time32.n) {
		cls = C_TIME32;
		*detail = xasprintf("imports time32 %s", t32);
	} else {	/* a C library says what it provides */
		const char *what = !o->provides32 && !o->provides64 ? "no time symbols imported" :
			strv_add(&pool, "provides %d time32 and %d time64 entry points", o->provides32, o->provides64);

		*detail = xasprintf("%s%s%s", what, c->time32.n ? "; loads time32 libraries: " : "", libs32);
	}
	if (c->missing.n) {
		strv_add(&pool, "%s", *detail);
		free(*detail);
		*detail = xasprintf("%s; %zu libraries not found or unreadable", pool.v[pool.n - 1], c->missing.n);
	}
	strv_free(&pool);
	return cls;
}

/* A JSON string: escaped, and bytes that are not UTF-8 as \u00XX. */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n, k;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *p; p += k) {
		n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 && *p >= 0xc2 ? 1 : (*p & 0xf0) == 0xe0 ? 2 :
		    (*p & 0xf8) == 0xf0 && *p <= 0xf4 ? 3 : -1;
		for (k = 1; k <= n && (p[k] & 0xc0) == 0x80;)
			k++;
		if (n > 0 && k == n + 1) {
			fwrite(p, 1, k, f);
			continue;
		}
		k = 1;
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_record(FILE *f, const char *path, const struct obj *o, const struct closure *c,
			enum class cls, const char *detail)
{
	const struct { const char *key; const struct strv *list; } lists[] = {
		{ "needed", &o->needed }, { "time32", &o->time32 }, { "time64", &o->time64 },
		{ "time32_weak", &o->weak32 }, { "closure", &c->paths }, { "closure_time32", &c->time32 },
		{ "missing", &c->missing }, { "static_time32_syscalls", &o->sys32 },
		{ "static_time64_syscalls", &o->sys64 },
	};
	const struct { const char *key; int value; } header[] = {	/* null: the ELF header was not read */
		{ "e_machine", o->machine }, { "elf_class", o->elf_class },
	};
	const struct machine *m = machine_of(o->machine);
	char em[32];

	snprintf(em, sizeof(em), "em-%d", o->machine);
	fputs("{\"path\": ", f);
	json_str(f, path);
	fprintf(f, ", \"class\": \"%s\", \"machine\": ", class_names[cls]);
	json_str(f, m ? m->name : o->elf_class ? em : NULL);
	for (size_t i = 0; i < ARRAY_SIZE(header); i++) {
		if (o->elf_class)
			fprintf(f, ", \"%s\": %d", header[i].key, header[i].value);
		else
			fprintf(f, ", \"%s\": null", header[i].key);
	}
	fputs(", \"type\": ", f);
	json_str(f, o->error ? NULL : o->type);
	fputs(", \"interp\": ", f);
	json_str(f, o->interp);
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		fprintf(f, ", \"%s\": [", lists[i].key);
		for (size_t k = 0; k < lists[i].list->n; k++) {
			fputs(k ? ", " : "", f);
			json_str(f, lists[i].list->v[k]);
		}
		fputc(']', f);
	}
	fprintf(f, ", \"provides_time32\": %d, \"provides_time64\": %d, \"detail\": ", o->provides32, o->provides64);
	json_str(f, detail);
	fputs(", \"error\": ", f);
	json_str(f, o->error);
	fputc('}', f);
}

struct run {
	int needed_mode, failed;
	FILE *json;
	unsigned long count[NCLASSES], files;
	struct strv printed;	/* --needed: each path once */
};

/* One line (or, with --needed, its closure) for O, scanned from PATH; O is freed. */
static void report(struct run *r, const char *path, struct obj *o)
{
	struct closure c = { 0 };
	enum class cls;
	char *detail;

	if (!o->error && (o->elf_class == 32 || r->needed_mode))
		closure(o, &c);
	if (r->needed_mode) {
		if (o->error)
			fprintf(stderr, "y2038-scan: %s: %s\n", path, o->error);
		for (size_t i = 0; i < c.paths.n; i++)
			if (!strv_has(&r->printed, c.paths.v[i]))
				puts(strv_add(&r->printed, "%s", c.paths.v[i]));
		for (size_t i = 0; i < c.missing.n; i++)
			fprintf(stderr, "missing %s\n", c.missing.v[i]);
		r->failed |= o->error || c.missing.n;
	} else {
		cls = classify(o, &c, &detail);
		r->failed |= cls == C_ERROR;
		printf("%s\t%s\t%s\n", class_names[cls], path, detail);
		if (r->json) {
			fputs(r->files ? ",\n  " : "  ", r->json);
			json_record(r->json, path, o, &c, cls, detail);
		}
		r->count[cls]++;
		r->files++;
		free(detail);
	}
	strv_free(&c.paths);
	strv_free(&c.missing);
	strv_free(&c.time32);
	obj_free(o);
}

/* A directory: its ELF files, recursively and sorted; symlinks and other files are skipped. */
static void scan_dir(struct run *r, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	struct stat st;
	struct obj *o;

	if (n < 0) {
		o = memset(xrealloc(NULL, sizeof(*o)), 0, sizeof(*o));
		o->path = xasprintf("%s", dir);
		fail(o, "cannot read directory: %s", strerror(errno));
		report(r, dir, o);
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *path = xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);

		if (strcmp(name, ".") && strcmp(name, "..") && !lstat(path, &st)) {
			if (S_ISDIR(st.st_mode))
				scan_dir(r, path);
			else if (S_ISREG(st.st_mode) && (o = load(path, 1))->not_elf)
				obj_free(o);
			else if (S_ISREG(st.st_mode))
				report(r, path, o);
		}
		free(path);
		free(ents[i]);
	}
	free(ents);
}

static const char usage[] =
	"usage: y2038-scan [--symbols FILE] [--root DIR] [--json FILE] [--needed] PATH...\n"
	"  Classify 32-bit ELF files (or every ELF file under a directory) as time32,\n"
	"  time64, mixed, time-neutral, static or error. --needed prints each file's\n"
	"  resolved interpreter and libraries instead. --root is the sysroot its\n"
	"  libraries are found in. Symbols: --symbols, else $Y2038_SYMBOLS, else\n"
	"  ../../data/time-symbols.tsv from the program's directory.\n";

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "symbols", required_argument, NULL, 's' }, { "root", required_argument, NULL, 'r' },
		{ "json", required_argument, NULL, 'j' }, { "needed", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	const char *symbols = getenv("Y2038_SYMBOLS"), *json = NULL;
	static char *default_symbols, *root_real;	/* static: still reachable at exit */
	char self[PATH_MAX], *dir;
	struct run r = { 0 };
	struct stat st;
	ssize_t n;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 's': symbols = optarg; break;
		case 'r': root = optarg; break;
		case 'j': json = optarg; break;
		case 'n': r.needed_mode = 1; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind == argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (!symbols || !symbols[0]) {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		self[n > 0 ? n : 0] = '\0';
		symbols = default_symbols = xasprintf("%s/../../data/time-symbols.tsv", dir = dir_of(self));
		free(dir);
	}
	if (root[0]) {
		if (!(root_real = realpath(root, NULL)) || stat(root_real, &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "y2038-scan: --root %s: not a directory\n", root);
			return 2;
		}
		root = strcmp(root_real, "/") ? root_real : "";
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "y2038-scan: libelf: %s\n", elf_errmsg(-1));
		return 2;
	}
	if (load_symbols(symbols))
		return 2;
	if (json && !r.needed_mode && !(r.json = fopen(json, "w"))) {
		fprintf(stderr, "y2038-scan: %s: %s\n", json, strerror(errno));
		return 2;
	}
	if (r.json)
		fputs("[\n", r.json);
	for (int i = optind; i < argc; i++) {
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
			scan_dir(&r, argv[i]);
		else
			report(&r, argv[i], load(argv[i], 1));
	}
	if (!r.needed_mode)
		printf("# scanned %lu files: time32 %lu, time64 %lu, mixed %lu, time-neutral %lu, static %lu, error %lu\n",
		       r.files, r.count[C_TIME32], r.count[C_TIME64], r.count[C_MIXED], r.count[C_NEUTRAL],
		       r.count[C_STATIC], r.count[C_ERROR]);
	if (r.json && (fputs("\n]\n", r.json) < 0 || fclose(r.json))) {
		fprintf(stderr, "y2038-scan: %s: %s\n", json, strerror(errno));
		r.failed = 1;
	}
	strv_free(&r.printed);
	return r.failed;
}

