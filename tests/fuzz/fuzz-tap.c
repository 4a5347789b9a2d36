// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-tap.c - libFuzzer target for the guest's TAP (host-tools/verdicts/tap.c): what
 * a dying guest writes to its serial port is untrusted input. Every binary
 * the parser records must be findable by name, every case and note must
 * have its text and a line within the input, and freeing must be clean.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../host-tools/verdicts/tap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tap_run run;
	size_t i;

	if (tap_parse((const char *)data, size, &run))
		return 0;
	for (i = 0; i < run.nbins; i++) {
		struct tap_binary *b = &run.bins[i];

		if (strnlen(b->name, sizeof(b->name)) == sizeof(b->name) ||
		    tap_find_binary(&run, b->name) == NULL)
			abort();	/* a name not terminated, or not found again */
		for (size_t k = 0; k < b->ncells; k++)
			if (!b->cells[k].detail || strlen(b->cells[k].detail) > size ||
			    b->cells[k].line < 1 || (size_t)b->cells[k].line > size)
				abort();
		for (size_t k = 0; k < b->nnotes; k++)
			if (!b->notes[k].text || (size_t)b->notes[k].line > size)
				abort();
	}
	for (i = 0; i < run.nnotes; i++)
		if (!run.notes[i].text || (size_t)run.notes[i].line > size)
			abort();
	for (i = 0; i < run.ntext; i++)
		if (!run.text[i].text || (size_t)run.text[i].line > size)
			abort();
	tap_free(&run);
	return 0;
}
