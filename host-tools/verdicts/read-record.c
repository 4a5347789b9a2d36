// SPDX-License-Identifier: GPL-2.0
/*
 * read-record.c - the one reader of a boot record (a boot's plan and meta
 * files, ../boot/boot-record.h), for y2038-collect and its fuzz target
 * (tests/fuzz/fuzz-record.c): a record comes from a LAVA server's answers
 * as well as from the lab's own boots.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../read-file.h"
#include "collect-write.h"

/*
 * One file of a boot record into r: each boot-record.h key's value, the
 * last where a key is repeated; a line of another key is not read, nor
 * anything after a NUL. Returns the text its values point into (NULL: no
 * such file). Running out of memory ends the program (exit 2).
 */
static char *read_record_file(const char *path, struct record *r)
{
	static const char *const keys[] = {
#define KEY(key, size, what) #key,
		BOOT_RECORD_KEYS(KEY)
#undef KEY
	};
	char *text, *line, *save = NULL, err[1024];
	size_t len, i;

	text = read_file(path, &len, err, sizeof(err));
	if (!text) {
		if (errno != ENOMEM)
			return NULL;
		fprintf(stderr, "y2038-collect: %s\n", err);
		exit(2);
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		for (i = 0; i < NBOOT_KEYS; i++)
			if (!strcmp(line, keys[i]))
				r->value[i] = eq + 1;
	}
	return text;
}

void read_record(const char *dir, struct record *r)
{
	char path[4096];

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/plan", dir);
	r->plan_text = read_record_file(path, r);
	snprintf(path, sizeof(path), "%s/meta", dir);
	r->text = read_record_file(path, r);
}

void free_record(struct record *r)
{
	free(r->text);
	free(r->plan_text);
}
