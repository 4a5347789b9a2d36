#!/usr/bin/env bash
# clock-cost.sh - make bench's clock part: clock-cost (a guest program,
# scenarios/bench/clock-cost.c) booted on each kernel, config and machine,
# one boot after another, ROUNDS times over, and what one clock read cost
# each way, side by side.
#
#   clock-cost.sh out=DIR run_id=ID rounds=N cache=DIR probe=KVM_PROBE
#       rtc_base=ISO guest_timeout=S boot_timeout=S
#       boots="KERNEL:MACHINE:CONFIG:KERNEL_ENV:MACHINE_ENV:INITRD:PROGRAM,PROGRAM ..."
#
# Rounds, not one longer boot: under TCG on a busy host a whole program can
# run slower for a second (every one of its rows, its median too); the
# fastest of N boots, taken in turn with the others, is the cost.
#
# Leaves each boot's folder in DIR/boots/, and:
#   DIR/clock-cost-boots.tsv  one row a way and boot, its first line the
#                       columns: round kernel_source kernel config machine
#                       abi way cost_ns median_ns how
#   DIR/clock-cost.tsv  one row a way, kernel, config and machine, its first
#                       line the columns: kernel_source kernel config machine
#                       abi way cost_ns rounds_ns how. cost_ns: the fastest
#                       boot's ns a call, or absent, ENOSYS, an errno's name,
#                       or failed; rounds_ns: each boot's, in turn; how: the
#                       vDSO entry and syscalls one call went through, or why
#                       there is no number
#   DIR/clock-cost.txt  the same as a table, a column per kernel and config
# A boot is read through the collector (LAB_COLLECT, --boot DIR --json). A
# boot or a program that gave no rows is a "failed" row naming the boot and
# how it ended. Exit 1 when any row failed.
# shellcheck disable=SC2016 # the $names in jq's programs are jq's
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
need out run_id rounds cache probe rtc_base guest_timeout boot_timeout boots

mkdir -p "$out/boots"
raw=$out/clock-cost-boots.tsv
printf 'round\tkernel_source\tkernel\tconfig\tmachine\tabi\tway\tcost_ns\tmedian_ns\thow\n' >"$raw.tmp"
: >"$out/context.tmp"
for round in $(seq 1 "$rounds"); do
	for boot in $boots; do
		IFS=: read -r source machine config kernel_env machine_env initrd programs <<<"$boot"
		dir=$out/boots/$machine-$config-${source#linux-source-}-r$round
		say BOOT "clock-cost, round $round of $rounds: $source $machine $config ($dir)"
		boot_planned "$out/plans/${dir##*/}" run_id="$run_id" machine_env="$machine_env" config="$config" \
			kind=clock-cost kernel_env="$kernel_env" initrd="$initrd" scenarios="$programs" rtc_base="$rtc_base" \
			guest_timeout="$guest_timeout" boot_timeout="$boot_timeout" -- \
			out="$dir" probe="$probe" cache="$cache" >/dev/null
		json=$("${LAB_COLLECT:?make exports LAB_COLLECT, the collector}" --boot "$dir" --json)
		# A row per case of each program (a raw way's ABI is its own, a libc
		# way's its program's: clock-cost-KIND); a program without cases is a
		# failed row saying how it, or its boot, ended.
		jq -r --arg round "$round" --arg source "$source" --arg machine "$machine" --arg config "$config" \
			--arg programs "$programs" --arg dir "$dir" '
			.record as $r | .tap.programs as $ran |
			($r.error // (if $r.qemu_status == "exited" then null else "qemu \($r.qemu_status // "left no record")" end)) as $ended |
			($programs | split(","))[] as $p |
			([$ran[] | select(.name == $p)] | first) as $prog |
			[$round, $source, ($r.kernel // "-"), $config, $machine] as $key |
			if ($prog.cases // []) == [] then
				$key + [($p | sub("^clock-cost-"; "")), "-", "failed", "-",
					"no result from \($p) in boot \($dir): \($prog.bail // $prog.result.directive // $ended // "it did not run")"]
			else
				$prog.cases[] | . as $c |
				(if (.abi | startswith("raw")) then .abi else ($p | sub("^clock-cost-"; "")) end) as $abi |
				if .class == "PASS" then
					(.detail | capture("^(?<ns>[0-9.]+) ns a call .*median (?<median>[0-9.]+)\\): (?<how>.*)$")) as $m |
					$key + [$abi, $c.case, $m.ns, $m.median, $m.how]
				elif .class == "SKIP" then
					$key + [$abi, $c.case, (.detail | split(":")[0]), "-", .detail]
				else
					$key + [$abi, $c.case, .class, "-", .detail]
				end
			end | @tsv' <<<"$json" >>"$raw.tmp"
		# What decides the costs besides the config (the program prints it last).
		[ "$round" -gt 1 ] || jq -r --arg at "${source#linux-source-} $config $machine" '
			[.tap.programs[] | select(.name | startswith("clock-cost-")) | .notes[].text |
				select(startswith("clocksource: ") or startswith("vDSO: "))] | unique | "\($at): \(join("; "))"' \
			<<<"$json" >>"$out/context.tmp"
	done
done
mv "$raw.tmp" "$raw"

# One row a way: the fastest boot's cost where every boot gave a number,
# the same reason where none did, else the first boot's failure.
awk -F'\t' -v OFS='\t' '
	NR == 1 { print "kernel_source", "kernel", "config", "machine", "abi", "way", "cost_ns", "rounds_ns", "how"; next }
	{
		key = $2 OFS $3 OFS $4 OFS $5 OFS $6 OFS $7
		if (!(key in n)) order[++nkeys] = key
		n[key]++
		if ($8 ~ /^[0-9.]+$/) {
			if (!(key in best) || $8 + 0 < best[key] + 0) best[key] = $8
			ns[key] = ns[key] (ns[key] == "" ? "" : " ") $8
			if (index(" | " hows[key] " | ", " | " $10 " | ") == 0)
				hows[key] = hows[key] (hows[key] == "" ? "" : " | ") $10
		} else {
			other[key]++
			if (!(key in why)) { what[key] = $8; why[key] = $10 }
			else if (what[key] != $8) { what[key] = "failed"; why[key] = "round " $1 ": " $8 ", " $10 "; " why[key] }
		}
	}
	END {
		for (k = 1; k <= nkeys; k++) {
			key = order[k]
			if (!other[key])
				print key, best[key], ns[key], hows[key]
			else if (other[key] == n[key])
				print key, what[key], "-", why[key]
			else
				print key, "failed", ns[key], "some boots gave no number: " why[key]
		}
	}' "$raw" >"$out/clock-cost.tsv.tmp"
mv "$out/clock-cost.tsv.tmp" "$out/clock-cost.tsv"
rc=0
# A number, or a SKIP's reason; anything else (failed, an errno) fails.
awk -F'\t' 'NR > 1 && $7 !~ /^([0-9.]+|absent|ENOSYS)$/ { bad = 1 } END { exit bad }' "$out/clock-cost.tsv" || rc=1

# The table: a row per machine, ABI and way; a column per kernel and config,
# in the order booted. A cost names the path one call took, shortened: v for
# a vDSO entry, s for a syscall, 32, 64 or tod for which (the legend below).
awk -F'\t' '
	function short(how,   out, n, i, part, kind) {
		if (how !~ /^(vDSO|syscall) / || how ~ / \| /)
			return "?"
		n = split(how, part, / \+ /)
		for (i = 1; i <= n; i++) {
			kind = part[i] ~ /^vDSO / ? "v" : "s"
			sub(/^(vDSO|syscall) /, "", part[i])
			gsub(/__vdso_/, "", part[i])
			gsub(/clock_gettime64/, kind "64", part[i])
			gsub(/clock_gettime/, kind "32", part[i])
			gsub(/gettimeofday/, kind "tod", part[i])
			gsub(/, /, "+", part[i])
			out = out (out == "" ? "" : "+") part[i]
		}
		return out
	}
	NR == 1 { next }
	{
		col = $1 " " $3; sub(/^linux-source-/, "", col)
		print $4 "\t" $5 "\t" $6 "\t" col "\t" ($7 ~ /^[0-9.]+$/ ? sprintf("%.0f %s", $7, short($9)) : $7)
	}' "$out/clock-cost.tsv" | pivot $'machine\tabi\tway' | column -t -s $'\t' >"$out/clock-cost.txt.tmp"
{
	echo
	echo "ns a call: the fastest of $rounds boots, each its fastest run (clock-cost.c); under TCG the ns are the"
	echo "emulator's: compare within this table only. The path one call took: v = a vDSO entry, s = a syscall;"
	echo "32 = clock_gettime, 64 = clock_gettime64, tod = gettimeofday (v64 = __vdso_clock_gettime64, v64+s64 ="
	echo "that entry making the syscall; ? = not traced, or not the same in every boot: clock-cost.tsv says)."
	echo "absent: the vDSO does not export the entry; ENOSYS: the kernel has no such syscall."
	cat "$out/context.tmp"
} >>"$out/clock-cost.txt.tmp"
rm -f "$out/context.tmp"
mv "$out/clock-cost.txt.tmp" "$out/clock-cost.txt"
cat "$out/clock-cost.txt"
exit $rc
