// SPDX-License-Identifier: GPL-2.0
/*
 * fault-hang - a scenario that hangs for real, for tests/run/fault-boots.sh.
 *
 * Installed in the guest in place of a scenario NAME, with the real program
 * beside it as NAME.real (guest-init runs a scenario without arguments).
 * Runs NAME.real, relays its output up to and including its HANG_AFTER-th
 * case line ("ok"/"not ok", at any indent), then kills it and spins on the
 * CPU forever. guest-init must time it out: the cases relayed before the
 * hang keep their verdicts, the rest become TIMEOUT.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef HANG_AFTER
#define HANG_AFTER 2
#endif

static int is_case_line(const char *line)
{
	line += strspn(line, " \t");
	return !strncmp(line, "ok ", 3) || !strncmp(line, "not ok ", 7);
}

int main(int argc __attribute__((unused)), char **argv)
{
	char line[4096], real[4096];
	int pipefd[2], cases = 0;
	FILE *from_real;
	pid_t pid;

	snprintf(real, sizeof(real), "%s.real", argv[0]);
	if (pipe(pipefd) || (pid = fork()) < 0) {
		perror("fault-hang: pipe/fork");
		return 1;
	}
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		execl(real, real, (char *)NULL);
		perror("fault-hang: exec");
		_exit(127);
	}
	close(pipefd[1]);
	from_real = fdopen(pipefd[0], "r");
	while (cases < HANG_AFTER && fgets(line, sizeof(line), from_real)) {
		fputs(line, stdout);
		fflush(stdout);
		cases += is_case_line(line);
	}
	kill(pid, SIGKILL);
	for (;;)
		;	/* the hang: never returns, never sleeps */
}
