# SPDX-License-Identifier: GPL-2.0
"""collector.py - what the lab's Python tools take from the collector,
y2038-collect, rather than reading it themselves:

  vocabulary()    results-record.h (y2038-collect --vocabulary): the keys of
                  a record of results.json, the columns, the configs and the
                  outcome classes, with what each means
  boot(DIR)       a boot folder (y2038-collect --boot DIR --json): its record,
                  its TAP (every program's cases and comments), the console's
                  panic line; and its console, which is the kernel's, as text

The collector is the one make builds and exports as LAB_COLLECT
(host-tools/verdicts/verdicts.mk); by hand, LAB_COLLECT=build/host/y2038-collect.
A collector that cannot be run is an error naming the tool that needed it.

This is the lab's one Python module that tools of other stages import
(report.py, compare.py, glibc-tests.py, distro-verdicts.py): they find it
the one way Python offers, PYTHONPATH, which make exports beside
LAB_COLLECT; by hand, PYTHONPATH=host-tools/verdicts. A tool's other
modules are beside it, where Python looks first.
"""
import functools
import json
import os
import subprocess
import sys


class CollectorError(Exception):
    pass


def tool():
    return os.path.basename(sys.argv[0]) or "y2038-lab"


def fail(msg):
    """The tool's error and exit 1: what it needed from the collector and why
    it did not get it."""
    print("%s: %s" % (tool(), msg), file=sys.stderr)
    sys.exit(1)


def collect(*args):
    """The collector's JSON answer to ARGS (read as UTF-8, as a boot's files
    are: a byte that is not becomes U+FFFD)."""
    path = os.environ.get("LAB_COLLECT", "")
    if not path:
        raise CollectorError("LAB_COLLECT is not set: it names the built collector, which make exports"
                             " (by hand: LAB_COLLECT=build/host/y2038-collect)")
    try:
        done = subprocess.run([path] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise CollectorError("LAB_COLLECT=%s: %s (make %s builds it)" % (path, e.strerror, os.path.relpath(path)))
    if done.returncode:
        raise CollectorError("%s %s: %s" % (path, " ".join(args),
                                            done.stderr.decode("utf-8", "replace").strip() or "exit %d" % done.returncode))
    return json.loads(done.stdout.decode("utf-8", "replace"))


class Vocabulary:
    """results-record.h, as the collector declares it."""

    def __init__(self, v):
        self.keys = [k["key"] for k in v["keys"]]
        self.columns = [c["column"] for c in v["columns"]]
        self.configs = {c["config"]: c for c in v["configs"]}
        # the kernel configs, =y first, and the host columns, in order
        self.kernel_configs = [c["config"] for c in v["configs"] if c["where"] == "kernel"]
        self.host_configs = [c["config"] for c in v["configs"] if c["where"] == "host"]
        # the kernel config of each role: with-time32, without-time32
        self.role = {c["role"]: c["config"] for c in v["configs"] if c["where"] == "kernel"}
        self.outcomes = {o["class"]: o for o in v["outcomes"]}

    def is_host(self, config):
        return config in self.host_configs

    def heading(self, config):
        return self.configs[config]["heading"] if config in self.configs else config

    def outcome(self, observed):
        """An outcome class's entry; an errno name's (or any other) is errno's."""
        return self.outcomes.get(observed, self.outcomes["errno"])

    def meaning(self, observed):
        return self.outcome(observed)["meaning"]


@functools.lru_cache(maxsize=None)
def vocabulary():
    try:
        return Vocabulary(collect("--vocabulary"))
    except CollectorError as e:
        fail("the results vocabulary: %s" % e)


# --- A boot, as the collector reads it


def read_text(path):
    """A file's text as it is (its \\r kept), "" when there is none."""
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError):
        return ""


def text_lines(text):
    """A text's lines as a line-reading tool sees them: a last line without
    its newline is a line, the newline ending the text does not start one."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def nonempty(lines):
    return [line for line in lines if line]


def boot_name(path):
    return os.path.basename(path.rstrip("/")) or "/"


class Boot:
    """One boot folder: its record ({key: value}, the keys it has), its TAP
    (tap: the collector's reading, y2038-collect.c's comment), the console's
    panic line (or None), and its console as text."""

    def __init__(self, path, j):
        self.path = path
        self.record = j["record"]
        self.tap = j["tap"]
        self.panic = j["panic"]

    def record_line(self, key):
        """KEY=VALUE as the record has it, or None."""
        return "%s=%s" % (key, self.record[key]) if key in self.record else None

    def programs(self):
        return self.tap["programs"]

    def cases(self):
        """Every program's case lines, in order: {line, number, ok, abi,
        case, phase, class, detail}."""
        return [c for p in self.programs() for c in p["cases"]]

    def notes(self):
        """Every program's own comments ("# # text" in tap.log), in order."""
        return [n["text"] for p in self.programs() for n in p["notes"]]

    def transcript(self):
        """Every program's cases and comments in the order of tap.log:
        ("case", case) and ("note", text)."""
        items = [(c["line"], "case", c) for c in self.cases()]
        items += [(n["line"], "note", n["text"]) for p in self.programs() for n in p["notes"]]
        return [(kind, item) for _, kind, item in sorted(items, key=lambda i: i[0])]

    def text(self):
        """The lines of tap.log that are not TAP (a probe's), \\r dropped."""
        return [t["text"] for t in self.tap["text"]]

    def bail_lines(self):
        """The "Bail out!" lines: the runner's, then each program's."""
        return ([self.tap["bail"]] if self.tap["bail"] else []) + \
            ["# Bail out! " + p["bail"] for p in self.programs() if p["bail"]]

    def console(self):
        return read_text(os.path.join(self.path, "console.log"))


@functools.lru_cache(maxsize=None)
def boot(path):
    """The boot folder PATH, as the collector reads it (once); a file the
    boot did not leave reads as empty."""
    try:
        return Boot(path, collect("--boot", path, "--json"))
    except CollectorError as e:
        fail("boot %s: %s" % (path, e))
