#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""distro-verdicts.py - the verdicts on what make validate-distro's and make
try's boots printed (the matrix's are y2038-collect's). The scripts that
boot (validate-distro.sh, try.sh, beside it) read no guest output: they
call this. One judge per command: validate-distro's in distro_judge.py
(programs, setup-boot, init-boot, verdict, answers), try's in try_report.py
(try-report), both beside it; both read the boots through the collector's
Python face, host-tools/verdicts/collector.py (PYTHONPATH, which make
exports).

A BOOT is a boot's folder as boot.sh leaves it: meta (the boot record,
host-tools/boot/boot-record.h), tap.log (the guest's TAP: the lab's init
relaying the session's, guest-init/session.c, or the probe's lines,
guest-init/distro/init-probe), console.log (the kernel console). Its record
and TAP are read by the collector (y2038-collect --boot BOOT --json, through
LAB_COLLECT, which make exports); its console as text. A file a boot did not
leave reads as empty; nothing here writes into a boot.

  distro-verdicts.py programs SCAN_JSON ROOT
      the programs of the root a smoke test runs and the verdict judges (one
      list for both): every executable the scan (y2038-scan --json) found in
      ROOT's bin and sbin directories, and each link there to a multi-call
      program (busybox, toybox: an applet), one line each:
      GUEST_PATH<TAB>E_MACHINE<TAB>MACHINE<TAB>APPLET_OF (its path inside
      the root, its ELF machine number, the scanner's name for it, and the
      multi-call program an applet runs, or nothing)
  distro-verdicts.py setup-boot BOOT
      nothing when debootstrap's second stage finished in the setup boot
      BOOT (its console's "y2038-second-stage: exit 0"); else why not: the
      exit line or QEMU's status, and the console's last 15 lines
  distro-verdicts.py init-boot BOOT MOMENT
      one boot of the root's own init (DISTRO_INIT=yes), as JSON: what the
      probe saw (systemd's state, failed and restarted units, the journal;
      or, of any other init, guest-init/distro/init-watch.c's: the services
      when it settled, those respawned and gone; the clock, the shutdown it
      asked for) and what the console shows
      whatever became of the probe ([FAILED] lines, crashes, a login
      prompt, the kernel's last words, the restart); its verdict, one of
      OK, DEGRADED, NO PROBE, TIMEOUT, NOT BOOTED, PID 1 DIED; and a summary
  distro-verdicts.py verdict DIR YES_BOOT NO_BOOT [PAST_BOOT [INIT_Y INIT_N ACROSS]]
      can the distribution turn COMPAT_32BIT_TIME off? DIR holds what
      validate-distro.sh wrote before the boots: inputs.json, config.json
      (y2038-kconfig), scan.json (y2038-scan), smoke.tsv (the session) and
      smoke.tsv.skipped. YES_BOOT and NO_BOOT ran the smoke session at the
      ordinary date on COMPAT_32BIT_TIME=y (census) and =n, PAST_BOOT on =y
      past the overflow; INIT_Y, INIT_N and ACROSS booted the root's own
      init (=y, =n, =y across the overflow). Writes into DIR the smoke
      results (smoke-y.json, smoke-n.json, smoke-past.json: {path: {class,
      detail}}), the census (census.json: {path: calls}), the boots that
      did not run the session (boot-problems.json, past-problems.json),
      init-boots.json (init-boot's, for each), programs.json (per
      program, a break with its cause: static, own, libc or unseen,
      CAUSE_KINDS), verdict.json (the answer, can_turn_off: yes, no or
      unknown, and its evidence) and report.txt, and prints the report
  distro-verdicts.py answers SHIPPED_DIR VARIANT_DIR NAME
      validate-distro's two answers with DISTRO_LIBC: "As shipped: ..." (the
      verdict in SHIPPED_DIR) and "With NAME: ..." (VARIANT_DIR's, the same
      root with the lab's libc NAME in its libc's place, or why it has none:
      VARIANT_DIR/error); written to VARIANT_DIR/answers.txt and printed
  distro-verdicts.py try-report RUN_DIR
      make try's report: for each boot RUN_DIR/boots/*-try, the program's
      transcript and how each phase ended (the session's class: an errno's
      message, a 1901 date, a crash), or why it could not boot

Exit status 0; 1 for input it cannot read (a broken JSON file) and for a
run without a boot of make try; 2 for a usage error.
"""
import sys

from distro_judge import cmd_answers, cmd_init_boot, cmd_programs, cmd_setup_boot, cmd_verdict
from try_report import cmd_try_report

COMMANDS = {
    "programs": (cmd_programs, (2,), "programs SCAN_JSON ROOT"),
    "setup-boot": (cmd_setup_boot, (1,), "setup-boot BOOT"),
    "init-boot": (cmd_init_boot, (2,), "init-boot BOOT MOMENT"),
    "verdict": (cmd_verdict, (3, 4, 7), "verdict DIR YES_BOOT NO_BOOT [PAST_BOOT [INIT_Y INIT_N ACROSS]]"),
    "answers": (cmd_answers, (3,), "answers SHIPPED_DIR VARIANT_DIR NAME"),
    "try-report": (cmd_try_report, (1,), "try-report RUN_DIR"),
}


def main(argv):
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(encoding="utf-8", errors="replace")
    name, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if name not in COMMANDS:
        print(f"distro-verdicts.py: unknown command \"{name}\": want {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    run, counts, usage = COMMANDS[name]
    if len(args) not in counts:
        print(f"distro-verdicts.py: {usage}", file=sys.stderr)
        return 2
    try:
        return run(*args) or 0
    except (OSError, ValueError) as e:  # a file it needs, or broken JSON in it
        print(f"distro-verdicts.py {name}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
