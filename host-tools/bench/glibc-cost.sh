#!/usr/bin/env bash
# glibc-cost.sh - make bench-glibc: futex-cost (futex-cost.c) booted in a
# root with each libc, on each config, one boot after another, and what
# each way cost there, side by side.
#
#   glibc-cost.sh out=DIR run_id=ID cache=DIR probe=KVM_PROBE rtc_base=ISO
#       guest_timeout=S boot_timeout=S
#       boots="MACHINE:CONFIG:KERNEL_ENV:MACHINE_ENV:INITRD:LIBC ..."
#
# LIBC is what the table calls the root's libc (shipped, or the lab's
# build's kind); the TAP names the libc the program ran on, and the row
# keeps that name too. Each boot's folder is DIR/boots/MACHINE-CONFIG-LIBC.
#   DIR/glibc-cost.tsv  machine config libc libc_name way cost_ns median_ns
#                       how: cost_ns the fastest run's ns a call (cost.h),
#                       or SKIP or an error class, and why
#   DIR/glibc-cost.txt  the table: a row per machine, libc and way, a
#                       column per config
# A boot or a program that gave no rows is a "failed" row naming the boot
# and how it ended. Exit 1 when any row failed. The boots are read through
# the collector (LAB_COLLECT, --boot DIR --json).
# shellcheck disable=SC2016 # the $names in jq's programs are jq's
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
need out run_id cache probe rtc_base guest_timeout boot_timeout boots

mkdir -p "$out/boots" "$out/plans"
printf 'machine\tconfig\tlibc\tlibc_name\tway\tcost_ns\tmedian_ns\thow\n' >"$out/glibc-cost.tsv.tmp"
for boot in $boots; do
	IFS=: read -r machine config kernel_env machine_env initrd libc <<<"$boot"
	dir=$out/boots/$machine-$config-$libc
	say BOOT "futex-cost: $machine $config, $libc glibc ($dir)"
	boot_planned "$out/plans/${dir##*/}" run_id="$run_id" machine_env="$machine_env" config="$config" \
		kind=glibc-cost kernel_env="$kernel_env" initrd="$initrd" scenarios=futex-cost-time64 memory=512 \
		rtc_base="$rtc_base" guest_timeout="$guest_timeout" boot_timeout="$boot_timeout" -- \
		out="$dir" probe="$probe" cache="$cache" >/dev/null
	"${LAB_COLLECT:?make exports LAB_COLLECT, the collector}" --boot "$dir" --json |
		jq -r --arg machine "$machine" --arg config "$config" --arg libc "$libc" --arg dir "$dir" '
			.record as $r | ([.tap.programs[] | select(.name == "futex-cost-time64")] | first) as $p |
			[$machine, $config, $libc, ($p.libc // "-")] as $key |
			if ($p.cases // []) == [] then
				$key + ["-", "failed", "-", "no result in boot \($dir): \($p.bail // $r.error // "qemu \($r.qemu_status // "left no record")")"]
			else
				$p.cases[] |
				if .class == "PASS" then
					(.detail | capture("^(?<ns>[0-9.]+) ns a call .*median (?<median>[0-9.]+)\\): (?<how>.*)$")) as $m |
					$key + [.case, $m.ns, $m.median, $m.how]
				else $key + [.case, .class, "-", .detail] end
			end | @tsv' >>"$out/glibc-cost.tsv.tmp"
done
mv "$out/glibc-cost.tsv.tmp" "$out/glibc-cost.tsv"
rc=0
# Only a row with no result fails the part, as the header says: a call's
# error class (the shipped glibc's CRASH on =n, every build's on -pre51
# with =n, a kernel with neither call) is what the table shows, measured.
awk -F'\t' 'NR > 1 && $6 == "failed" { bad = 1 } END { exit bad }' "$out/glibc-cost.tsv" || rc=1
# The table: ns a call, a column per config.
awk -F'\t' 'NR > 1 { print $1 "\t" $3 "\t" $5 "\t" $2 "\t" ($6 ~ /^[0-9.]+$/ ? sprintf("%.0f", $6) : $6) }' \
	"$out/glibc-cost.tsv" | pivot $'machine\tlibc\tway' | column -t -s $'\t' >"$out/glibc-cost.txt.tmp"
{
	echo
	echo "ns a call, the fastest of 61 runs (cost.h, futex-cost.c); under TCG the ns are the emulator's: compare"
	echo "within this table only. -pre51: after a seccomp filter made futex_time64 and clock_nanosleep_time64 fail"
	echo "with ENOSYS, as on a kernel before Linux 5.1. SKIP: a build that does not run there."
} >>"$out/glibc-cost.txt.tmp"
mv "$out/glibc-cost.txt.tmp" "$out/glibc-cost.txt"
cat "$out/glibc-cost.txt"
exit $rc
