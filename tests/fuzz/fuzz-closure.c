// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-closure.c - libFuzzer target for in_root() (host-tools/distro/
 * scan-closure.c), which resolves a path inside a user's root as a chroot
 * would: the path comes from an ELF file's DT_NEEDED and DT_RUNPATH, the
 * symlinks on the way from the root, both untrusted. The input is a
 * symlink's target (up to its first newline), made the root's /fuzz, and
 * the path to resolve (the rest). The root holds links that point out of
 * it (up past its top, to /etc), into it, and at themselves. What in_root() gives
 * must be inside the root and already resolved: no "." or "..", no symlink
 * (realpath() gives it back unchanged), or nothing.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../host-tools/distro/scan.h"

static char top[PATH_MAX];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void remove_root(void)
{
	nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void make_root(void)
{
	static const char *const dirs[] = { "lib", "usr", "usr/lib", "usr/lib/i386-linux-gnu" };
	static const char *const links[][2] = {
		{ "up", "../../../../.." }, { "etc-link", "/etc" }, { "loop", "loop" },
		{ "usr/lib/self", "." }, { "usr/lib64", "../lib" }, { "lib/out", "../../.." },
		{ "usr/lib/i386-linux-gnu/libc.so.6", "/usr/lib/i386-linux-gnu/libc.so.6" },
	};
	char tmpl[] = "/tmp/fuzz-closure.XXXXXX", path[PATH_MAX];
	size_t i;

	if (!mkdtemp(tmpl) || !realpath(tmpl, top))
		abort();
	atexit(remove_root);
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", top, dirs[i]);
		if (mkdir(path, 0755))
			abort();
	}
	for (i = 0; i < ARRAY_SIZE(links); i++) {
		snprintf(path, sizeof(path), "%s/%s", top, links[i][0]);
		if (symlink(links[i][1], path))
			abort();
	}
	root = top;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX], real[PATH_MAX];
	const char *nl = memchr(data, '\n', size);
	size_t tlen = nl ? (size_t)(nl - (const char *)data) : 0, rlen = strlen(top);
	char *guest, *host;

	if (!top[0])
		make_root();
	snprintf(link, sizeof(link), "%s/fuzz", top);
	unlink(link);
	if (tlen && tlen < sizeof(target) && !memchr(data, '\0', tlen)) {
		memcpy(target, data, tlen);
		target[tlen] = '\0';
		symlink(target, link);	/* a target too long for the filesystem is none */
	}
	guest = strndup(nl ? nl + 1 : (const char *)data, nl ? size - tlen - 1 : size);
	if (!guest)
		abort();
	host = in_root(guest);
	if (host) {
		if (strncmp(host, top, rlen) || (host[rlen] && host[rlen] != '/'))
			abort();	/* outside the root */
		if (strstr(host, "/./") || strstr(host, "/../") || strstr(host, "//"))
			abort();	/* not resolved */
		if (!realpath(host, real) || strcmp(real, host))
			abort();	/* a symlink left in it, or a part that is not there */
	}
	free(host);
	free(guest);
	return 0;
}
