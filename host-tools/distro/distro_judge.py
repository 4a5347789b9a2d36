# SPDX-License-Identifier: GPL-2.0
"""distro_judge.py - validate-distro's verdicts (distro-verdicts.py programs,
setup-boot, init-boot, verdict and answers): which programs the smoke
session runs, whether the setup boot finished, what a boot of the root's own
init did, and the answer to "can it turn COMPAT_32BIT_TIME off?" with its
report. What the boots left is read through collector.py: their records and
TAP as the collector reads them, their consoles as text.
"""
import json
import os
import re
import sys

from collector import boot as read_boot, boot_name, read_text, text_lines, nonempty

def show(value):
    """A value as the reports write it: null, true, 14, 0.2 or the string."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def to_number(text):
    """A number written as JSON writes one ("2", "0.2"), else None."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 1e17 else value


def dumps(value):
    # DEL escaped as every control character is
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\x7f", "\\u007f")


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(value) + "\n")


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# --- Which programs count: the session runs them, the verdict judges them

SMOKE_TYPES = ("exec", "pie", "static-exec", "static-pie")


def ltrimstr(text, prefix):
    if isinstance(text, str) and isinstance(prefix, str) and text.startswith(prefix):
        return text[len(prefix):]
    return text


# Multi-call programs: each link to one in the root's bin and sbin folders
# is a program of its own (busybox's and toybox's applets pick their work by
# the name they were run as).
MULTI_CALL = ("busybox", "toybox")
PROGRAM_DIRS = ("/bin", "/sbin", "/usr/bin", "/usr/sbin")


def in_root(root, host):
    """HOST, a path under ROOT, with its symlinks followed inside ROOT (an
    absolute target starts again at ROOT), as a host path; None if it
    leads nowhere."""
    rel = os.path.relpath(host, root)
    parts, done, hops = rel.split("/"), [], 40
    while parts:
        name = parts.pop(0)
        if name in ("", "."):
            continue
        if name == "..":
            done = done[:-1]
            continue
        here = os.path.join(root, *done, name)
        if os.path.islink(here):
            hops -= 1
            target = os.readlink(here)
            if hops < 0:
                return None
            if target.startswith("/"):
                done = []
            parts = target.split("/") + parts
            continue
        if not os.path.lexists(here):
            return None
        done.append(name)
    return os.path.join(root, *done)


def applets(entry, root):
    """The links to a multi-call program ENTRY in the root's program
    folders, as guest paths."""
    found = []
    if not isinstance(root, str) or not os.path.isdir(root):
        return found
    target = in_root(root, entry["path"])
    for folder in PROGRAM_DIRS:
        host = os.path.join(root, folder.lstrip("/"))
        if os.path.islink(host) or not os.path.isdir(host):
            continue	# /bin a link to /usr/bin: its links are listed there
        for name in sorted(os.listdir(host)):
            link = os.path.join(host, name)
            if os.path.islink(link) and in_root(root, link) == target:
                found.append(f"{folder}/{name}")
    return found


def programs(scan, root):
    """The scan's entries for the programs a smoke test runs, each with
    "guest" added (its path inside the root); a multi-call program's links
    too, each as a program of its own ("applet_of": the program's path)."""
    found = []
    for entry in scan:
        if entry.get("class") == "error" or entry.get("type") not in SMOKE_TYPES:
            continue
        guest = ltrimstr(entry.get("path"), root)
        if re.match(r"/(usr/)?s?bin/", guest):
            found.append(dict(entry, guest=guest))
            if os.path.basename(guest) in MULTI_CALL:
                found += [dict(entry, guest=link, applet_of=guest) for link in applets(entry, root)]
    return found


def cmd_programs(scan_path, root):
    for p in programs(read_json(scan_path), root):
        print(f"{p['guest']}\t{show(p.get('e_machine'))}\t{show(p.get('machine'))}\t{p.get('applet_of', '')}")


# --- The setup boot (debootstrap's second stage)


def cmd_setup_boot(boot):
    """Bytes as the console has them: the reason lands in DISK.error, which
    every later boot records as its error."""
    try:
        with open(os.path.join(boot, "console.log"), "rb") as f:
            console = f.read()
    except (FileNotFoundError, NotADirectoryError):
        console = b""
    lines = console.split(b"\n")
    if any(line.startswith(b"y2038-second-stage: exit 0") for line in lines):
        return
    out = sys.stdout.buffer
    out.write(f"debootstrap's second stage did not finish in the setup boot ({boot}):\n".encode())
    exit_line = next((line for line in lines if line.startswith(b"y2038-second-stage: exit")), None)
    if exit_line is not None:
        out.write(exit_line + b"\n")
    else:
        status = read_boot(boot).record_line("qemu_status")
        out.write(f"its console has no exit line (qemu: {status or ''})\n".encode())
    if console:
        tail = lines[:-1] if console.endswith(b"\n") else lines
        out.write(b"\n".join(tail[-15:]) + (b"\n" if console.endswith(b"\n") else b""))


# --- One boot of the root's own init

CSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
CSI_ANY = re.compile(r"\x1b\[[0-9;?!]*[a-zA-Z]")
LAST_WORDS = re.compile(r"Attempted to kill init|No working init found|Requested init .* failed")
# "NAME[PID]: Assertion ... failed", "traps: NAME[PID] general protection ..."
CRASH = re.compile(r"\]: (Assertion .* failed|Caught <SIG|Freezing execution)|\] general protection|\]: segfault at")


def init_boot(boot, moment):
    """What the probe (on the TAP port) saw, and what the console shows
    whatever became of the probe: systemd's [FAILED] lines, a login prompt,
    the kernel's last words if PID 1 died, and whether the shutdown the
    probe asked for reached the kernel's restart."""
    seen = read_boot(boot)
    console = seen.console().replace("\r", "").rstrip("\n").split("\n")
    # the probe's lines are not TAP: the collector keeps them as they came
    probe = nonempty(re.sub(r".*y2038-probe: ", "", line, count=1)
                     for line in seen.text() if "y2038-probe: " in line)
    meta = seen.record

    console_failures = []
    for line in console:
        m = re.fullmatch(r".*\[FAILED\] (Failed to .*)", CSI_COLOUR.sub("", line))
        if m:
            console_failures.append(m.group(1))
    last_words = []
    for i, line in enumerate(console):
        if LAST_WORDS.search(line):
            last_words = nonempty(console[max(0, i - 6):i + 1])
            break
    crashes = nonempty([re.sub(r"^.*login: ", "", CSI_ANY.sub("", line), count=1)
                        for line in console if CRASH.search(line)][:10])
    crashed = sorted({m.group(1) for m in (re.search(r"([^ \[]+)\[[0-9]+\]", c) for c in crashes) if m})
    # the lab's census (patches/series) names each program's first time32
    # syscall on the console: with =y, what =n will take from it
    census = nonempty([m.group(1) for m in (re.search(r"time32 census: (.*)", CSI_ANY.sub("", line))
                                            for line in console) if m][:20])

    # systemd's probe says "state running", the watcher of any other init
    # (guest-init/distro/init-watch.c) "settled" and which init it watched
    state = next((m for m in (re.match(r"(?:state ([a-z-]+)|(settled|unsettled)) at uptime ([0-9]+) s", p)
                              for p in probe) if m), None)
    kind = next((m.group(1) for m in (re.match(r"started at uptime [0-9]+ s \(init ([^ ]+) ", p)
                                      for p in probe) if m), "systemd" if probe else None)
    clock = next((m.group(1) for m in (re.match(r"clock ([^ ]+)", p) for p in probe) if m), None)
    b = {
        "boot": boot_name(boot),
        "moment": moment,
        "qemu_status": meta.get("qemu_status", "not booted"),
        "error": meta.get("error", ""),
        "probe_ran": any(p.startswith("started") for p in probe),
        "init_kind": kind,
        "state": (state.group(1) or state.group(2)) if state else None,
        "ready_at_s": int(state.group(3)) if state else None,
        "clock": clock,
        "failed_units": [m.group(1) for m in (re.match(r"failed ([^ ]+)", p) for p in probe) if m],
        "restarted_units": [f"{m.group(1)} ({m.group(2)} times)"
                            for m in (re.match(r"restarted ([^ ]+) ([0-9]+)", p) for p in probe) if m],
        "services": [m.group(1) for m in (re.match(r"service [0-9]+ (.*)", p) for p in probe) if m],
        "respawned": [f"{m.group(2)} ({m.group(1)} times)"
                      for m in (re.match(r"respawned ([0-9]+) (.*)", p) for p in probe) if m],
        "services_gone": [m.group(1) for m in (re.match(r"gone (.*) \(pid [0-9]+, from", p) for p in probe) if m],
        "journal": [p[len("journal "):] for p in probe if p.startswith("journal ")],
        "console_failures": console_failures,
        "crashes": crashes,
        "crashed": crashed,
        "census": census,
        # a getty's prompt, or busybox init's askfirst shell's
        "login_prompt": any(" login: " in line or "Please press Enter to activate this console" in line
                            for line in console),
        "probe_errors": [p[len("error "):] for p in probe if p.startswith("error ")],
        "shutdown_asked": any(p.startswith("shutdown requested") for p in probe),
        "shutdown_forced": any(p.startswith("shutdown forced") for p in probe),
        "restart_reached": any(re.search(r"reboot: (Restarting system|Power down)", line) for line in console),
        "pid1_died": bool(last_words),
        "last_words": last_words,
        "console_tail": nonempty(console[-15:]),
    }
    b["verdict"] = init_verdict(b)
    b["summary"] = init_summary(b)
    return b


def cmd_init_boot(boot, moment):
    sys.stdout.write(dumps(init_boot(boot, moment)) + "\n")


def init_verdict(b):
    if b["pid1_died"]:
        return "PID 1 DIED"
    if b["qemu_status"] == "timeout":
        return "TIMEOUT"
    if b["qemu_status"] != "exited":
        return "NOT BOOTED"
    if not b["probe_ran"]:
        return "NO PROBE"
    # an init without systemd's failed state: a service of it that died is
    # run again (respawned) or gone
    if (b["state"] in ("running", "settled") and not b["failed_units"] and not b["probe_errors"]
            and not b["respawned"] and not b["services_gone"]
            and not b["crashes"] and not b["console_failures"]
            and b["shutdown_asked"] and not b["shutdown_forced"] and b["restart_reached"]):
        return "OK"
    return "DEGRADED"


def init_summary(b):
    v = b["verdict"]
    if v == "PID 1 DIED":
        s = f"PID 1 died: {b['last_words'][-1]}"
    elif v == "TIMEOUT":
        saw = f"saw {b['state'] or 'no state'}" if b["probe_ran"] else "never ran"
        s = f"did not end within its time (the probe {saw}); the console kept"
    elif v == "NOT BOOTED":
        s = f"not booted: {b['error'] or 'no boot record (the boot did not end)'}"
    elif v == "NO PROBE":
        s = "the boot ended before the probe ran"
    elif b["init_kind"] == "systemd":
        s = f"systemd said \"{show(b['state'])}\" at {show(b['ready_at_s'])} s"
    else:
        s = (f"{b['init_kind']} init {show(b['state'])} at {show(b['ready_at_s'])} s,"
             f" {len(b['services'])} services: {', '.join(b['services'][:6])}")
    # what went wrong, each list named, in this order
    for key, label, sep, most in (("failed_units", "failed", " ", None), ("services_gone", "gone", ", ", None),
                                  ("respawned", "respawned", ", ", None),
                                  ("console_failures", "the console", "; ", 3),
                                  ("restarted_units", "restarted", ", ", None)):
        if b[key]:
            s += f"; {label}: {sep.join(b[key][:most])}"
    if b["crashed"]:
        s += f"; crashed: {' '.join(b['crashed'])} (console: {b['crashes'][0]})"
    if b["probe_errors"]:
        s += f"; {'; '.join(b['probe_errors'])}"
    if v not in ("PID 1 DIED", "NOT BOOTED"):
        if b["shutdown_forced"] and b["restart_reached"]:
            shutdown = "forced: init did not shut down within 30 s of being asked"
        elif b["shutdown_forced"]:
            shutdown = "not even forced"
        elif b["shutdown_asked"] and b["restart_reached"]:
            shutdown = "clean"
        elif b["restart_reached"]:
            shutdown = "reached, not asked by the probe"
        elif b["shutdown_asked"]:
            shutdown = "asked, never reached the kernel"
        else:
            shutdown = "not reached"
        s += f"; login prompt: {'yes' if b['login_prompt'] else 'no'}; shutdown: {shutdown}"
    if b["clock"]:
        s += f"; clock {b['clock']}"
    return s


# --- The smoke boots: the session's cases, "ok N distro PATH PHASE # CLASS
# detail" in its TAP, as the collector read them


def smoke_cases(boot, phase):
    return [c for c in read_boot(boot).cases() if c["abi"] == "distro" and c["phase"] == phase]


def smoke_results(boot, phase="now"):
    """{path: {class, detail}} of the smoke cases of PHASE (now, or after
    for the boot past the overflow)."""
    return {c["case"]: {"class": c["class"], "detail": c["detail"]} for c in smoke_cases(boot, phase)}


def census_results(boot):
    """The census the session copied in at its end ("# census: program N
    PATH CALLS" among its comments): {path: "call,call"}."""
    census = {}
    for text in read_boot(boot).notes():
        m = re.fullmatch(r"census: program [0-9]* ([^ ]*) (.*)", text)
        if m:
            census[m.group(1)] = m.group(2)
    return census


def boot_problem(boot, phase="now"):
    """Why a boot has no smoke results of PHASE, or None."""
    if smoke_cases(boot, phase):
        return None
    b = read_boot(boot)
    why = (b.record_line("error") or next(iter(b.bail_lines()), None)
           or b.record_line("qemu_status") or "no boot record")
    return f"{boot_name(boot)}: the smoke session did not run: {why}"


# --- The answer

# How far a boot of its own init got: the higher, the worse.
RANK = {"OK": 0, "DEGRADED": 1}


def rank(b):
    return RANK.get(b["verdict"], 2)


def alt(*values):
    """The first value that is neither null nor false."""
    return next((v for v in values if v is not None and v is not False), None)


def seconds(result):
    m = re.search(r" in ([0-9.]+) s", result["detail"] or "")
    try:
        return float(m.group(1)) if m else None
    except ValueError:
        return None


# The kinds of cause of a break with =n, in the order a reader fixes them.
CAUSE_KINDS = {
    "static": "static: a libc or a language runtime linked into it makes its own calls",
    "own": "its own time32 syscalls, or a library's other than libc",
    "libc": "its libc's time32 syscalls",
    "unseen": "no time32 syscall in the census with =y: an ioctl's or a socket option's layout, or the vDSO",
}


def cause_of(p, libc, libc_time32=None):
    """The kind of cause of a program's break with =n, and the evidence: the
    scan (static) and the census with =y (the time32 syscalls it made).
    Where the root's libc is one of the lab's (LIBC) that makes no time32
    syscall (LIBC_TIME32 "none": the time64-only build, docs/libc.md), what
    the census saw is the program's own or another library's; with the
    root's own libc, or the lab's that makes the time32 call first and the
    time64 one where it fails ("first"), it may be either."""
    if p["scan"] == "static":
        return "static", p["scan_detail"]
    if p["census"] is not None:
        if libc and libc_time32 == "none":
            return "own", f"census with =y: {p['census']}, with {libc}, which makes none"
        return "libc", f"census with =y: {p['census']}" + (
            f", with {libc}, which makes the time32 call first and the time64 one where it fails" if libc else "") + (
            "; a 32-bit time_t program" if p["scan"] == "time32" else "")
    return "unseen", None


def judge_programs(scan, root, smoke_y, smoke_n, smoke_past, census, skipped, session, libc=None,
                   libc_time32=None):
    """Per program: what it did with =y, =n and past the overflow. A program
    breaks when it passed its smoke test with =y and not with =n, or when =n
    adds a failure of the kind only missing time32 calls cause (an errno
    message, a crash, a wait that did not wait). A smoke test that failed
    with =y already, or timed out, proves nothing. A wait can hide behind a
    slow start (perl under ARM TCG takes 3 s to start): a smoke test that
    passes with =n but ends sooner than with =y by most of its wait did not
    wait either."""
    skip = {}
    for line in skipped.split("\n"):
        if line:
            f = line.split("\t")
            skip[f[0]] = f[1] if len(f) > 1 else None
    takes = {}
    for line in session.split("\n"):
        if line and not line.startswith("#"):
            f = line.split("\t")  # phase, program, takes, regex, command
            if len(f) > 1:
                takes[f[1]] = (to_number(f[2]) if len(f) > 2 else None) or 0
    judged = []
    for e in programs(scan, root):
        g = e["guest"]
        p = {"path": g, "scan": e.get("class"), "scan_detail": e.get("detail"), "takes": takes.get(g, 0),
             "y": smoke_y.get(g), "n": smoke_n.get(g), "past": smoke_past.get(g),
             "census": census.get(g), "skipped": skip.get(g)}
        y, n, past = p["y"], p["n"], p["past"]
        p["reported"] = y is not None and n is not None
        p["tested"] = p["reported"] and y["class"] == "PASS"
        p["shorter"] = False
        if p["tested"] and n["class"] == "PASS" and p["takes"] > 0:
            ys, ns = seconds(y), seconds(n)
            p["shorter"] = ys is not None and ns is not None and ys - ns >= 0.8 * p["takes"]
        p["breaks"] = (p["reported"] and y["class"] != "TIMEOUT" and n["class"] != "TIMEOUT"
                       and ((p["tested"] and n["class"] != "PASS") or p["shorter"]
                            or (n["class"] != y["class"] and n["class"] in ("ENOSYS", "CRASH", "EARLY"))))
        p["cause_kind"], p["cause"] = cause_of(p, libc, libc_time32) if p["breaks"] else (None, None)
        census_note = f"; census with =y: {p['census']}" if p["census"] is not None else ""
        if p["shorter"]:
            p["why"] = (f"with =n it ends {show(p['takes'])} s of waiting sooner: {n['detail']}"
                        f" (with =y: {y['detail']}){census_note}")
        elif p["breaks"]:
            p["why"] = f"with =n: {n['class']} {n['detail']} (with =y: {y['class']} {y['detail']}){census_note}"
        elif p["census"] is not None and p["tested"]:
            p["why"] = (f"passed its smoke test with =n, but used {p['census']} with =y:"
                        " a path the test did not reach may fail")
        elif p["reported"] and not p["tested"]:
            p["why"] = f"its smoke test proves nothing: with =y {y['class']} {y['detail']}"
        else:
            p["why"] = None
        # Past the overflow (=y, the clock at 2038-01-19T03:14:10): a
        # program whose smoke test passed at the ordinary date and not there.
        p["breaks_2038"] = p["tested"] and past is not None and past["class"] not in ("PASS", "TIMEOUT")
        p["why_2038"] = None
        if p["breaks_2038"]:
            p["why_2038"] = (f"past the overflow: {past['class']} {past['detail']} (at the ordinary date: {y['detail']})"
                             + (f"; scan: {p['scan']}" if p["scan"] in ("time32", "mixed") else ""))
        judged.append(p)
    return sorted(judged, key=lambda p: p["path"])


def init_judgement(init, which, words, where):
    """Whether the init boot WHICH (1: =n, 2: across) got less far than =y's,
    or failed units or crashed programs =y's did not; nothing to judge by
    when =y did not come up."""
    if len(init) != 3 or rank(init[0]) > 1:
        return []
    b, y = init[which], init[0]
    found = [f"unit {u} failed {words}" for u in b["failed_units"] if u not in y["failed_units"]]
    found += [f"service {c} gone {words}" for c in b["services_gone"] if c not in y["services_gone"]]
    respawned_y = {r.rsplit(" (", 1)[0] for r in y["respawned"]}
    found += [f"service {r} respawned {words}" for r in b["respawned"] if r.rsplit(" (", 1)[0] not in respawned_y]
    for c in (c for c in b["crashed"] if c not in y["crashed"]):
        line = next((line for line in b["crashes"] if c in line), None)
        found.append(f"{c} crashed {where}: {show(line)}")
    if rank(b) > rank(y):
        # An init without systemd's units and journal that got less far
        # with =n often leaves no line saying why (busybox init that never
        # takes its reboot signal): what the census saw PID 1 use with =y
        # is then the cause on record. systemd's boots name theirs.
        pid1 = [c for c in y["census"] if "(pid 1," in c]
        census = (f"; the census with =y: {'; '.join(pid1)}"
                  if which == 1 and pid1 and y["init_kind"] != "systemd" else "")
        found.append(f"the boot {where}: {b['verdict']} ({'with =y' if which == 1 else 'at the ordinary date'}:"
                     f" {y['verdict']}{census})")
    return found


def answer(inputs, config, scan, judged, init, problems, past_problems):
    root = alt(inputs.get("scanned"), inputs.get("root"))
    files = [dict(e, guest=ltrimstr(e.get("path"), root)) for e in scan]
    checks = [c.get("value") for c in config.get("checks") or [] if c.get("symbol") == "CONFIG_COMPAT_32BIT_TIME"]

    def without_root(detail):
        return detail.replace(root, "") if isinstance(detail, str) and isinstance(root, str) and root else detail

    v = {
        "distribution": inputs.get("name"), "root": inputs.get("root"), "scanned": root,
        "config": inputs.get("config"),
        "config_says": config.get("summary"),
        "compat_32bit_time_now": alt(checks[0] if checks else None, "absent"),
        "boot_problems": problems,
        "programs": len(judged),
        "programs_tested": sum(1 for p in judged if p["tested"]),
        "programs_not_run": [{"path": p["path"], "reason": p["skipped"]} for p in judged if p["skipped"] is not None],
        "programs_not_reported": [p["path"] for p in judged if p["skipped"] is None and not p["reported"]],
        "programs_inconclusive": [{"path": p["path"], "why": p["why"]} for p in judged
                                  if p["reported"] and not p["tested"] and not p["breaks"]],
        "libc": inputs.get("libc"),
        "break": [{"path": p["path"], "why": p["why"], "cause_kind": p["cause_kind"],
                   "cause": CAUSE_KINDS[p["cause_kind"]] + (f" ({p['cause']})" if p["cause"] else "")}
                  for p in judged if p["breaks"]],
        "break_causes": {k: sum(1 for p in judged if p["breaks"] and p["cause_kind"] == k)
                         for k in CAUSE_KINDS},
        "census_only": [{"path": p["path"], "why": p["why"]} for p in judged
                        if not p["breaks"] and p["tested"] and p["census"] is not None],
        "past_boot_problems": past_problems,
        "programs_past_reported": sum(1 for p in judged if p["past"] is not None),
        "break_2038": [{"path": p["path"], "why": p["why_2038"]} for p in judged if p["breaks_2038"]],
        "time32_files": [f["guest"] for f in files if f.get("class") == "time32"],
        "mixed_files": [{"path": f["guest"], "detail": without_root(f.get("detail"))}
                        for f in files if f.get("class") == "mixed"],
        "static_files": [{"path": f["guest"], "detail": without_root(f.get("detail"))}
                         for f in files if f.get("class") == "static"],
        "unreadable_files": [{"path": f["guest"], "detail": f.get("error")} for f in files if f.get("class") == "error"],
        # The root's own init (DISTRO_INIT=yes): =y and =n at the ordinary
        # date, and =y across the overflow. Its boot breaks with =n when it
        # gets less far than with =y, or units fail or programs crash that
        # did not with =y; if =y did not come up, there is nothing to judge by.
        "init_boots": init,
        "init_y_up": len(init) == 3 and rank(init[0]) <= 1,
        "init_breaks": init_judgement(init, 1, "with =n, not with =y", "with =n"),
        "init_breaks_2038": init_judgement(init, 2, "across the overflow, not at the ordinary date",
                                           "across the overflow"),
    }
    if v["break"] or v["init_breaks"]:
        v["can_turn_off"] = "no"
    elif (v["boot_problems"] or v["programs_not_reported"] or v["programs_tested"] == 0
          or (len(init) == 3 and rank(init[0]) > 1)):
        v["can_turn_off"] = "unknown"
    else:
        v["can_turn_off"] = "yes"
    return v


def listing(title, items, what):
    """TITLE (N): and a line per item, "path: what"; a "(" in TITLE is
    closed by "; N)"."""
    n = len(items)
    yield f"{title}; {n}):" if "(" in title else f"{title} ({n}):"
    for item in items:
        yield f"  {show(item['path'])}: {show(item[what])}"


def answer_sentence(v):
    """The answer in one sentence: YES, NO or UNKNOWN, and why."""
    init = v["init_boots"]
    y_down = (f"its own boot with =y did not come up ({init[0]['verdict']}): there is nothing to compare =n with"
              if len(init) == 3 and not v["init_y_up"] else None)
    if v["can_turn_off"] == "yes":
        own = (f"; its own init with =n: {init[1]['verdict']} (with =y: {init[0]['verdict']})"
               if len(init) == 3 else "")
        return (f"YES, as far as the {v['programs_tested']} programs whose smoke test means something show:"
                f" none broke with COMPAT_32BIT_TIME=n{own}.")
    if v["can_turn_off"] == "no":
        if v["init_breaks"]:
            own = f"; and its own init: {'; '.join(v['init_breaks'])}"
        elif y_down:
            own = f"; {y_down}"
        elif len(init) == 3:
            own = f"; its own init with =n got as far as with =y ({init[1]['verdict']})"
        else:
            own = ""
        return f"NO: {len(v['break'])} of {v['programs']} programs break with COMPAT_32BIT_TIME=n{own}."
    why = list(v["boot_problems"])
    if v["programs_not_reported"]:
        why.append(f"{len(v['programs_not_reported'])} programs did not report")
    if v["programs_tested"] == 0:
        why.append("no smoke test passed with =y")
    if y_down:
        why.append(y_down)
    return "UNKNOWN: nothing broke, but " + "; ".join(why)


def report(v, where):
    init = v["init_boots"]
    out = [f"Can {show(v['distribution'])} turn COMPAT_32BIT_TIME off?", f"  {answer_sentence(v)}"]
    out.append(f"  Its kernel config: {show(v['config_says'])}")
    out += [f"  {p}" for p in v["boot_problems"]]
    out.append("")
    out += listing("Programs that break with COMPAT_32BIT_TIME=n", v["break"], "why")
    if v["break"]:
        out.append("  Their causes: " + "; ".join(f"{n} {CAUSE_KINDS[k].split(':')[0]}"
                                                 for k, n in v["break_causes"].items() if n))
        out += [f"    {b['path']}: {b['cause']}" for b in v["break"]]
    out.append("")
    out += listing("Programs that passed with =n but made time32 calls with =y (census", v["census_only"], "why")
    out.append("")
    if v["programs_past_reported"] > 0:
        out += listing("Programs that break past the overflow (=y, the clock at 2038-01-19T03:14:10",
                       v["break_2038"], "why")
        out.append("")
    elif v["past_boot_problems"]:
        out += [f"Past the overflow: not measured: {'; '.join(v['past_boot_problems'])}", ""]
    if init:
        out.append("Its own init (DISTRO_INIT=yes), booted at three moments:")
        for b in init:
            out.append(f"  {b['moment']}: {b['verdict']}: {b['summary']}")
            out += [f"      journal: {j}" for j in b["journal"][:8]]
            if b["verdict"] == "PID 1 DIED":
                out += [f"      console: {c}" for c in b["last_words"]]
            elif b["verdict"] in ("TIMEOUT", "NO PROBE"):
                out += [f"      console: {c}" for c in b["console_tail"][-8:]]
        if v["init_breaks_2038"]:
            across = "; ".join(v["init_breaks_2038"])
        elif not v["init_y_up"]:
            across = "not judged: the boot at the ordinary date did not come up"
        else:
            across = "no unit failed and nothing crashed that had not at the ordinary date, and the boot got as far"
        out += [f"  Across the overflow: {across}", ""]
    out += ["Not ready for 2038 whatever the config:",
            f"time32 files (32-bit time_t; {len(v['time32_files'])}):",
            f"  {' '.join(v['time32_files'])}"]
    out += listing("mixed files (64-bit time_t, but time32 code in them or in a library they load",
                   v["mixed_files"], "detail")
    out += listing("static files", v["static_files"], "detail")
    out.append("")
    out += listing("Smoke tests that prove nothing (failed or timed out with =y", v["programs_inconclusive"], "why")
    out += listing("Not run", v["programs_not_run"], "reason")
    if v["programs_not_reported"]:
        out.append(f"Did not report (the session or the guest ended first): {' '.join(v['programs_not_reported'])}")
    if v["unreadable_files"]:
        out.append(f"Files the scanner could not read ({len(v['unreadable_files'])}):")
        out += [f"  {f['path']}: {show(f['detail'])}" for f in v["unreadable_files"]]
    out += ["", f"Evidence: {where}/config.txt (kernel config), {where}/scan.txt (every binary),"
            f" {where}/programs.json (per program), boots/*-distro/tap.log (transcripts)"]
    if init:
        out.append(f"  and of its own init: {where}/init-boots.json,"
                   " boots/*-distro-{init,across}/console.log and tap.log (the probe)")
    return "".join(line + "\n" for line in out)


def cmd_verdict(where, yes, no, past="", init_y="", init_n="", across=""):
    def path(name):
        return os.path.join(where, name)

    init = [init_boot(init_y, "DISTRO_RTC, COMPAT_32BIT_TIME=y"),
            init_boot(init_n, "DISTRO_RTC, COMPAT_32BIT_TIME=n"),
            init_boot(across, "across the overflow, COMPAT_32BIT_TIME=y")] if init_y else []
    smoke_y, smoke_n = smoke_results(yes), smoke_results(no)
    smoke_past = smoke_results(past, "after") if past else {}
    census = census_results(yes)
    problems = [p for p in (boot_problem(yes), boot_problem(no)) if p]
    past_problems = [p for p in [boot_problem(past, "after")] if p] if past else []
    for name, value in (("init-boots.json", init), ("smoke-y.json", smoke_y), ("smoke-n.json", smoke_n),
                        ("smoke-past.json", smoke_past), ("census.json", census),
                        ("boot-problems.json", problems), ("past-problems.json", past_problems)):
        write_json(path(name), value)

    inputs = read_json(path("inputs.json"))
    scan = read_json(path("scan.json"))
    judged = judge_programs(scan, show(alt(inputs.get("scanned"), inputs.get("root"))),
                            smoke_y, smoke_n, smoke_past, census,
                            read_text(path("smoke.tsv.skipped")), read_text(path("smoke.tsv")),
                            inputs.get("libc"), inputs.get("libc_time32", "none" if inputs.get("libc") else None))
    write_json(path("programs.json"), judged)
    v = answer(inputs, read_json(path("config.json")), scan, judged, init, problems, past_problems)
    write_json(path("verdict.json"), v)
    text = report(v, where)
    with open(path("report.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    sys.stdout.write(text)


def cmd_answers(shipped, variant, name):
    """validate-distro's two answers, DISTRO_LIBC's: the root as shipped
    (SHIPPED, a verdict's DIR), and with the libc NAME in its libc's place
    (VARIANT: its DIR, or why it has no verdict, VARIANT/error). Writes
    them to VARIANT/answers.txt and prints them."""
    def sentence(where):
        if os.path.exists(os.path.join(where, "verdict.json")):
            return answer_sentence(read_json(os.path.join(where, "verdict.json")))
        why = nonempty(text_lines(read_text(os.path.join(where, "error"))))
        return f"UNKNOWN: {why[0] if why else 'no verdict in ' + where}"
    text = f"As shipped: {sentence(shipped)}\nWith {name}: {sentence(variant)}\n"
    os.makedirs(variant, exist_ok=True)
    with open(os.path.join(variant, "answers.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    sys.stdout.write(text)
