#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""fake-lava.py - a LAVA server's REST API (v0.2) as far as lava-api.py
uses it, answering from a world file, on the loopback: for the unit tests
(tests/unit/lava-api.sh), which need no LAVA.

  fake-lava.py WORLD.json PORT_FILE LOG [ADDRESS]

WORLD.json: {"jobs": {"ID": {"state", "health", "failure_comment",
"actual_device", "definition", "log" (or absent: 404), "tests": [{"suite",
"name", "result"}], "submitter" (default y2038-lab)}}, "devices": {"NAME":
"WORKER"}, "workers": {"NAME": "STATE"}, "tokens": {"TOKEN": "USER"}
(default {"secret": "y2038-lab"}), "next": a URL the job list gives as its
next page, "redirects": {"PATH": "URL"} answered 302, "unfiltered": true
for a job list that ignores the search (as django-filter ignores a filter
it does not know)}. A cancel of a Submitted job, or of one whose worker is
Online, finishes it as Canceled; on an Offline worker it stays Canceling,
as on a real server. POST /jobs/ takes a definition with a token of the
world's, its user the submitter (400 when it says "reject-me"); the
/system/whoami/ names the token's user. Each request is a line of LOG,
with its Authorization. ADDRESS: where it listens (default 127.0.0.1).

As a real server (lava-server 2023.01: _create_pipeline_job in
lava_scheduler_app's models.py) does, a job's "original_definition" is the text
submitted and its "definition" that text loaded and dumped again
(yaml.dump, SafeDumper: keys sorted, no comments, quotes only where YAML
needs them); the job list filters on either (definition__contains,
original_definition__contains). A definition that is no YAML mapping is
refused (400) as the real server refuses it.
"""
import http.server
import json
import sys
import urllib.parse

import yaml

PAGE = 2  # tests per page: lava-api.py must follow "next"


def dumped(definition):
    """The definition as LAVA stores it (lava_common's yaml_safe_dump of
    what it loaded), or None when it is no YAML mapping."""
    try:
        data = yaml.safe_load(definition)
    except yaml.YAMLError:
        return None
    return yaml.dump(data, Dumper=yaml.SafeDumper) if isinstance(data, dict) else None


class Handler(http.server.BaseHTTPRequestHandler):
    world = None
    log = None

    def reply(self, code, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def note(self):
        with open(self.log, "a") as f:
            f.write("%s %s %s\n" % (self.command, self.path, self.headers.get("Authorization", "-")))

    def user(self):
        """The user whose token the request carries, or None."""
        auth = self.headers.get("Authorization") or ""
        tokens = self.world.get("tokens", {"secret": "y2038-lab"})
        return tokens.get(auth[len("Token "):]) if auth.startswith("Token ") else None

    def job_json(self, jid):
        j = self.world["jobs"][jid]
        return {"id": int(jid), "state": j["state"], "health": j["health"],
                "failure_comment": j.get("failure_comment"), "actual_device": j.get("actual_device"),
                "definition": dumped(j.get("definition", "")) or "", "original_definition": j.get("definition", ""),
                "description": "job %s" % jid,
                "submitter": j.get("submitter", "y2038-lab"),
                "start_time": "2026-12-06T10:00:00.000000Z", "end_time": "2026-12-06T10:01:30.500000Z"}

    def do_GET(self):
        self.note()
        url = urllib.parse.urlparse(self.path)
        q = urllib.parse.parse_qs(url.query)
        parts = [p for p in url.path.split("/") if p][2:]  # after api/v0.2
        jobs = self.world["jobs"]
        if url.path in self.world.get("redirects", {}):
            self.send_response(302)
            self.send_header("Location", self.world["redirects"][url.path])
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if parts == ["system", "whoami"]:
            return self.reply(200, {"user": self.user() or ""})
        if parts == ["jobs"]:
            found = [self.job_json(i) for i in sorted(jobs, key=int)]
            for key in () if self.world.get("unfiltered") else ("definition", "original_definition"):
                needle = q.get(key + "__contains", [""])[0]
                found = [j for j in found if needle in j[key]]
            return self.reply(200, {"count": len(found), "next": self.world.get("next"), "results": found})
        if len(parts) >= 2 and parts[0] == "jobs":
            jid = parts[1]
            if jid not in jobs:
                return self.reply(404, {"detail": "Not found."})
            j = jobs[jid]
            if len(parts) == 2:
                return self.reply(200, self.job_json(jid))
            if parts[2] == "logs":
                if "log" not in j:
                    return self.reply(404, {"detail": "Not found."})
                return self.reply(200, j["log"].encode(), "application/yaml")
            if parts[2] == "suites":
                names = sorted({t["suite"] for t in j.get("tests", [])} | {"lava"})
                return self.reply(200, {"count": len(names), "next": None,
                                        "results": [{"id": 100 + k, "name": n} for k, n in enumerate(names)]})
            if parts[2] == "tests":
                names = sorted({t["suite"] for t in j.get("tests", [])} | {"lava"})
                tests = [{"name": t["name"], "result": t["result"], "suite": 100 + names.index(t["suite"])}
                         for t in j.get("tests", [])]
                offset = int(q.get("offset", ["0"])[0])
                nxt = None
                if offset + PAGE < len(tests):
                    nxt = "http://%s:%d/api/v0.2/jobs/%s/tests/?limit=%d&offset=%d" % (
                        self.server.server_address + (jid, PAGE, offset + PAGE))
                return self.reply(200, {"count": len(tests), "next": nxt, "results": tests[offset:offset + PAGE]})
            if parts[2] == "cancel":
                if not self.user():
                    return self.reply(403, {"detail": "Insufficient permissions"})
                worker = self.world["devices"].get(j.get("actual_device") or "")
                if j["state"] == "Submitted" or self.world["workers"].get(worker) == "Online":
                    j["state"], j["health"] = "Finished", "Canceled"
                elif j["state"] != "Finished":
                    j["state"] = "Canceling"
                return self.reply(200, {"message": "Job cancel signal sent."})
        if len(parts) == 2 and parts[0] == "devices" and parts[1] in self.world["devices"]:
            return self.reply(200, {"hostname": parts[1], "worker_host": self.world["devices"][parts[1]]})
        if len(parts) == 2 and parts[0] == "workers" and parts[1] in self.world["workers"]:
            return self.reply(200, {"hostname": parts[1], "state": self.world["workers"][parts[1]]})
        return self.reply(404, {"detail": "Not found."})

    def do_POST(self):
        self.note()
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if self.path.rstrip("/") != "/api/v0.2/jobs":
            return self.reply(404, {"detail": "Not found."})
        if not self.user():
            return self.reply(401, {"detail": "Invalid token."})
        if "reject-me" in body.get("definition", ""):
            return self.reply(400, {"message": "Problem with submitted job data: reject-me is no key"})
        if dumped(body.get("definition", "")) is None:
            return self.reply(400, {"message": "Problem with submitted job data: not a YAML mapping"})
        jid = str(max([int(i) for i in self.world["jobs"]] + [0]) + 1)
        self.world["jobs"][jid] = {"state": "Submitted", "health": "Unknown", "definition": body["definition"],
                                   "submitter": self.user()}
        return self.reply(201, {"message": "job(s) successfully submitted", "job_ids": [int(jid)]})

    def log_message(self, fmt, *args):
        pass


def main(argv):
    world_path, port_file, log = argv[1:4]
    with open(world_path) as f:
        Handler.world = json.load(f)
    Handler.log = log
    httpd = http.server.ThreadingHTTPServer((argv[4] if len(argv) > 4 else "127.0.0.1", 0), Handler)
    with open(port_file + ".tmp", "w") as f:
        f.write("%d\n" % httpd.server_address[1])
    import os
    os.rename(port_file + ".tmp", port_file)
    httpd.serve_forever()


if __name__ == "__main__":
    main(sys.argv)
