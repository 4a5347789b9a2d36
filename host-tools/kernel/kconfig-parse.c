// SPDX-License-Identifier: GPL-2.0
/*
 * kconfig-parse.c - a strict reader for kernel .config files and fragments.
 * Strict because a half-read config would let a wrong kernel pass for the
 * one the lab asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../read-file.h"
#include "kconfig-parse.h"

static int symbol_ok(const char *s, size_t n)
{
	size_t i;

	if (n <= 7 || strncmp(s, "CONFIG_", 7))
		return 0;
	for (i = 7; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z') || s[i] == '_'))
			return 0;
	return 1;
}

static int value_ok(const char *v)
{
	size_t n = strlen(v);

	if (!n)
		return 0;
	if (v[0] == '"')
		return n >= 2 && v[n - 1] == '"';
	return !strchr(v, ' ') && !strchr(v, '"');
}

static int put(struct kconfig *cfg, const char *sym, size_t symlen,
	       const char *val, int line)
{
	struct kconfig_entry *e;
	size_t i;

	for (i = 0; i < cfg->n; i++)
		if (strlen(cfg->entries[i].symbol) == symlen &&
		    !strncmp(cfg->entries[i].symbol, sym, symlen))
			break;
	if (i == cfg->n) {
		e = realloc(cfg->entries, (cfg->n + 1) * sizeof(*e));
		if (!e)
			return -1;
		cfg->entries = e;
		cfg->n++;
	}
	e = &cfg->entries[i];
	snprintf(e->symbol, sizeof(e->symbol), "%.*s", (int)symlen, sym);
	snprintf(e->value, sizeof(e->value), "%s", val);
	e->line = line;
	return 0;
}

static int parse_line(char *s, int lineno, const char *name,
		      struct kconfig *cfg, char *err, size_t errlen)
{
	static const char not_set[] = " is not set";
	char *eq;
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	if (!n)
		return 0;
	if (s[0] == '#') {
		size_t sl = n > sizeof(not_set) ? n - (sizeof(not_set) - 1) : 0;

		/* "# CONFIG_X is not set" means n; other comments are prose. */
		if (!strncmp(s, "# CONFIG_", 9) && sl > 2 &&
		    !strcmp(s + sl, not_set)) {
			if (!symbol_ok(s + 2, sl - 2) || sl - 2 >= 96)
				goto bad;
			return put(cfg, s + 2, sl - 2, "n", lineno);
		}
		return 0;
	}
	eq = strchr(s, '=');
	if (!eq || !symbol_ok(s, eq - s) || eq - s >= 96 || !value_ok(eq + 1) ||
	    strlen(eq + 1) >= 160)
		goto bad;
	return put(cfg, s, eq - s, eq + 1, lineno);
bad:
	snprintf(err, errlen, "%s:%d: not a config line: \"%.60s\"", name,
		 lineno, s);
	return -2;
}

int kconfig_parse(const char *buf, size_t len, const char *name,
		  struct kconfig *cfg, char *err, size_t errlen)
{
	char line[512];
	size_t i = 0;
	int lineno = 0, ret;

	memset(cfg, 0, sizeof(*cfg));
	while (i < len) {
		if (next_line(buf, len, &i, line, sizeof(line), name, ++lineno, err, errlen) < 0) {
			kconfig_free(cfg);
			return -1;
		}
		ret = parse_line(line, lineno, name, cfg, err, errlen);
		if (ret) {
			if (ret == -1)
				snprintf(err, errlen, "%s: out of memory", name);
			kconfig_free(cfg);
			return -1;
		}
	}
	return 0;
}

static int parse_buffer(const char *buf, size_t len, const char *name, void *out,
			char *err, size_t errlen)
{
	return kconfig_parse(buf, len, name, out, err, errlen);
}

int kconfig_load(const char *path, struct kconfig *cfg, char *err, size_t errlen)
{
	return parse_file(path, cfg, parse_buffer, err, errlen);
}

int kconfig_set(struct kconfig *cfg, const char *symbol, const char *value,
		int line)
{
	return put(cfg, symbol, strlen(symbol), value, line);
}

void kconfig_free(struct kconfig *cfg)
{
	free(cfg->entries);
	cfg->entries = NULL;
	cfg->n = 0;
}

const char *kconfig_get(const struct kconfig *cfg, const char *symbol)
{
	size_t i;

	for (i = 0; i < cfg->n; i++)
		if (!strcmp(cfg->entries[i].symbol, symbol))
			return cfg->entries[i].value;
	return NULL;
}
