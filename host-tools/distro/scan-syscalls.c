// SPDX-License-Identifier: GPL-2.0
/*
 * scan-syscalls.c - y2038-scan's raw syscalls in static binaries. See scan.h.
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
#include <gelf.h>
#include <stdint.h>
#include <string.h>
#include "scan.h"

#define ARM_WINDOW	8	/* instructions from loading r7 (or ip) to the trap */
#define I386_WINDOW	32	/* bytes from "mov $nr,%eax" to the trap */

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

static void scan_region(int machine, const unsigned char *p, size_t len, unsigned char *seen)
{
	if (machine == EM_386) {
		scan_i386(p, len, seen);
	} else {
		scan_thumb(p, len, seen);
		scan_arm(p, len, seen);
	}
}

int scan_syscalls(Elf *elf, const unsigned char *raw, int machine, int big_endian, unsigned char *seen)
{
	size_t nregions = 0, phnum;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Phdr ph;

	if ((machine != EM_386 && machine != EM_ARM) || big_endian)
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {	/* extents checked by the reader (scan-elf.c) */
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR)) {
			scan_region(machine, raw + sh.sh_offset, sh.sh_size, seen);
			nregions++;
		}
	}
	for (size_t i = 0; !nregions && !elf_getphdrnum(elf, &phnum) && i < phnum; i++)
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
			scan_region(machine, raw + ph.p_offset, ph.p_filesz, seen);
	return 0;
}
