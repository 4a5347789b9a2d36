/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/child.h - the one way the lab runs something under a deadline: a
 * child whose output comes back through a pipe, read until it ends, a sink
 * has enough or the deadline passes, and then reaped; at the deadline its
 * whole process group is killed. Used for a scenario's cases
 * (harness/cases.h), guest-init's programs and the session's commands.
 * Its clock is the raw time64 CLOCK_MONOTONIC: libc's timing may be what is
 * broken on the kernel under test.
 */
#ifndef Y2038_HARNESS_CHILD_H
#define Y2038_HARNESS_CHILD_H

#include <fcntl.h>
#include <sys/wait.h>
#include "syscalls.h"

/* <fcntl.h> names it with _GNU_SOURCE only; its value is asm-generic's. */
#ifndef O_NOATIME
#define O_NOATIME	01000000
#endif

struct child {
	pid_t pid;
	int fd;			/* the read end of its output */
	int status;		/* waitpid's, once reaped */
	int timed_out;		/* the deadline passed: it was killed */
	int64_t started_ns;	/* CLOCK_MONOTONIC at the fork */
};

/* How a child is started: its body runs in the child and never returns. */
enum child_output {
	CHILD_PIPE_FD,		/* the body writes to the fd it is given */
	CHILD_PIPE_STDIO,	/* stdout and stderr are the pipe, stdin /dev/null */
};

/*
 * Fork a child running body(arg, fd), fd the pipe's write end. Returns 0, or
 * -errno when the pipe or the fork failed (nothing was started).
 * CHILD_PIPE_STDIO also puts the child in its own process group, so the
 * deadline kills all it started.
 */
static inline int child_start(struct child *c, enum child_output how,
			      void (*body)(void *arg, int fd), void *arg)
{
	int pipefd[2], err;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (pipe(pipefd))
		return -errno;
	fflush(NULL);
	c->started_ns = clock_ns(CLOCK_MONOTONIC);
	c->pid = fork();
	if (c->pid < 0) {
		err = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (c->pid == 0) {
		close(pipefd[0]);
		if (how == CHILD_PIPE_STDIO) {
			int devnull = open("/dev/null", O_RDONLY);

			setpgid(0, 0);
			if (devnull >= 0)
				dup2(devnull, STDIN_FILENO);
			dup2(pipefd[1], STDOUT_FILENO);
			dup2(pipefd[1], STDERR_FILENO);
			close(pipefd[1]);
			pipefd[1] = STDOUT_FILENO;
		}
		body(arg, pipefd[1]);
		_exit(127);
	}
	close(pipefd[1]);
	c->fd = pipefd[0];
	/*
	 * Reading the output must not change what the child can see of it:
	 * a read updates the pipe's atime (pipe_read: file_accessed), and a
	 * legacy program that fstat()s its stdout after the lab read it past
	 * the overflow gets EOVERFLOW (legacy Node.js aborts at exit: run
	 * cold40a). Its own writes still set the pipe's mtime.
	 */
	fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NOATIME);
	return 0;
}

/*
 * Read the child's output into sink(arg, buf, n) until it closes it, sink
 * returns nonzero (it has what it wants) or deadline_ns (CLOCK_MONOTONIC)
 * passes; then reap it by the same deadline. A child still running at the
 * deadline, or still holding its output open, is killed with its group and
 * marked timed_out. Its output may end long before it does (a program that
 * closes stdout and sleeps): the deadline holds for the process too.
 */
static inline void child_finish(struct child *c, int64_t deadline_ns,
				int (*sink)(void *arg, const char *buf, size_t n),
				void *arg)
{
	char buf[4096];

	for (;;) {
		int64_t left = deadline_ns - clock_ns(CLOCK_MONOTONIC);
		ssize_t n;

		if (left <= 0 || wait_readable(c->fd, left) <= 0) {
			c->timed_out = 1;
			break;
		}
		n = read(c->fd, buf, sizeof(buf));
		if (n <= 0 || (sink && sink(arg, buf, n)))
			break;
	}
	close(c->fd);
	c->fd = -1;
	while (!c->timed_out && waitpid(c->pid, &c->status, WNOHANG) == 0) {
		if (clock_ns(CLOCK_MONOTONIC) >= deadline_ns)
			c->timed_out = 1;
		else
			raw64_sleep(10 * NSEC_PER_MSEC);
	}
	if (c->timed_out) {
		kill(-c->pid, SIGKILL);
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &c->status, 0);
	}
}

/* How long the child ran, from its fork until now. */
static inline int64_t child_took_ns(const struct child *c)
{
	return clock_ns(CLOCK_MONOTONIC) - c->started_ns;
}

#endif
