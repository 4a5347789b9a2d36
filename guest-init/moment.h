/* SPDX-License-Identifier: GPL-2.0 */
/*
 * moment.h - when a session's command met its moment (guest-init/session.c).
 *
 * A command whose meaning depends on when it runs (a before command reads
 * the clock before the overflow; an across one arms a wait, begins a
 * transaction or starts a server before it) says when its moment came: it
 * prints the line ARMED_MARK right after the step that must come before
 * the overflow, or just before a wait it then makes. The session feeds the
 * command's output through armed_take(), which takes each such line out and
 * keeps when the first arrived, by the session's own clock (the raw time64
 * CLOCK_REALTIME: the command's own may be what is broken). A command whose
 * output is buffered (sqlite's, to a pipe) may say its moment by its own
 * clock, "y2038-armed SECONDS" (since the epoch, a fraction allowed): that
 * is its moment where it lies between the clock its phase set and the
 * line's arrival, which nothing can come after; anything else (a 1901, a
 * 1970) is not believed, and the arrival is. judge_moment() then makes a
 * command that missed its moment LATE, with by how much, instead of a
 * verdict: its moment came at or past the overflow; or it printed no
 * marker and is a before command that ended past the overflow, or an
 * across command that started past it.
 */
#ifndef Y2038_MOMENT_H
#define Y2038_MOMENT_H

#include "../scenarios/harness/outcome.h"

#define ARMED_MARK "y2038-armed"

/* A command's output and its moments, CLOCK_REALTIME (0: not yet). */
struct moments {
	int64_t started_ns, armed_ns, ended_ns;
	size_t line;	/* where the line being received begins in the output */
	int64_t said_ns;	/* the moment its marker said, by its own clock (0: none) */
};

/* "y2038-armed" or "y2038-armed SECONDS" (len bytes, no newline): 1, and *said. */
static inline int armed_line(const char *p, size_t len, int64_t *said)
{
	const size_t mark = sizeof(ARMED_MARK) - 1;
	char num[32], *end;
	double sec;

	if (len < mark || memcmp(p, ARMED_MARK, mark))
		return 0;
	if (len == mark)
		return 1;
	if (p[mark] != ' ' || len - mark - 1 >= sizeof(num))
		return 0;
	memcpy(num, p + mark + 1, len - mark - 1);
	num[len - mark - 1] = '\0';
	sec = strtod(num, &end);
	if (end == num || *end)
		return 0;
	*said = sec > 0 && sec < 1e11 ? (int64_t)(sec * NSEC_PER_SEC) : -1;
	return 1;
}

/*
 * The output so far is buf[0..*len); the last read added to its end. Each
 * whole line that is ARMED_MARK is taken out, and the first one's arrival
 * (now_ns) kept.
 */
static inline void armed_take(struct moments *m, char *buf, size_t *len, int64_t now_ns)
{
	char *nl;

	while ((nl = memchr(buf + m->line, '\n', *len - m->line))) {
		size_t end = nl - buf + 1;
		int64_t said = 0;

		if (armed_line(buf + m->line, end - m->line - 1, &said)) {
			if (!m->armed_ns) {
				m->armed_ns = now_ns;
				m->said_ns = said;
			}
			memmove(buf + m->line, buf + end, *len - end);
			*len -= end - m->line;
		} else {
			m->line = end;
		}
	}
}

/*
 * A command of phase (before, across, ...) whose clock was set to start_ns,
 * and which timed_out or not: LATE if it missed its moment (above).
 */
static inline void judge_moment(struct outcome *o, const char *phase, int64_t start_ns,
				const struct moments *m, int timed_out)
{
	const int64_t overflow_ns = (Y2038_LAST_SEC + 1) * NSEC_PER_SEC;
	int before = !strcmp(phase, "before"), across = !strcmp(phase, "across");

	if (!before && !across)
		return;
	if (m->armed_ns) {
		int own = m->said_ns >= start_ns && m->said_ns <= m->armed_ns;
		int64_t at = own ? m->said_ns : m->armed_ns;

		if (at >= overflow_ns)
			outcome_late(o, "it", own ? "said by its own clock it was armed" :
				     "printed " ARMED_MARK, at, start_ns, "it missed its moment");
	} else if (before && !timed_out && m->ended_ns >= overflow_ns) {
		outcome_late(o, "it", "ended", m->ended_ns, start_ns,
			     "it may have read the clock after it");
	} else if (across && m->started_ns >= overflow_ns) {
		outcome_late(o, "it", "started", m->started_ns, start_ns,
			     "it did not cross it");
	}
}

#endif
