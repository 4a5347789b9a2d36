// SPDX-License-Identifier: GPL-2.0
/*
 * census: what the kernel's time32 census (CONFIG_Y2038_TIME32_CENSUS, from
 * the lab's patches) says about the binaries this guest ran.
 *
 * Runs last. For every scenario binary named by y2038.run= it reports
 * LISTED (with the interfaces the census recorded) or ABSENT; the case is
 * the scenario (clock_musl for the musl program), the ABI the binary's.
 * The case "others" is PASS when the
 * census names no program the lab did not run (init, this program), else
 * LISTED with those. The whole census file is copied into the TAP as
 * comments, so a run keeps it. Without the census file every case is a
 * SKIP that says so.
 */
#include <fcntl.h>
#include "harness.h"

#define CENSUS_FILE "/sys/kernel/debug/time32_census"
#define SCENARIO_DIR "/scenarios/"
#define MAX_PROGRAMS 256

struct program {
	char path[256];
	char uses[512];
	int pid;
	int ran;	/* one of the binaries y2038.run= named */
};

static struct program programs[MAX_PROGRAMS];
static int nprograms;

/* seq_escape writes a space as \040: undo it in place. */
static void unescape_octal(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0');
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* Copy the census into the TAP as comments, and keep its program lines. */
static int read_census(void)
{
	FILE *f = fopen(CENSUS_FILE, "r");
	char line[1024];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct program *p = &programs[nprograms];

		line[strcspn(line, "\n")] = '\0';
		printf("# census: %s\n", line);
		if (nprograms < MAX_PROGRAMS &&
		    sscanf(line, "program %d %255s %511s", &p->pid, p->path,
			   p->uses) == 3) {
			unescape_octal(p->path);
			nprograms++;
		}
	}
	fclose(f);
	return 0;
}

static struct program *find_program(const char *path)
{
	int i;

	for (i = 0; i < nprograms; i++)
		if (!strcmp(programs[i].path, path))
			return &programs[i];
	return NULL;
}

/* The binaries init ran: y2038.run=a,b,c on the kernel command line. */
static int run_list(char *list, size_t len)
{
	char cmdline[4096] = "";
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	cmdline[n > 0 ? n : 0] = '\0';
	return cmdline_value(cmdline, "y2038.run", list, len) ? 0 : -ENOENT;
}

int main(void)
{
	struct tally tally = { 0 };
	char list[1024], *save = NULL, *bin, *bins[64], skip[160] = "";
	unsigned int n = 0, nbins = 0, k;
	struct outcome o;
	int err, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	err = run_list(list, sizeof(list));
	if (err) {
		printf("Bail out! no y2038.run= on the kernel command line\n");
		return KSFT_FAIL;
	}
	for (bin = strtok_r(list, ",", &save); bin && nbins < ARRAY_SIZE(bins);
	     bin = strtok_r(NULL, ",", &save)) {
		char *dash = strrchr(bin, '-');

		/* scenario binaries only: not rtc-kernel, census-kernel */
		if (dash && (!strcmp(dash, "-legacy") || !strcmp(dash, "-time64") ||
			     !strcmp(dash, "-musl")))
			bins[nbins++] = bin;
	}
	printf("1..%u\n", nbins + 1);
	err = read_census();
	if (err)
		snprintf(skip, sizeof(skip),
			 "no census: open %s: errno %d %s (a kernel without CONFIG_Y2038_TIME32_CENSUS)",
			 CENSUS_FILE, -err, errno_name(-err));

	for (k = 0; k < nbins; k++) {
		char *dash = strrchr(bins[k], '-'), path[256];
		struct program *p;

		bin = bins[k];
		snprintf(path, sizeof(path), SCENARIO_DIR "%s", bin);
		p = find_program(path);
		if (skip[0])
			outcome_set(&o, "SKIP", "%s", skip);
		else if (p)
			outcome_set(&o, "LISTED", "%s (pid %d) used %s", path,
				    p->pid, p->uses);
		else
			outcome_set(&o, "ABSENT", "%s is not in the census", path);
		if (p)
			p->ran = 1;
		*dash = '\0';
		if (!strcmp(dash + 1, "musl")) {
			/* musl's program is time64: the case "clock_musl" beside glibc's */
			char name[64];

			snprintf(name, sizeof(name), "%s_musl", bin);
			report_case(&tally, ++n, "time64", name, "run", &o);
		} else {
			report_case(&tally, ++n, dash + 1, bin, "run", &o);
		}
	}

	if (skip[0]) {
		outcome_set(&o, "SKIP", "%s", skip);
	} else {
		outcome_set(&o, "PASS", "the census names no program the lab did not run");
		for (i = 0; i < nprograms; i++) {
			if (programs[i].ran)
				continue;
			if (!strcmp(o.class, "PASS"))
				outcome_set(&o, "LISTED", "not run by the lab:");
			outcome_append(&o, " %s (pid %d) used %s;",
				       programs[i].path, programs[i].pid,
				       programs[i].uses);
		}
	}
	report_case(&tally, ++n, "kernel", "others", "run", &o);
	return report_totals(&tally);
}
