// SPDX-License-Identifier: GPL-2.0
/*
 * kconfig-verify - did every value the fragments asked for take?
 *
 *   kconfig-verify .config FRAGMENT...
 *
 * olddefconfig silently drops a value whose dependencies are not met; a lab
 * that measured such a kernel would report on a config nobody asked for.
 * Every requested symbol is checked against the resulting .config, later
 * fragments overriding earlier ones. A symbol missing from .config counts
 * as n. Exit 0 when all took, 1 naming each that did not, 2 on bad input.
 */
#include <stdio.h>
#include <string.h>
#include "kconfig-parse.h"

int main(int argc, char **argv)
{
	struct kconfig config, want = { 0 };
	char err[512];
	size_t i;
	int a, bad = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: kconfig-verify .config FRAGMENT...\n");
		return 2;
	}
	for (a = 2; a < argc; a++) {
		struct kconfig frag;

		if (kconfig_load(argv[a], &frag, err, sizeof(err))) {
			fprintf(stderr, "kconfig-verify: %s\n", err);
			return 2;
		}
		for (i = 0; i < frag.n; i++)
			if (kconfig_set(&want, frag.entries[i].symbol,
					frag.entries[i].value, frag.entries[i].line))
				return 2;
		kconfig_free(&frag);
	}
	if (kconfig_load(argv[1], &config, err, sizeof(err))) {
		fprintf(stderr, "kconfig-verify: %s\n", err);
		return 2;
	}
	for (i = 0; i < want.n; i++) {
		const char *sym = want.entries[i].symbol;
		const char *asked = want.entries[i].value;
		const char *got = kconfig_get(&config, sym);

		if (!strcmp(asked, got ? got : "n"))
			continue;
		fprintf(stderr, "kconfig-verify: %s: requested %s=%s, got %s\n",
			argv[1], sym, asked,
			got ? got : "nothing (not in .config: unmet dependencies?)");
		bad = 1;
	}
	if (!bad)
		printf("kconfig-verify: all %zu requested values took\n", want.n);
	kconfig_free(&config);
	kconfig_free(&want);
	return bad;
}
