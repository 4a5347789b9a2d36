#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""lava-api.py - what lava.sh needs of a LAVA server's REST API (v0.2), and
the HTTP server that hands a worker the lab's images. Standard library only.

  lava-api.py submit URL JOB.yaml
      submits a job (POST /api/v0.2/jobs/); prints its id, or the server's
      reason and exit 1 (lavacli exits 0 on a rejection: this does not)
  lava-api.py cancel URL ID
  lava-api.py state URL ID
      prints the job's "state health" (Running Unknown, Finished Complete)
  lava-api.py check URL...
      each URL answers a HEAD with 200, or exit 1 naming those that do not
  lava-api.py serve ROOT HOST PORT PORT_FILE FETCHED_FILE DEADLINE
      serves the files of ROOT's folders (ROOT/CELL/NAME, and nothing else:
      no listing) over HTTP on HOST:PORT (an IPv4 or IPv6 address; PORT 0:
      any free one), the port written to PORT_FILE; the path of each file
      sent whole to a GET is appended to FETCHED_FILE. It ends by itself
      after DEADLINE seconds, whatever becomes of who started it.
  lava-api.py collect URL RUN_ID OUT [KEY=VALUE...]
      waits for the run's jobs and writes each into OUT/<id>/ as it ends:
      job.json, job.yaml (its definition as submitted), output.yaml (its
      log, empty if it has none), lava-results.tsv (the test cases the API
      gives: suite, case, result), cell (what the lab records of the boot,
      for lava.sh import) and outcome (the verdict on the job itself:
      error= empty for a job that completed, else why not). The run's jobs
      are those listed in jobs=FILE ("CELL<tab>ID" lines: lava.sh submit
      recorded them, and the definitions it submitted, FILE's
      folder/CELL/submitted.yaml, say what each boot is); where there is no
      such file (the run was submitted elsewhere), the jobs whose metadata
      says y2038.run_id: RUN_ID, that the token's user submitted, and whose
      metadata names one of the lab's boots (boots="NAME ...": make's
      MACHINE-CONFIG names). Every other job of the run's id is ignored,
      saying why. Keys: wait= (seconds, default 3600) after which a job still
      unfinished is canceled (with a token) and given up; offline_grace=
      (default 300) how long a job whose worker is Offline is waited for;
      cancel_grace= (default 150) how long a canceled job is given to end;
      poll= (default 10) seconds between looks.

What a server answers is data: it names no path here. A boot's folder is
the cell lava.sh submit recorded, or a boot name of the lab's; the kernel
console is copied from where the job as submitted from here put it, never
from where a server's definition says.

The token (a user's API token: LAVA's "Authorization: Token ...") is read
from the file LAVA_TOKEN_FILE names, else from the environment, LAVA_TOKEN,
never from the command line (ps shows a command line to every user);
reading a public job needs none. It is sent to the LAVA server's host only:
a redirect or a list's next page on another host is not followed with it.

A job's outcome (outcome: status= the boot record's qemu_status, error=):
  Finished, Complete       exited, no error (its cells are what its TAP says)
  Finished, Incomplete,    the guest's own ending, as the lab's boots record
  after the guest's TAP    it: exited (a TAP cut short: CRASH, or the panic
  began                    its console shows), or timeout when LAVA says
                           it timed out (TIMEOUT); LAVA's comment in note=
  Finished, Incomplete     "LAVA job N was incomplete: <failure comment>"
  before it                (the deploy, QEMU's start: the lab's side)
  Finished, Canceled       "LAVA job N was canceled by the server", or by
                           lava-collect when it canceled it at its deadline
  its worker Offline       "LAVA job N: its worker W went offline; failed by
                           lava-collect after S s"
  still not Finished       "LAVA job N did not finish within S s (it was
                           Running): canceled by lava-collect"
The lab's collector makes every cell its TAP does not show ERROR with that
text: an infrastructure error, never a scenario's outcome.
"""
import functools
import http.server
import json
import os
import re
import shlex
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT = 60  # seconds, one HTTP request


class ApiError(Exception):
    code = None


def read_token():
    """The user's token: the file LAVA_TOKEN_FILE names, else LAVA_TOKEN."""
    path = os.environ.get("LAVA_TOKEN_FILE")
    if path:
        try:
            with open(path) as f:
                return f.read().strip() or None
        except OSError as e:
            raise ApiError("LAVA_TOKEN_FILE=%s: %s" % (path, e.strerror)) from None
    return os.environ.get("LAVA_TOKEN") or None


def host_of(url):
    return (urllib.parse.urlsplit(url).hostname or "").lower()


class TokenStaysHome(urllib.request.HTTPRedirectHandler):
    """Redirects followed within the server's host only, when the request
    carries the token: urllib would send it wherever it is redirected."""

    def __init__(self, home):
        super().__init__()
        self.home = home

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if req.has_header("Authorization") and host_of(newurl) != self.home:
            raise ApiError("%s redirected to %s, another host than %s: not followed with the token"
                           % (req.full_url, newurl, self.home))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def request(url, path, token=None, data=None, method=None, raw=False):
    """One REST call: the JSON it returns (raw: the bytes), or ApiError
    with the server's own message. PATH is below URL, or a whole URL (a
    list's next page) on URL's host when the token goes with it."""
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = "Token " + token
    body = None
    if data is not None:
        body = json.dumps(data).encode()
        headers["Content-Type"] = "application/json"
    full = url.rstrip("/") + path if path.startswith("/") else path
    if token and url and host_of(full) != host_of(url):
        raise ApiError("%s: the next page is on another host than %s: not asked with the token"
                       % (full, host_of(url)))
    req = urllib.request.Request(full, data=body, headers=headers, method=method)
    opener = urllib.request.build_opener(TokenStaysHome(host_of(url or full)))
    try:
        with opener.open(req, timeout=TIMEOUT) as r:
            content = r.read()
    except urllib.error.HTTPError as e:
        text = e.read().decode(errors="replace")
        try:
            text = json.loads(text).get("message", text) if text.startswith("{") else text
        except ValueError:
            pass
        err = ApiError("HTTP %d from %s: %s" % (e.code, full, " ".join(str(text).split())[:300]))
        err.code = e.code
        raise err from None
    except (urllib.error.URLError, OSError) as e:
        err = ApiError("no answer from %s: %s" % (full, getattr(e, "reason", e)))
        err.code = None
        raise err from None
    return content if raw else json.loads(content or b"null")


def api(url):
    return url.rstrip("/") + "/api/v0.2"


def paged(url, path, token=None):
    """Every item of a list endpoint, page after page."""
    items, nxt = [], path
    while nxt:
        page = request(api(url), nxt, token)
        if isinstance(page, list):
            return items + page
        items += page.get("results", [])
        nxt = page.get("next")
    return items


# --- submit, cancel, state

def submit(url, token, job_path):
    with open(job_path) as f:
        definition = f.read()
    try:
        r = request(api(url), "/jobs/", token, {"definition": definition}, "POST")
    except ApiError as e:
        print("lava-api.py: %s: not submitted: %s" % (job_path, e), file=sys.stderr)
        return 1
    ids = r.get("job_ids") or []
    if len(ids) != 1:
        print("lava-api.py: %s: the server answered %s" % (job_path, r), file=sys.stderr)
        return 1
    print(ids[0])
    return 0


def cancel(url, token, job_id):
    request(api(url), "/jobs/%s/cancel/" % job_id, token)


def check(urls):
    missing = 0
    for u in urls:
        try:
            request("", u, method="HEAD", raw=True)
        except ApiError as e:
            print("lava-api.py: %s" % e, file=sys.stderr)
            missing += 1
    return 1 if missing else 0


# --- serve

class Handler(http.server.SimpleHTTPRequestHandler):
    fetched = None

    def send_response(self, code, message=None):
        self.code = code
        super().send_response(code, message)

    def send_head(self):
        """An image, ROOT/CELL/NAME, a file (lava.sh links it there), or 404:
        never a folder's listing, nor anything deeper or higher."""
        parts = urllib.parse.unquote(self.path.split("?")[0]).split("/")
        path = os.path.join(self.directory, *parts[1:]) if len(parts) == 3 else ""
        if not all(p not in ("", ".", "..") for p in parts[1:]) or not os.path.isfile(path):
            self.send_error(404, "Not found")
            return None
        return super().send_head()

    def do_GET(self):
        self.code = None
        super().do_GET()  # an aborted transfer raises: it is not logged
        if self.code == 200:
            with open(self.fetched, "a") as f:
                f.write(urllib.parse.unquote(self.path.split("?")[0]) + "\n")

    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (self.log_date_time_string(), fmt % args))


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True  # a transfer under way does not outlive the deadline


class Server6(Server):
    address_family = socket.AF_INET6


def serve(root, host, port, port_file, fetched, deadline):
    handler = functools.partial(Handler, directory=root)
    Handler.fetched = fetched
    httpd = (Server6 if ":" in host else Server)((host, int(port)), handler)
    with open(port_file + ".tmp", "w") as f:
        f.write("%d\n" % httpd.server_address[1])
    os.rename(port_file + ".tmp", port_file)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    time.sleep(float(deadline))


# --- collect

def metadata(definition):
    """The y2038.* keys of a job definition the lab wrote (lava.sh job):
    one "  y2038.KEY: VALUE" line each, VALUE plain or single-quoted."""
    meta, inside = {}, False
    for line in definition.splitlines():
        if re.match(r"^\S", line):
            inside = line.startswith("metadata:")
            continue
        m = re.match(r"^\s+y2038\.([a-z_]+):\s*(.*?)\s*$", line) if inside else None
        if m:
            v = m.group(2)
            if len(v) >= 2 and v[0] == v[-1] == "'":
                v = v[1:-1].replace("''", "'")
            meta[m.group(1)] = v
    return meta


def tap_began(log):
    """Whether the guest's init printed its TAP (the serial connection's
    "TAP version" line, LAVA's "target" level): the guest ran."""
    return re.search(rb'"lvl": "(target|feedback)", "msg": "TAP version ', log) is not None


def seconds(start, end):
    """end - start of two ISO 8601 times the API gives, or '-'."""
    from datetime import datetime
    try:
        a = datetime.fromisoformat(start.replace("Z", "+00:00"))
        b = datetime.fromisoformat(end.replace("Z", "+00:00"))
        return "%.2f" % (b - a).total_seconds()
    except (AttributeError, TypeError, ValueError):
        return "-"


class Job:
    def __init__(self, jid, boot):
        self.id = jid
        self.boot = boot  # its boot's folder: a cell of lava.sh submit's, or a lab's boot name
        self.data = None  # the last GET /jobs/ID/
        self.error = None  # why it did not complete, once decided
        self.done = False
        self.offline_since = None
        self.canceled_at = None
        self.submitted = None  # the definition as lava.sh submit sent it


def worker_of(url, token, device, cache):
    """(worker name, its state) of a device, or (None, None)."""
    if not device:
        return None, None
    if device not in cache:
        try:
            d = request(api(url), "/devices/%s/" % urllib.parse.quote(device), token)
            w = d.get("worker_host")
            ws = request(api(url), "/workers/%s/" % urllib.parse.quote(w), token) if w else {}
            cache[device] = (w, ws.get("state"))
        except ApiError:
            cache[device] = (None, None)
    return cache[device]


def run_jobs(url, token, run_id, submitted, jobs_file, boots, say):
    """The run's jobs, {id: boot}: those lava.sh submit recorded in
    jobs_file (submitted, {id: cell}), when it did; else those of the
    run's id (by their metadata) that the token's user submitted and whose
    metadata names one of boots. Any other job of the run's id is ignored,
    saying why. A server that does not answer leaves those submitted,
    waited for as any other."""
    # The text submitted, as lava.sh job wrote it: LAVA keeps it as the
    # job's original_definition, and its definition as it dumps it again.
    needle = "y2038.run_id: '%s'" % run_id.replace("'", "''")
    query = "/jobs/?original_definition__contains=%s&ordering=id&limit=100" % urllib.parse.quote(needle)
    if not submitted and not token:
        raise ApiError("run %s was not submitted from here (no %s): without a token (LAVA_TOKEN_FILE=) its "
                       "jobs cannot be told from anyone else's with its id, and none is collected" % (run_id, jobs_file))
    try:
        listed = paged(url, query, token)
    except ApiError as e:
        if not submitted:
            raise
        say("cannot list the run's jobs (%s): waiting for those submitted from here" % e)
        listed = []
    if submitted:
        for j in listed:
            if int(j["id"]) not in submitted:
                say("job %d: ignored: run %s did not submit it (it is not in %s; its submitter: %s)"
                    % (int(j["id"]), run_id, jobs_file, j.get("submitter")))
        return dict(submitted)
    user = (request(api(url), "/system/whoami/", token) or {}).get("user")
    if not user:
        raise ApiError("%s does not know the token's user: its jobs cannot be told from anyone else's" % url)
    found = {}
    for j in listed:
        meta = metadata(j.get("original_definition") or j.get("definition") or "")
        jid, boot = int(j["id"]), meta.get("boot")
        if j.get("submitter") != user:
            say("job %d: ignored: %s submitted it, not %s (the token's user)" % (jid, j.get("submitter"), user))
        elif meta.get("run_id") != run_id:
            # the server's search is its say; the job's own metadata decides
            say("job %d: ignored: its run id, %s, is not %s" % (jid, ascii(meta.get("run_id")), ascii(run_id)))
        elif boot not in boots:
            say("job %d: ignored: its boot, %s, is none of the lab's" % (jid, ascii(boot)))
        else:
            found[jid] = boot
    return found


def save(url, token, job, out, say):
    """Fetch a finished (or given up) job's log and results into out/ID/."""
    d = os.path.join(out, str(job.id))
    os.makedirs(d, exist_ok=True)
    data = job.data or {}
    with open(os.path.join(d, "job.json"), "w") as f:
        json.dump(data, f, indent=1)
    # What the boot is: the job as submitted from here, else the server's
    # definition (data: its console is no file of this machine's).
    definition = data.get("original_definition") or data.get("definition") or ""
    submitted = None
    if job.submitted:
        with open(job.submitted) as f:
            submitted = f.read()
    with open(os.path.join(d, "job.yaml"), "w") as f:
        f.write(definition or submitted or "")
    try:
        log = request(api(url), "/jobs/%d/logs/" % job.id, token, raw=True)
    except ApiError as e:
        if getattr(e, "code", None) != 404:
            say("job %d: no log: %s" % (job.id, e))
        log = b""
    with open(os.path.join(d, "output.yaml"), "wb") as f:
        f.write(log)
    rows = []
    try:
        suites = {s["id"]: s["name"] for s in paged(url, "/jobs/%d/suites/?limit=500" % job.id, token)}
        for t in paged(url, "/jobs/%d/tests/?limit=1000" % job.id, token):
            suite = suites.get(t.get("suite"), t.get("suite"))
            if suite != "lava":
                rows.append("%s\t%s\t%s\n" % (suite, t.get("name"), t.get("result")))
    except ApiError as e:
        say("job %d: no test results: %s" % (job.id, e))
    with open(os.path.join(d, "lava-results.tsv"), "w") as f:
        f.writelines(rows)
    meta = metadata(submitted or definition)
    cell = {
        "machine": meta.get("machine", "unknown"),
        "karch": meta.get("karch", "unknown"),
        "userland": meta.get("userland", "unknown"),
        "config": meta.get("config", "unknown"),
        "kernel": meta.get("kernel", "unknown"),
        "kernel_source": meta.get("kernel_source", "unknown"),
        "patches": meta.get("patches", "unknown"),
        "scenarios": meta.get("scenarios", ""),
        "rtc_base": meta.get("rtc_base", "-"),
        "boot": job.boot,
        "console": meta.get("console", "/dev/null") if submitted else "/dev/null",
        "lava_job": str(job.id),
        "lava_device": data.get("actual_device") or "-",
    }
    with open(os.path.join(d, "cell"), "w") as f:
        f.writelines("%s=%s\n" % (k, shlex.quote(v)) for k, v in cell.items())
    outcome = {
        "state": data.get("state") or "unknown",
        "health": data.get("health") or "unknown",
        "wall_s": seconds(data.get("start_time"), data.get("end_time")),
        "status": "failed" if job.error else "exited",
        "timeout_s": "-",
        "error": job.error or "",
        "note": "",
    }
    comment = " ".join((data.get("failure_comment") or "no reason given").split())
    if data.get("health") == "Incomplete" and job.canceled_at is None and tap_began(log):
        # the guest ran: how it ended is its own (a hang, a panic, a
        # program that never ended), as in the lab's own boots
        timed_out = re.search(r"timed out after (\d+) seconds", comment)
        outcome.update(status="timeout" if timed_out else "exited", error="",
                       timeout_s=timed_out.group(1) if timed_out else "-",
                       note="LAVA job %d was incomplete: %s" % (job.id, comment))
    with open(os.path.join(d, "outcome"), "w") as f:
        f.writelines("%s=%s\n" % (k, shlex.quote(v)) for k, v in outcome.items())


def collect(url, token, run_id, out, wait=3600, offline_grace=300, cancel_grace=150,
            poll=10, jobs_file=None, boots=()):
    def say(text):
        print("  LAVA     " + text, flush=True)

    start = time.monotonic()
    submitted = {}
    if jobs_file and os.path.exists(jobs_file):
        with open(jobs_file) as f:
            for line in f:
                cell, _, jid = line.strip().partition("\t")
                if jid.isdigit():
                    submitted[int(jid)] = cell
    ids = run_jobs(url, token, run_id, submitted, jobs_file, boots, say)
    if not ids:
        print("lava-api.py: %s has no job of run %s" % (url, run_id), file=sys.stderr)
        return 1
    say("run %s: jobs %s on %s" % (run_id, ", ".join(map(str, sorted(ids))), url))
    jobs = [Job(i, ids[i]) for i in sorted(ids)]
    for job in jobs:
        if job.id in submitted:
            definition = os.path.join(os.path.dirname(jobs_file), job.boot, "submitted.yaml")
            job.submitted = definition if os.path.exists(definition) else None
    os.makedirs(out, exist_ok=True)

    def give_up(job, why, now):
        job.error = why
        if token and job.canceled_at is None and (job.data or {}).get("state") != "Finished":
            try:
                cancel(url, token, job.id)
            except ApiError as e:
                job.error += " (the cancel failed: %s)" % e
            job.canceled_at = now

    while True:
        now = time.monotonic()
        waited = int(now - start)
        cache = {}
        for job in jobs:
            if job.done:
                continue
            try:
                job.data = request(api(url), "/jobs/%d/" % job.id, token)
            except ApiError as e:
                if getattr(e, "code", None) == 404:
                    job.error = "LAVA job %d: the server does not know it (%s)" % (job.id, e)
                    job.done = True
                    save(url, token, job, out, say)
                    say("job %d: %s" % (job.id, job.error))
                elif waited >= wait:
                    job.error = "LAVA job %d: the server gave no answer within %d s: %s" % (job.id, wait, e)
                    job.done = True
                    save(url, token, job, out, say)
                continue
            state, health = job.data.get("state"), job.data.get("health")
            if state == "Finished":
                if health == "Complete":
                    job.error = ""  # even after lava-collect gave it up
                elif job.error is None:
                    if health == "Canceled":
                        job.error = "LAVA job %d was canceled by the server" % job.id
                    else:
                        comment = " ".join((job.data.get("failure_comment") or "no reason given").split())
                        job.error = "LAVA job %d was %s: %s" % (job.id, (health or "unknown").lower(), comment)
                job.done = True
                save(url, token, job, out, say)
                say("job %d: %s %s%s" % (job.id, state, health, ": " + job.error if job.error else ""))
                continue
            if job.error is not None:
                # given up: canceled, and given cancel_grace to end
                if job.canceled_at is None or now - job.canceled_at >= cancel_grace:
                    job.done = True
                    save(url, token, job, out, say)
                    say("job %d: %s" % (job.id, job.error))
                continue
            worker, wstate = (None, None)
            if state in ("Running", "Canceling", "Scheduled"):
                worker, wstate = worker_of(url, token, job.data.get("actual_device"), cache)
            if wstate == "Offline":
                job.offline_since = job.offline_since or now
                if now - job.offline_since >= offline_grace:
                    give_up(job, "LAVA job %d: its worker %s went offline; failed by lava-collect after %d s"
                            % (job.id, worker, waited), now)
                    job.canceled_at = now - cancel_grace  # a dead worker ends nothing
            else:
                job.offline_since = None
            if job.error is None and waited >= wait:
                give_up(job, "LAVA job %d did not finish within %d s (it was %s): %s"
                        % (job.id, wait, state, "canceled by lava-collect" if token
                           else "lava-collect had no token to cancel it"), now)
                if not token:
                    job.canceled_at = now - cancel_grace
        if all(j.done for j in jobs):
            break
        time.sleep(poll)
    ok = sum(1 for j in jobs if j.error == "")
    say("run %s: %d of %d jobs complete" % (run_id, ok, len(jobs)))
    return 0


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    try:
        token = read_token()
        if cmd == "submit" and len(argv) == 4:
            return submit(argv[2], token, argv[3])
        if cmd == "cancel" and len(argv) == 4:
            cancel(argv[2], token, argv[3])
            return 0
        if cmd == "state" and len(argv) == 4:
            j = request(api(argv[2]), "/jobs/%s/" % argv[3])
            print(j.get("state"), j.get("health"))
            return 0
        if cmd == "check" and len(argv) > 2:
            return check(argv[2:])
        if cmd == "serve" and len(argv) == 8:
            serve(*argv[2:])
            return 0
        if cmd == "collect" and len(argv) >= 5:
            kw = {}
            for kv in argv[5:]:
                k, _, v = kv.partition("=")
                if k == "jobs":
                    kw["jobs_file"] = v or None
                elif k == "boots":
                    kw["boots"] = v.split()
                elif k in ("wait", "offline_grace", "cancel_grace", "poll"):
                    kw[k] = float(v)
                else:
                    raise SystemExit("lava-api.py collect: unknown key %s" % k)
            return collect(argv[2], token, argv[3], argv[4], **kw)
    except ApiError as e:
        print("lava-api.py: %s" % e, file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
