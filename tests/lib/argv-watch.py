#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""argv-watch.py - which processes had a secret on their command line, which
ps shows to every user: the command lines of every process on this
machine, read every 5 ms while a command of the tests runs.

  argv-watch.py STOP_FILE SECRETS_FILE [PATTERN...]

Watches until STOP_FILE exists, then reads SECRETS_FILE (one secret a line:
only then, so that it may be written while the watch runs) and prints one
line per process whose command line held a secret or matched a PATTERN (a
regular expression): its name and its command line, each secret shown as
<secret>. Nothing when none did. Its own command line holds no secret.
"""
import os
import re
import sys
import time

stop, secrets_file, patterns = sys.argv[1], sys.argv[2], [re.compile(p) for p in sys.argv[3:]]
me = str(os.getpid())
seen = {}  # (pid, command line) -> its name
while not os.path.exists(stop):
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or pid == me:
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open("/proc/%s/comm" % pid) as f:
                seen.setdefault((pid, argv), f.read().strip())
        except OSError:
            pass
    time.sleep(0.005)
try:
    with open(secrets_file) as f:
        secrets = [s for s in f.read().split("\n") if len(s) >= 8]
except OSError:
    secrets = []
for (pid, argv), name in sorted(seen.items()):
    if any(s in argv for s in secrets) or any(p.search(argv) for p in patterns):
        for s in secrets:
            argv = argv.replace(s, "<secret>")
        print("%s (pid %s): %s" % (name, pid, argv[:300]))
