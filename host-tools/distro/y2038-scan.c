// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - y2038-scan: which time_t ABI does a 32-bit Linux binary use?
 *
 * A dynamic binary says so in its imports: glibc 2.34 and musl 1.2 give every
 * time64 entry point a new name (__clock_gettime64) and keep the old name for
 * the 32-bit ABI. So the undefined dynamic symbols, with their versions,
 * classify a file, and the libraries it loads classify its closure. A static
 * binary imports nothing; there we look for the syscall numbers its code
 * loads. What is time32 and what is time64 is data: data/time-symbols.tsv.
 *
 * Input is untrusted: every libelf call is checked and the file layout is
 * bounded by the file size before any section is read.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define DETAIL_LIST_MAX	6	/* symbols a text detail spells out */
#define SYSCALL_NR_MAX	1024	/* above every 32-bit syscall number */
#define ARM_WINDOW	8	/* instructions from loading r7 (or ip) to the trap */
#define I386_WINDOW	32	/* bytes from "mov $nr,%eax" to the trap */

struct strv {
	char **v;
	size_t n, cap;
};

enum kind { TIME32, TIME32_WEAK, TIME64, SYSCALL32, SYSCALL64 };
static const char *const kind_names[] = { "time32", "time32-weak", "time64", "syscall32", "syscall64" };

struct tsym {
	enum kind kind;
	char *name;
	char *versions;	/* ",V1,V2,"; NULL: matches unversioned imports only */
	int machine;	/* syscalls: EM_386 or EM_ARM, and the number */
	long nr;
};

static const struct machine {
	int em;
	const char *name, *triplet;	/* Debian's multiarch directory */
} machines[] = {
	{ EM_386, "i386", "i386-linux-gnu" },
	{ EM_ARM, "arm", "arm-linux-gnueabi" },	/* "hf" with EF_ARM_ABI_FLOAT_HARD */
	{ EM_X86_64, "x86_64", "x86_64-linux-gnu" },	/* "x32" for ELFCLASS32 */
	{ EM_AARCH64, "aarch64", "aarch64-linux-gnu" },
	{ EM_MIPS, "mips", NULL }, { EM_PPC, "ppc", NULL }, { EM_PPC64, "ppc64", NULL },
	{ EM_S390, "s390", NULL }, { EM_RISCV, "riscv", NULL }, { EM_68K, "m68k", NULL },
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

struct closure {
	struct strv paths;	/* interpreter first, then breadth-first */
	struct strv missing;	/* "NAME (needed by PATH)" */
	struct strv time32;	/* libraries that import time32 symbols */
};

static struct tsym *tsyms;
static size_t ntsyms;
static const char *root = "";	/* "" is the host's own / */
static struct obj **libs;	/* every library loaded for a closure, once */
static size_t nlibs;
static const char *version_names[0x8000];	/* of the file being read */

static __attribute__((noreturn)) void out_of_memory(void)
{
	fputs("y2038-scan: out of memory\n", stderr);
	exit(2);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

static __attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return s;
}

/* Add a formatted string; returns it. */
static __attribute__((format(printf, 2, 3))) const char *strv_add(struct strv *s, const char *fmt, ...)
{
	va_list ap;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	va_start(ap, fmt);
	if (vasprintf(&s->v[s->n], fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return s->v[s->n++];
}

static int strv_has(const struct strv *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], str))
			return 1;
	return 0;
}

static void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* "a, b, c, ... (9 in all)", kept in POOL: at most max names, all if max is 0. */
static const char *join(struct strv *pool, const struct strv *s, const char *sep, size_t max)
{
	size_t shown = max && s->n > max ? max : s->n, len = 32;
	char *out;

	for (size_t i = 0; i < shown; i++)
		len += strlen(s->v[i]) + strlen(sep);
	out = xrealloc(NULL, len);
	out[0] = '\0';
	for (size_t i = 0; i < shown; i++)
		strcat(strcat(out, i ? sep : ""), s->v[i]);
	if (shown < s->n)
		sprintf(out + strlen(out), ", ... (%zu in all)", s->n);
	strv_add(pool, "%s", out);
	free(out);
	return pool->v[pool->n - 1];
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return !slash ? xasprintf(".") : xasprintf("%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* --- The symbol data file. */

static int tsym_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tsym *)a)->name, ((const struct tsym *)b)->name);
}

static int load_symbols(const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, *field[5];
	size_t cap = 0, lineno = 0, nf, k;
	int ok = 1;

	if (!f) {
		fprintf(stderr, "y2038-scan: %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (ok && getline(&line, &cap, f) > 0) {
		char *p = line;
		struct tsym *t;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		for (nf = 0; nf < 5 && (field[nf] = strsep(&p, "\t"));)
			nf++;
		for (k = 0; k < ARRAY_SIZE(kind_names) && strcmp(field[0], kind_names[k]);)
			k++;
		ok = nf >= 3 && nf <= 4 && k < ARRAY_SIZE(kind_names) && field[2][0];
		if (ok && k >= SYSCALL32)	/* ARCH and NUMBER */
			ok = nf == 4 && (!strcmp(field[1], "i386") || !strcmp(field[1], "arm")) &&
			     field[3][0] && strspn(field[3], "0123456789") == strlen(field[3]);
		if (!ok) {
			fprintf(stderr, "y2038-scan: %s:%zu: not KIND<TAB>LIBC|ARCH<TAB>NAME[<TAB>VERSIONS|NUMBER]\n",
				file, lineno);
			break;
		}
		tsyms = xrealloc(tsyms, (ntsyms + 1) * sizeof(*tsyms));
		t = memset(&tsyms[ntsyms++], 0, sizeof(*t));
		t->kind = k;
		t->name = xasprintf("%s", field[2]);
		if (k >= SYSCALL32) {
			t->machine = strcmp(field[1], "arm") ? EM_386 : EM_ARM;
			t->nr = strtol(field[3], NULL, 10);
		} else if (nf == 4 && field[3][0]) {
			t->versions = xasprintf(",%s,", field[3]);
		}
	}
	free(line);
	fclose(f);
	if (ok)
		qsort(tsyms, ntsyms, sizeof(*tsyms), tsym_cmp);
	return ok ? 0 : -1;
}

/* The kind of NAME@VERSION (VERSION NULL: unversioned), or -1 when it is not a time symbol. */
static int symbol_kind(const char *name, const char *version, int any_version)
{
	struct tsym key = { .name = (char *)name }, *t = bsearch(&key, tsyms, ntsyms, sizeof(*tsyms), tsym_cmp);
	char vkey[256];

	if (!t)
		return -1;
	while (t > tsyms && !strcmp(t[-1].name, name))
		t--;
	snprintf(vkey, sizeof(vkey), ",%s,", version ? version : "");
	for (; t < tsyms + ntsyms && !strcmp(t->name, name); t++)
		if (t->kind < SYSCALL32 &&
		    (any_version || (t->versions ? version && strstr(t->versions, vkey) : !version)))
			return t->kind;
	return -1;
}

/* --- Reading one ELF file. */

static __attribute__((format(printf, 2, 3))) int fail(struct obj *o, const char *fmt, ...)
{
	va_list ap;

	if (o->error)
		return -1;
	va_start(ap, fmt);
	if (vasprintf(&o->error, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return -1;
}

static const struct machine *machine_of(int em)
{
	for (size_t i = 0; i < ARRAY_SIZE(machines); i++)
		if (machines[i].em == em)
			return &machines[i];
	return NULL;
}

static int check_ident(struct obj *o, const char *raw, size_t size)
{
	if (!raw || size < SELFMAG || memcmp(raw, ELFMAG, SELFMAG)) {
		o->not_elf = 1;	/* skipped, unless named */
		return fail(o, "not an ELF file");
	}
	if (size < EI_NIDENT)
		return fail(o, "truncated: %zu bytes, not even an ELF header", size);
	if (raw[EI_CLASS] != ELFCLASS32 && raw[EI_CLASS] != ELFCLASS64)
		return fail(o, "bad EI_CLASS byte %#x (neither 32- nor 64-bit)", (unsigned char)raw[EI_CLASS]);
	if (raw[EI_DATA] != ELFDATA2LSB && raw[EI_DATA] != ELFDATA2MSB)
		return fail(o, "bad EI_DATA byte %#x (neither little- nor big-endian)", (unsigned char)raw[EI_DATA]);
	if (raw[EI_VERSION] != EV_CURRENT)
		return fail(o, "bad EI_VERSION byte %#x", (unsigned char)raw[EI_VERSION]);
	return 0;
}

/*
 * Every table, segment and section must lie inside the file. The counts come
 * from the header itself: libelf quietly shortens tables that run past the
 * end. Also picks up PT_INTERP.
 */
static int check_layout(struct obj *o, Elf *elf, GElf_Ehdr *eh, const char *raw, size_t size)
{
	size_t phnum = eh->e_phnum, shnum = eh->e_shnum;
	size_t phsize = gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT);
	size_t shsize = gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT);

	if ((phnum == PN_XNUM && elf_getphdrnum(elf, &phnum)) ||
	    (!shnum && eh->e_shoff && elf_getshdrnum(elf, &shnum)))	/* counts in section 0 */
		return fail(o, "corrupt ELF header: %s", elf_errmsg(-1));
	if ((phnum && eh->e_phentsize != phsize) || (shnum && eh->e_shentsize != shsize))
		return fail(o, "corrupt ELF header: header table entry size %u/%u", eh->e_phentsize, eh->e_shentsize);
	if (phnum && (eh->e_phoff > size || phnum * phsize > size - eh->e_phoff))
		return fail(o, "truncated: program headers end past the end of the file (%zu bytes)", size);
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph))
			return fail(o, "corrupt program header %zu: %s", i, elf_errmsg(-1));
		if (ph.p_type != PT_NULL && (ph.p_offset > size || ph.p_filesz > size - ph.p_offset))
			return fail(o, "truncated: segment %zu ends at byte %llu, the file has %zu",
				    i, (unsigned long long)ph.p_offset + ph.p_filesz, size);
		if (ph.p_type != PT_INTERP || o->interp)
			continue;
		if (!ph.p_filesz || memchr(raw + ph.p_offset, '\0', ph.p_filesz) != raw + ph.p_offset + ph.p_filesz - 1)
			return fail(o, "corrupt PT_INTERP: not one NUL-terminated path");
		o->interp = xasprintf("%s", raw + ph.p_offset);
	}
	if (shnum && eh->e_shoff >= size)
		return fail(o, "corrupt section header offset: e_shoff %#llx is past the end of the file (%zu bytes)",
			    (unsigned long long)eh->e_shoff, size);
	if (shnum && shnum * shsize > size - eh->e_shoff)
		return fail(o, "truncated: section headers end past the end of the file (%zu bytes)", size);
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return fail(o, "corrupt section header: %s", elf_errmsg(-1));
		if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset))
			return fail(o, "section %zu ends at byte %llu, past the end of the file (%zu bytes)",
				    elf_ndxscn(scn), (unsigned long long)sh.sh_offset + sh.sh_size, size);
	}
	return 0;
}

/* Section SCN's header and data, or an error naming WHAT. */
static Elf_Data *section(struct obj *o, Elf_Scn *scn, GElf_Shdr *sh, const char *what)
{
	Elf_Data *d = NULL;

	if (!gelf_getshdr(scn, sh) || !(d = elf_getdata(scn, NULL)))
		fail(o, "cannot read %s: %s", what, elf_errmsg(-1));
	return d;
}

/* The names of the version indexes that imports carry (.gnu.version_r). */
static int read_versions(struct obj *o, Elf *elf, Elf_Scn *scn)
{
	GElf_Shdr sh;
	Elf_Data *d = section(o, scn, &sh, "symbol versions");
	size_t off = 0;
	const char *name;
	GElf_Verneed vn;
	GElf_Vernaux vna;

	for (size_t i = 0; d && i < sh.sh_info && off < d->d_size; i++, off += vn.vn_next) {
		if (!gelf_getverneed(d, off, &vn))
			return fail(o, "corrupt symbol versions");
		for (size_t j = 0, aux = off + vn.vn_aux; j < vn.vn_cnt; j++, aux += vna.vna_next) {
			if (!gelf_getvernaux(d, aux, &vna) || !(name = elf_strptr(elf, sh.sh_link, vna.vna_name)))
				return fail(o, "corrupt symbol versions");
			version_names[vna.vna_other & 0x7fff] = name;
			if (!vna.vna_next)
				break;
		}
		if (!vn.vn_next)
			break;
	}
	return d ? 0 : -1;
}

static void add_path_list(struct strv *out, const char *list)
{
	for (const char *p = list; *p; p += strcspn(p, ":"), p += *p == ':')
		if (strcspn(p, ":"))
			strv_add(out, "%.*s", (int)strcspn(p, ":"), p);
}

static int read_dynamic(struct obj *o, Elf *elf, Elf_Scn *scn, uint64_t *flags_1)
{
	GElf_Shdr sh;
	Elf_Data *d = section(o, scn, &sh, ".dynamic");
	size_t n = d ? d->d_size / gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT) : 0;
	GElf_Dyn dyn;
	const char *s;

	for (size_t i = 0; i < n && gelf_getdyn(d, i, &dyn) && dyn.d_tag != DT_NULL; i++) {
		if (dyn.d_tag == DT_FLAGS_1)
			*flags_1 = dyn.d_un.d_val;
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH &&
		    dyn.d_tag != DT_SONAME)
			continue;
		if (!(s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)))
			return fail(o, "corrupt .dynamic: string %zu out of range", i);
		if (dyn.d_tag == DT_NEEDED)
			strv_add(&o->needed, "%s", s);
		else if (dyn.d_tag == DT_SONAME)
			o->has_soname = 1;
		else
			add_path_list(dyn.d_tag == DT_RPATH ? &o->rpath : &o->runpath, s);
	}
	return d ? 0 : -1;
}

/*
 * The time symbols a file imports (undefined, with their versions) and
 * defines (counted by name). An object file (ET_REL) has no versions yet:
 * its .symtab names are matched alone.
 */
static int read_symbols(struct obj *o, Elf *elf, Elf_Scn *scn, Elf_Scn *versym, int relocatable)
{
	GElf_Shdr sh, vsh;
	Elf_Data *d = section(o, scn, &sh, "the symbol table");
	Elf_Data *vd = versym ? section(o, versym, &vsh, "symbol versions") : NULL;
	size_t n = d ? d->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT) : 0;

	for (size_t i = 1; i < n && !o->error; i++) {
		GElf_Sym sym;
		GElf_Versym ver;
		const char *name, *version = NULL;
		int kind;

		if (!gelf_getsym(d, i, &sym) || !(name = elf_strptr(elf, sh.sh_link, sym.st_name)))
			return fail(o, "corrupt symbol %zu", i);
		if (!name[0] || GELF_ST_BIND(sym.st_info) == STB_LOCAL)
			continue;
		if (vd && gelf_getversym(vd, i, &ver) && (ver & 0x7fff) > 1)
			version = version_names[ver & 0x7fff];
		kind = symbol_kind(name, version, relocatable || sym.st_shndx != SHN_UNDEF);
		if (kind >= 0 && sym.st_shndx != SHN_UNDEF)
			*(kind == TIME64 ? &o->provides64 : &o->provides32) += 1;
		else if (kind >= 0)
			strv_add(kind == TIME64 ? &o->time64 : kind == TIME32 ? &o->time32 : &o->weak32,
				 "%s%s%s", name, version ? "@" : "", version ? version : "");
	}
	return o->error ? -1 : 0;
}

/* --- Raw syscalls in static binaries.
 *
 * A static binary has no imports to read, so we look for the syscall numbers
 * its code loads right before trapping into the kernel: a heuristic on raw
 * bytes, without control flow. It misses numbers that come from a register or
 * memory (the generic syscall(), musl's cancellable syscalls, ARM literal-pool
 * loads, musl i386's "call __vsyscall"), the i386 ipc and socketcall
 * multiplexers and ARM OABI "swi"; on i386 a byte pattern inside another
 * instruction, or a stale %eax load, can add a false number. A libc's time64
 * syscalls and its time32 fallbacks both show: what the program itself calls
 * is not visible.
 */

static void mark(unsigned char *seen, unsigned long nr)
{
	if (nr < SYSCALL_NR_MAX)
		seen[nr] = 1;
}

/* i386: "mov $nr,%eax" (b8 nr16 00 00) shortly before "int $0x80" or glibc's "call *%gs:0x10". */
static void scan_i386(const unsigned char *p, size_t len, unsigned char *seen)
{
	static const unsigned char vsyscall[] = { 0x65, 0xff, 0x15, 0x10, 0, 0, 0 };

	for (size_t i = 5; i + 2 <= len; i++) {
		if (!(p[i] == 0xcd && p[i + 1] == 0x80) &&
		    !(i + sizeof(vsyscall) <= len && !memcmp(p + i, vsyscall, sizeof(vsyscall))))
			continue;
		for (size_t back = 5; back <= I386_WINDOW && back <= i; back++) {
			const unsigned char *m = p + i - back;

			if (m[0] == 0xb8 && !m[3] && !m[4]) {	/* the nearest one */
				mark(seen, m[1] | m[2] << 8);
				break;
			}
		}
	}
}

static unsigned int le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t ror32(uint32_t v, unsigned int n)
{
	return n % 32 ? v >> n % 32 | v << (32 - n % 32) : v;
}

/* Thumb-2 "mov.w Rd,#const" (T2) or "movw Rd,#imm16" (T3): 1 and *rd, *imm set. */
static int thumb_mov_imm(unsigned int hw1, unsigned int hw2, unsigned int *rd, uint32_t *imm)
{
	static const uint32_t replicate[] = { 1, 0x10001, 0x1000100, 0x1010101 };
	unsigned int imm12 = (hw1 >> 10 & 1) << 11 | (hw2 >> 12 & 7) << 8 | (hw2 & 0xff);

	*rd = hw2 >> 8 & 0xf;
	if (hw2 & 0x8000)
		return 0;
	if ((hw1 & 0xfbf0) == 0xf240)
		*imm = (hw1 & 0xf) << 12 | imm12;
	else if ((hw1 & 0xfbef) != 0xf04f)
		return 0;
	else if (imm12 >> 10)	/* ThumbExpandImm: a rotated 8-bit value */
		*imm = ror32(0x80 | (imm12 & 0x7f), imm12 >> 7);
	else
		*imm = (imm12 & 0xff) * replicate[imm12 >> 8];
	return 1;
}

/* Does a Thumb BL at P (offset I in a region of LEN bytes) call "mov r7,ip; svc 0"? */
static int calls_syscall_stub(const unsigned char *p, size_t i, size_t len)
{
	unsigned int hw1 = le16(p + i), hw2 = le16(p + i + 2), s = hw1 >> 10 & 1;
	int32_t off = (int32_t)((s ? 0xff000000u : 0) | (uint32_t)!((hw2 >> 13 & 1) ^ s) << 23 |
				(uint32_t)!((hw2 >> 11 & 1) ^ s) << 22 | (hw1 & 0x3ffu) << 12 | (hw2 & 0x7ffu) << 1);
	int64_t t = (int64_t)i + 4 + off;

	for (int64_t k = t; k >= 0 && k < t + 6 && (uint64_t)k + 4 <= len; k += 2)
		if (le16(p + k) == 0x4667 && le16(p + k + 2) == 0xdf00)
			return 1;
	return 0;
}

/*
 * Thumb (Debian armhf is Thumb-2): "movs r7,#nr" / "mov.w r7,#nr" / "movw r7,#nr"
 * a few instructions before "svc 0"; glibc loads ip instead and calls
 * __libc_do_syscall, recognised by its "mov r7,ip; svc 0". A linear sweep:
 * a literal pool can put it out of step for an instruction or two.
 */
static void scan_thumb(const unsigned char *p, size_t len, unsigned char *seen)
{
	long r7 = -1, ip = -1;
	unsigned int r7_age = 0, ip_age = 0, hw1, hw2, rd;
	uint32_t imm;

	for (size_t i = 0; i + 2 <= len; i += hw1 >> 11 < 0x1d ? 2 : 4, r7_age++, ip_age++) {
		hw1 = le16(p + i);
		if (hw1 >> 11 < 0x1d) {	/* a 16-bit instruction */
			if ((hw1 & 0xff00) == 0x2700) {
				r7 = hw1 & 0xff;
				r7_age = 0;
			} else if (hw1 == 0xdf00 && r7 >= 0 && r7_age <= ARM_WINDOW)
				mark(seen, r7);
			continue;
		}
		if (i + 4 > len)
			break;
		hw2 = le16(p + i + 2);
		if (thumb_mov_imm(hw1, hw2, &rd, &imm) && (rd == 7 || rd == 12)) {
			*(rd == 7 ? &r7 : &ip) = imm < SYSCALL_NR_MAX ? (long)imm : -1;
			*(rd == 7 ? &r7_age : &ip_age) = 0;
		} else if ((hw1 & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0xd000 && ip >= 0 && ip_age <= ARM_WINDOW &&
			 calls_syscall_stub(p, i, len))
			mark(seen, ip);
	}
}

/* ARM mode: "mov r7,#nr" or "movw r7,#nr" a few instructions before "svc 0". */
static void scan_arm(const unsigned char *p, size_t len, unsigned char *seen)
{
	long r7 = -1;
	unsigned int age = 0;

	for (size_t i = 0; i + 4 <= len; i += 4, age++) {
		uint32_t w = le16(p + i) | (uint32_t)le16(p + i + 2) << 16;

		if ((w & 0xffef0000) == 0xe3a00000 && (w >> 12 & 0xf) == 7) {
			r7 = ror32(w & 0xff, 2 * (w >> 8 & 0xf));
			age = 0;
		} else if ((w & 0xfff00000) == 0xe3000000 && (w >> 12 & 0xf) == 7) {
			r7 = (w >> 16 & 0xf) << 12 | (w & 0xfff);
			age = 0;
		} else if (w == 0xef000000 && r7 >= 0 && age <= ARM_WINDOW) {
			mark(seen, r7);
		}
	}
}

static void scan_region(const struct obj *o, const unsigned char *p, size_t len, unsigned char *seen)
{
	if (o->machine == EM_386) {
		scan_i386(p, len, seen);
	} else {
		scan_thumb(p, len, seen);
		scan_arm(p, len, seen);
	}
}

/* The time syscalls in the executable sections (without sections: segments). */
static void scan_syscalls(struct obj *o, Elf *elf, const unsigned char *raw)
{
	unsigned char seen[SYSCALL_NR_MAX] = { 0 };
	size_t nregions = 0, phnum;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Phdr ph;

	if ((o->machine != EM_386 && o->machine != EM_ARM) || o->big_endian) {
		o->scan_unsupported = 1;
		return;
	}
	while ((scn = elf_nextscn(elf, scn))) {	/* extents checked by check_layout() */
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR)) {
			scan_region(o, raw + sh.sh_offset, sh.sh_size, seen);
			nregions++;
		}
	}
	for (size_t i = 0; !nregions && !elf_getphdrnum(elf, &phnum) && i < phnum; i++)
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
			scan_region(o, raw + ph.p_offset, ph.p_filesz, seen);
	for (size_t i = 0; i < ntsyms; i++)
		if (tsyms[i].kind >= SYSCALL32 && tsyms[i].machine == o->machine && tsyms[i].nr < SYSCALL_NR_MAX &&
		    seen[tsyms[i].nr])
			strv_add(tsyms[i].kind == SYSCALL32 ? &o->sys32 : &o->sys64, "%s", tsyms[i].name);
}

static int read_elf(struct obj *o, Elf *elf, int top)
{
	size_t size, shnum;
	const char *raw = elf_rawfile(elf, &size);
	Elf_Scn *scn = NULL, *dynamic = NULL, *dynsym = NULL, *symtab = NULL, *versym = NULL;
	uint64_t flags_1 = 0;
	GElf_Ehdr eh;
	GElf_Shdr sh;

	if (elf_kind(elf) == ELF_K_AR) {
		/* a .deb or a static library: not a program, skipped in a walk */
		o->not_elf = 1;
		return fail(o, "an ar archive, not an ELF file");
	}
	if (check_ident(o, raw, size))
		return -1;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return fail(o, "not a readable ELF file: %s", elf_errmsg(-1));
	if (check_layout(o, elf, &eh, raw, size))
		return -1;
	o->elf_class = raw[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	o->big_endian = raw[EI_DATA] == ELFDATA2MSB;
	o->machine = eh.e_machine;
	o->hard_float = eh.e_machine == EM_ARM && (eh.e_flags & EF_ARM_ABI_FLOAT_HARD);

	memset(version_names, 0, sizeof(version_names));
	while ((scn = elf_nextscn(elf, scn)) && !o->error) {
		if (!gelf_getshdr(scn, &sh))
			return fail(o, "corrupt section header: %s", elf_errmsg(-1));
		if (sh.sh_type == SHT_GNU_verneed)
			read_versions(o, elf, scn);
		else if (sh.sh_type == SHT_DYNAMIC)
			dynamic = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
		else if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_GNU_versym)
			versym = scn;
	}
	if (o->error || (dynamic && read_dynamic(o, elf, dynamic, &flags_1)))
		return -1;
	if (eh.e_type == ET_REL ? symtab && read_symbols(o, elf, symtab, NULL, 1) :
				  dynsym && read_symbols(o, elf, dynsym, versym, 0))
		return -1;
	if (o->interp && !elf_getshdrnum(elf, &shnum) && !shnum)
		return fail(o, "no section headers: cannot read its imports");

	if (eh.e_type == ET_REL)
		o->type = "relocatable";
	else if (eh.e_type == ET_EXEC)
		o->type = o->interp ? "exec" : "static-exec";
	else if (eh.e_type == ET_DYN && (flags_1 & DF_1_PIE))
		o->type = o->interp ? "pie" : "static-pie";
	else if (eh.e_type == ET_DYN)	/* libc.so.6 has an interpreter too: it runs */
		o->type = o->has_soname || !o->interp ? "shared" : "pie";
	else
		return fail(o, eh.e_type == ET_CORE ? "a core dump, not a program" : "unknown ELF type %u", eh.e_type);
	o->is_static = !strncmp(o->type, "static", 6) && !o->needed.n;
	if (top && o->is_static && o->elf_class == 32 && o->machine != EM_X86_64)
		scan_syscalls(o, elf, (const unsigned char *)raw);
	return 0;
}

static struct obj *load(const char *path, int top)
{
	struct obj *o = memset(xrealloc(NULL, sizeof(*o)), 0, sizeof(*o));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;

	o->path = xasprintf("%s", path);
	if (fd < 0) {
		fail(o, "cannot open: %s", strerror(errno));
		return o;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		fail(o, "not a readable ELF file: %s", elf_errmsg(-1));
	else
		read_elf(o, elf, top);
	elf_end(elf);
	close(fd);
	return o;
}

static void obj_free(struct obj *o)
{
	struct strv *lists[] = { &o->needed, &o->rpath, &o->runpath, &o->time32, &o->time64,
				 &o->weak32, &o->sys32, &o->sys64 };

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		strv_free(lists[i]);
	free(o->path);
	free(o->error);
	free(o->interp);
	free(o);
}

/* --- Dependencies, resolved as ld.so would inside the root. */

/* GUEST resolved inside the root like a chroot, symlinks included: a host path, or NULL. */
static char *in_root(const char *guest)
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
static void closure(const struct obj *top, struct closure *c)
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

/* --- Classes and output. */

enum class { C_TIME32, C_TIME64, C_MIXED, C_NEUTRAL, C_STATIC, C_ERROR, NCLASSES };
static const char *const class_names[] = { "time32", "time64", "mixed", "time-neutral", "static", "error" };

static enum class classify(const struct obj *o, const struct closure *c, char **detail)
{
	struct strv pool = { 0 };	/* the strings below, freed at the end */
	const char *t32 = join(&pool, &o->time32, ", ", DETAIL_LIST_MAX);
	const char *t64 = join(&pool, &o->time64, ", ", DETAIL_LIST_MAX);
	const char *libs32 = join(&pool, &c->time32, ", ", DETAIL_LIST_MAX);
	const char *s32 = join(&pool, &o->sys32, ",", 0), *s64 = join(&pool, &o->sys64, ",", 0);
	const struct machine *m = machine_of(o->machine);
	enum class cls = C_NEUTRAL;

	if (o->error) {
		cls = C_ERROR;
		*detail = xasprintf("%s", o->error);
	} else if (o->elf_class == 64 || o->machine == EM_X86_64) {
		cls = C_TIME64;
		*detail = xasprintf("%s: time_t is 64-bit", o->elf_class == 64 ? "64-bit" : "x32");
	} else if (o->is_static) {
		cls = C_STATIC;
		if (o->scan_unsupported)
			*detail = xasprintf("static: unknown (raw syscall scan not supported for %s%s)",
					    m ? m->name : "this machine", o->big_endian ? " big-endian" : "");
		else if (o->sys32.n && o->sys64.n)
			*detail = xasprintf("static: time32 syscalls %s; time64 syscalls %s "
					    "(a libc with time64 syscalls and time32 fallbacks)", s32, s64);
		else if (o->sys32.n)
			*detail = xasprintf("static: time32 syscalls only: %s", s32);
		else
			*detail = xasprintf("static: no time32 syscall found%s%s",
					    o->sys64.n ? "; time64 syscalls " : "", s64);
	} else if (o->time32.n && o->time64.n) {
		cls = C_MIXED;
		*detail = xasprintf("imports time32 %s and time64 %s", t32, t64);
	} else if (o->time64.n) {
		cls = c->time32.n ? C_MIXED : C_TIME64;
		*detail = xasprintf("imports time64 %s%s%s", t64,
				    c->time32.n ? ", but loads time32 libraries: " : "", libs32);
	} else if (o->time32.n) {
		cls = C_TIME32;
		*detail = xasprintf("imports time32 %s", t32);
	} else {	/* a C library says what it provides */
		const char *what = !o->provides32 && !o->provides64 ? "no time symbols imported" :
			strv_add(&pool, "provides %d time32 and %d time64 entry points", o->provides32, o->provides64);

		*detail = xasprintf("%s%s%s", what, c->time32.n ? "; loads time32 libraries: " : "", libs32);
	}
	if (c->missing.n) {
		strv_add(&pool, "%s", *detail);
		free(*detail);
		*detail = xasprintf("%s; %zu libraries not found or unreadable", pool.v[pool.n - 1], c->missing.n);
	}
	strv_free(&pool);
	return cls;
}

/* A JSON string: escaped, and bytes that are not UTF-8 as \u00XX. */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n, k;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *p; p += k) {
		n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 && *p >= 0xc2 ? 1 : (*p & 0xf0) == 0xe0 ? 2 :
		    (*p & 0xf8) == 0xf0 && *p <= 0xf4 ? 3 : -1;
		for (k = 1; k <= n && (p[k] & 0xc0) == 0x80;)
			k++;
		if (n > 0 && k == n + 1) {
			fwrite(p, 1, k, f);
			continue;
		}
		k = 1;
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_record(FILE *f, const char *path, const struct obj *o, const struct closure *c,
			enum class cls, const char *detail)
{
	const struct { const char *key; const struct strv *list; } lists[] = {
		{ "needed", &o->needed }, { "time32", &o->time32 }, { "time64", &o->time64 },
		{ "time32_weak", &o->weak32 }, { "closure", &c->paths }, { "closure_time32", &c->time32 },
		{ "missing", &c->missing }, { "static_time32_syscalls", &o->sys32 },
		{ "static_time64_syscalls", &o->sys64 },
	};
	const struct machine *m = machine_of(o->machine);
	char em[32];

	snprintf(em, sizeof(em), "em-%d", o->machine);
	fputs("{\"path\": ", f);
	json_str(f, path);
	fprintf(f, ", \"class\": \"%s\", \"machine\": ", class_names[cls]);
	json_str(f, m ? m->name : o->elf_class ? em : NULL);
	if (o->elf_class)
		fprintf(f, ", \"elf_class\": %d", o->elf_class);
	else
		fputs(", \"elf_class\": null", f);
	fputs(", \"type\": ", f);
	json_str(f, o->error ? NULL : o->type);
	fputs(", \"interp\": ", f);
	json_str(f, o->interp);
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		fprintf(f, ", \"%s\": [", lists[i].key);
		for (size_t k = 0; k < lists[i].list->n; k++) {
			fputs(k ? ", " : "", f);
			json_str(f, lists[i].list->v[k]);
		}
		fputc(']', f);
	}
	fprintf(f, ", \"provides_time32\": %d, \"provides_time64\": %d, \"detail\": ", o->provides32, o->provides64);
	json_str(f, detail);
	fputs(", \"error\": ", f);
	json_str(f, o->error);
	fputc('}', f);
}

struct run {
	int needed_mode, failed;
	FILE *json;
	unsigned long count[NCLASSES], files;
	struct strv printed;	/* --needed: each path once */
};

/* One line (or, with --needed, its closure) for O, scanned from PATH; O is freed. */
static void report(struct run *r, const char *path, struct obj *o)
{
	struct closure c = { 0 };
	enum class cls;
	char *detail;

	if (!o->error && (o->elf_class == 32 || r->needed_mode))
		closure(o, &c);
	if (r->needed_mode) {
		if (o->error)
			fprintf(stderr, "y2038-scan: %s: %s\n", path, o->error);
		for (size_t i = 0; i < c.paths.n; i++)
			if (!strv_has(&r->printed, c.paths.v[i]))
				puts(strv_add(&r->printed, "%s", c.paths.v[i]));
		for (size_t i = 0; i < c.missing.n; i++)
			fprintf(stderr, "missing %s\n", c.missing.v[i]);
		r->failed |= o->error || c.missing.n;
	} else {
		cls = classify(o, &c, &detail);
		r->failed |= cls == C_ERROR;
		printf("%s\t%s\t%s\n", class_names[cls], path, detail);
		if (r->json) {
			fputs(r->files ? ",\n  " : "  ", r->json);
			json_record(r->json, path, o, &c, cls, detail);
		}
		r->count[cls]++;
		r->files++;
		free(detail);
	}
	strv_free(&c.paths);
	strv_free(&c.missing);
	strv_free(&c.time32);
	obj_free(o);
}

/* A directory: its ELF files, recursively and sorted; symlinks and other files are skipped. */
static void scan_dir(struct run *r, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	struct stat st;
	struct obj *o;

	if (n < 0) {
		o = memset(xrealloc(NULL, sizeof(*o)), 0, sizeof(*o));
		o->path = xasprintf("%s", dir);
		fail(o, "cannot read directory: %s", strerror(errno));
		report(r, dir, o);
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *path = xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);

		if (strcmp(name, ".") && strcmp(name, "..") && !lstat(path, &st)) {
			if (S_ISDIR(st.st_mode))
				scan_dir(r, path);
			else if (S_ISREG(st.st_mode) && (o = load(path, 1))->not_elf)
				obj_free(o);
			else if (S_ISREG(st.st_mode))
				report(r, path, o);
		}
		free(path);
		free(ents[i]);
	}
	free(ents);
}

static const char usage[] =
	"usage: y2038-scan [--symbols FILE] [--root DIR] [--json FILE] [--needed] PATH...\n"
	"  Classify 32-bit ELF files (or every ELF file under a directory) as time32,\n"
	"  time64, mixed, time-neutral, static or error. --needed prints each file's\n"
	"  resolved interpreter and libraries instead. --root is the sysroot its\n"
	"  libraries are found in. Symbols: --symbols, else $Y2038_SYMBOLS, else\n"
	"  ../../data/time-symbols.tsv from the program's directory.\n";

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "symbols", required_argument, NULL, 's' }, { "root", required_argument, NULL, 'r' },
		{ "json", required_argument, NULL, 'j' }, { "needed", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	const char *symbols = getenv("Y2038_SYMBOLS"), *json = NULL;
	static char *default_symbols, *root_real;	/* static: still reachable at exit */
	char self[PATH_MAX], *dir;
	struct run r = { 0 };
	struct stat st;
	ssize_t n;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 's': symbols = optarg; break;
		case 'r': root = optarg; break;
		case 'j': json = optarg; break;
		case 'n': r.needed_mode = 1; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind == argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (!symbols || !symbols[0]) {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		self[n > 0 ? n : 0] = '\0';
		symbols = default_symbols = xasprintf("%s/../../data/time-symbols.tsv", dir = dir_of(self));
		free(dir);
	}
	if (root[0]) {
		if (!(root_real = realpath(root, NULL)) || stat(root_real, &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "y2038-scan: --root %s: not a directory\n", root);
			return 2;
		}
		root = strcmp(root_real, "/") ? root_real : "";
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "y2038-scan: libelf: %s\n", elf_errmsg(-1));
		return 2;
	}
	if (load_symbols(symbols))
		return 2;
	if (json && !r.needed_mode && !(r.json = fopen(json, "w"))) {
		fprintf(stderr, "y2038-scan: %s: %s\n", json, strerror(errno));
		return 2;
	}
	if (r.json)
		fputs("[\n", r.json);
	for (int i = optind; i < argc; i++) {
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
			scan_dir(&r, argv[i]);
		else
			report(&r, argv[i], load(argv[i], 1));
	}
	if (!r.needed_mode)
		printf("# scanned %lu files: time32 %lu, time64 %lu, mixed %lu, time-neutral %lu, static %lu, error %lu\n",
		       r.files, r.count[C_TIME32], r.count[C_TIME64], r.count[C_MIXED], r.count[C_NEUTRAL],
		       r.count[C_STATIC], r.count[C_ERROR]);
	if (r.json && (fputs("\n]\n", r.json) < 0 || fclose(r.json))) {
		fprintf(stderr, "y2038-scan: %s: %s\n", json, strerror(errno));
		r.failed = 1;
	}
	strv_free(&r.printed);
	return r.failed;
}
