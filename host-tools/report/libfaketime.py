# SPDX-License-Identifier: GPL-2.0
"""libfaketime.py - the report's host column: each cell this host measured
under libfaketime beside the same cell of its machine's real kernel, and
where faking the clock in userspace does not tell the truth.
"""
from collections import OrderedDict

from cells import column_name, h, is_host, kernel_configs, md, short_heading, abi_column
from collector import vocabulary


# Why some things cannot be faked at all, for both pages.
FAKED_LIMITS = ("libfaketime works by LD_PRELOAD in the program's own process: a static "
                "program never loads it (the lab's guest programs are static; the host "
                "column uses dynamic builds), a raw syscall never passes through it, and "
                "what the kernel does with its own clock (packet timestamps, timers and "
                "futex deadlines it checks) sees the real time.")


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


def faked_markdown(fv):
    """The same in Markdown."""
    if not fv:
        return []
    o = []
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
            o.append("| %s | %s | %s | %s | %s | %s |" % (f["machine"], f["abi"], f["cell"], f["faked"], f["real"], md(f["why"])))
    o.append("")
    return o
