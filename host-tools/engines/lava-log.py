#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""lava-log.py - what lava.sh needs of LAVA's own Python and log format.

  lava-log.py schema JOB.yaml DEVICE.yaml
      lava-common's strict job schema (what a LAVA server applies when a job
      is submitted) and its device schema; the first error, exit 1
  lava-log.py split LAVA.log TAP CASES JOB
      lava-run's log (stderr: one YAML mapping per line, dt/lvl/msg), or a
      LAVA server's job log (output.yaml, the same as a YAML list), into
      the guest's TAP as the serial connection read it (the "target" lines),
      the test cases LAVA recorded (TSV: suite, case, result, the TAP case
      id), and the job's own result (pass, fail, or "incomplete")
"""
import sys

import yaml


def schema(job_path, device_path):
    from lava_common.schemas import validate as validate_job
    from lava_common.schemas.device import validate as validate_device

    with open(job_path) as f:
        validate_job(yaml.safe_load(f), strict=True)
    with open(device_path) as f:
        validate_device(yaml.safe_load(f))


def split(log_path, tap_path, cases_path, job_path):
    job = "incomplete"
    with open(log_path, errors="replace") as log, open(tap_path, "w") as tap, \
            open(cases_path, "w") as cases:
        for line in log:
            # Not JSON: LAVA writes YAML flow mappings (tags, escapes).
            try:
                entry = yaml.safe_load(line)
            except yaml.YAMLError:
                continue
            # A LAVA server's job log (output.yaml) is the same entries as
            # a YAML list, one "- {...}" per line.
            if isinstance(entry, list) and len(entry) == 1:
                entry = entry[0]
            if not isinstance(entry, dict):
                continue
            msg = entry.get("msg")
            # "feedback": what the target printed after LAVA's test
            # monitor had stopped (at the last case), read while finalising:
            # init's "# y2038-init: done" can come then.
            if entry.get("lvl") in ("target", "feedback") and isinstance(msg, str):
                tap.write(msg + "\n")
            elif entry.get("lvl") == "results" and isinstance(msg, dict):
                if msg.get("definition") == "lava":
                    if msg.get("case") == "job":
                        job = msg.get("result", job)
                    continue
                extra = msg.get("extra") or {}
                cases.write("\t".join(str(v) for v in (
                    msg.get("definition"), msg.get("case"), msg.get("result"),
                    extra.get("test_case_id", ""))) + "\n")
    with open(job_path, "w") as f:
        f.write(job + "\n")


def main(argv):
    if len(argv) == 4 and argv[1] == "schema":
        try:
            schema(argv[2], argv[3])
        except Exception as e:  # voluptuous.Invalid and YAML errors alike
            print(f"{type(e).__name__}: {e}", file=sys.stderr)
            return 1
        return 0
    if len(argv) == 6 and argv[1] == "split":
        split(*argv[2:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
