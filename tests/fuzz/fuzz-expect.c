// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-expect.c - libFuzzer target for the expectations table reader
 * (host-tools/verdicts/expect.c): a table is rejected whole or read exactly, and
 * every row it keeps is found again by a lookup of its own cell.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../host-tools/verdicts/expect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct expect_table t;
	char err[256];
	size_t i;

	if (expect_parse((const char *)data, size, "fuzz", &t, err, sizeof(err)))
		return 0;
	for (i = 0; i < t.nrows; i++) {
		const struct expect_row *r = &t.rows[i];
		const struct expect_cell cell = {
			.scenario = r->scenario, .name = r->name, .phase = r->phase,
			.abi = r->abi, .libc = r->libc, .config = r->config,
			.patches = r->patches, .machine = r->machine, .karch = "",
			.accel = r->accel, .kernel = r->kernel,
		};
		const char *const named[] = {
			r->scenario, r->name, r->phase, r->abi, r->libc, r->config,
			r->patches, r->machine, r->accel,
		};
		size_t k;

		/* a row of named columns only: its own cell must find a row */
		for (k = 0; k < sizeof(named) / sizeof(named[0]) && strcmp(named[k], "*"); k++)
			;
		if (k == sizeof(named) / sizeof(named[0]) && !expect_lookup(&t, &cell))
			abort();
	}
	expect_free(&t);
	return 0;
}
