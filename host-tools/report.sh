#!/usr/bin/env bash
# report.sh - a run's report, generated from its results.json (never by hand).
#
#   report.sh RUN_DIR
#
# Writes RUN_DIR/report.html, one self-contained page (no network, no
# files beside it): per boot, the matrix of (scenario, case, phase) by ABI,
# each cell coloured by what it observed, a cell that contradicts its
# expectation marked OBSERVED≠EXPECTED, and the detail and reason on hover;
# filters by machine, config and ABI; and for each boot whose clock scenario
# printed its timeline, a plot of what every reader returned, second by
# second across the overflow (inline SVG). And RUN_DIR/report.md, the Markdown
# summary for terminals and CI logs: the counts per boot and every mismatch.
set -euo pipefail

run=${1:?usage: report.sh RUN_DIR}
results=$run/results.json
[ -s "$results" ] || { echo "report.sh: no $results: collect the run first" >&2; exit 1; }
jq -e 'type == "array"' "$results" >/dev/null 2>&1 || { echo "report.sh: $results is not a results array" >&2; exit 1; }

ABIS='["legacy","time64","raw32","raw64","kernel"]'

# The host (libfaketime) columns against the real kernel: each of their cells
# beside the same cell of its machine's compat32=y matrix boot (what a
# distribution's kernel runs), as "agrees", "differs" or "cannot" (skipped,
# or not measurable on the host). One JSON object per cell.
FAKED_VS_REAL='
	def key: "\(.arch) \(.scenario) \(.case) \(.phase) \(.abi)";
	(map(select(.config == "compat32=y" and .boot == .arch + "-compat32-y")) | map({key: key, value: .}) | from_entries) as $real
	| .[] | select(.config | startswith("libfaketime")) | . as $f | $real[key] as $r
	| {arch: (.arch + if .config == "libfaketime-static" then " (static)" else "" end),
	   abi, cell: "\(.scenario).\(.case).\(.phase)", faked: .observed, real: ($r.observed // "-"),
	   why: .reason, detail,
	   how: (if .observed == "SKIP" or .observed == "ERROR" or $r == null then "cannot"
		 elif .observed == $r.observed then "agrees" else "differs" end)}'
# Why some things cannot be faked at all, for both pages.
FAKED_LIMITS="libfaketime works by LD_PRELOAD in the program's own process: a static program never loads it (the lab's guest programs are static; the host column uses dynamic builds), a raw syscall never passes through it, and what the kernel does with its own clock (packet timestamps, timers and futex deadlines it checks) sees the real time."

markdown() {
	jq -r --argjson abis "$ABIS" --arg limits "$FAKED_LIMITS" "[$FAKED_VS_REAL] as \$fv | "'
		def esc: gsub("\\|"; "\\|");
		"# y2038-lab run \(.[0].run_id // "?")", "",
		"\(length) cells, \([.[] | select(.verdict == "match")] | length) as expected, \([.[] | select(.verdict != "match")] | length) not.", "",
		"| boot | kernel | patches | accel | cells | as expected | not |", "|---|---|---|---|---|---|---|",
		(group_by(.boot)[] | "| \(.[0].boot) | \(.[0].kernel_source) \(.[0].kernel) | \(.[0].patches) | \(.[0].accel) | \(length) | \([.[] | select(.verdict == "match")] | length) | \([.[] | select(.verdict != "match")] | length) |"),
		"",
		($fv | length) as $nfaked
		| (if $nfaked == 0 then empty else
			"## Faking the clock in userspace (libfaketime) beside the real kernel", "",
			"Each host (libfaketime) cell beside the same cell of its machine'"'"'s compat32=y boot. \($limits)", "",
			"| machine | cells | agrees | differs | cannot be faked |", "|---|---|---|---|---|",
			([$fv[]] | group_by(.arch)[] | "| \(.[0].arch) | \(length) | \([.[] | select(.how == "agrees")] | length) | \([.[] | select(.how == "differs")] | length) | \([.[] | select(.how == "cannot")] | length) |"),
			"", "Where it differs:", "",
			"| machine | abi | scenario.case.phase | libfaketime | real kernel | why |", "|---|---|---|---|---|---|",
			($fv[] | select(.how == "differs") | "| \(.arch) | \(.abi) | \(.cell) | \(.faked) | \(.real) | \(.why | esc) |"),
			"" end),
		(if any(.[]; .verdict != "match") then
			"## Cells that contradict their expectation", "",
			"| boot | abi | scenario.case.phase | observed | expected | detail |", "|---|---|---|---|---|---|",
			(.[] | select(.verdict != "match") | "| \(.boot) | \(.abi) | \(.scenario).\(.case).\(.phase) | \(.observed) | \(.expected) | \(.detail | esc) |")
		 else "Every cell matches its expectation." end)' "$results"
}

# One boot's "# timeline ABI READER TRUE VALUE" lines -> an SVG plot: a line
# per reader across three bands, the right time, 1901 (the value less 2^32)
# and a failed call (its errno), with any other value in between as wrong.
timeline_svg() {
	sed -n 's/^# # timeline //p' "$1" | awk -v title="$2" '
	BEGIN { n = 0 }	# the readers, numbered from 0 in the order they come
	function band(t, v) {
		if (v !~ /^-?[0-9]+$/) return 3
		if (v == t) return 0
		if (v == t - 4294967296) return 2
		return 1
	}
	{ key = $1 " " $2; if (!(key in idx)) { idx[key] = n; names[n++] = key }
	  t[NR] = $3; v[NR] = $4; k[NR] = idx[key]
	  if (NR == 1 || $3 < tmin) tmin = $3; if ($3 > tmax) tmax = $3 }
	END {
		if (!NR) exit
		# ten colours, raw readers dashed: a boot plots up to ten readers
		split("#1b7f1b #c0392b #2c6fbb #8e44ad #d68910 #16a085 #7f8c8d #e84393 #6d4c41 #00838f", colour, " ")
		split("right time|wrong value|1901 (wrapped)|call failed", label, "|")
		w = 120 + (tmax - tmin) * 60 + 240; h = 60 + 4 * 50
		printf "<figure class=\"timeline\"><figcaption>%s</figcaption>\n", title
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-size=\"11\">\n", w, h
		for (b = 0; b < 4; b++) {
			y = 40 + b * 50
			printf "<line x1=\"110\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>", y, w - 230, y
			printf "<text x=\"4\" y=\"%d\">%s</text>\n", y + 4, label[b + 1]
		}
		for (tt = tmin; tt <= tmax; tt++) {
			x = 120 + (tt - tmin) * 60
			printf "<line x1=\"%d\" y1=\"25\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>", x, x, h - 25, tt == 2147483648 ? "#c00" : "#eee"
			printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">03:14:%02d</text>\n", x, h - 10, tt - 2147483640
		}
		for (i = 1; i <= NR; i++) {
			x = 120 + (t[i] - tmin) * 60; y = 40 + band(t[i], v[i]) * 50 + (k[i] - n / 2) * 3
			pts[k[i]] = pts[k[i]] sprintf("%d,%d ", x, y)
			printf "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"><title>%s at %s: %s</title></circle>\n", x, y, colour[k[i] % 10 + 1], names[k[i]], t[i], v[i]
			if (band(t[i], v[i]) == 3 && !(v[i] in shown)) {	# each errno named once, one under another
				shown[v[i]] = 1
				printf "<text x=\"%d\" y=\"%d\" fill=\"#c00\">%s</text>\n", x + 4, 40 + 3 * 50 + 14 + nshown++ * 12, v[i]
			}
		}
		for (j = 0; j < n; j++) {
			dash = names[j] ~ /^raw/ ? " stroke-dasharray=\"5,3\"" : ""
			printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s/>\n", pts[j], colour[j % 10 + 1], dash
			printf "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", w - 220, 30 + j * 16, colour[j % 10 + 1], names[j]
		}
		print "</svg></figure>"
	}'
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
	jq -r --argjson abis "$ABIS" --arg limits "$FAKED_LIMITS" "[$FAKED_VS_REAL] as \$fv | "'
		def h: tostring | gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;") | gsub("\""; "&quot;");
		def column: if .config == "libfaketime" then "host (libfaketime)"
			elif .config == "libfaketime-static" then "host (libfaketime, static programs)" else .config end;
		def opts(f): [.[] | f] | unique | map("<option>\(h)</option>") | join("");
		. as $all
		| "<h1>y2038-lab run \(.[0].run_id // "?" | h)</h1>",
		"<p id=\"totals\">\(length) cells, \([.[] | select(.verdict == "match")] | length) as expected, \([.[] | select(.verdict != "match")] | length) not. Hover a cell for what it saw and why it was expected.</p>",
		"<p class=\"filters\"><label>machine <select id=\"f-arch\"><option value=\"\">all</option>\(opts(.arch))</select></label>",
		"<label>config <select id=\"f-config\"><option value=\"\">all</option>\(opts(.config))</select></label>",
		"<label>ABI <select id=\"f-abi\"><option value=\"\">all</option>\($abis | map("<option>\(.)</option>") | join(""))</select></label></p>",
		(if ($fv | length) == 0 then empty else
			"<section id=\"faked\"><h2>Faking the clock in userspace (libfaketime) beside the real kernel</h2>",
			"<p>Each host (libfaketime) cell beside the same cell of its machine&#39;s compat32=y boot. \($limits | h)</p>",
			"<table><tr><th>machine</th><th>cells</th><th>agrees</th><th>differs</th><th>cannot be faked</th></tr>",
			([$fv[]] | group_by(.arch)[] | "<tr><td>\(.[0].arch | h)</td><td>\(length)</td><td>\([.[] | select(.how == "agrees")] | length)</td><td>\([.[] | select(.how == "differs")] | length)</td><td>\([.[] | select(.how == "cannot")] | length)</td></tr>"),
			"</table><table><tr><th>machine</th><th>abi</th><th>scenario.case.phase</th><th>libfaketime</th><th>real kernel</th><th>why</th></tr>",
			($fv[] | select(.how == "differs") | "<tr><td>\(.arch | h)</td><td>\(.abi | h)</td><td>\(.cell | h)</td><td class=\"vs o-\(.faked | h)\" title=\"\(.detail | h)\">\(.faked | h)</td><td class=\"vs o-\(.real | h)\">\(.real | h)</td><td>\(.why | h)</td></tr>"),
			"</table></section>" end),
		"<!-- timelines -->",
		(group_by(.boot)[] | . as $boot | [$abis[] as $a | select(any($boot[]; .abi == $a)) | $a] as $cols
		 | "<section class=\"boot\" data-arch=\"\(.[0].arch | h)\" data-config=\"\(.[0].config | h)\">",
		   "<h2>\(.[0].boot | h): \(.[0].arch | h) \(.[0] | column | h), kernel \(.[0].kernel_source | h) \(.[0].kernel | h), patches \(.[0].patches | h), accel \(.[0].accel | h)</h2>",
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

# Every boot's clock timelines (legacy and time64 binaries), one plot each.
timelines() {
	local b
	echo "<h2>Across the overflow: what each way of reading the clock returned</h2>"
	for b in "$run"/boots/*/; do
		[ -f "$b/tap.log" ] && grep -q '^# # timeline ' "$b/tap.log" || continue
		case $(basename "$b") in
		*-libfaketime*) how="libfaketime's offset moved there, the host's clock untouched" ;;
		*) how="the clock set there" ;;
		esac
		timeline_svg "$b/tap.log" "$(basename "$b"): a reading at each second, $how (time64 readers: clock_gettime64)"
	done
}

markdown >"$run/report.md.tmp" && mv "$run/report.md.tmp" "$run/report.md"
timelines >"$run/timelines.tmp"
html | sed -e "/^<!-- timelines -->$/r $run/timelines.tmp" -e '/^<!-- timelines -->$/d' >"$run/report.html.tmp"
rm -f "$run/timelines.tmp"
mv "$run/report.html.tmp" "$run/report.html"
echo "report: $run/report.html, $run/report.md"
