// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-scan.c - libFuzzer target for the ELF scanner (host-tools/distro/y2038-scan.c):
 * validate-distro and make try feed it whatever files a root or a user has.
 * The scanner is one program, so it is included whole (its main renamed)
 * and each input is read the way it reads a file: from a path, here a
 * memfd's.
 */
#define _GNU_SOURCE
#define main y2038_scan_main
#include "../../host-tools/distro/y2038-scan.c"
#undef main
#include <sys/mman.h>

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
