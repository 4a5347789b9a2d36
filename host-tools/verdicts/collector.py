# SPDX-License-Identifier: GPL-2.0
"""collector.py - what the lab's Python tools take from the collector,
y2038-collect, rather than reading it themselves:

  vocabulary()    results-record.h (y2038-collect --vocabulary): the keys of
                  a record of results.json, the columns, the configs and the
                  outcome classes, with what each means

The collector is the one make builds and exports as LAB_COLLECT
(host-tools/verdicts/verdicts.mk); by hand, LAB_COLLECT=build/host/y2038-collect.
A collector that cannot be run is an error naming the tool that needed it.
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

    def classes(self, *meanings):
        """The classes of those meanings (errno's stands for every errno name)."""
        return {c for c, o in self.outcomes.items() if o["meaning"] in meanings and c != "errno"}


@functools.lru_cache(maxsize=None)
def vocabulary():
    try:
        return Vocabulary(collect("--vocabulary"))
    except CollectorError as e:
        fail("the results vocabulary: %s" % e)
