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
"""
import html
import json
import os
import re
import sys
import time
from collections import OrderedDict, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "verdicts"))
# The results vocabulary (results-record.h), as the collector declares it:
# a record's keys, a block's columns, the configs, the outcome classes.
from collector import vocabulary  # noqa: E402
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


def overflow():
    """The first second past a signed 32-bit time_t, from its one home."""
    with open(os.path.join(HERE, "..", "..", "scenarios", "harness", "syscalls.h")) as f:
        return int(re.search(r"^#define Y2038_LAST_SEC\s+(\d+)LL", f.read(), re.M).group(1)) + 1


OVERFLOW = overflow()
WRAP = 2 * OVERFLOW     # a 32-bit time_t wraps by 2^32 seconds
# Why some things cannot be faked at all, for both pages.
FAKED_LIMITS = ("libfaketime works by LD_PRELOAD in the program's own process: a static "
                "program never loads it (the lab's guest programs are static; the host "
                "column uses dynamic builds), a raw syscall never passes through it, and "
                "what the kernel does with its own clock (packet timestamps, timers and "
                "futex deadlines it checks) sees the real time.")


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


def faked_vs_real(cells):
    """Each host cell beside the same cell of its machine's matrix boot of the
    config it is judged as (compat32-y)."""
    def key(c):
        return (c["machine"], c["scenario"], c["case"], c["phase"], abi_column(c))
    real = {(c["config"],) + key(c): c for c in cells if c["kind"] == "matrix"}
    out = []
    for c in cells:
        if not is_host(c):
            continue
        r = real.get((vocabulary().configs[c["config"]]["judged_as"],) + key(c))
        if c["observed"] in ("SKIP", "ERROR") or r is None:
            how = "cannot"
        elif c["observed"] == r["observed"]:
            how = "agrees"
        else:
            how = "differs"
        # the first host column is the machine's own; another says which it is
        out.append({"machine": c["machine"] + ("" if c["config"] == vocabulary().host_configs[0]
                                               else " " + short_heading(column_name(c))),
                    "abi": c["abi"], "cell": "%s.%s.%s" % (c["scenario"], c["case"], c["phase"]),
                    "faked": c["observed"], "real": r["observed"] if r else "-",
                    "why": c["reason"], "detail": c["detail"], "how": how})
    return out


def counts(cells):
    """Cells, as expected, not, skipped (a machine this host could not run)."""
    match = sum(1 for c in cells if c["verdict"] == "match")
    skipped = sum(1 for c in cells if c["verdict"] == "skip")
    return len(cells), match, len(cells) - match - skipped, skipped


def totals(cells):
    n, match, bad, skipped = counts(cells)
    return "%d cells, %d as expected, %d not%s." % (
        n, match, bad, ", %d skipped (machine not available)" % skipped if skipped else "")


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
    boots_order = []
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


def timeline_svg(lines, title):
    """A boot's "# timeline ABI READER TRUE VALUE" lines as a plot: a line per
    reader across four bands: the right time, a wrong value, 1901 (the value
    less 2^32) and a failed call (its errno)."""
    pts = []
    names = []
    for ln in lines:
        f = ln.split()
        if len(f) < 4:
            continue
        key = f[0] + " " + f[1]
        if key not in names:
            names.append(key)
        pts.append((names.index(key), int(f[2]), f[3]))
    if not pts:
        return ""

    def band(t, v):
        if not re.fullmatch(r"-?[0-9]+", v):
            return 3
        v = int(v)
        if v == t:
            return 0
        if v == t - WRAP:
            return 2
        return 1
    colour = "#1b7f1b #c0392b #2c6fbb #8e44ad #d68910 #16a085 #7f8c8d #e84393 #6d4c41 #00838f".split()
    labels = ["right time", "wrong value", "1901 (wrapped)", "call failed"]
    tmin = min(p[1] for p in pts)
    tmax = max(p[1] for p in pts)
    n = len(names)
    w = 120 + (tmax - tmin) * 60 + 240
    hh = 60 + 4 * 50
    o = ['<figure class="timeline"><figcaption>%s</figcaption>' % h(title),
         '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-size="11">' % (w, hh)]
    for b in range(4):
        y = 40 + b * 50
        o.append('<line x1="110" y1="%d" x2="%d" y2="%d" stroke="#ddd"/><text x="4" y="%d">%s</text>'
                 % (y, w - 230, y, y + 4, labels[b]))
    for t in range(tmin, tmax + 1):
        x = 120 + (t - tmin) * 60
        o.append('<line x1="%d" y1="25" x2="%d" y2="%d" stroke="%s"/><text x="%d" y="%d" '
                 'text-anchor="middle">%s</text>'
                 % (x, x, hh - 25, "#c00" if t == OVERFLOW else "#eee", x, hh - 10,
                    time.strftime("%H:%M:%S", time.gmtime(t))))
    lines_of = defaultdict(list)
    shown = []
    for k, t, v in pts:
        x = 120 + (t - tmin) * 60
        y = int(40 + band(t, v) * 50 + (k - n / 2) * 3)
        lines_of[k].append("%d,%d" % (x, y))
        o.append('<circle cx="%d" cy="%d" r="3" fill="%s"><title>%s at %d: %s</title></circle>'
                 % (x, y, colour[k % 10], h(names[k]), t, h(v)))
        if band(t, v) == 3 and v not in shown:
            o.append('<text x="%d" y="%d" fill="#c00">%s</text>' % (x + 4, 40 + 3 * 50 + 14 + len(shown) * 12, h(v)))
            shown.append(v)
    for k in range(n):
        dash = ' stroke-dasharray="5,3"' if names[k].startswith("raw") else ""
        o.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"%s/>'
                 % (" ".join(lines_of[k]), colour[k % 10], dash))
        o.append('<text x="%d" y="%d" fill="%s">%s</text>' % (w - 220, 30 + k * 16, colour[k % 10], h(names[k])))
    o.append("</svg></figure>")
    return "\n".join(o)


def timelines(run):
    out = []
    boots = os.path.join(run, "boots")
    for b in sorted(os.listdir(boots)) if os.path.isdir(boots) else []:
        tap = os.path.join(boots, b, "tap.log")
        if not os.path.isfile(tap):
            continue
        with open(tap, errors="replace") as f:
            lines = [ln[len("# # timeline "):] for ln in f if ln.startswith("# # timeline ")]
        if not lines:
            continue
        how = ("libfaketime's offset moved there, the host's clock untouched" if "-libfaketime" in b
               else "the clock set there")
        out.append(timeline_svg(lines, "%s: a reading at each second, %s (time64 readers: clock_gettime64)" % (b, how)))
    return "\n".join(out)


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
                mis = c["verdict"] != "match"
                tds.append('<td data-abi="%s" class="cell o-%s%s" title="%s">%s%s</td>' % (
                    a, h(c["observed"]), " mismatch" if mis else "",
                    h("observed: %s\nexpected %s: %s" % (c["detail"], c["expected"], c["reason"])),
                    h(c["observed"]), "≠" + h(c["expected"]) if mis else ""))
            out.append("<tr><td>%s</td><td>%s</td><td>%s</td>%s</tr>" % (h(key[0]), h(key[1]), h(key[2]), "".join(tds)))
        out.append("</table></section>")
    return "\n".join(out)


def faked_section(fv):
    if not fv:
        return ""
    o = ['<section id="faked"><h2>Faking the clock in userspace (libfaketime) beside the real kernel</h2>',
         "<p>Each host (libfaketime) cell beside the same cell of its machine&#39;s %s boot. %s</p>" % (
             h(kernel_configs()[0]), h(FAKED_LIMITS)),
         "<table><tr><th>machine</th><th>cells</th><th>agrees</th><th>differs</th><th>cannot be faked</th></tr>"]
    by = OrderedDict()
    for f in sorted(fv, key=lambda f: f["machine"]):
        by.setdefault(f["machine"], []).append(f)
    for machine, fs in by.items():
        o.append("<tr><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>" % (
            h(machine), len(fs), sum(f["how"] == "agrees" for f in fs),
            sum(f["how"] == "differs" for f in fs), sum(f["how"] == "cannot" for f in fs)))
    o.append("</table><table><tr><th>machine</th><th>abi</th><th>scenario.case.phase</th>"
             "<th>libfaketime</th><th>real kernel</th><th>why</th></tr>")
    for f in fv:
        if f["how"] != "differs":
            continue
        o.append('<tr><td>%s</td><td>%s</td><td>%s</td><td class="vs o-%s" title="%s">%s</td>'
                 '<td class="vs o-%s">%s</td><td>%s</td></tr>' % (
                     h(f["machine"]), h(f["abi"]), h(f["cell"]), h(f["faked"]), h(f["detail"]), h(f["faked"]),
                     h(f["real"]), h(f["real"]), h(f["why"])))
    o.append("</table></section>")
    return "\n".join(o)


# --- The apps family: real applications, one row per case, one column per
# boot; CPython's own test modules as "failed of run" at an ordinary date and
# after the overflow.
TESTS_RE = re.compile(r'"(\d+) of (\d+) tests failed(?:: ([^"]*))?')


PYTESTS_RE = re.compile(r"^# # \[(\d{4})-[^]]*\] \$ \S*python3 \S*pytests\.py (\w+)")


def pytests_lines(run, boot):
    """{(case, phase): the test module's whole verdict line} from a boot's
    TAP transcript: the cell's detail is cut at 240 characters, the failing
    tests' names with it."""
    lines = {}
    try:
        with open(os.path.join(run, "boots", boot, "tap.log"), errors="replace") as f:
            tap = f.read().splitlines()
    except OSError:
        return lines
    for i, line in enumerate(tap[:-1]):
        m = PYTESTS_RE.match(line)
        if m:
            lines[("py_" + m.group(2), "ordinary" if m.group(1) != "2038" else "after")] = \
                tap[i + 1][len("# #   "):]
    return lines


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
        bn, bm, bb, _ = counts(bc)
        o.append("| %s | %s %s | %s | %s | %d | %d | %d |" % (
            boot, bc[0]["kernel_source"], bc[0]["kernel"], bc[0]["patches"], bc[0]["accel"], bn, bm, bb))
    o.append("")
    o += fs_markdown(cells)
    o += apps_markdown(cells, run)
    fv = faked_vs_real(cells)
    if fv:
        o += ["## Faking the clock in userspace (libfaketime) beside the real kernel", "",
              "Each host (libfaketime) cell beside the same cell of its machine's %s boot. " % kernel_configs()[0]
              + FAKED_LIMITS, "",
              "| machine | cells | agrees | differs | cannot be faked |", "|---|---|---|---|---|"]
        bya = OrderedDict()
        for f in sorted(fv, key=lambda f: f["machine"]):
            bya.setdefault(f["machine"], []).append(f)
        for machine, fs in bya.items():
            o.append("| %s | %d | %d | %d | %d |" % (machine, len(fs), sum(f["how"] == "agrees" for f in fs),
                                                     sum(f["how"] == "differs" for f in fs),
                                                     sum(f["how"] == "cannot" for f in fs)))
        o += ["", "Where it differs:", "",
              "| machine | abi | scenario.case.phase | libfaketime | real kernel | why |", "|---|---|---|---|---|---|"]
        for f in fv:
            if f["how"] == "differs":
                o.append("| %s | %s | %s | %s | %s | %s |" % (f["machine"], f["abi"], f["cell"], f["faked"], f["real"], esc(f["why"])))
        o.append("")
    if any(c["verdict"] != "match" for c in cells):
        o += ["## Cells that contradict their expectation", "",
              "| boot | abi | scenario.case.phase | observed | expected | detail |", "|---|---|---|---|---|---|"]
        for c in cells:
            if c["verdict"] != "match":
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
