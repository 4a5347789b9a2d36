# SPDX-License-Identifier: GPL-2.0
"""apps.py - the report's apps family: real applications (Debian's Python,
OpenSSL, SQLite, tar, ...), one row per case, one column per boot; CPython's
own test modules as "failed of run" at an ordinary date and after the
overflow, their failing tests named from the session's transcript (as the
collector read it).
"""
import os
import re
from collections import OrderedDict

from cells import h
from collector import boot

# (one column per boot; CPython's own test modules as "failed of run" at an ordinary date and
# after the overflow.
TESTS_RE = re.compile(r'"(\d+) of (\d+) tests failed(?:: ([^"]*))?')


PYTESTS_RE = re.compile(r"^\[(\d{4})-[^]]*\] \$ \S*python3 \S*pytests\.py (\w+)")


def pytests_lines(run, name):
    """{(case, phase): the test module's whole verdict line} from a boot's
    TAP transcript: the cell's detail is cut at 240 characters, the failing
    tests' names with it."""
    lines = {}
    if not os.path.isdir(os.path.join(run, "boots", name)):
        return lines
    # the session's comments and cases in their order: a command's line,
    # then (the next line of the TAP) the first line it printed
    told = boot(os.path.join(run, "boots", name)).transcript()
    for (kind, text), (next_kind, next_text) in zip(told, told[1:]):
        m = PYTESTS_RE.match(text) if kind == "note" else None
        if m and next_kind == "note":
            lines[("py_" + m.group(2), "ordinary" if m.group(1) != "2038" else "after")] = \
                next_text[len("  "):]
    return lines


def apps_grid(cells, run=None):
    """(columns, rows, python) of the apps cells: columns are boots (machine,
    config, distro, ABI), rows are (case, phase) -> {column: cell}; python is
    [(column, case, phase, failed, run, names)] from the test-module cells,
    with every name where the run's transcripts are at hand."""
    apps = [c for c in cells if c["scenario"] == "apps"]
    transcripts = {b: pytests_lines(run, b) for b in {c["boot"] for c in apps}} if run else {}
    cols = sorted({(c["machine"], c["config"], c["distro"], c["abi"], c["libc"]) for c in apps})
    rows = OrderedDict()
    python = []
    for c in apps:
        col = (c["machine"], c["config"], c["distro"], c["abi"], c["libc"])
        rows.setdefault((c["case"], c["phase"]), {})[col] = c
        m = TESTS_RE.search('"%s"' % transcripts[c["boot"]][(c["case"], c["phase"])]
                            if (c["case"], c["phase"]) in transcripts.get(c["boot"], {}) else c["detail"])
        if c["case"].startswith("py_test_") and m:
            python.append((col, c["case"], c["phase"], int(m.group(1)), int(m.group(2)), m.group(3) or ""))
    return cols, rows, python


def col_title(col):
    return "%s %s %s (%s, %s)" % col


def apps_section(cells, run):
    cols, rows, python = apps_grid(cells, run)
    if not cols:
        return ""
    o = ['<section id="apps"><h2>What real applications do at 2038 (the apps family)</h2>',
         "<p>Debian&#39;s own Python, OpenSSL, SQLite, tar, snooze and hwclock doing their work "
         "before, across and after the overflow (scenarios/apps/session.tsv). Hover for the detail.</p>",
         "<table><tr><th>case</th><th>phase</th>%s</tr>" % "".join("<th>%s</th>" % h(col_title(c)) for c in cols)]
    for (case, phase), by in rows.items():
        o.append("<tr><td>%s</td><td>%s</td>%s</tr>" % (h(case), h(phase), "".join(
            '<td class="vs o-%s" title="%s">%s</td>' % (h(by[c]["observed"]), h(by[c]["detail"]), h(by[c]["observed"]))
            if c in by else "<td>-</td>" for c in cols)))
    o.append("</table>")
    if python:
        o.append("<h3>CPython&#39;s test modules: failed of run</h3><table><tr><th>boot</th><th>module</th>"
                 "<th>phase</th><th>failed</th><th>run</th><th>failing tests</th></tr>")
        for col, case, phase, bad, run, names in sorted(python):
            o.append("<tr><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%s</td></tr>" % (
                h(col_title(col)), h(case[len("py_"):]), h(phase), bad, run, h(names)))
        o.append("</table>")
    o.append("</section>")
    return "\n".join(o)


def apps_markdown(cells, run):
    cols, rows, python = apps_grid(cells, run)
    if not cols:
        return []
    o = ["## What real applications do at 2038 (the apps family)", "",
         "| case | phase | %s |" % " | ".join(col_title(c) for c in cols),
         "|---|---|" + "---|" * len(cols)]
    for (case, phase), by in rows.items():
        o.append("| %s | %s | %s |" % (case, phase, " | ".join(by[c]["observed"] if c in by else "-" for c in cols)))
    if python:
        o += ["", "CPython's test modules:", "", "| boot | module | phase | failed of run | failing tests |",
              "|---|---|---|---|---|"]
        for col, case, phase, bad, run, names in sorted(python):
            o.append("| %s | %s | %s | %d of %d | %s |" % (col_title(col), case[len("py_"):], phase, bad, run,
                                                            names.replace("|", "\\|")))
    return o + [""]
