/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - the y2038-lab scenario harness (header-only). What a scenario
 * author calls:
 *
 *   static void mutex_lock(struct outcome *o) { ...; judge_wait(o, ...); }
 *   static void sleep_abs(struct outcome *o, const struct y2038_case *c)
 *   { struct row_ts ts; ... row_deadline(c, &ts, ns) ... c->kind == RAW ?
 *     syscall(NR, ..., &ts.raw, NULL) : clock_nanosleep(..., &ts.libc, NULL) ... }
 *   static void run_timeo(struct outcome *o, const struct y2038_case *c)
 *   { const struct sock_opt *opt = c->arg; ... c->kind == RAW ... }
 *   static const struct sock_opt rcvtimeo = { "SO_RCVTIMEO", ... };
 *   static const struct y2038_case cases[] = {
 *           { "mutex_lock", LIBC, Y2038_ACROSS, .run = mutex_lock },
 *           { "sleep_abs", LIBC, Y2038_ACROSS, .run_arg = sleep_abs },
 *           { "sleep_abs", RAW,  Y2038_ACROSS, .run_arg = sleep_abs },
 *           { "so_rcvtimeo", LIBC, Y2038_ACROSS, .run_arg = run_timeo, .arg = &rcvtimeo },
 *           { "so_rcvtimeo", RAW,  Y2038_ACROSS, .run_arg = run_timeo, .arg = &rcvtimeo },
 *           { "alarm", RAW, Y2038_ACROSS, Y2038_SKIP("this ABI has no alarm syscall") },
 *   };
 *   Y2038_MAIN(cases)          (main: run_cases(cases, ARRAY_SIZE(cases)))
 *
 * A case names an interface, its ABI kind (LIBC: the libc call of this
 * build, legacy or time64; RAW: the syscall of this build's width) and its
 * phase (Y2038_BEFORE, Y2038_AFTER, Y2038_ACROSS, Y2038_SET_PAST), and its
 * body: .run, a body of its own, or .run_arg with .arg, one body that rows
 * share, each with its own argument (harness/cases.h says why two). A LIBC
 * row and its RAW twin share one body, which reads the row's kind. The
 * harness sets CLOCK_REALTIME for it, runs it in a child with a timeout, and
 * prints one TAP 13 line that says what the interface really did:
 *
 *   ok 1 legacy time before # PASS time = 2147483647 (2038-01-19T03:14:07Z)
 *   not ok 2 legacy time after # EOVERFLOW time: errno 75 EOVERFLOW
 *
 * "ok" means the interface gave the correct time or waited the full time.
 * The class after '#' is the observation; whether it was *expected* is
 * decided on the host by the collector from expectations.tsv, never here.
 * The case body fills its outcome with:
 *
 *   outcome_set(o, CLASS, fmt, ...)   any class (PASS, WRAP, WRONG, ...)
 *   outcome_errno(o, call, err)       the call failed: the errno's name
 *   outcome_setup_failed(o, call, config, err)  the lab's setup: ERROR
 *   judge_reading(o, call, sec, lo, hi)   a clock reading: PASS/WRAP/WRONG
 *   judge_wait(o, call, err, want, took)  a wait: PASS/EARLY/errno
 *   outcome_deadline(o, sec)          say which absolute deadline it had
 *
 * and computes deadlines the way programs do: TS_ADVANCE, TV_SEC_ADD,
 * libc_deadline() and raw_deadline() (a 32-bit tv_sec wraps to 1901). The
 * raw syscall of this build's width is RAW_NR(old, new) and its name for a
 * detail RAW_NAME(old, new), its timespec raw_ts; a struct raw_call holds
 * both as a row's argument. A struct row_ts holds a timespec of either
 * kind, the libc's (.libc) or raw_ts (.raw), for the body both share:
 * ROW_TS_REL(ns), row_deadline(c, &ts, ns), row_ts_sec(c, &ts). What
 * differs between builds (a syscall, a layout, a constant) is chosen once,
 * at file scope: RAW_PICK(old, new), an argument or a function defined
 * under #if, or #if around a table's rows; never #if inside a body. The harness's own clock work uses the raw
 * time64 syscalls only (clock_ns, wait_readable, raw64_*), so it works
 * whatever COMPAT_32BIT_TIME is and whichever time_t the scenario was
 * built with.
 *
 * The parts: harness/syscalls.h (layouts, raw time64 calls, errno names,
 * dates), harness/outcome.h (outcomes and the shared judges),
 * harness/child.h (the one fork/pipe/deadline runner), harness/mode.h (a
 * lab guest, or this host under libfaketime: chosen once), harness/cases.h
 * (the case table runner and TAP), harness/raw.h (the raw cells' syscalls),
 * harness/loopback.h (lo up and 127.0.0.1 bindable); and, included by the
 * files family alone, harness/disks.h (a loop image or a disk, mounted).
 */
#ifndef Y2038_HARNESS_H
#define Y2038_HARNESS_H

#include "harness/syscalls.h"
#include "harness/outcome.h"
#include "harness/child.h"
#include "harness/mode.h"
#include "harness/cases.h"
#include "harness/raw.h"
#include "harness/loopback.h"

#endif /* Y2038_HARNESS_H */
