/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/vdso.h - the kernel's vDSO, the ELF image it maps into every
 * process (AT_SYSINFO_EHDR), and its functions found by name, as a libc
 * finds them. A scenario calls:
 *
 *   void *fn = vdso_sym("__vdso_clock_gettime64");
 *                              the entry's address, or NULL: the kernel
 *                              does not export it (or maps no vDSO)
 *   vdso_names(buf, len)       the vDSO's function names, for a detail
 *
 * The image is read as a libc reads it: its dynamic segment names its
 * symbol table, their names and its SysV hash table, whose chain count is
 * the number of symbols (every vDSO the lab boots is linked with one:
 * arch/x86/entry/vdso/Makefile, arch/arm/vdso/Makefile, --hash-style=sysv
 * or both). Versions are not checked: each entry's name is unique there.
 */
#ifndef Y2038_HARNESS_VDSO_H
#define Y2038_HARNESS_VDSO_H

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>

/* The image's dynamic symbols and their names; 0 when there is none. */
struct vdso_image {
	uintptr_t load;			/* the address it was linked at */
	const ElfW(Ehdr) *ehdr;
	const ElfW(Sym) *syms;
	size_t nsyms;
	const char *names;
};

static inline int vdso_image(struct vdso_image *v)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL, *d;
	const uint32_t *hash = NULL;
	int i;

	memset(v, 0, sizeof(*v));
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return 0;
	v->ehdr = eh;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !v->load)
			v->load = ph[i].p_vaddr - ph[i].p_offset;
		else if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((const char *)eh + ph[i].p_offset);
	}
	for (d = dyn; d && d->d_tag != DT_NULL; d++) {
		const char *at = (const char *)eh + (d->d_un.d_ptr - v->load);

		if (d->d_tag == DT_SYMTAB)
			v->syms = (const void *)at;
		else if (d->d_tag == DT_STRTAB)
			v->names = at;
		else if (d->d_tag == DT_HASH)
			hash = (const void *)at;
	}
	if (!v->syms || !v->names || !hash)
		return 0;
	v->nsyms = hash[1];	/* nchain */
	return 1;
}

/* A defined function's address in this process, by name; NULL if none. */
static inline void *vdso_sym(const char *name)
{
	struct vdso_image v;
	size_t i;

	if (!vdso_image(&v))
		return NULL;
	for (i = 0; i < v.nsyms; i++) {
		const ElfW(Sym) *s = &v.syms[i];

		if (s->st_shndx != SHN_UNDEF && ELF32_ST_TYPE(s->st_info) == STT_FUNC &&
		    !strcmp(v.names + s->st_name, name))
			return (void *)((uintptr_t)v.ehdr + s->st_value - v.load);
	}
	return NULL;
}

/* "name name ...": the functions the vDSO exports, or why there are none. */
static inline void vdso_names(char *buf, size_t len)
{
	struct vdso_image v;
	size_t i, at = 0;

	if (!vdso_image(&v)) {
		snprintf(buf, len, "%s", getauxval(AT_SYSINFO_EHDR) ?
			 "a vDSO without a symbol and hash table" : "no vDSO (AT_SYSINFO_EHDR is 0)");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < v.nsyms && at + 1 < len; i++) {
		const ElfW(Sym) *s = &v.syms[i];
		int n;

		if (s->st_shndx == SHN_UNDEF || ELF32_ST_TYPE(s->st_info) != STT_FUNC)
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at ? " " : "", v.names + s->st_name);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

#endif
