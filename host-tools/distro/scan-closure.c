// SPDX-License-Identifier: GPL-2.0
/*
 * scan-closure.c - y2038-scan's dependencies of a program, resolved as ld.so
 * would inside the root. See scan.h.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scan.h"

const char *root = "";	/* "" is the host's own / */
static struct obj **libs;	/* every library loaded for a closure, once */
static size_t nlibs;

/* GUEST resolved inside the root like a chroot, symlinks included: a host path, or NULL. */
char *in_root(const char *guest)
{
	char done[PATH_MAX] = "", host[PATH_MAX], link[PATH_MAX];
	char *todo = xasprintf("%s", guest), *rest = todo, *next;
	int links = 0;
	size_t len, dlen;
	ssize_t n;
	struct stat st;

	for (;;) {
		rest += strspn(rest, "/");
		len = strcspn(rest, "/");
		dlen = strlen(done);
		if (!len)
			break;
		if (len <= 2 && !strncmp(rest, "..", len)) {	/* "." or "..", never above the root */
			if (len == 2 && strrchr(done, '/'))
				*strrchr(done, '/') = '\0';
			rest += len;
			continue;
		}
		if (dlen + len + 2 > sizeof(done))
			goto fail;
		sprintf(done + dlen, "/%.*s", (int)len, rest);
		rest += len;
		if ((size_t)snprintf(host, sizeof(host), "%s%s", root, done) >= sizeof(host) || lstat(host, &st))
			goto fail;
		if (!S_ISLNK(st.st_mode))
			continue;
		n = readlink(host, link, sizeof(link) - 1);
		if (n < 0 || ++links > 40)
			goto fail;
		link[n] = '\0';
		done[link[0] == '/' ? 0 : dlen] = '\0';
		next = xasprintf("%s/%s", link, rest);
		free(todo);
		todo = rest = next;
	}
	free(todo);
	return xasprintf("%s%s", root, done[0] || root[0] ? done : "/");
fail:
	free(todo);
	return NULL;
}

/* Would ld.so load HOST for O: a regular ELF file of the same class and machine? */
static int compatible(const char *host, const struct obj *o)
{
	unsigned char h[20];
	int fd = open(host, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int ok = fd >= 0 && read(fd, h, sizeof(h)) == sizeof(h) && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
		 !memcmp(h, ELFMAG, SELFMAG) && h[EI_CLASS] == (o->elf_class == 64 ? ELFCLASS64 : ELFCLASS32) &&
		 (h[EI_DATA] == ELFDATA2MSB ? h[18] << 8 | h[19] : h[19] << 8 | h[18]) == o->machine;

	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * DIR/NAME if ld.so would load it for O: the host path with DIR resolved and
 * NAME kept, since a copy into a guest must keep the name ld.so looks for.
 * DIR is in the guest unless it is relative or HOST_DIR ($ORIGIN, the file's own).
 */
static char *try_dir(const char *dir, const char *name, int host_dir, const struct obj *o)
{
	char *path = xasprintf("%s/%s", dir, name), *slash = strrchr(path, '/'), *where = NULL, *found = NULL;
	char *real;

	host_dir = host_dir || path[0] != '/';
	real = host_dir ? realpath(path, NULL) : in_root(path);
	if (real && compatible(real, o)) {
		*slash = '\0';
		where = host_dir ? realpath(path[0] ? path : "/", NULL) : in_root(path);
	}
	if (where)
		found = xasprintf("%s/%s", strcmp(where, "/") ? where : "", slash + 1);
	free(path);
	free(real);
	free(where);
	return found;
}

/* NAME in the DT_RPATH/DT_RUNPATH DIRS of OWNER, "$ORIGIN" leading an entry expanded. */
static char *search_list(const struct strv *dirs, const char *name, const struct obj *owner, const struct obj *o)
{
	char *found = NULL, *dir, *origin = dir_of(owner->path);

	for (size_t i = 0; i < dirs->n && !found; i++) {
		const char *d = dirs->v[i], *rest = !strncmp(d, "$ORIGIN", 7) ? d + 7 :
						   !strncmp(d, "${ORIGIN}", 9) ? d + 9 : NULL;

		dir = rest ? xasprintf("%s%s", origin, rest) : xasprintf("%s", d);
		found = try_dir(dir, name, rest != NULL, o);
		free(dir);
	}
	free(origin);
	return found;
}

/*
 * NAME needed by O, loaded on behalf of TOP: DT_RPATH of O and of TOP when
 * there is no DT_RUNPATH, DT_RUNPATH, the default directories, then the
 * directories of O and TOP. No LD_LIBRARY_PATH, ld.so.conf or its cache.
 */
static char *find_lib(const char *name, const struct obj *o, const struct obj *top)
{
	static const char *const defaults[] = { "/lib/", "/usr/lib/", "/lib", "/usr/lib" };
	const struct machine *m = machine_of(o->machine);
	const char *t = m ? m->triplet : NULL, *suffix = o->hard_float ? "hf" : "";
	char *found = NULL, *dir;

	if (o->machine == EM_X86_64 && o->elf_class == 32)
		suffix = "x32";
	if (strchr(name, '/'))
		return try_dir(name[0] == '/' ? "" : ".", name, 0, o);
	if (!o->runpath.n)
		found = search_list(&o->rpath, name, o, o);
	if (!found && !o->runpath.n && o != top && !top->runpath.n)
		found = search_list(&top->rpath, name, top, o);
	if (!found)
		found = search_list(&o->runpath, name, o, o);
	for (size_t i = 0; i < ARRAY_SIZE(defaults) && !found; i++) {
		if (i < 2 && !t)
			continue;
		dir = xasprintf("%s%s%s", defaults[i], i < 2 ? t : "", i < 2 ? suffix : "");
		found = try_dir(dir, name, 0, o);
		free(dir);
	}
	for (int i = 0; i < 2 && !found; i++) {
		dir = dir_of(i ? top->path : o->path);
		found = try_dir(dir, name, 1, o);
		free(dir);
	}
	return found;
}

static struct obj *get_lib(const char *path)
{
	for (size_t i = 0; i < nlibs; i++)
		if (!strcmp(libs[i]->path, path))
			return libs[i];
	libs = xrealloc(libs, (nlibs + 1) * sizeof(*libs));
	return libs[nlibs++] = load(path, 0);
}

/* TOP's dependency closure, breadth-first, each library once (by name and by path). */
void closure(const struct obj *top, struct closure *c)
{
	struct strv names = { 0 };
	char *p, *dir;

	if (top->interp) {
		const char *name = strrchr(top->interp, '/') ? strrchr(top->interp, '/') + 1 : top->interp;

		p = try_dir(dir = dir_of(top->interp), name, 0, top);
		if (p) {
			strv_add(&c->paths, "%s", p);
			strv_add(&names, "%s", name);
		} else {
			strv_add(&c->missing, "%s (needed by %s)", top->interp, top->path);
		}
		free(dir);
		free(p);
	}
	for (size_t i = 0; i <= c->paths.n; i++) {
		const struct obj *o = i ? get_lib(c->paths.v[i - 1]) : top;

		if (o->error) {
			strv_add(&c->missing, "%s (unreadable: %s)", o->path, o->error);
			continue;
		}
		if (o != top && o->time32.n)
			strv_add(&c->time32, "%s", o->path);
		for (size_t k = 0; k < o->needed.n; k++) {
			if (strv_has(&names, o->needed.v[k]))
				continue;
			strv_add(&names, "%s", o->needed.v[k]);
			if (!(p = find_lib(o->needed.v[k], o, top)))
				strv_add(&c->missing, "%s (needed by %s)", o->needed.v[k], o->path);
			else if (!strv_has(&c->paths, p))
				strv_add(&c->paths, "%s", p);
			free(p);
		}
	}
	strv_free(&names);
}
