/* SPDX-License-Identifier: GPL-2.0 */
/* kconfig-parse.h - read kernel .config files and config fragments. */
#ifndef Y2038_KCONFIG_H
#define Y2038_KCONFIG_H

#include <stddef.h>

struct kconfig_entry {
	char symbol[96];	/* with its CONFIG_ prefix */
	char value[160];	/* y, m, n ("is not set"), a number or "a string" */
	int line;
};

struct kconfig {
	struct kconfig_entry *entries;
	size_t n;
};

/*
 * Parse a .config or a fragment. A line that is neither blank, a comment,
 * "CONFIG_X=value" nor "# CONFIG_X is not set" is an error: returns -1 with
 * "name:line: ..." in err. A symbol given twice keeps its last value, as
 * merge_config.sh does.
 */
int kconfig_parse(const char *buf, size_t len, const char *name,
		  struct kconfig *cfg, char *err, size_t errlen);
int kconfig_load(const char *path, struct kconfig *cfg, char *err,
		 size_t errlen);
void kconfig_free(struct kconfig *cfg);

/* Set symbol to value, as a later fragment does. 0, or -1 on ENOMEM. */
int kconfig_set(struct kconfig *cfg, const char *symbol, const char *value,
		int line);

/* The value of symbol ("CONFIG_X"), or NULL when the .config lacks it. */
const char *kconfig_get(const struct kconfig *cfg, const char *symbol);

#endif
