#!/usr/bin/env python3
"""glibc-tests.py - the table of make glibc-tests: glibc's own tests, each
with its verdict in every boot (COMPAT_32BIT_TIME=y and =n, the lab's
series or not), and every test whose verdict differs.

    glibc-tests.py RUN_DIR BOOT_DIR...

Each BOOT_DIR is a boot of a glibc-tests-VARIANT kind (host-tools/boot/
boot.mk): its meta (the boot record) and its tap.log, where init's runner
relays what guest-init/glibc-tests.sh printed, "# "-indented:

    # selftests: y2038: glibc-nptl           (a subdir's program starts)
    # # libc: NAME
    # # out: LINE / # # err: LINE            (the next test's output)
    # # time32: IFACE+N ...                  (time32 calls while it ran)
    # ok N NAME # PASS exit=0 s=0.52         (its verdict, glibc's own)
    not ok 2 selftests: y2038: glibc-nptl # TIMEOUT 5400 seconds

Writes RUN_DIR/glibc-tests/:
    results.tsv   one line per test and boot (the keys below)
    table.tsv     the tests whose verdict differs between the boots, one
    table.md      column per boot, with the reason (data/glibc-tests-reasons.tsv)
                  and what the test printed; then the counts per boot, the
                  UNSUPPORTED ones apart by why (data/glibc-tests-unsupported.tsv)
    out/BOOT/NAME.out   each test's output, as the runner relayed it
Prints table.md. A test the runner never reached (its subdir's program
timed out or the guest died) is MISSING. Exits 1 when a boot gave no verdicts.
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REASONS = os.path.join(TOP, "data", "glibc-tests-reasons.tsv")
UNSUPPORTED = os.path.join(TOP, "data", "glibc-tests-unsupported.tsv")
KEYS = ["test", "subdir", "machine", "config", "variant", "libc", "verdict", "exit", "seconds", "time32", "detail"]

VERDICT = re.compile(r"^# (ok|not ok) \d+ (\S+) # (PASS|FAIL|SKIP UNSUPPORTED|SKIP NOT-RUN)\s*(.*)$")
PROGRAM = re.compile(r"^# selftests: y2038: glibc-(\S+)$")
PROGRAM_END = re.compile(r"^(ok|not ok) \d+ selftests: y2038: glibc-(\S+)(.*)$")


def read_meta(path):
    meta = {}
    with open(path, errors="replace") as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            meta[key] = value
    return meta


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
    meta = read_meta(os.path.join(boot, "meta"))
    name = os.path.basename(boot.rstrip("/"))
    variant = name.split("-glibc-tests-", 1)[1] if "-glibc-tests-" in name else "-"
    facts = {"boot": name, "machine": meta.get("machine", "?"), "config": meta.get("config", "?"),
             "variant": variant, "libc": "?", "status": meta.get("qemu_status", "?"),
             "wall_s": meta.get("wall_s", "?"), "programs": {}, "ended": {}}
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
        else:
            m = VERDICT.match(line)
            if m:
                rest = m.group(4)
                verdict = {"SKIP UNSUPPORTED": "UNSUPPORTED", "SKIP NOT-RUN": "NOT-RUN"}.get(m.group(3), m.group(3))
                ex = re.search(r"exit=(\S+)", rest)
                sec = re.search(r"s=(\S+)", rest)
                detail = rest.split()[0] if verdict == "NOT-RUN" and rest else ""
                tests[m.group(2)] = {"verdict": verdict, "exit": ex.group(1) if ex else "-",
                                     "seconds": sec.group(1) if sec else "-", "time32": time32,
                                     "detail": detail, "out": out, "subdir": subdir}
                out, time32 = [], ""
    return facts, tests


def first_error(out):
    """The line of a test's output that says what went wrong, if any."""
    for pat in (r"error:|FAIL|Fatal|unexpected error|Timed out|killed|abort|Assertion", r"."):
        for line in out:
            if re.search(pat, line):
                return line[5:].strip()[:160]
    return ""


def classify_unsupported(name, out, rules):
    text = "\n".join(out)
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
    reasons = {r[0]: r[1] for r in read_tsv(REASONS) if len(r) >= 2}
    rules = read_tsv(UNSUPPORTED)
    names = sorted({t for _, tests in parsed for t in tests})
    status = 0

    with open(os.path.join(dest, "results.tsv"), "w") as f:
        f.write("\t".join(KEYS) + "\n")
        for facts, tests in parsed:
            for t in names:
                r = tests.get(t, {"verdict": "MISSING", "exit": "-", "seconds": "-", "time32": "",
                                  "detail": "", "out": [], "subdir": t.split("/")[0]})
                f.write("\t".join([t, r["subdir"] or "-", facts["machine"], facts["config"], facts["variant"],
                                   facts["libc"], r["verdict"], r["exit"], r["seconds"], r["time32"] or "-",
                                   r["detail"] or "-"]) + "\n")
                if r["out"]:
                    path = os.path.join(dest, "out", facts["boot"], t + ".out")
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w") as o:
                        o.write("\n".join(r["out"]) + "\n")

    columns = ["%s %s" % (facts["config"], facts["variant"]) for facts, _ in parsed]
    differ = []
    for t in names:
        cells = [tests.get(t, {"verdict": "MISSING"})["verdict"] for _, tests in parsed]
        if len(set(cells)) > 1:
            differ.append((t, cells))
    md = ["# glibc's own tests: %d tests, %d differ between the boots" % (len(names), len(differ)), ""]
    md.append("Each test's verdict is glibc's (scripts/evaluate-test.sh: exit 0 PASS, 77 UNSUPPORTED, "
              "other FAIL); MISSING: never reached. Reasons: data/glibc-tests-reasons.tsv.")
    md.append("")
    md.append("| test | " + " | ".join(columns) + " | reason | what it printed |")
    md.append("|---" * (len(columns) + 3) + "|")
    with open(os.path.join(dest, "table.tsv"), "w") as f:
        f.write("\t".join(["test"] + columns + ["reason", "evidence"]) + "\n")
        for t, cells in differ:
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
            reason = reasons.get(t, "(no reason recorded)")
            f.write("\t".join([t] + cells + [reason, " | ".join(evidence)]) + "\n")
            md.append("| %s | %s | %s | %s |" % (t, " | ".join(cells), reason,
                                                 "<br>".join(e.replace("|", "\\|") for e in evidence)))

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
                    cls, why = classify_unsupported(t, r["out"], rules)
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
