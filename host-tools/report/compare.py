#!/usr/bin/env python3
"""compare.py - the same boots on several kernels, side by side.

    compare.py OUT_DIR RUN_DIR...

Each RUN_DIR is a finished run (its results.json) of one kernel. A cell is
the same cell on every kernel when its machine, config, series (the lab's
or none), boot, ABI, scenario, case and phase are; its outcome on each
kernel is what it observed there. Writes OUT_DIR/compare.tsv (every cell
whose outcome differs between the kernels, or that only some kernels
have), OUT_DIR/compare.md and OUT_DIR/compare.html (one self-contained
page: what moving from one kernel to the next changes for 32-bit
programs), and prints the differing cells. A cell that contradicts its own
run's expectation is marked, so a difference is never mistaken for a fix.
"""
import html
import json
import os
import re
import sys
from collections import OrderedDict

# The configs and outcome classes (results-record.h), as the collector declares them.
from collector import vocabulary


def die(msg):
    print("compare.py: " + msg, file=sys.stderr)
    sys.exit(1)


def series_kind(patches):
    return "none" if patches in ("", "none") else "lab"


KEY = ("machine", "config", "series", "kind", "abi", "libc", "scenario", "case", "phase")


def key_of(cell):
    return (cell["machine"], cell["config"], series_kind(cell["patches"]), cell["kind"],
            cell["abi"], cell.get("libc", "-"), cell["scenario"], cell["case"], cell["phase"])


def load(run_dir):
    path = os.path.join(run_dir, "results.json")
    try:
        with open(path) as f:
            cells = json.load(f)
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))
    old = next((c for c in cells if "kind" not in c or "machine" not in c), None)
    if old is not None:
        die("%s: its records have no kind or machine (boot %s): a run an older lab recorded and collected,"
            " before the boot's kind was recorded; compare it with the lab that made it" % (path, old.get("boot", "?")))
    # the host columns do not depend on the kernel under test
    cells = [c for c in cells if not vocabulary().is_host(c["config"])]
    kernels = sorted({"%s %s" % (c["kernel_source"], c["kernel"]) for c in cells})
    if len(kernels) != 1:
        die("%s: one kernel per run, found %s" % (run_dir, kernels or "none"))
    return kernels[0], {key_of(c): c for c in cells}


COMMIT = re.compile(r"(?<![0-9a-zA-Z])[0-9a-f]{12,40}(?![0-9a-zA-Z])")


def deciding_commits(cells):
    """The commits the rows deciding a differing cell name: a row keyed on a
    kernel names the one that makes the difference (expectations.tsv)."""
    seen = []
    for c in cells:
        for m in COMMIT.findall(c["reason"] if c else ""):
            if m not in seen:
                seen.append(m)
    return " ".join(seen) or "-"


def outcome(cell):
    if cell is None:
        return "-"
    mark = "" if cell["verdict"] in ("match", "skip", "late") else " (expected %s)" % cell["expected"]
    return cell["observed"] + mark


def main():
    if len(sys.argv) < 4:
        die("usage: compare.py OUT_DIR RUN_DIR RUN_DIR...")
    out = sys.argv[1]
    runs = OrderedDict()
    for d in sys.argv[2:]:
        kernel, cells = load(d)
        if kernel in runs:
            die("%s: kernel %s is in two runs" % (d, kernel))
        runs[kernel] = (d, cells)
    kernels = list(runs)
    keys = sorted(set().union(*(set(c) for _, c in runs.values())))
    differ = []
    for k in keys:
        cells = [runs[kn][1].get(k) for kn in kernels]
        seen = {c["observed"] if c else None for c in cells}
        if len(seen) > 1:
            differ.append((k, cells))
    os.makedirs(out, exist_ok=True)

    with open(os.path.join(out, "compare.tsv"), "w") as f:
        f.write("\t".join(KEY + tuple(kernels) + ("decided by",)) + "\n")
        for k, cells in differ:
            f.write("\t".join(list(k) + [outcome(c) for c in cells] + [deciding_commits(cells)]) + "\n")

    total = len(keys)
    lines = ["# The matrix on %d kernels" % len(kernels), "",
             "%d cells compared (%s); %d differ between the kernels." %
             (total, ", ".join("%s: run %s" % (kn, os.path.basename(os.path.normpath(runs[kn][0])))
                                for kn in kernels), len(differ)), ""]
    if differ:
        lines.append("| " + " | ".join(KEY + tuple(kernels)) + " | decided by | what changed |")
        lines.append("|" + "---|" * (len(KEY) + len(kernels) + 2))
        for k, cells in differ:
            detail = next((c["detail"] for c in reversed(cells) if c), "")
            lines.append("| " + " | ".join(list(k) + [outcome(c) for c in cells] +
                                            [deciding_commits(cells), detail.replace("|", "\\|")]) + " |")
    with open(os.path.join(out, "compare.md"), "w") as f:
        f.write("\n".join(lines) + "\n")

    def e(s):
        return html.escape(str(s), quote=True)
    rows = []
    for k, cells in differ:
        tds = "".join("<td>%s</td>" % e(v) for v in k)
        for c in cells:
            tone = "missing" if c is None else ("good" if vocabulary().meaning(c["observed"]) == "good" else "bad")
            title = "" if c is None else e("%s: %s" % (c["detail"], c["reason"]))
            odd = "" if c is None or c["verdict"] in ("match", "skip", "late") else " mismatch"
            tds += '<td class="%s%s" title="%s">%s</td>' % (tone, odd, title, e(outcome(c)))
        tds += "<td><code>%s</code></td>" % e(deciding_commits(cells))
        rows.append("<tr>%s</tr>" % tds)
    page = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>y2038-lab: kernels side by side</title>
<style>
body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left}
th{background:#eee}.good{background:#d8f0d8}.bad{background:#f6d6d2}.missing{color:#888}
.mismatch{outline:2px solid #b00}
</style></head><body>
<h1>The matrix on %d kernels</h1>
<p>%d cells compared; <strong>%d differ</strong> between the kernels: what moving from one
to another changes for the programs in these cells. A cell outlined in red
contradicts its own run's expectation. Hover a cell for what it observed and why.</p>
<p>Runs: %s</p>
<table><thead><tr>%s</tr></thead><tbody>
%s
</tbody></table>
%s
</body></html>
""" % (len(kernels), total, len(differ),
       ", ".join("%s (<code>%s</code>)" % (e(kn), e(runs[kn][0])) for kn in kernels),
       "".join("<th>%s</th>" % e(x) for x in KEY + tuple(kernels) + ("decided by",)),
       "\n".join(rows),
       "" if differ else "<p>No cell differs.</p>")
    with open(os.path.join(out, "compare.html"), "w") as f:
        f.write(page)

    print("%d cells compared on %s: %d differ" % (total, ", ".join(kernels), len(differ)))
    for k, cells in differ:
        print("  %-64s %s  %s" % (" ".join(k), "  ".join("%-20s" % outcome(c) for c in cells), deciding_commits(cells)))


if __name__ == "__main__":
    main()
