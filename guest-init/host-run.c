// SPDX-License-Identifier: GPL-2.0
/*
 * y2038-run: the guest's runner (runner.h) on this host, for the
 * libfaketime column (host-tools/boot/faketime.sh): the same programs, the
 * same TAP, the same verdicts on a hang or a crash.
 *
 *   y2038-run --dir DIR --programs a,b,c [--timeout S] [--cwd DIR]
 *             [--note TEXT] [-- PREFIX...]
 *
 * Each program DIR/NAME is run as PREFIX... DIR/NAME (PREFIX: env, setpriv,
 * a dynamic loader or qemu-user), in --cwd, with stdin /dev/null; the TAP
 * goes to stdout.
 */
#include "runner.h"

#define MAX_PROGRAMS 64

static int usage(void)
{
	fprintf(stderr, "usage: y2038-run --dir DIR --programs a,b,c [--timeout S] [--cwd DIR] [--note TEXT] [-- PREFIX...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct runner r = { .tap = stdout, .timeout_ns = 300 * NSEC_PER_SEC };
	char *names[MAX_PROGRAMS], *list = NULL;
	const char *note = NULL;
	int i, n;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			r.prefix = argv + i + 1;
			r.nprefix = argc - i - 1;
			break;
		}
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "--dir"))
			r.dir = argv[++i];
		else if (!strcmp(argv[i], "--programs"))
			list = argv[++i];
		else if (!strcmp(argv[i], "--timeout"))
			r.timeout_ns = atoll(argv[++i]) * NSEC_PER_SEC;
		else if (!strcmp(argv[i], "--cwd"))
			r.cwd = argv[++i];
		else if (!strcmp(argv[i], "--note"))
			note = argv[++i];
		else
			return usage();
	}
	if (!r.dir || !list || r.timeout_ns <= 0)
		return usage();
	n = runner_split(list, names, MAX_PROGRAMS);
	runner_run_all(&r, names, n, note, "no programs named by --programs");
	return 0;
}
