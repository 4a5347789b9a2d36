#!/usr/bin/env python3
"""report.py - a run's report, generated from its results.json (never by hand).

    report.py RUN_DIR

Writes RUN_DIR/report.html, one self-contained page (no network, no files
beside it) made from report.html.in: first an overview that fits one
screen, a heat map of the whole matrix (interfaces down the side, machine x
config x ABI across, each cell coloured by outcome) beside the headline
findings the run's cells support; then per boot the matrix of (scenario,
case, phase) by ABI, each cell coloured by what it observed, a cell that
contradicts its expectation marked OBSERVED≠EXPECTED, the detail and reason
on hover, with filters by machine, config and ABI; the clock across the
overflow plotted per boot (inline SVG); and the libfaketime columns beside
the real kernels. And RUN_DIR/report.md, the Markdown summary for terminals
and CI logs: the counts per boot and every mismatch.

This file is the page (the overview, the findings, the heat map, the boots'
matrices); each other section is a module of its own: timelines.py,
libfaketime.py, apps.py, filesystems.py, and what they share, cells.py.
The results vocabulary and the boots' TAP come from the collector
(LAB_COLLECT, which make exports), through host-tools/verdicts/collector.py.
"""
import json
import os
import re
import sys
from collections import OrderedDict, defaultdict

# One module per section of the page, and what they share (cells.py).
from cells import (HERE, RESULTS_RECORD, abi_column, abis, column_name, counts, die, h,
                   kernel_configs, right, short_heading, totals)
from collector import vocabulary
from apps import apps_markdown, apps_section
from filesystems import FS_SCENARIO, fs_markdown, fs_section
from libfaketime import faked_markdown, faked_section, faked_vs_real
from timelines import timelines


# --- The headline findings: each is computed from the cells, with its count.
def findings(cells):
    conf_y, conf_n = kernel_configs()
    kernel = [c for c in cells if c["config"] in (conf_y, conf_n)]
    out = []

    def share(sel, what):
        return sum(1 for c in sel if what(c)), len(sel)

    # Legacy programs reading the clock after the overflow.
    reads = [c for c in kernel if c["scenario"] == "clock" and c["phase"] == "after"
             and c["case"] in ("time", "clock_gettime", "gettimeofday")]
    legacy = [c for c in reads if abi_column(c) == "legacy"]
    if legacy:
        n, total = share(legacy, lambda c: c["observed"] != "PASS")
        kinds = sorted({c["observed"] for c in legacy if c["observed"] != "PASS"})
        out.append(("bad" if n else "good",
                    "Legacy programs cannot read the clock after the overflow",
                    "%d of %d legacy time(), clock_gettime() and gettimeofday() cells after "
                    "03:14:07 fail (%s); the same calls in time64 programs: %d of %d correct."
                    % (n, total, ", ".join(kinds) or "none",
                       *share([c for c in reads if abi_column(c) == "time64"],
                              lambda c: c["observed"] == "PASS"))))
    raw32 = [c for c in kernel if abi_column(c) == "raw32"]
    wraps = [c for c in raw32 if c["observed"] == "WRAP"]
    if raw32:
        out.append(("bad" if wraps else "good", "The time32 syscalls wrap silently to 1901",
                    "%d of %d raw time32 cells return a 1901 time without an error, in %s."
                    % (len(wraps), len(raw32),
                       ", ".join(sorted({c["scenario"] for c in wraps})) or "no family")))
    t64 = {}
    for c in kernel:
        if abi_column(c) == "time64" and c["scenario"] != "census":
            t64[(c["machine"], c["patches"], c["scenario"], c["case"], c["phase"], c["config"])] = c["observed"]
    changed = [(k, v) for k, v in t64.items() if k[5] == conf_n
               and t64.get(k[:5] + (conf_y,), v) != v]
    if t64:
        by = defaultdict(int)
        for k, v in changed:
            by[v] += 1
        out.append(("bad" if changed else "good",
                    "Time64 programs still need COMPAT_32BIT_TIME",
                    "%d of %d time64 cells observe something else with COMPAT_32BIT_TIME=n than "
                    "with =y (%s): a libc that makes the time32 call when a value fits 32 bits. "
                    "Families: %s." % (
                        len(changed), sum(1 for k in t64 if k[5] == conf_n),
                        ", ".join("%s %d" % kv for kv in sorted(by.items(), key=lambda kv: -kv[1])) or "none",
                        ", ".join(sorted({k[2] for k, v in changed})) or "none")))
    raw64 = [c for c in kernel if abi_column(c) == "raw64"]
    if raw64:
        by_config = {}
        for c in raw64:
            by_config[(c["machine"], c["patches"], c["scenario"], c["case"], c["phase"], c["config"])] = c["observed"]
        pairs = [(k, v, by_config.get(k[:5] + (conf_n,))) for k, v in by_config.items()
                 if k[5] == conf_y]
        same = sum(1 for k, on_y, on_n in pairs if on_n is not None and on_y == on_n)
        wrong = defaultdict(int)
        for c in raw64:
            if not right(c["observed"]):
                wrong[c["observed"]] += 1
        out.append(("good" if same == len(pairs) else "bad",
                    "The time64 syscalls do not depend on COMPAT_32BIT_TIME",
                    "%d of %d raw time64 cells observe the same with =y and =n; %d of %d are "
                    "right%s." % (same, len(pairs), sum(1 for c in raw64 if right(c["observed"])),
                                  len(raw64),
                                  "; the others are limits beyond the syscall (%s)" % ", ".join(
                                      "%s %d" % kv for kv in sorted(wrong.items(), key=lambda kv: -kv[1]))
                                  if wrong else "")))
    fv = faked_vs_real(cells)
    if fv:
        differs = sum(1 for f in fv if f["how"] == "differs")
        cannot = sum(1 for f in fv if f["how"] == "cannot")
        out.append(("bad" if differs else "good", "libfaketime is not the kernel",
                    "Of %d host-column cells, %d differ from the real kernel and %d cannot be "
                    "faked at all." % (len(fv), differs, cannot)))
    bad = counts(cells)[2]
    out.append(("bad" if bad else "good", "Expectations", totals(cells)))
    return out


def outcome_tone(obs):
    """Its colour: what the class means (results-record.h)."""
    return vocabulary().meaning(obs)


def heatmap(cells):
    """The whole matrix in one table: rows (scenario, case, phase), columns (machine, config, ABI)."""
    cols = OrderedDict()
    rows = OrderedDict()
    grid = {}
    for c in cells:
        col = (c["machine"], column_name(c), abi_column(c))
        cols.setdefault(col, None)
        row = (c["scenario"], c["case"], c["phase"])
        rows.setdefault(row, None)
        grid.setdefault((row, col), c)
    machine_order = []
    for c in cells:
        if c["machine"] not in machine_order:
            machine_order.append(c["machine"])

    headings = [vocabulary().heading(c) for c in kernel_configs()]

    def col_key(col):
        conf = col[1]
        conf_rank = headings.index(conf) if conf in headings else len(headings)
        abi = abis().index(col[2]) if col[2] in abis() else len(abis())
        return (machine_order.index(col[0]), conf_rank, conf, abi)
    cols = sorted(cols, key=col_key)
    fam_order = []
    for r in rows:
        if r[0] not in fam_order:
            fam_order.append(r[0])
    rows = sorted(rows, key=lambda r: (fam_order.index(r[0]),))
    out = ['<table class="heatmap"><thead><tr><th></th>']
    groups = []
    for col in cols:
        g = (col[0], col[1])
        if groups and groups[-1][0] == g:
            groups[-1][1] += 1
        else:
            groups.append([g, 1])
    for (machine, conf), span in groups:
        out.append('<th colspan="%d" class="grp" title="%s %s">%s<br>%s</th>' % (
            span, h(machine), h(conf), h(machine), h(short_heading(conf))))
    out.append("</tr><tr><th></th>")
    for col in cols:
        out.append('<th class="abi" title="%s">%s</th>' % (h(col[2]), h(col[2][:2] + col[2][-2:] if col[2].startswith("raw") else col[2][:1])))
    out.append("</tr></thead><tbody>")
    prev = None
    for row in rows:
        fam = row[0]
        label = fam if fam != prev else ""
        cls = ' class="fam"' if fam != prev else ""
        prev = fam
        out.append('<tr%s><th class="row" title="%s">%s</th>' % (cls, h("%s.%s.%s" % row), h(label)))
        for col in cols:
            c = grid.get((row, col))
            if c is None:
                out.append('<td class="hm none"></td>')
                continue
            mark = " mis" if c["verdict"] == "MISMATCH" else ""
            out.append('<td class="hm t-%s%s" title="%s"></td>' % (
                outcome_tone(c["observed"]), mark,
                h("%s.%s.%s %s %s %s: %s%s" % (row[0], row[1], row[2], col[0], col[1], col[2],
                                              c["observed"],
                                              "" if c["verdict"] != "MISMATCH" else " (expected %s)" % c["expected"]))))
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out), len(rows), len(cols)


def boot_tables(cells):
    by_boot = OrderedDict()
    for c in sorted(cells, key=lambda c: c["boot"]):
        by_boot.setdefault(c["boot"], []).append(c)
    out = []
    for boot, bc in by_boot.items():
        first = bc[0]
        present = {abi_column(c) for c in bc}
        cols = [a for a in abis() if a in present] + sorted(present - set(abis()))
        out.append('<section class="boot" data-machine="%s" data-config="%s">' % (h(first["machine"]), h(first["config"])))
        out.append("<h2>%s: %s %s, kernel %s %s, patches %s, accel %s</h2>" % (
            h(boot), h(first["machine"]), h(column_name(first)), h(first["kernel_source"]),
            h(first["kernel"]), h(first["patches"]), h(first["accel"])))
        out.append("<table><tr><th>scenario</th><th>case</th><th>phase</th>%s</tr>" % "".join(
            '<th data-abi="%s">%s</th>' % (a, a) for a in cols))
        rows = OrderedDict()
        for c in bc:
            rows.setdefault((c["scenario"], c["case"], c["phase"]), {}).setdefault(abi_column(c), c)
        for key in sorted(rows):
            r = rows[key]
            tds = []
            for a in cols:
                c = r.get(a)
                if c is None:
                    tds.append('<td data-abi="%s"></td>' % a)
                    continue
                mis = c["verdict"] == "MISMATCH"
                tds.append('<td data-abi="%s" class="cell o-%s%s" title="%s">%s%s</td>' % (
                    a, h(c["observed"]), " mismatch" if mis else "",
                    h("observed: %s\nexpected %s: %s" % (c["detail"], c["expected"], c["reason"])),
                    h(c["observed"]), "≠" + h(c["expected"]) if mis else ""))
            out.append("<tr><td>%s</td><td>%s</td><td>%s</td>%s</tr>" % (h(key[0]), h(key[1]), h(key[2]), "".join(tds)))
        out.append("</table></section>")
    return "\n".join(out)


def old_binaries(cells):
    """(tone, title, text) per distribution's own programs (its demo session)
    and applications (the apps family), with COMPAT_32BIT_TIME=y: per column,
    which of their cases fail before, across or after the overflow."""
    groups = OrderedDict()
    for c in sorted(cells, key=lambda c: (c["distro"], c["scenario"] != "apps", c["column"], c["machine"])):
        if c["distro"] == "-" or c["config"] != kernel_configs()[0]:
            continue
        if c["scenario"] == "apps":
            kind = "applications"
        elif c["scenario"].split("_")[0] == c["distro"]:
            kind = "own programs"
        else:
            continue    # the lab's programs on the distribution's libc
        g = groups.setdefault((c["distro"], kind), OrderedDict()).setdefault(
            c["column"], {"machines": set(), "cases": set(), "bad": OrderedDict()})
        g["machines"].add(c["machine"])
        g["cases"].add((c["case"], c["phase"]))
        if not right(c["observed"]):
            g["bad"].setdefault(c["case"], set()).add(c["observed"])
    out = []
    for (distro, kind), columns in groups.items():
        parts = []
        for column, g in columns.items():
            names = ["%s (%s)" % (case, "/".join(sorted(obs))) for case, obs in g["bad"].items()]
            parts.append("%s on %s: %d of %d fail%s" % (
                column, ", ".join(sorted(g["machines"])), len(g["bad"]), len(g["cases"]),
                ": " + ", ".join(names[:4]) + (" and %d more" % (len(names) - 4) if len(names) > 4 else "")
                if names else ""))
        out.append(("bad" if any(g["bad"] for g in columns.values()) else "good",
                    "%s's %s" % (distro, kind), "; ".join(parts) + "."))
    return out


def distro_answers(run):
    """Each distribution's answer, from the newest make validate-distro run
    beside this one (results/<run-id>/distro/): (distribution, answer, run id)."""
    results = os.path.dirname(os.path.abspath(run))
    newest = {}
    for rid in sorted(os.listdir(results)) if os.path.isdir(results) else []:
        path = os.path.join(results, rid, "distro")
        if rid == "latest" or not os.path.isfile(os.path.join(path, "verdict.json")):
            continue
        try:
            with open(os.path.join(path, "verdict.json")) as f:
                v = json.load(f)
            with open(os.path.join(path, "report.txt")) as f:
                answer = f.read().split("\n")[1].strip()
        except (OSError, ValueError, IndexError):
            continue
        # its first clause: the whole answer is in that run's distro/report.txt
        answer = answer.split("; ")[0].rstrip(".")
        if len(answer) > 120:
            answer = answer[:119] + "…"
        newest[v.get("distribution", rid)] = (v.get("can_turn_off", "unknown"), answer, rid)
    return [(d,) + newest[d] for d in sorted(newest)]


def page(cells, run, template):
    run_id = cells[0]["run_id"] if cells else "?"
    fv = faked_vs_real(cells)
    # The apps family and the filesystems have their own sections.
    hm, nrows, ncols = heatmap([c for c in cells if c["scenario"] not in ("apps", FS_SCENARIO)])
    def items(found):
        return "\n".join('<li class="f-%s"><b>%s.</b> %s</li>' % (tone, h(title), h(text))
                         for tone, title, text in found)
    # the closing count is the page's first line already
    fl = items(f for f in findings(cells) if f[1] != "Expectations")
    answers = distro_answers(run)
    distros = items(("good" if can == "yes" else "bad", "%s (run %s)" % (d, rid), answer)
                    for d, can, answer, rid in answers) if answers else \
        "<li>No distribution validated beside this run: <code>make validate-distro</code> answers for one.</li>"

    def opts(key):
        return "".join("<option>%s</option>" % h(v) for v in sorted({c[key] for c in cells}))
    subst = {
        "RUN_ID": h(run_id),
        "TOTALS": totals(cells) + " Hover a cell for what it saw and why it was expected.",
        "HEATMAP": hm,
        "HEATMAP_SIZE": "%d interfaces by %d machine, config and ABI columns" % (nrows, ncols),
        "FINDINGS": fl,
        "OLD_BINARIES": items(old_binaries(cells)) or "<li>No distribution's programs in this run.</li>",
        "DISTROS": distros,
        "MACHINE_OPTIONS": opts("machine"),
        "CONFIG_OPTIONS": opts("config"),
        "ABI_OPTIONS": "".join("<option>%s</option>" % a for a in abis()),
        "BOOTS": boot_tables(cells),
        "TIMELINES": timelines(run),
        "FAKED": faked_section(fv),
        "APPS": apps_section(cells, run),
        "FILESYSTEMS": fs_section(cells),
    }
    return re.sub(r"@([A-Z_]+)@", lambda m: subst[m.group(1)], template)


def markdown(cells, run=None):
    def esc(s):
        return str(s).replace("|", "\\|")
    run_id = cells[0]["run_id"] if cells else "?"
    o = ["# y2038-lab run %s" % run_id, "", totals(cells), ""]
    o.append("## Findings")
    o.append("")
    for tone, title, text in findings(cells):
        o.append("- **%s.** %s" % (title, text))
    o.append("")
    old = old_binaries(cells)
    if old:
        o += ["## Old binaries and applications (COMPAT_32BIT_TIME=y)", ""]
        o += ["- **%s.** %s" % (title, text) for tone, title, text in old] + [""]
    answers = distro_answers(run) if run else []
    if answers:
        o += ["## Can a distribution turn COMPAT_32BIT_TIME off?", ""]
        o += ["- **%s** (run %s): %s" % (d, rid, answer) for d, can, answer, rid in answers] + [""]
    o += ["| boot | kernel | patches | accel | cells | as expected | not |", "|---|---|---|---|---|---|---|"]
    by = OrderedDict()
    for c in sorted(cells, key=lambda c: c["boot"]):
        by.setdefault(c["boot"], []).append(c)
    for boot, bc in by.items():
        bn, bm, bb, _, _ = counts(bc)
        o.append("| %s | %s %s | %s | %s | %d | %d | %d |" % (
            boot, bc[0]["kernel_source"], bc[0]["kernel"], bc[0]["patches"], bc[0]["accel"], bn, bm, bb))
    o.append("")
    o += fs_markdown(cells)
    o += apps_markdown(cells, run)
    o += faked_markdown(faked_vs_real(cells))
    late = [c for c in cells if c["verdict"] == "late"]
    if late:
        o += ["## Cells that missed their moment (no verdict)", "",
              "| boot | abi | scenario.case.phase | expected | detail |", "|---|---|---|---|---|"]
        o += ["| %s | %s | %s.%s.%s | %s | %s |" % (
            c["boot"], abi_column(c), c["scenario"], c["case"], c["phase"], c["expected"], esc(c["detail"]))
            for c in late] + [""]
    if any(c["verdict"] not in ("match", "late") for c in cells):
        o += ["## Cells that contradict their expectation", "",
              "| boot | abi | scenario.case.phase | observed | expected | detail |", "|---|---|---|---|---|---|"]
        for c in cells:
            if c["verdict"] not in ("match", "late"):
                o.append("| %s | %s | %s.%s.%s | %s | %s | %s |" % (
                    c["boot"], abi_column(c), c["scenario"], c["case"], c["phase"], c["observed"], c["expected"], esc(c["detail"])))
    else:
        o.append("Every cell matches its expectation.")
    return "\n".join(o) + "\n"


def write(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main():
    if len(sys.argv) != 2:
        die("usage: report.py RUN_DIR")
    run = sys.argv[1]
    results = os.path.join(run, "results.json")
    if not os.path.isfile(results) or not os.path.getsize(results):
        die("no %s: collect the run first" % results)
    try:
        with open(results) as f:
            cells = json.load(f)
    except ValueError as e:
        die("%s is not JSON: %s" % (results, e))
    if not isinstance(cells, list):
        die("%s is not a results array" % results)
    for c in cells:
        if not isinstance(c, dict) or list(c) != vocabulary().keys:
            die("%s: a record's keys are not those of %s (%s): collect the run again (make report"
                " reads the records of this version of the lab: a run whose boots another version"
                " recorded is collected and reported by that version)" % (
                    results, RESULTS_RECORD, ", ".join(sorted(set(c) ^ set(vocabulary().keys)))
                    if isinstance(c, dict) else "not an object"))
    with open(os.path.join(HERE, "report.html.in")) as f:
        template = f.read()
    write(os.path.join(run, "report.md"), markdown(cells, run))
    write(os.path.join(run, "report.html"), page(cells, run, template))
    print("report: %s, %s" % (os.path.join(run, "report.html"), os.path.join(run, "report.md")))


if __name__ == "__main__":
    main()
