// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-scan.c - libFuzzer target for the ELF scanner's reader
 * (host-tools/distro/scan-elf.c, with scan-util.c and scan-syscalls.c):
 * validate-distro and make try feed it whatever files a root or a user has.
 * Each input is read the way the scanner reads a file: from a path, here a
 * memfd's.
 */
#define _GNU_SOURCE
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../../host-tools/distro/scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	struct obj *o;

	if (fd < 0) {
		const char *symbols = getenv("Y2038_SYMBOLS");

		/* with the symbol knowledge, imports are classified too */
		if (symbols && load_symbols(symbols))
			abort();
		elf_version(EV_CURRENT);
		fd = memfd_create("fuzz-elf", 0);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	o = load(path, 1);
	obj_free(o);
	return 0;
}
