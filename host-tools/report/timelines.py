# SPDX-License-Identifier: GPL-2.0
"""timelines.py - the report's clock across the overflow, per boot: what each
way of reading the clock returned at every second (the clock scenario's
"# timeline ABI READER TRUE VALUE" comments, as the collector read them),
plotted as inline SVG.
"""
import os
import re
import time
from collections import defaultdict

from cells import HERE, h
from collector import boot, vocabulary


def overflow():
    """The first second past a signed 32-bit time_t, from its one home."""
    with open(os.path.join(HERE, "..", "..", "scenarios", "harness", "syscalls.h")) as f:
        return int(re.search(r"^#define Y2038_LAST_SEC\s+(\d+)LL", f.read(), re.M).group(1)) + 1


OVERFLOW = overflow()
WRAP = 2 * OVERFLOW     # a 32-bit time_t wraps by 2^32 seconds


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
        if not os.path.isfile(os.path.join(boots, b, "tap.log")):
            continue
        # the clock scenario's "# timeline ..." comments, as the collector read them
        seen = boot(os.path.join(boots, b))
        lines = [n[len("timeline "):] for n in seen.notes() if n.startswith("timeline ")]
        if not lines:
            continue
        how = ("libfaketime's offset moved there, the host's clock untouched"
               if vocabulary().is_host(seen.record.get("config", "")) else "the clock set there")
        out.append(timeline_svg(lines, "%s: a reading at each second, %s (time64 readers: clock_gettime64)" % (b, how)))
    return "\n".join(out)
