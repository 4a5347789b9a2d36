// SPDX-License-Identifier: GPL-2.0
/*
 * clock-cost: what one read of the wall clock costs, each way a 32-bit
 * program reads it, and which way the kernel served it: make bench's clock
 * part (clock-cost.sh boots it on each kernel and config).
 *
 * The ways, one row each: the libc's clock_gettime(CLOCK_REALTIME) and
 * gettimeofday() (this build's libc: legacy or time64 glibc, or musl); and,
 * in the glibc builds, the raw ways of the build's width, which do not depend
 * on the libc: the vDSO's entries called directly (__vdso_clock_gettime and
 * __vdso_gettimeofday in the legacy build, __vdso_clock_gettime64 in the
 * time64 one) and the syscalls (clock_gettime and gettimeofday, or
 * clock_gettime64). Each row says, in its detail:
 *
 *   - the cost, as cost.h measures it;
 *   - how the kernel served one call, observed, not inferred: the call is
 *     made once more in a traced child (ptrace), with an undefined
 *     instruction on the first byte of each clock entry the vDSO exports
 *     (the child stops there with SIGILL, its address in si_addr, and goes
 *     on once the byte is back) and every syscall it makes counted
 *     (PTRACE_SYSCALL). "vDSO __vdso_clock_gettime64" is an entry served
 *     from user space; "syscall clock_gettime64" a trip into the kernel.
 *
 * An entry the vDSO does not export, or a syscall the kernel answers with
 * ENOSYS, is a SKIP that says so: there is nothing to time. Any other error
 * is a failure naming the call and its errno.
 *
 * Under TCG the nanoseconds are the emulator's: compare rows of one bench,
 * side by side, never with a real machine's.
 */
#include <sys/ptrace.h>
#include <sys/time.h>
#include "../harness.h"
#include "../harness/vdso.h"
#include "cost.h"

/*
 * The moment the rows run at: an hour before the overflow, so that no
 * reading wraps while a way is timed (musl's time32 vDSO wrapper gives up
 * on a negative second, and would change what is measured).
 */
#define COST_PHASE \
	.phase = "hour-before", .start_ns = (Y2038_LAST_SEC - 3600) * NSEC_PER_SEC

/* A way to read the clock: one read through fn (its vDSO entry, or NULL). */
struct way {
	const char *call;	/* what a detail names */
	const char *vdso;	/* the vDSO entry it calls itself, or NULL */
	int (*read)(void *fn);	/* 0, or the errno */
};

static int libc_clock_gettime(void *fn)
{
	struct timespec ts;

	(void)fn;
	return clock_gettime(CLOCK_REALTIME, &ts) ? errno : 0;
}

static int libc_gettimeofday(void *fn)
{
	struct timeval tv;

	(void)fn;
	return gettimeofday(&tv, NULL) ? errno : 0;
}

/* A vDSO entry returns 0 or -errno, as the kernel's syscalls do. */
static int vdso_clock_gettime(void *fn)
{
	raw_ts ts;

	return -((int (*)(clockid_t, raw_ts *))fn)(CLOCK_REALTIME, &ts);
}

static int raw_clock_gettime(void *fn)
{
	raw_ts ts;

	(void)fn;
	return syscall(RAW_NR_CLOCK_GETTIME, CLOCK_REALTIME, &ts) ? errno : 0;
}

#if !Y2038_TIME64_BUILD
/* gettimeofday has no time64 twin: the legacy build's raw ways alone. */
static int vdso_gettimeofday(void *fn)
{
	struct old_tv32 tv;

	return -((int (*)(struct old_tv32 *, void *))fn)(&tv, NULL);
}

static int raw_gettimeofday(void *fn)
{
	struct old_tv32 tv;

	(void)fn;
	return syscall(__NR_gettimeofday, &tv, NULL) ? errno : 0;
}
#endif

/* --- How one call was served: a traced child. */

/*
 * The vDSO's clock entries: where the child is stopped, to see which of
 * them a call enters.
 */
static const char *const clock_entries[] = {
	"__vdso_clock_gettime", "__vdso_clock_gettime64", "__vdso_gettimeofday", "__vdso_time",
};

/* The syscalls a clock read may make, by name; any other by its number. */
static const struct number_name clock_syscalls[] = {
	{ __NR_clock_gettime, "clock_gettime" },
	{ __NR_clock_gettime64, "clock_gettime64" },
	{ __NR_gettimeofday, "gettimeofday" },
};

/*
 * An undefined instruction, which stops a traced process on itself: the
 * kernel sends SIGILL with si_addr its address and leaves the program
 * counter there, so putting the entry's bytes back is all it takes to go
 * on. (x86's int3 would leave the PC past it; ARM's ptrace breakpoint,
 * 0xe7f001f0, is no different to the kernel's undef hooks but needs no
 * care either: UDF #0 is simply undefined.)
 */
struct stop_insn {
	unsigned char bytes[4];
	size_t len;
};

#if defined(__i386__) || defined(__x86_64__)
static const struct stop_insn ud2 = { { 0x0f, 0x0b }, 2 };

static const struct stop_insn *stop_insn_at(uintptr_t entry, uintptr_t *at)
{
	*at = entry;
	return &ud2;
}
#elif defined(__arm__)
/* A Thumb entry's symbol has bit 0 set (the lab's kernels are THUMB2_KERNEL). */
static const struct stop_insn udf_arm = { { 0xf0, 0x00, 0xf0, 0xe7 }, 4 };
static const struct stop_insn udf_thumb = { { 0x00, 0xde }, 2 };

static const struct stop_insn *stop_insn_at(uintptr_t entry, uintptr_t *at)
{
	*at = entry & ~(uintptr_t)1;
	return entry & 1 ? &udf_thumb : &udf_arm;
}
#else
#error "clock-cost: no stop instruction for this architecture"
#endif

struct entry_stop {
	const char *name;
	uintptr_t at;
	const struct stop_insn *insn;
	unsigned char saved[4];
	int armed;
};

/* Write len bytes into the traced child's text, keeping what was there. */
static int poke_text(pid_t pid, uintptr_t addr, const unsigned char *bytes, size_t len,
		     unsigned char *saved)
{
	size_t i = 0;

	while (i < len) {
		uintptr_t word_at = (addr + i) & ~(uintptr_t)(sizeof(long) - 1);
		unsigned char *b;
		long word;

		errno = 0;
		word = ptrace(PTRACE_PEEKTEXT, pid, (void *)word_at, NULL);
		if (errno)
			return errno;
		b = (unsigned char *)&word;
		for (; i < len && addr + i < word_at + sizeof(long); i++) {
			if (saved)
				saved[i] = b[addr + i - word_at];
			b[addr + i - word_at] = bytes[i];
		}
		if (ptrace(PTRACE_POKETEXT, pid, (void *)word_at, (void *)word))
			return errno;
	}
	return 0;
}

/* Append ", word" (or "word") to a list. */
static void list_add(char *list, size_t len, const char *word)
{
	size_t n = strlen(list);

	snprintf(list + n, len - n, "%s%s", n ? ", " : "", word);
}

/* The traced child: a first call (a libc's lazy setup: musl's cgt_init), then stopped, then the call. */
static void traced_call(const struct way *w, void *fn)
{
	ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	w->read(fn);
	syscall(__NR_kill, getpid(), SIGSTOP);
	w->read(fn);
	_exit(0);
}

/*
 * Trace one call of w: which clock entries of the vDSO it entered, and
 * which syscalls it made, into how ("vDSO __vdso_clock_gettime64",
 * "syscall clock_gettime64", both, or why it could not be traced).
 */
static void trace_call(const struct way *w, void *fn, char *how, size_t len)
{
	struct entry_stop stops[ARRAY_SIZE(clock_entries)];
	char entered[120] = "", syscalls[120] = "", other[24];
	const char *failed = NULL;
	int status, sig = 0, err = 0;
	size_t i;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(how, len, "not traced: fork: errno %d %s", errno, errno_name(errno));
		return;
	}
	if (pid == 0)
		traced_call(w, fn);
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) || WSTOPSIG(status) != SIGSTOP) {
		snprintf(how, len, "not traced: the child did not stop (status 0x%x)", status);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return;
	}
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)))
		err = errno, failed = "PTRACE_SETOPTIONS";
	for (i = 0; i < ARRAY_SIZE(stops); i++) {
		uintptr_t entry = (uintptr_t)vdso_sym(clock_entries[i]);

		stops[i] = (struct entry_stop){ clock_entries[i], 0, NULL, { 0 }, 0 };
		if (!entry || failed)
			continue;
		stops[i].insn = stop_insn_at(entry, &stops[i].at);
		if ((err = poke_text(pid, stops[i].at, stops[i].insn->bytes, stops[i].insn->len, stops[i].saved)))
			failed = "PTRACE_POKETEXT";
		else
			stops[i].armed = 1;
	}
	while (!failed) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig)) {
			err = errno, failed = "PTRACE_SYSCALL";
			break;
		}
		sig = 0;
		if (waitpid(pid, &status, 0) != pid || WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			struct __ptrace_syscall_info info;

			if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) <= 0) {
				err = errno, failed = "PTRACE_GET_SYSCALL_INFO";
				break;
			}
			/* its exit_group ends the call's syscalls */
			if (info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr != __NR_exit_group)
				list_add(syscalls, sizeof(syscalls),
					 number_name(clock_syscalls, ARRAY_SIZE(clock_syscalls), (int)info.entry.nr,
						     "syscall ", other, sizeof(other)));
		} else if (WSTOPSIG(status) == SIGILL) {
			siginfo_t si;

			sig = SIGILL;	/* the program's own, unless it is one of ours */
			if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si)) {
				err = errno, failed = "PTRACE_GETSIGINFO";
				break;
			}
			for (i = 0; i < ARRAY_SIZE(stops); i++) {
				if (!stops[i].armed || (uintptr_t)si.si_addr != stops[i].at)
					continue;
				if ((err = poke_text(pid, stops[i].at, stops[i].saved, stops[i].insn->len, NULL)))
					failed = "PTRACE_POKETEXT";
				stops[i].armed = 0;
				list_add(entered, sizeof(entered), stops[i].name);
				sig = 0;
			}
		} else {
			sig = WSTOPSIG(status);
		}
	}
	if (failed) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		snprintf(how, len, "not traced: %s: errno %d %s", failed, err, errno_name(err));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(how, len, "not traced: the traced call did not end well (status 0x%x)", status);
	} else {
		snprintf(how, len, "%s%s%s%s%s", *entered ? "vDSO " : "", entered,
			 *entered && *syscalls ? " + " : "", *syscalls ? "syscall " : "", syscalls);
		if (!*entered && !*syscalls)
			snprintf(how, len, "no vDSO clock entry and no syscall");
	}
}

/* --- The cost. */

/* A row's body: is the way there, how is a call served, and what does one cost. */
static void measure_way(struct outcome *o, const struct y2038_case *c)
{
	const struct way *w = c->arg;
	char how[160];
	void *fn = NULL;
	int err;

	if (w->vdso && !(fn = vdso_sym(w->vdso))) {
		char names[160];

		vdso_names(names, sizeof(names));
		outcome_set(o, "SKIP", "absent: %s is not in the vDSO (%s)", w->vdso, names);
		return;
	}
	err = w->read(fn);
	if (err == ENOSYS) {
		outcome_set(o, "SKIP", "ENOSYS: %s: errno %d %s, the kernel has no such call", w->call,
			    err, errno_name(err));
		return;
	}
	if (err) {
		outcome_errno(o, w->call, err);
		return;
	}
	trace_call(w, fn, how, sizeof(how));
	cost_measure(o, w->read, fn, how);
}

#define WAY(call, vdso, read)	.run_arg = measure_way, .arg = &(const struct way){ call, vdso, read }

/* Raw rows are named apart from the libc's, so run_cases() never runs two at once. */
static const struct y2038_case ways[] = {
	{ "clock_gettime", LIBC, COST_PHASE, WAY("clock_gettime(CLOCK_REALTIME)", NULL, libc_clock_gettime) },
	{ "gettimeofday", LIBC, COST_PHASE, WAY("gettimeofday", NULL, libc_gettimeofday) },
#if Y2038_TIME64_BUILD
	{ "__vdso_clock_gettime64", RAW, COST_PHASE,
	  WAY("__vdso_clock_gettime64", "__vdso_clock_gettime64", vdso_clock_gettime) },
	{ "syscall-clock_gettime64", RAW, COST_PHASE,
	  WAY("syscall clock_gettime64", NULL, raw_clock_gettime) },
#else
	{ "__vdso_clock_gettime", RAW, COST_PHASE,
	  WAY("__vdso_clock_gettime", "__vdso_clock_gettime", vdso_clock_gettime) },
	{ "__vdso_gettimeofday", RAW, COST_PHASE,
	  WAY("__vdso_gettimeofday", "__vdso_gettimeofday", vdso_gettimeofday) },
	{ "syscall-clock_gettime", RAW, COST_PHASE,
	  WAY("syscall clock_gettime", NULL, raw_clock_gettime) },
	{ "syscall-gettimeofday", RAW, COST_PHASE,
	  WAY("syscall gettimeofday", NULL, raw_gettimeofday) },
#endif
};

/* What decides the costs besides the kernel's config: its clocksource, its vDSO. */
static void print_context(void)
{
	char line[64] = "", names[400];
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (fgets(line, sizeof(line), f))
			line[strcspn(line, "\n")] = '\0';
		fclose(f);
	}
	printf("# clocksource: %s\n", *line ? line : "unknown (no sysfs)");
	vdso_names(names, sizeof(names));
	printf("# vDSO: %s\n", names);
}

int main(void)
{
	int ret = run_cases(ways, ARRAY_SIZE(ways));

	print_context();
	return ret;
}
