# SPDX-License-Identifier: GPL-2.0
"""filesystems.py - the report's filesystems table: the files family on every
filesystem devices ship (the filesystems boots), one row per filesystem and
reader, one column per time set, and each filesystem's mount warning.
"""
import re
from collections import OrderedDict

from cells import h, kernel_configs

# The filesystems boots' table: one row per filesystem, one column per time
# set (the case's point), in the order the family runs them.
FS_SCENARIO = "filesystems"
FS_CASE = re.compile(r"(.+?)_((?:futimens_|stat_)?2\d{3}\w*|created_after)$")
FS_MOUNT_WARNING = re.compile(r"; kernel: (\S+ supports timestamps until [^;]*)")


def fs_grid(cells):
    """(points, rows, warnings) of the filesystems cells: rows are
    (filesystem, reader) -> {point: {outcome: [(where, detail)]}}, reader the
    raw time64 call (the filesystem's own limits, either config) or a legacy
    program (32-bit time_t, compat32-y: with =n it cannot set a time at all);
    where machines or configs disagree, a point has more than one outcome.
    warnings: each filesystem's mount warning, as the cells quote it."""
    fs_cells = [c for c in cells if c["scenario"] == FS_SCENARIO and c["phase"] != "-"]
    points, rows, warnings = [], OrderedDict(), {}
    for c in fs_cells:
        m = FS_CASE.match(c["case"])
        if not m:
            continue
        fs, point = m.groups()
        if point.startswith("stat_"):
            continue  # the stat cases are readers, in the boot tables
        # the filesystem's own limits: the raw time64 call, either config;
        # what an old program gets: a 32-bit time_t where it can set a time
        reader = "time64 call" if c["abi"] == "raw64" else \
            "32-bit time_t" if c["abi"] == "legacy" and c["config"] == kernel_configs()[0] else None
        m = FS_MOUNT_WARNING.search(c["detail"])
        if m:
            warnings[fs] = m.group(1)
        if reader is None:
            continue
        if point not in points:
            points.append(point)
        where = "%s %s %s" % (c["machine"], c["config"], c["abi"])
        rows.setdefault((fs, reader), OrderedDict()).setdefault(point, OrderedDict()).setdefault(
            c["observed"], []).append((where, c["detail"]))
    # each filesystem's two readers together, in the order the family runs them
    order = list(OrderedDict.fromkeys(fs for fs, _ in rows))
    rows = OrderedDict(sorted(rows.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1] != "time64 call")))
    return points, rows, warnings


def fs_cell_text(by_outcome):
    if len(by_outcome) == 1:
        return next(iter(by_outcome))
    return " / ".join("%s (%d)" % (o, len(w)) for o, w in by_outcome.items())


def fs_section(cells):
    points, rows, warnings = fs_grid(cells)
    if not rows:
        return ""
    o = ['<section id="filesystems"><h2>The filesystems devices ship: each on-disk time, set and read back</h2>',
         "<p>The files family on every filesystem side by side on one kernel (the filesystems boots), "
         "read back after the inode was evicted: what the time64 syscalls set and read (the filesystem&#39;s "
         "own limits), and what a program with a 32-bit time_t sets and reads (COMPAT_32BIT_TIME=y; with =n "
         "it cannot set a time at all). PASS keeps the time, CLAMP stores the filesystem&#39;s limit, WRAP "
         "the low 32 bits, EOVERFLOW: stat() cannot say it. Where machines or configs differ, each outcome "
         "and how many; hover for the detail.</p>",
         "<table><tr><th>filesystem</th><th>reader</th>%s<th>mount warning</th></tr>" % "".join(
             "<th>%s</th>" % h(p) for p in points)]
    for (fs, reader), by in rows.items():
        o.append("<tr><td>%s</td><td>%s</td>%s<td>%s</td></tr>" % (
            h(fs), h(reader), "".join(
                '<td class="vs o-%s" title="%s">%s</td>' % (
                    h(next(iter(by[p]))) if len(by[p]) == 1 else "WRONG",
                    h("\n".join("%s: %s" % w for ws in by[p].values() for w in ws[:1])),
                    h(fs_cell_text(by[p]))) if p in by else "<td>-</td>" for p in points),
            h(warnings.get(fs, "") if reader == "time64 call" else "")))
    o.append("</table></section>")
    return "\n".join(o)


def fs_markdown(cells):
    points, rows, warnings = fs_grid(cells)
    if not rows:
        return []
    o = ["## The filesystems devices ship: each on-disk time, set and read back", "",
         "| filesystem | reader | %s | mount warning |" % " | ".join(points), "|---|---|" + "---|" * (len(points) + 1)]
    for (fs, reader), by in rows.items():
        o.append("| %s | %s | %s | %s |" % (fs, reader, " | ".join(fs_cell_text(by[p]) if p in by else "-" for p in points),
                                             warnings.get(fs, "") if reader == "time64 call" else ""))
    return o + [""]
