/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results-record.h - the results vocabulary, declared once: the kinds of
 * scenario program, the ABIs of their cells, a block's columns, the configs
 * a cell runs under, the outcome classes, and the keys of a record of
 * results.json. y2038-collect (results.json's one writer) compiles it and
 * prints it as JSON (y2038-collect --vocabulary), which is how report.py,
 * compare.py, kcidb.sh and the other readers of results take it; make
 * reads the program kinds and the configs from here with sed (the top
 * Makefile's result-kinds and result-configs).
 *
 * A scenario program is NAME-KIND (clock-legacy): its kind says which libc
 * it is built with, what its libc cells' ABI is, which raw ABI its raw cells
 * are in (- for none: a musl program has its libc cases only; the glibc
 * time64 program has the raw ones), and the column its libc cells are shown
 * in. A kernel program judges the kernel: its cells' ABIs are the ones its
 * rows in expectations.tsv name.
 *
 *   KIND(kind, libc, libc ABI, raw ABI, column, what it is)
 */
#ifndef Y2038_RESULTS_RECORD_H
#define Y2038_RESULTS_RECORD_H

#define RESULT_KINDS(KIND) \
	KIND(legacy, glibc, legacy, raw32, legacy, "glibc, 32-bit time_t") \
	KIND(time64, glibc, time64, raw64, time64, "glibc, -D_TIME_BITS=64") \
	KIND(musl, musl, time64, -, musl, "musl, whose time_t is 64-bit only") \
	KIND(kernel, glibc, kernel, -, kernel, "judges the kernel (RESULT_KERNEL_PROGRAMS), built once")

/*
 * The programs of the kernel kind, one each (rtc-kernel), in the order a
 * matrix boot runs them around the families' programs: before them all, or
 * after them all.
 *
 *   KERNEL_PROGRAM(name, first or last, what it judges)
 */
#define RESULT_KERNEL_PROGRAMS(KERNEL_PROGRAM) \
	KERNEL_PROGRAM(rtc, first, "the clock as booted: what the kernel set from the RTC") \
	KERNEL_PROGRAM(census, last, "the time32 calls the programs before it made (the lab's census)")

/*
 * A block's columns, left to right, and the ABI of the cells in each: the
 * ABIs, with musl's time64 programs in a column of their own beside glibc's.
 *
 *   COLUMN(column, its cells' ABI, what it shows)
 */
#define RESULT_COLUMNS(COLUMN) \
	COLUMN(legacy, legacy, "a glibc program with a 32-bit time_t") \
	COLUMN(time64, time64, "a glibc program built with -D_TIME_BITS=64") \
	COLUMN(musl, time64, "a musl program: 64-bit time_t only") \
	COLUMN(raw32, raw32, "the old (time32) syscall, raw") \
	COLUMN(raw64, raw64, "its time64 twin, raw") \
	COLUMN(kernel, kernel, "what the kernel does by itself")

/*
 * The configs a cell runs under. The kernel ones are the lab's two kernel
 * configs, =y first (make builds a kernel of each: CONFIGS; a reader that
 * sets one beside the other takes them in this order). The host ones are
 * the host columns: this machine's programs under Debian's libfaketime
 * (host-tools/boot/faketime.sh; make runs one of each: FAKED_KINDS), whose
 * cells no row of their own decides are judged as the machine's cell of
 * the config named. A config is spelled the same everywhere: make's
 * targets, the boots' folders, the boot record, results.json and
 * expectations.tsv. The heading is the report's.
 *
 * A kernel config's role is what the tools that need one config, not both,
 * ask for by name, never by its spelling: with-time32 (the time32 syscalls
 * are there: the census counts them, KUnit and the setup boots run there)
 * and without-time32 (they are gone); a host column has none (-). make
 * reads them as WITH_TIME32 and WITHOUT_TIME32, the other languages from
 * the vocabulary.
 *
 *   CONFIG(config, kernel or host, role, judged as (- for a kernel config), heading, what it is)
 */
#define RESULT_CONFIGS(CONFIG) \
	CONFIG(compat32-y, kernel, with-time32, -, "compat32-y", "a lab kernel with CONFIG_COMPAT_32BIT_TIME=y: the time32 syscalls are there") \
	CONFIG(compat32-n, kernel, without-time32, -, "compat32-n", "a lab kernel with CONFIG_COMPAT_32BIT_TIME=n: the time32 syscalls are gone") \
	CONFIG(libfaketime, host, -, compat32-y, "host (libfaketime)", "this host: the matrix's glibc programs, linked dynamically, under libfaketime") \
	CONFIG(libfaketime-static, host, -, compat32-y, "host (libfaketime, static programs)", "this host: the guest's static clock programs under libfaketime, which never reaches them")

/*
 * The outcome classes a cell observes and a row of expectations.tsv
 * expects, each with what it means to a reader (the report's colour: good,
 * neutral, broken, wrong, clamp, or errno; or late: no verdict at all, the
 * case missed its moment) and its status as a KCIDB test. "errno" stands
 * for every errno name (E and capitals or digits: EOVERFLOW, ENOSYS): a call
 * that failed.
 *
 *   OUTCOME(class, meaning, KCIDB status, what it says)
 */
#define RESULT_OUTCOMES(OUTCOME) \
	OUTCOME(PASS, good, PASS, "the right time, or the full wait") \
	OUTCOME(ABSENT, good, DONE, "the census: the program made no time32 call; a vDSO entry the kernel does not export") \
	OUTCOME(SKIP, neutral, SKIP, "a case that cannot exist there, or a machine that was not available") \
	OUTCOME(LISTED, neutral, DONE, "the census: the program made time32 calls, named in the detail") \
	OUTCOME(WRAP, wrong, FAIL, "a 32-bit value that wrapped to 1901") \
	OUTCOME(WRONG, wrong, FAIL, "any other wrong value") \
	OUTCOME(CLAMP, clamp, FAIL, "a filesystem that stored its limit instead of the time set") \
	OUTCOME(EARLY, clamp, FAIL, "a wait that returned too soon") \
	OUTCOME(SPIN, clamp, FAIL, "a wait as long as it should be, but not asleep") \
	OUTCOME(UNSET, clamp, FAIL, "the clock at boot: still in 1970, the RTC not read") \
	OUTCOME(TIMEOUT, broken, FAIL, "the case, the scenario or the guest did not end in time") \
	OUTCOME(CRASH, broken, FAIL, "the scenario or the guest died") \
	OUTCOME(ERROR, broken, ERROR, "the lab could not measure it: no boot, no TAP, a case the guest never ran") \
	OUTCOME(LATE, late, MISS, "the case missed its moment (an across case that began past the overflow, a before case that ended past it): the machine's load, not a verdict; the run boots it again alone") \
	OUTCOME(errno, errno, FAIL, "a call that failed: the errno's name")

/*
 * A record of results.json, one per cell, keys in this order.
 *
 *   KEY(key, what it says)
 */
#define RESULT_KEYS(KEY) \
	KEY(run_id, "the run (results/<run-id>/)") \
	KEY(boot, "the boot's folder: boots/<boot>/") \
	KEY(kind, "the boot's kind (boot-record.h): matrix, rtc-after, a demo distribution, ...; - in a record of none") \
	KEY(machine, "the machine (machines/<machine>.mk)") \
	KEY(karch, "its kernel ARCH (i386, x86_64, arm, arm64), or - for a record of none") \
	KEY(userland, "the Debian architecture of the programs") \
	KEY(distro, "the distribution whose root the boot carried, or -") \
	KEY(kernel, "the kernel's Debian version, or the host's uname -r") \
	KEY(kernel_source, "linux-source-X.Y, or \"this host\"") \
	KEY(config, "compat32-y, compat32-n, or a host column: libfaketime, libfaketime-static") \
	KEY(patches, "\"none\", \"N patches @ HASH\", or the libfaketime version") \
	KEY(rtc_base, "the guest's RTC at power-on, or -") \
	KEY(accel, "kvm, tcg, native or qemu-user") \
	KEY(accel_note, "why not the first way tried") \
	KEY(abi, "legacy, time64, raw32, raw64 or kernel") \
	KEY(libc, "what the cell's program said it ran on (glibc-2.36, musl-1.2.5), or the lab's name for a libc it built (glibc-2.41-time64only); - for raw and kernel cells") \
	KEY(column, "the cell's column in its block (RESULT_COLUMNS)") \
	KEY(scenario, "the family (clock, ...), a kernel scenario, or a distribution's session") \
	KEY(case, "the case") \
	KEY(phase, "before, after, across, set, run, now: when it ran") \
	KEY(expected, "the outcome expectations.tsv expects") \
	KEY(observed, "the outcome observed: PASS, WRAP, an errno name, ...") \
	KEY(detail, "what was seen: the syscall, the values, the errno") \
	KEY(reason, "the expectation's reason, naming the source line that decides it") \
	KEY(verdict, "match, MISMATCH, late (observed LATE even when booted again alone: no verdict), or skip (the machine was not available)")

#endif
