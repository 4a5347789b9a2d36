/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan.h - the parts of y2038-scan, the ELF scanner (y2038-scan.c says what
 * it finds and how), and what each part gives the others. Calls go one way,
 * down this list: a part calls only the parts listed before it, never one
 * that calls it.
 *
 *   scan-util.c      allocation that exits the program (status 2) when memory
 *                    runs out, and struct strv, a growing list of strings.
 *   scan-syscalls.c  raw syscalls in static binaries: scan_syscalls() marks
 *                    the syscall numbers a file's code loads before trapping.
 *   scan-elf.c       the reader: load_symbols() reads data/time-symbols.tsv,
 *                    what is time32 and what time64. Then one ELF file:
 *                    load() returns a struct obj of what the file is, imports
 *                    and defines (and, for a 32-bit static file it was asked
 *                    about, its time syscalls, through scan_syscalls()), or
 *                    why it could not be read (->error), never NULL;
 *                    obj_free() frees it. machine_of() names an e_machine.
 *                    The file is untrusted input: this part, with the two
 *                    above, is what the fuzz target (tests/fuzz/fuzz-scan.c)
 *                    links.
 *   scan-closure.c   the libraries a program loads, found as ld.so would find
 *                    them inside root (a host directory, set before the first
 *                    call): closure() fills a struct closure for a loaded file;
 *                    in_root() resolves a path there (fuzz-closure.c links it).
 *   y2038-scan.c     the classes, the text and JSON output, and main().
 *
 * Call elf_version(EV_CURRENT) before load().
 */
#ifndef Y2038_SCAN_H
#define Y2038_SCAN_H

#include <gelf.h>
#include <stddef.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* --- scan-util.c */

struct strv {
	char **v;
	size_t n, cap;
};

__attribute__((noreturn)) void out_of_memory(void);
void *xrealloc(void *p, size_t size);
__attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...);
__attribute__((format(printf, 2, 3))) const char *strv_add(struct strv *s, const char *fmt, ...);
int strv_has(const struct strv *s, const char *str);
void strv_free(struct strv *s);
const char *join(struct strv *pool, const struct strv *s, const char *sep, size_t max);
/* PATH's directory ("." for a bare name), allocated. */
char *dir_of(const char *path);

/* --- scan-syscalls.c */

#define SYSCALL_NR_MAX	1024	/* above every 32-bit syscall number */

/*
 * seen[nr] set for each syscall number nr (< SYSCALL_NR_MAX) that ELF's
 * executable code (RAW, its bytes, whose layout the reader checked) loads
 * before a trap; 0, or -1 when the machine's code is not one it reads
 * (i386 and little-endian ARM only).
 */
int scan_syscalls(Elf *elf, const unsigned char *raw, int machine, int big_endian, unsigned char *seen);

/* --- scan-elf.c */

struct machine {
	int em;
	const char *name, *triplet;	/* Debian's multiarch directory */
};

struct obj {
	char *path;
	char *error;	/* why it could not be scanned */
	int not_elf, elf_class, machine, big_endian, hard_float, has_soname;
	const char *type;
	char *interp;
	struct strv needed, rpath, runpath;
	struct strv time32, time64, weak32;	/* imports, as name@version */
	int provides32, provides64;	/* time entry points it defines */
	int is_static, scan_unsupported;
	struct strv sys32, sys64;
};

/* 0, or -1 with the reason on stderr. */
int load_symbols(const char *file);
/* The machine whose e_machine is EM, or NULL. */
const struct machine *machine_of(int em);
/* Set O's error (the first one stays); returns -1. */
__attribute__((format(printf, 2, 3))) int fail(struct obj *o, const char *fmt, ...);
/* PATH read; TOP: a file asked about, not a library of a closure (only then is
 * a static one's code scanned for syscalls). */
struct obj *load(const char *path, int top);
void obj_free(struct obj *o);

/* --- scan-closure.c */

struct closure {
	struct strv paths;	/* interpreter first, then breadth-first */
	struct strv missing;	/* "NAME (needed by PATH)" */
	struct strv time32;	/* libraries that import time32 symbols */
};
extern const char *root;	/* the root's host path, "" for the host's own / */
/* GUEST resolved inside root as a chroot would, symlinks included: a host
 * path to free(), or NULL. Its input is untrusted (tests/fuzz/fuzz-closure.c). */
char *in_root(const char *guest);
void closure(const struct obj *top, struct closure *c);

#endif
