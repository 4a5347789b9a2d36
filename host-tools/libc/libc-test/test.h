/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test.h - what a libc-test test of the lab's (patches/musl/libc-test/)
 * needs of libc-test's harness (its src/common/test.h), so that the lab
 * builds it without libc-test: t_error(fmt, ...) prints "file:line: " and
 * the message, and makes t_status 1; main returns t_status. Written for
 * the lab, after libc-test's interface; libc-test's own runner
 * (src/common/runtest.c) is not needed: the guest's runner times it.
 */
#ifndef Y2038_LIBC_TEST_H
#define Y2038_LIBC_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static volatile int t_status;

#define T_LOC2(l) __FILE__ ":" #l
#define T_LOC1(l) T_LOC2(l)
#define t_error(...) t_printf(T_LOC1(__LINE__) ": " __VA_ARGS__)

/* One write(2) a message, as libc-test's does: lines of threads do not mix. */
static int t_printf(const char *s, ...)
{
	char buf[512];
	va_list ap;
	int n;

	t_status = 1;
	va_start(ap, s);
	n = vsnprintf(buf, sizeof(buf), s, ap);
	va_end(ap);
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	return write(1, buf, n);
}

#endif
