// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-kconfig.c - libFuzzer target for the .config reader (host-tools/
 * kernel/kconfig-parse.c), which y2038-kconfig and kconfig-verify run on whatever config
 * a user hands them. A parsed symbol must read back the value it was given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../host-tools/kernel/kconfig-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kconfig cfg;
	char err[256];
	size_t i;

	if (kconfig_parse((const char *)data, size, "fuzz", &cfg, err, sizeof(err)))
		return 0;
	for (i = 0; i < cfg.n; i++) {
		const char *v = kconfig_get(&cfg, cfg.entries[i].symbol);

		if (!v || strncmp(cfg.entries[i].symbol, "CONFIG_", 7))
			abort();
	}
	kconfig_free(&cfg);
	return 0;
}
