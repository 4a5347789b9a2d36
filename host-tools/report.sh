#!/usr/bin/env bash
# report.sh - a run's report, generated from its results.json (never by hand).
#
#   report.sh RUN_DIR
#
# Writes RUN_DIR/report.html, one self-contained page (no network, no
# files beside it): per boot, the matrix of (scenario, case, phase) by ABI,
# each cell coloured by what it observed, a cell that contradicts its
# expectation marked OBSERVED≠EXPECTED, and the detail and reason on hover;
# filters by machine, config and ABI. And RUN_DIR/report.md, the Markdown
# summary for terminals and CI logs: the counts per boot and every mismatch.
set -euo pipefail

run=${1:?usage: report.sh RUN_DIR}
results=$run/results.json
[ -s "$results" ] || { echo "report.sh: no $results: collect the run first" >&2; exit 1; }
jq -e 'type == "array"' "$results" >/dev/null 2>&1 || { echo "report.sh: $results is not a results array" >&2; exit 1; }

ABIS='["legacy","time64","raw32","raw64","kernel"]'

markdown() {
	jq -r --argjson abis "$ABIS" '
		def esc: gsub("\\|"; "\\|");
		"# y2038-lab run \(.[0].run_id // "?")", "",
		"\(length) cells, \([.[] | select(.verdict == "match")] | length) as expected, \([.[] | select(.verdict != "match")] | length) not.", "",
		"| boot | kernel | patches | accel | cells | as expected | not |", "|---|---|---|---|---|---|---|",
		(group_by(.boot)[] | "| \(.[0].boot) | \(.[0].kernel_source) \(.[0].kernel) | \(.[0].patches) | \(.[0].accel) | \(length) | \([.[] | select(.verdict == "match")] | length) | \([.[] | select(.verdict != "match")] | length) |"),
		"",
		(if any(.[]; .verdict != "match") then
			"## Cells that contradict their expectation", "",
			"| boot | abi | scenario.case.phase | observed | expected | detail |", "|---|---|---|---|---|---|",
			(.[] | select(.verdict != "match") | "| \(.boot) | \(.abi) | \(.scenario).\(.case).\(.phase) | \(.observed) | \(.expected) | \(.detail | esc) |")
		 else "Every cell matches its expectation." end)' "$results"
}

html() {
	cat <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>y2038-lab report</title>
<style>
body { font: 14px/1.4 sans-serif; margin: 1em 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
th { background: #eee; }
td.cell { font-family: monospace; }
.o-PASS { background: #d7f5d7; } .o-WRAP { background: #ffd0d0; } .o-WRONG { background: #ffd0d0; }
.o-CRASH, .o-TIMEOUT, .o-ERROR { background: #ff9d9d; } .o-SKIP { background: #eee; color: #777; }
.o-EOVERFLOW, .o-ENOSYS, .o-EINVAL, .o-EFAULT, .o-EPERM { background: #fff0b3; }
.o-CLAMP, .o-EARLY, .o-UNSET { background: #ffe0b3; } .o-LISTED { background: #dde8ff; } .o-ABSENT { background: #d7f5d7; }
td.mismatch { outline: 3px solid #c00; font-weight: bold; }
.filters label { margin-right: 1em; }
</style></head><body>
EOF
	jq -r --argjson abis "$ABIS" '
		def h: tostring | gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;") | gsub("\""; "&quot;");
		def opts(f): [.[] | f] | unique | map("<option>\(h)</option>") | join("");
		. as $all
		| "<h1>y2038-lab run \(.[0].run_id // "?" | h)</h1>",
		"<p id=\"totals\">\(length) cells, \([.[] | select(.verdict == "match")] | length) as expected, \([.[] | select(.verdict != "match")] | length) not. Hover a cell for what it saw and why it was expected.</p>",
		"<p class=\"filters\"><label>machine <select id=\"f-arch\"><option value=\"\">all</option>\(opts(.arch))</select></label>",
		"<label>config <select id=\"f-config\"><option value=\"\">all</option>\(opts(.config))</select></label>",
		"<label>ABI <select id=\"f-abi\"><option value=\"\">all</option>\($abis | map("<option>\(.)</option>") | join(""))</select></label></p>",
		(group_by(.boot)[] | . as $boot | [$abis[] as $a | select(any($boot[]; .abi == $a)) | $a] as $cols
		 | "<section class=\"boot\" data-arch=\"\(.[0].arch | h)\" data-config=\"\(.[0].config | h)\">",
		   "<h2>\(.[0].boot | h): \(.[0].arch | h) \(.[0].config | h), kernel \(.[0].kernel_source | h) \(.[0].kernel | h), patches \(.[0].patches | h), accel \(.[0].accel | h)</h2>",
		   "<table><tr><th>scenario</th><th>case</th><th>phase</th>\($cols | map("<th data-abi=\"\(.)\">\(.)</th>") | join(""))</tr>",
		   (group_by([.scenario, .case, .phase]) | sort_by(.[0] | [.scenario, .case, .phase])[] | . as $row
		    | "<tr><td>\(.[0].scenario | h)</td><td>\(.[0].case | h)</td><td>\(.[0].phase | h)</td>"
		      + ($cols | map(. as $a | ($row | map(select(.abi == $a)) | .[0]) as $c
			| if $c == null then "<td data-abi=\"\($a)\"></td>"
			  else "<td data-abi=\"\($a)\" class=\"cell o-\($c.observed | h)\(if $c.verdict != "match" then " mismatch" else "" end)\" title=\"\("observed: \($c.detail)\nexpected \($c.expected): \($c.reason)" | h)\">\($c.observed | h)\(if $c.verdict != "match" then "≠\($c.expected | h)" else "" end)</td>" end)
			| join("")) + "</tr>"),
		   "</table></section>")' "$results"
	cat <<'EOF'
<script>
function applyFilters() {
  var arch = document.getElementById("f-arch").value;
  var config = document.getElementById("f-config").value;
  var abi = document.getElementById("f-abi").value;
  document.querySelectorAll("section.boot").forEach(function (s) {
    s.hidden = (arch && s.dataset.arch !== arch) || (config && s.dataset.config !== config);
  });
  document.querySelectorAll("[data-abi]").forEach(function (c) {
    c.hidden = abi !== "" && c.dataset.abi !== abi;
  });
}
["f-arch", "f-config", "f-abi"].forEach(function (id) {
  document.getElementById(id).addEventListener("change", applyFilters);
});
</script>
</body></html>
EOF
}

markdown >"$run/report.md.tmp" && mv "$run/report.md.tmp" "$run/report.md"
html >"$run/report.html.tmp" && mv "$run/report.html.tmp" "$run/report.html"
echo "report: $run/report.html, $run/report.md"
