# SPDX-License-Identifier: GPL-2.0
"""try_report.py - make try's report (distro-verdicts.py try-report): for each
boot of make try, the program's transcript and how each phase ended, or why
it could not boot. What the boots left is read through collector.py.
"""
import glob
import os
import re
import sys

from collector import boot as read_boot, boot_name, text_lines

# The session's cases, "ok N user NAME PHASE # CLASS detail" in its TAP:
# the class is what the program printed (an errno's message, a 1901 date),
# since the lab cannot know what is right for the program.

# The kernel's words when it cannot unpack the initramfs (init/initramfs.c:731
# in 6.1); "write error" when rootfs has no room left for a file.
UNPACK_FAILED = "Initramfs unpacking failed"


def try_phase(case):
    """The case "not ok 2 user NAME across # ENOSYS exit 1: "..."" -> how
    that phase ended, as the report says it."""
    phase, cls = case["phase"], case["class"]
    ended = re.sub(r": \".*", "", case["detail"], count=1)
    if cls in ("CRASH", "TIMEOUT", "ERROR"):  # ERROR: the session could not run it
        return f"  -> {phase}: {cls} {ended}"
    printed = {"WRONG": "", "WRAP": ", printed a 1901 date"}.get(cls, f", printed the {cls} message")
    return f"  -> {phase}: {ended}{printed}"


def cmd_try_report(run):
    boots = sorted(glob.glob(os.path.join(glob.escape(run), "boots", "*-try")))
    if not boots:
        print(f"distro-verdicts.py: no boot of make try in {run}/boots", file=sys.stderr)
        return 1
    for path in boots:
        b = read_boot(path)
        kernel, accel = (b.record.get(k, "") for k in ("kernel", "accel"))
        print(f"== {boot_name(path)[:-len('-try')]}  ({kernel}, {accel})")
        if b.record_line("error") is not None:
            print(b.record_line("error"))
            continue
        # A program too big for the guest's memory: the kernel unpacks what
        # fits of the initramfs, and the session may not even find /bin/sh.
        console = text_lines(b.console())
        unpacked = next((line[line.index(UNPACK_FAILED):].strip() for line in console if UNPACK_FAILED in line), None)
        if unpacked:
            why = (": the program and its libraries do not fit in make try's guest memory (try.memory,"
                   " host-tools/boot/boot.mk)" if unpacked.endswith("write error") else "")
            print(f"  the guest could not unpack all of its initramfs (\"{unpacked}\"){why};"
                  " what follows ran without some of it")
        # The transcript (the session's comments: each command with its
        # clock, then what it printed), and how each phase ended.
        for kind, item in b.transcript():
            if kind == "note" and item.startswith("["):
                print("  " + item)
            elif kind == "note" and item.startswith("  "):
                print("      " + item[len("  "):])
            elif kind == "case" and item["abi"] == "user":
                print(try_phase(item))
        if not b.tap["done"]:
            status = b.record_line("qemu_status") or "no boot record"
            print(f"  the guest did not finish: {status}")
    return 0
