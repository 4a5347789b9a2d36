// SPDX-License-Identifier: GPL-2.0
/*
 * y2038-kconfig.c - y2038-kconfig: what a kernel .config says about 2038.
 *
 *   y2038-kconfig [--rules FILE] [--json FILE] CONFIG
 *
 * Prints one line per y2038-relevant choice, "VERDICT\tCONFIG_X=value\treason",
 * then a summary line answering "can COMPAT_32BIT_TIME be turned off?" as
 * far as the config can. The facts live in data/kconfig-y2038.tsv, not here, so
 * that a new driver or filesystem is one line of data. Exit 0 when the
 * report was made, 1 when the config or rules cannot be read, 2 on usage.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../kernel/kconfig-parse.h"

#define PROG "y2038-kconfig"

struct rule {
	char *buf;	/* the line; the fields point into it */
	char *sym;	/* without CONFIG_; may be a glob */
	char *when;	/* "*" or ","-joined: 32, 64, ?, SYM=vals, SYM!=vals,
			   >=X.Y, <X.Y */
	char *values;	/* "|"-joined: y, m, n, "-" (absent), "*" (present), literal */
	char *verdict;
	char *reason;
};

struct hit {
	char sym[104];
	const char *value;	/* NULL when the symbol is absent */
	const struct rule *rule;
};

/* What a rule's conditions ask of the kernel besides its symbols. */
struct target {
	int bits;	/* 32, 64, or 0 (not known yet) */
	long version;	/* X.Y as X * 1000 + Y, from the config's header; 0 unknown */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof(*(a)))
#define SYMBOL_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

/* The verdicts from FIRST_PLAIN_ONLY on are about one named symbol: no globs. */
static const char *const verdicts[] = {
	"ok", "warn", "fail", "info", "skip", "arch32", "arch64", "summary",
};
#define FIRST_PLAIN_ONLY 5

static void *must(void *p)
{
	if (!p) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(1);
	}
	return p;
}

static int value_in(const char *value, const char *list)
{
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, "|");

		if ((n == 1 && *p == '-' && !value) ||
		    (n == 1 && *p == '*' && value) ||
		    (value && strlen(value) == n && !strncmp(p, value, n)))
			return 1;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static const char *get(const struct kconfig *cfg, const char *sym, size_t n)
{
	char name[104];

	snprintf(name, sizeof(name), "CONFIG_%.*s", (int)n, sym);
	return kconfig_get(cfg, name);
}

/* "X.Y" as X * 1000 + Y; -1 when it is not that. */
static long version_of(const char *s)
{
	char *end;
	long major = strtol(s, &end, 10), minor;

	if (end == s || *end != '.' || major < 1 || major > 999)
		return -1;
	s = end + 1;
	minor = strtol(s, &end, 10);
	if (end == s || *end || minor < 0 || minor > 999)
		return -1;
	return major * 1000 + minor;
}

/*
 * The kernel version a .config was made for: its header, "# Linux/x86
 * 6.1.192 Kernel Configuration" (scripts/kconfig/confdata.c). 0 when the
 * file has none, as a fragment has not.
 */
static long config_version(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	long major, minor, v = 0;
	int n;

	for (n = 0; f && n < 8 && !v && fgets(line, sizeof(line), f); n++)
		if (sscanf(line, "# Linux/%*s %ld.%ld", &major, &minor) == 2 &&
		    major > 0 && major < 1000 && minor >= 0 && minor < 1000)
			v = major * 1000 + minor;
	if (f)
		fclose(f);
	return v;
}

/* One condition: 1 holds, 0 does not, -1 is not a condition. */
static int cond_holds(const char *c, size_t n, const struct kconfig *cfg,
		      const struct target *t)
{
	char tok[200];
	char *eq;
	long v;
	int neg;

	if (n >= sizeof(tok) || !n)
		return -1;
	memcpy(tok, c, n);
	tok[n] = '\0';
	if (!strcmp(tok, "32") || !strcmp(tok, "64"))
		return t->bits == atoi(tok);
	if (!strcmp(tok, "?"))
		return t->bits == 0;
	/* A kernel version bound holds for a known version only. */
	if (!strncmp(tok, ">=", 2) || tok[0] == '<') {
		v = version_of(tok + (tok[0] == '<' ? 1 : 2));
		if (v < 0)
			return -1;
		return t->version && (tok[0] == '<' ? t->version < v : t->version >= v);
	}
	eq = strchr(tok, '=');
	if (!eq || eq == tok || !eq[1])
		return -1;
	neg = eq[-1] == '!';
	if (neg && eq - 1 == tok)
		return -1;
	return value_in(get(cfg, tok, eq - tok - neg), eq + 1) != neg;
}

/* Every condition is parsed, so that a bad one is found whatever the config. */
static int when_holds(const char *when, const struct kconfig *cfg,
		      const struct target *t)
{
	const char *p = when;
	int all = 1;

	if (!strcmp(when, "*"))
		return 1;
	for (;;) {
		size_t n = strcspn(p, ",");
		int r = cond_holds(p, n, cfg, t);

		if (r < 0)
			return -1;
		all &= r;
		if (!p[n])
			return all;
		p += n + 1;
	}
}

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Rules are checked when read, so that a typo is an error, not a silent miss. */
static int rule_bad(const struct rule *r, char *why, size_t len)
{
	static const struct kconfig empty;
	static const struct target none;
	const char *v = r->values;
	size_t i = 0;

	while (i < ARRAY_SIZE(verdicts) && strcmp(r->verdict, verdicts[i]))
		i++;
	if (i == ARRAY_SIZE(verdicts))
		snprintf(why, len, "unknown verdict \"%s\"", r->verdict);
	else if (!*r->sym || r->sym[strspn(r->sym, SYMBOL_CHARS "*?[]")])
		snprintf(why, len, "bad symbol \"%s\"", r->sym);
	else if (is_glob(r->sym) && i >= FIRST_PLAIN_ONLY)
		snprintf(why, len, "a %s rule needs a plain symbol", r->verdict);
	else if (when_holds(r->when, &empty, &none) < 0)
		snprintf(why, len, "bad condition \"%s\"", r->when);
	else if (!*v || *v == '|' || v[strlen(v) - 1] == '|' || strstr(v, "||"))
		snprintf(why, len, "empty value in \"%s\"", v);
	else if (!*r->reason)
		snprintf(why, len, "no reason given");
	else
		return 0;
	return 1;
}

static int load_rules(const char *path, struct rule **rules, size_t *nrules)
{
	FILE *f = fopen(path, "r");
	char buf[1024], why[160];
	int line = 0;

	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		struct rule r = { 0 };
		char *fld[5], *s;
		int n = 0;

		line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			fprintf(stderr, PROG ": %s:%d: line too long\n", path, line);
			fclose(f);
			return -1;
		}
		buf[strcspn(buf, "\r\n")] = '\0';
		if (!buf[0] || buf[0] == '#')
			continue;
		s = r.buf = must(strdup(buf));
		for (; n < 5 && s; n++)
			fld[n] = strsep(&s, "\t");
		if (n < 5 || s)
			snprintf(why, sizeof(why), "want 5 tab-separated fields");
		else
			r = (struct rule){ r.buf, fld[0], fld[1], fld[2], fld[3], fld[4] };
		if (n < 5 || s || rule_bad(&r, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s:%d: %s\n", path, line, why);
			free(r.buf);
			fclose(f);
			return -1;
		}
		*rules = must(realloc(*rules, (*nrules + 1) * sizeof(**rules)));
		(*rules)[(*nrules)++] = r;
	}
	fclose(f);
	if (!*nrules)
		fprintf(stderr, PROG ": %s: no rules\n", path);
	return *nrules ? 0 : -1;
}

static int decided(const struct hit *hits, size_t n, const char *sym)
{
	while (n--)
		if (!strcmp(hits[n].sym, sym))
			return 1;
	return 0;
}

static void add_hit(struct hit **hits, size_t *n, const char *sym,
		    const char *value, const struct rule *r)
{
	*hits = must(realloc(*hits, (*n + 1) * sizeof(**hits)));
	snprintf((*hits)[*n].sym, sizeof((*hits)[*n].sym), "%s", sym);
	(*hits)[*n].value = value;
	(*hits)[(*n)++].rule = r;
}

/* A plain rule's symbol, or NULL when it does not apply. */
static const char *plain_applies(const struct rule *r, const struct kconfig *cfg,
				 const struct target *t, char *name, size_t len)
{
	snprintf(name, len, "CONFIG_%s", r->sym);
	if (!when_holds(r->when, cfg, t) ||
	    !value_in(kconfig_get(cfg, name), r->values))
		return NULL;
	return name;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static const char *shown(const char *value)
{
	return value ? value : "(absent)";
}

static const char *verdict_of(const struct rule *r)
{
	return strncmp(r->verdict, "arch", 4) ? r->verdict : "info";
}

static int write_json(const char *path, const char *config, const struct target *t,
		      const struct hit *hits, size_t n, const char *summary)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\n  \"config\": ");
	json_str(f, config);
	if (t->bits)
		fprintf(f, ",\n  \"arch_bits\": %d", t->bits);
	else
		fprintf(f, ",\n  \"arch_bits\": null");
	if (t->version)
		fprintf(f, ",\n  \"kernel_version\": \"%ld.%ld\"", t->version / 1000, t->version % 1000);
	else
		fprintf(f, ",\n  \"kernel_version\": null");
	fprintf(f, ",\n  \"checks\": [");
	for (i = 0; i < n; i++) {
		fprintf(f, "%s\n    { \"symbol\": ", i ? "," : "");
		json_str(f, hits[i].sym);
		fprintf(f, ", \"value\": ");
		if (hits[i].value)
			json_str(f, hits[i].value);
		else
			fprintf(f, "null");
		fprintf(f, ", \"verdict\": \"%s\", \"reason\": ", verdict_of(hits[i].rule));
		json_str(f, hits[i].rule->reason);
		fprintf(f, " }");
	}
	fprintf(f, "\n  ],\n  \"summary\": ");
	json_str(f, summary);
	fprintf(f, "\n}\n");
	if (fclose(f)) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The rules in the tree the tool was built in (BUILD/host/../../data), else in ./data. */
static const char *default_rules(char *buf, size_t len)
{
	static const char rel[] = "data/kconfig-y2038.tsv";
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;
	int up;

	if (n > 0) {
		buf[n] = '\0';
		for (up = 0; up < 3 && (slash = strrchr(buf, '/')); up++)
			*slash = '\0';
		if (up == 3 && strlen(buf) + sizeof(rel) + 1 < len) {
			strcat(strcat(buf, "/"), rel);
			if (!access(buf, R_OK))
				return buf;
		}
	}
	return rel;
}

int main(int argc, char **argv)
{
	const char *rules_path = NULL, *json_path = NULL, *config;
	struct rule *rules = NULL;
	struct hit *hits = NULL, *sum = NULL;
	struct kconfig cfg = { 0 };
	char err[512], name[104], rbuf[4096], summary[1200];
	size_t nrules = 0, nhits = 0, nsum = 0, i, e, kept = 0;
	struct target t = { 0 };
	int a, ret = 1;

	for (a = 1; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "--rules"))
			rules_path = argv[a + 1];
		else if (!strcmp(argv[a], "--json"))
			json_path = argv[a + 1];
		else
			break;
	}
	if (a != argc - 1 || argv[a][0] == '-') {
		fprintf(stderr, "usage: " PROG " [--rules FILE] [--json FILE] CONFIG\n");
		return 2;
	}
	config = argv[a];
	if (!rules_path)
		rules_path = default_rules(rbuf, sizeof(rbuf));
	if (load_rules(rules_path, &rules, &nrules))
		goto out;
	if (kconfig_load(config, &cfg, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		goto out;
	}
	if (!cfg.n) {
		fprintf(stderr, PROG ": %s: no CONFIG_ lines: not a kernel .config\n", config);
		goto out;
	}

	t.version = config_version(config);
	/* The word size first: the other rules may depend on it. */
	for (i = 0; i < nrules && !t.bits; i++)
		if (!strncmp(rules[i].verdict, "arch", 4) &&
		    plain_applies(&rules[i], &cfg, &t, name, sizeof(name))) {
			t.bits = atoi(rules[i].verdict + 4);
			add_hit(&hits, &nhits, name, kconfig_get(&cfg, name), &rules[i]);
		}
	/* The first rule that applies to a symbol decides its verdict. */
	for (i = 0; i < nrules; i++) {
		const struct rule *r = &rules[i];

		if (!strncmp(r->verdict, "arch", 4))
			continue;
		if (!strcmp(r->verdict, "summary")) {
			if (!nsum && plain_applies(r, &cfg, &t, name, sizeof(name)))
				add_hit(&sum, &nsum, name, kconfig_get(&cfg, name), r);
			continue;
		}
		if (!is_glob(r->sym)) {
			if (plain_applies(r, &cfg, &t, name, sizeof(name)) &&
			    !decided(hits, nhits, name))
				add_hit(&hits, &nhits, name, kconfig_get(&cfg, name), r);
			continue;
		}
		if (!when_holds(r->when, &cfg, &t))
			continue;
		for (e = 0; e < cfg.n; e++) {
			const struct kconfig_entry *ent = &cfg.entries[e];

			if (!fnmatch(r->sym, ent->symbol + 7, 0) &&
			    value_in(ent->value, r->values) &&
			    !decided(hits, nhits, ent->symbol))
				add_hit(&hits, &nhits, ent->symbol, ent->value, r);
		}
	}

	/* A skip rule only keeps later rules off a symbol; it is not reported. */
	for (i = 0; i < nhits; i++) {
		if (!strcmp(hits[i].rule->verdict, "skip"))
			continue;
		hits[kept] = hits[i];
		printf("%s\t%s=%s\t%s\n", verdict_of(hits[i].rule), hits[i].sym,
		       shown(hits[i].value), hits[i].rule->reason);
		kept++;
	}
	if (nsum)
		snprintf(summary, sizeof(summary), "%s=%s: %s", sum->sym + 7,
			 shown(sum->value), sum->rule->reason);
	else
		snprintf(summary, sizeof(summary), "no summary rule applies");
	printf("summary\t%s\n", summary);
	ret = json_path && write_json(json_path, config, &t, hits, kept, summary);
out:
	for (i = 0; i < nrules; i++)
		free(rules[i].buf);
	free(rules);
	free(hits);
	free(sum);
	kconfig_free(&cfg);
	return ret;
}
