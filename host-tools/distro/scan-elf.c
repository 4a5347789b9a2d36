// SPDX-License-Identifier: GPL-2.0
/*
 * scan-elf.c - y2038-scan's symbol knowledge (data/time-symbols.tsv) and its
 * reader of one ELF file: what it is, what it imports and defines. See scan.h.
 *
 * Input is untrusted: every libelf call is checked and the file layout is
 * bounded by the file size before any section is read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scan.h"

enum kind { TIME32, TIME32_WEAK, TIME64, SYSCALL32, SYSCALL64 };
/* the data file's names of enum kind */
static const char *const kind_names[] = { "time32", "time32-weak", "time64", "syscall32", "syscall64" };

static const struct machine machines[] = {
	{ EM_386, "i386", "i386-linux-gnu" },
	{ EM_ARM, "arm", "arm-linux-gnueabi" },	/* "hf" with EF_ARM_ABI_FLOAT_HARD */
	{ EM_X86_64, "x86_64", "x86_64-linux-gnu" },	/* "x32" for ELFCLASS32 */
	{ EM_AARCH64, "aarch64", "aarch64-linux-gnu" },
	{ EM_MIPS, "mips", NULL }, { EM_PPC, "ppc", NULL }, { EM_PPC64, "ppc64", NULL },
	{ EM_S390, "s390", NULL }, { EM_RISCV, "riscv", NULL }, { EM_68K, "m68k", NULL },
};

/* A line of the symbol data file. */
struct tsym {
	enum kind kind;
	char *name;
	char *versions;	/* ",V1,V2,"; NULL: matches unversioned imports only */
	int machine;	/* syscalls: EM_386 or EM_ARM, and the number */
	long nr;
};
static struct tsym *tsyms;	/* sorted by name */
static size_t ntsyms;
static const char *version_names[0x8000];	/* of the file being read */

/* --- The symbol data file. */

static int tsym_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tsym *)a)->name, ((const struct tsym *)b)->name);
}

int load_symbols(const char *file)
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

__attribute__((format(printf, 2, 3))) int fail(struct obj *o, const char *fmt, ...)
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

const struct machine *machine_of(int em)
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

/*
 * A static file's raw syscalls (scan-syscalls.c finds the numbers its code
 * loads), named as the symbol data names the time ones.
 */
static void read_syscalls(struct obj *o, Elf *elf, const unsigned char *raw)
{
	unsigned char seen[SYSCALL_NR_MAX] = { 0 };

	if (scan_syscalls(elf, raw, o->machine, o->big_endian, seen)) {
		o->scan_unsupported = 1;
		return;
	}
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
		read_syscalls(o, elf, (const unsigned char *)raw);
	return 0;
}

struct obj *load(const char *path, int top)
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

void obj_free(struct obj *o)
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
