#!/usr/bin/env bash
# kcidb.sh - a run's results as KCIDB I/O JSON (schema v5.3: checkouts,
# builds, tests), for a KernelCI database to take.
#
#   kcidb.sh RUN_DIR [ORIGIN]      writes RUN_DIR/kcidb.json
#
# One checkout per kernel source, version and patch series; one build per
# machine and config of it; one test per cell. A test's status is what the
# interface did (PASS, SKIP, ERROR for the lab's own failures, DONE for the
# census's observations, FAIL for every other outcome: EOVERFLOW, WRAP, ...);
# the lab's expectation and verdict are in its misc. The host columns
# (libfaketime) built no kernel of the lab's and are left out. Which
# configs are the kernel's and each outcome class's status are the results
# vocabulary's (results-record.h), asked of the collector, LAB_COLLECT
# (make exports it; by hand: LAB_COLLECT=build/host/y2038-collect).
set -euo pipefail
run=${1:?usage: kcidb.sh RUN_DIR [ORIGIN]}
origin=${2:-y2038lab}
[ -f "$run/results.json" ] || { echo "kcidb.sh: $run/results.json: no such file (run the collector first)" >&2; exit 1; }
vocabulary=$("${LAB_COLLECT:?kcidb.sh: LAB_COLLECT names the built collector (make exports it)}" --vocabulary) ||
	{ echo "kcidb.sh: $LAB_COLLECT --vocabulary failed" >&2; exit 1; }
jq --arg origin "$origin" --argjson vocabulary "$vocabulary" '
	def id(parts): $origin + ":" + (parts | join(":"));
	def word: gsub("[^a-zA-Z0-9_-]"; "_");
	def checkout: id(["checkout", .kernel_source, .kernel, .patches]);
	def build: id(["build", .kernel_source, .kernel, .patches, .machine, .config]);
	# each outcome class has its KCIDB status; an errno name has the errno entry one
	($vocabulary.outcomes | map({key: .class, value: .kcidb}) | from_entries) as $status
	| def status: $status[.observed] // $status["errno"];
	[$vocabulary.configs[] | select(.where == "kernel") | .config] as $kernel
	| [.[] | select(.config as $c | $kernel | index($c))] as $cells
	| {
		version: {major: 5, minor: 3},
		checkouts: [$cells | unique_by(checkout)[] | {
			id: checkout, origin: $origin, tree_name: .kernel_source,
			git_commit_name: .kernel, valid: true,
			comment: "Debian \(.kernel_source) \(.kernel) with \(.patches)",
			misc: {kernel_source, kernel, patches}}],
		builds: [$cells | unique_by(build)[] | {
			id: build, origin: $origin, checkout_id: checkout,
			architecture: .karch, config_name: .config, status: "PASS",
			comment: "y2038-lab \(.machine) kernel, tinyconfig and patches/config fragments, \(.config)",
			misc: {machine, userland}}],
		tests: [$cells[] | {
			id: id(["test", .run_id, .boot, .scenario, .abi, (.libc // "-"), .case, .phase]),
			origin: $origin, build_id: build,
			# its column, as the collector wrote it (results-record.h)
			path: ([ "y2038", .scenario, .column, .case, .phase ] | map(word) | join(".")),
			status: status,
			comment: .detail,
			environment: {
				comment: "QEMU (\(.accel)), RTC from \(.rtc_base), boot \(.boot)",
				misc: {boot, accel, accel_note, rtc_base}},
			misc: {abi, libc, distro, expected, observed, verdict, reason}}]
	}' "$run/results.json" >"$run/kcidb.json.tmp"
mv "$run/kcidb.json.tmp" "$run/kcidb.json"
echo "  KCIDB    $run/kcidb.json: $(jq '.checkouts | length' "$run/kcidb.json") checkouts, $(jq '.builds | length' "$run/kcidb.json") builds, $(jq '.tests | length' "$run/kcidb.json") tests"
