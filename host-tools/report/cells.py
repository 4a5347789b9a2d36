# SPDX-License-Identifier: GPL-2.0
"""cells.py - what every part of the report (report.py) says of a record of
results.json: its column, its config's heading, whether an outcome is no
failure, the counts; and the results vocabulary they come from, asked of
the collector (collector.py: y2038-collect --vocabulary).
"""
import html
import os
import sys

# The results vocabulary (results-record.h), as the collector declares it:
# a record's keys, a block's columns, the configs, the outcome classes.
from collector import vocabulary

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS_RECORD = "host-tools/verdicts/results-record.h"


def abis():
    return vocabulary().columns


def kernel_configs():
    """The lab's two kernel configs, =y first."""
    return vocabulary().kernel_configs


def abi_column(cell):
    """A cell's column, as the collector wrote it; with its libc for a demo
    boot's libc programs (trixie's glibc 2.41), whose cells share machine,
    config and case with the matrix's in the heat map."""
    if cell["distro"] != "-" and cell["libc"] != "-":
        return "%s %s" % (cell["column"], cell["libc"])
    return cell["column"]


def right(obs):
    """An outcome that is no failure: what it means (results-record.h) is
    good (PASS) or neutral (SKIP, the census's LISTED)."""
    return vocabulary().meaning(obs) in ("good", "neutral")


def die(msg):
    print("report.py: " + msg, file=sys.stderr)
    sys.exit(1)


def h(s):
    return html.escape(str(s), quote=True)


def is_host(cell):
    return vocabulary().is_host(cell["config"])


def column_name(cell):
    return vocabulary().heading(cell["config"])


def short_heading(heading):
    """A config's heading in a narrow column: =y, =n, (faked), (static)."""
    return (heading.replace("compat32-", "=").replace("host (", "(")
            .replace("libfaketime, static programs", "static").replace("libfaketime", "faked"))


def counts(cells):
    """Cells, as expected, not, skipped (a machine this host could not run),
    late (a case that missed its moment: no verdict)."""
    match = sum(1 for c in cells if c["verdict"] == "match")
    skipped = sum(1 for c in cells if c["verdict"] == "skip")
    late = sum(1 for c in cells if c["verdict"] == "late")
    return len(cells), match, len(cells) - match - skipped - late, skipped, late


def totals(cells):
    n, match, bad, skipped, late = counts(cells)
    return "%d cells, %d as expected, %d not%s%s." % (
        n, match, bad, ", %d skipped (machine not available)" % skipped if skipped else "",
        ", %d late (missed their moment: no verdict)" % late if late else "")


def md(s):
    """A value in a Markdown table's cell."""
    return str(s).replace("|", "\\|")
