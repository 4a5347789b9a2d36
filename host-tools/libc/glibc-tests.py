#!/usr/bin/env python3
"""glibc-tests.py - the table of make glibc-tests: glibc's own tests, each
with its verdict in every boot (COMPAT_32BIT_TIME=y and =n, the lab's
series or not), and every test whose verdict differs.

    glibc-tests.py RUN_DIR BOOT_DIR...

Each BOOT_DIR is a boot of a glibc-tests-VARIANT kind (host-tools/boot/
boot.mk): its record (the collector's reading of its meta) and its
tap.log, where init's runner relays what guest-init/glibc-run.c printed,
"# "-indented:

    # selftests: y2038: glibc-nptl           (a subdir's program starts)
    # # libc: NAME
    # # out: LINE / # # err: LINE            (the next test's output)
    # # time32: IFACE+N ...                  (time32 calls while it ran)
    # ok N NAME # PASS exit=0 s=0.52         (its verdict, glibc's own)
    # # rerun NAME # PASS exit=0 s=0.50      (a failed test's second run)
    not ok 2 selftests: y2038: glibc-nptl # TIMEOUT 5400 seconds

Writes RUN_DIR/glibc-tests/:
    results.tsv   one line per test and boot (the keys below)
    table.tsv     the tests whose verdict differs between the boots, one
    table.md      column per boot, with the reason (data/glibc-tests-reasons.tsv:
                  a test's name or glob, or the column that alone differs)
                  and what the test printed; then the counts per boot, the
                  UNSUPPORTED ones apart by why (data/glibc-tests-unsupported.tsv)
    out/BOOT/NAME.out   each test's output, as the runner relayed it
Prints table.md. A test the runner never reached (its subdir's program
timed out or the guest died) is MISSING. Exits 1 when a boot gave no verdicts.
"""
import fnmatch
import os
import re
import sys

import collector  # the boot record, as the collector reads it

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REASONS = os.path.join(TOP, "data", "glibc-tests-reasons.tsv")
UNSUPPORTED = os.path.join(TOP, "data", "glibc-tests-unsupported.tsv")
KEYS = ["test", "subdir", "machine", "config", "variant", "libc", "verdict", "rerun", "exit", "seconds", "time32", "detail"]

VERDICT = re.compile(r"^# (ok|not ok) \d+ (\S+) # (PASS|FAIL|SKIP UNSUPPORTED|SKIP NOT-RUN)\s*(.*)$")
RERUN = re.compile(r"^# # rerun (\S+) # (\S+)")
PROGRAM = re.compile(r"^# selftests: y2038: glibc-(\S+)$")
PROGRAM_END = re.compile(r"^(ok|not ok) \d+ selftests: y2038: glibc-(\S+)(.*)$")


def read_tsv(path):
    """Rows of a data file: tab-separated, '#' comments, blank lines skipped."""
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    rows.append(line.rstrip("\n").split("\t"))
    return rows


def parse_boot(boot):
    """The boot's facts and {test: record} from its tap.log."""
    record = collector.boot(boot).record
    name = os.path.basename(boot.rstrip("/"))
    # what the boot is comes from its record (boot.sh writes it before the
    # guest starts, so a boot that never ended has it too), never its name
    kind = record.get("kind", "")
    variant = kind[len("glibc-tests-"):] if kind.startswith("glibc-tests-") else "-"
    facts = {"boot": name, "machine": record.get("machine", "?"), "config": record.get("config", "?"),
             "variant": variant, "libc": "?", "status": record.get("qemu_status", "no record"),
             "wall_s": record.get("wall_s", "?"), "programs": {}, "ended": {}}
    tests, out, time32 = {}, [], ""
    subdir = None
    tap = os.path.join(boot, "tap.log")
    lines = open(tap, errors="replace").read().splitlines() if os.path.exists(tap) else []
    listed = {}
    for line in lines:
        m = PROGRAM.match(line)
        if m:
            subdir = m.group(1)
            facts["programs"][subdir] = "started"
            continue
        m = PROGRAM_END.match(line)
        if m:
            facts["ended"][m.group(2)] = (m.group(1) + m.group(3)).strip()
            continue
        if line.startswith("# # libc: "):
            facts["libc"] = line[len("# # libc: "):]
        elif line.startswith("# # out: ") or line.startswith("# # err: "):
            out.append(line[4:])
        elif line.startswith("# # time32: "):
            time32 = line[len("# # time32: "):]
        elif line.startswith("# 1.."):
            listed[subdir] = int(line[5:])
        elif RERUN.match(line):
            m = RERUN.match(line)
            if m.group(1) in tests:
                tests[m.group(1)]["rerun"] = m.group(2)
        else:
            m = VERDICT.match(line)
            if m:
                rest = m.group(4)
                verdict = {"SKIP UNSUPPORTED": "UNSUPPORTED", "SKIP NOT-RUN": "NOT-RUN"}.get(m.group(3), m.group(3))
                ex = re.search(r"exit=(\S+)", rest)
                sec = re.search(r"s=(\S+)", rest)
                words = [w for w in rest.split() if "=" not in w]
                detail = " ".join(words)
                tests[m.group(2)] = {"verdict": verdict, "rerun": "", "exit": ex.group(1) if ex else "-",
                                     "seconds": sec.group(1) if sec else "-", "time32": time32,
                                     "detail": detail, "out": out, "subdir": subdir}
                out, time32 = [], ""
    return facts, tests


def find_reason(reasons, test, columns, cells):
    """The first row of the reasons file for this test: its name (or a glob
    of names), else "only:COLUMN" when that column alone differs from the
    others, which agree (the shape of the row, e.g. only:compat32-n unpatched)."""
    alone = [c for c, v in zip(columns, cells) if cells.count(v) == 1]
    for key, reason in reasons:
        if key.startswith("only:"):
            if len(set(cells)) == 2 and alone == [key[5:]]:
                return reason
        elif fnmatch.fnmatchcase(test, key):
            return reason
    return NO_REASON


NO_REASON = "(no reason recorded)"
TIMING = ("timing: the verdicts agree once a failed test's rerun in the same boot is counted "
          "(TCG on a busy host), not the kernel's config nor the series")


def first_error(out):
    """The line of a test's output that says what went wrong, if any."""
    for pat in (r"error:|FAIL|Fatal|unexpected error|Timed out|killed|abort|Assertion", r"."):
        for line in out:
            if re.search(pat, line):
                return line[5:].strip()[:160]
    return ""


def classify_unsupported(name, out, rules, detail=""):
    text = "\n".join(out + [detail])
    for rule in rules:
        if len(rule) >= 3 and re.search(rule[0], name) and (rule[1] == "*" or re.search(rule[1], text)):
            return rule[2], rule[3] if len(rule) > 3 else ""
    return "other", first_error(out)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: glibc-tests.py RUN_DIR BOOT_DIR...")
    run, boots = sys.argv[1], sys.argv[2:]
    dest = os.path.join(run, "glibc-tests")
    os.makedirs(os.path.join(dest, "out"), exist_ok=True)
    parsed = [parse_boot(b) for b in boots]
    reasons = [r[:2] for r in read_tsv(REASONS) if len(r) >= 2]
    rules = read_tsv(UNSUPPORTED)
    names = sorted({t for _, tests in parsed for t in tests})
    status = 0

    with open(os.path.join(dest, "results.tsv"), "w") as f:
        f.write("\t".join(KEYS) + "\n")
        for facts, tests in parsed:
            for t in names:
                r = tests.get(t, {"verdict": "MISSING", "rerun": "", "exit": "-", "seconds": "-", "time32": "",
                                  "detail": "", "out": [], "subdir": t.split("/")[0]})
                f.write("\t".join([t, r["subdir"] or "-", facts["machine"], facts["config"], facts["variant"],
                                   facts["libc"], r["verdict"], r["rerun"] or "-", r["exit"], r["seconds"],
                                   r["time32"] or "-", r["detail"] or "-"]) + "\n")
                if r["out"]:
                    path = os.path.join(dest, "out", facts["boot"], t + ".out")
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w") as o:
                        o.write("\n".join(r["out"]) + "\n")

    columns = ["%s %s" % (facts["config"], facts["variant"]) for facts, _ in parsed]
    differ = []
    for t in names:
        runs = [tests.get(t, {"verdict": "MISSING", "rerun": ""}) for _, tests in parsed]
        cells = [r["verdict"] for r in runs]
        if len(set(cells)) > 1:
            # shown FAIL>PASS where the rerun in the same boot differed
            shown = [r["verdict"] + (">" + r["rerun"] if r["rerun"] and r["rerun"] != r["verdict"] else "")
                     for r in runs]
            # timing: some choice of a run in each boot agrees
            common = set.intersection(*[{r["verdict"], r["rerun"] or r["verdict"]} for r in runs])
            differ.append((t, cells, shown, bool(common)))
    md = ["# glibc's own tests: %d tests, %d differ between the boots" % (len(names), len(differ)), ""]
    md.append("Each test's verdict is glibc's (scripts/evaluate-test.sh: exit 0 PASS, 77 UNSUPPORTED, "
              "other FAIL); FAIL>PASS: its rerun at the end of the same boot passed; MISSING: never "
              "reached. Reasons: data/glibc-tests-reasons.tsv.")
    md.append("")
    md.append("| test | " + " | ".join(columns) + " | reason | what it printed |")
    md.append("|---" * (len(columns) + 3) + "|")
    by_reason = {}
    with open(os.path.join(dest, "table.tsv"), "w") as f:
        f.write("\t".join(["test"] + columns + ["reason", "evidence"]) + "\n")
        for t, cells, shown, timing in differ:
            evidence = []
            for (facts, tests), cell in zip(parsed, cells):
                r = tests.get(t)
                if not r:
                    continue
                if cell == "FAIL":
                    evidence.append("%s %s: %s" % (facts["config"], facts["variant"], first_error(r["out"])))
                if r["time32"] and "patched" == facts["variant"]:
                    evidence.append("%s %s time32: %s" % (facts["config"], facts["variant"], r["time32"]))
            evidence = sorted(set(evidence))
            reason = find_reason(reasons, t, columns, cells)
            if reason == NO_REASON and timing:
                reason = TIMING
            by_reason.setdefault(reason, []).append((t, shown))
            f.write("\t".join([t] + shown + [reason, " | ".join(evidence)]) + "\n")
            md.append("| %s | %s | %s | %s |" % (t, " | ".join(shown), reason,
                                                 "<br>".join(e.replace("|", "\\|") for e in evidence)))

        # the same rows by reason: how many tests, and the verdicts they show
        md += ["", "The tests that differ, by reason:", "", "| reason | tests | " + " | ".join(columns) + " | e.g. |",
               "|---" * (len(columns) + 3) + "|"]
        for reason, rows in sorted(by_reason.items(), key=lambda r: -len(r[1])):
            shapes = []
            for i in range(len(columns)):
                seen = {}
                for _, shown in rows:
                    seen[shown[i]] = seen.get(shown[i], 0) + 1
                shapes.append(", ".join("%s %d" % (v, n) for v, n in sorted(seen.items(), key=lambda x: -x[1])))
            md.append("| %s | %d | %s | %s |" % (reason, len(rows), " | ".join(shapes),
                                                 " ".join(t for t, _ in rows[:3])))

        # the counts per boot, UNSUPPORTED and NOT-RUN apart by why
        md += ["", "| boot | libc | PASS | FAIL | UNSUPPORTED: lab's kernel | UNSUPPORTED: other | NOT-RUN | MISSING | qemu | wall s |",
               "|---|---|---|---|---|---|---|---|---|---|"]
        apart = {}
        for facts, tests in parsed:
            n = {"PASS": 0, "FAIL": 0, "lab": 0, "other": 0, "NOT-RUN": 0, "MISSING": 0}
            for t in names:
                r = tests.get(t)
                if not r:
                    n["MISSING"] += 1
                elif r["verdict"] == "UNSUPPORTED":
                    cls, why = classify_unsupported(t, r["out"], rules, r["detail"])
                    n["lab" if cls == "lab-kernel" else "other"] += 1
                    apart.setdefault((cls, why), set()).add(t)
                else:
                    n[r["verdict"]] += 1
            if not tests:
                status = 1
            md.append("| %s | %s | %d | %d | %d | %d | %d | %d | %s | %s |" % (
                facts["boot"], facts["libc"], n["PASS"], n["FAIL"], n["lab"], n["other"],
                n["NOT-RUN"], n["MISSING"], facts["status"], facts["wall_s"]))
        md += ["", "UNSUPPORTED, by why (data/glibc-tests-unsupported.tsv; lab-kernel: an option the lab's "
               "kernel lacks, the lab's limitation):", ""]
        for (cls, why), ts in sorted(apart.items()):
            md.append("- %s: %s: %s" % (cls, why or "-", " ".join(sorted(ts))))
    with open(os.path.join(dest, "table.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    return status


if __name__ == "__main__":
    sys.exit(main())
