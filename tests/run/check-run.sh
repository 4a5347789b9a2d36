#!/usr/bin/env bash
# check-run.sh - assertions on a real run of the lab (make boot-check).
#
#   tests/run/check-run.sh RUN_DIR BOOTS HOST_COLUMNS
#
# BOOTS guests (one per machine, config and boot kind the run had) booted
# for real, reached the end of their scenarios, recorded how they were
# accelerated, and every cell matched its expectation. Each host
# (libfaketime) column ran all its programs, none with CAP_SYS_TIME.
set -uo pipefail

run=$1 nboots=$2 nhost=${3:-0}
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
not() { ! "$@"; }

boots=$(find "$run/boots" -mindepth 1 -maxdepth 1 -type d ! -name '*-libfaketime*' ! -name '.*' | sort)
hosts=$(find "$run/boots" -mindepth 1 -maxdepth 1 -type d -name '*-libfaketime*' | sort)
expect "boot-check: one boot per machine, config and kind ($nboots)" \
	test "$(echo "$boots" | grep -c .)" = "$nboots"
for b in $boots; do
	name=$(basename "$b")
	expect "boot-check: $name: qemu exited by itself" grep -qx 'qemu_status=exited' "$b/meta"
	expect "boot-check: $name: the kernel console was kept" grep -q '^Linux version' "$b/console.log"
	expect "boot-check: $name: guest-init reached its end" grep -qx '# y2038-init: done' "$b/tap.log"
	expect "boot-check: $name: accel is recorded as kvm or tcg" grep -qxE 'accel=(kvm|tcg)' "$b/meta"
done
expect "boot-check: the host (libfaketime) columns of the machines that have them ($nhost)" \
	test "$(echo "$hosts" | grep -c .)" = "$nhost"
for h in $hosts; do
	name=$(basename "$h")
	# A host whose kernel refuses the column's programs runs them under
	# qemu-user (machines/*.mk: faketime): the column is measured everywhere.
	expect "boot-check: $name: measured, not skipped ($(sed -n 's/^accel=//p' "$h/meta"))" \
		not grep -qx 'qemu_status=skipped' "$h/meta"
	programs=$(sed -n 's/^scenarios=//p' "$h/meta" | tr , '\n' | grep -c .)
	expect "boot-check: $name: no error recorded" not grep -q '^error=' "$h/meta"
	expect "boot-check: $name: accel is recorded as native or qemu-user" grep -qxE 'accel=(native|qemu-user)' "$h/meta"
	expect "boot-check: $name: all $programs programs ran to their totals" \
		test "$(grep -c '^# # Totals:' "$h/tap.log")" = "$programs"
	expect "boot-check: $name: the runner reached its end" grep -qx '# y2038-init: done' "$h/tap.log"
	expect "boot-check: $name: run without capabilities (setpriv)" grep -q '^# host: .*setpriv .*--no-new-privs' "$h/tap.log"
	expect "boot-check: $name: no program found CAP_SYS_TIME" not grep -q 'Bail out' "$h/tap.log"
done
cells=$(jq length "$run/results.json")
expect "boot-check: results.json holds cells ($cells)" test "$cells" -gt 0
expect "boot-check: every cell matches its expectation" \
	test "$(jq '[.[] | select(.verdict != "match")] | length' "$run/results.json")" = 0
expect "boot-check: every libc cell measured names the libc its program ran on (glibc-X.Y, musl-X.Y.Z)" \
	test "$(jq '[.[] | select((.abi == "legacy" or .abi == "time64") and .verdict != "skip"
		and .scenario != "census" and (.libc | test("^(glibc|musl)-[0-9]") | not))] | length' "$run/results.json")" = 0
# The libc column: musl's programs in every matrix boot, and the lab's own
# programs on trixie's glibc in its demo boots (distros/trixie.mk).
musl_boots=$(grep -l '^scenarios=.*-musl' "$run"/boots/*/meta 2>/dev/null | grep -c .)
if [ "$musl_boots" -gt 0 ]; then
	expect "boot-check: every boot that ran musl programs has musl cells ($musl_boots)" \
		test "$(jq '[.[] | select(.libc | startswith("musl-")) | .boot] | unique | length' "$run/results.json")" = "$musl_boots"
else
	skip "boot-check: every boot that ran musl programs has musl cells" "no boot of this run ran musl programs (MUSL=no, or no machine with a musl_target)"
fi
libc_boots=$(grep -l '^scenarios=trixie.*,clock-legacy' "$run"/boots/*-trixie/meta 2>/dev/null | grep -c .)
if [ "$libc_boots" -gt 0 ]; then
	expect "boot-check: every trixie boot that ran the lab's programs has their cells on trixie's glibc, no raw ones ($libc_boots)" \
		test "$(jq '[.[] | select(.kind == "trixie" and .scenario == "clock" and (.libc | startswith("glibc-"))) | .boot] | unique | length' "$run/results.json") $(jq '[.[] | select(.kind == "trixie" and (.abi | startswith("raw")))] | length' "$run/results.json")" = "$libc_boots 0"
else
	skip "boot-check: every trixie boot that ran the lab's programs has their cells on trixie's glibc" "no trixie boot of this run ran the lab's programs"
fi
# The apps family: every apps boot has a cell for each command of its
# session (scenarios/apps/session.tsv, and its go_* commands again for each
# of the distribution's go_more), as many as the session's plan says.
apps_commands=$(grep -c $'^[a-z]*\t' "$(dirname "$0")/../../scenarios/apps/session.tsv")
compgen -G "$run/boots/*-apps" >/dev/null ||
	skip "boot-check: an apps cell for each of the session's commands" "this run has no apps boot"
for b in "$run"/boots/*-apps; do
	[ -d "$b" ] || continue
	plan=$("${LAB_COLLECT:?make exports the collector}" --boot "$b" --json | jq '[.tap.programs[] | select(.name | startswith("apps-")) | .plan] | first // 0')
	expect "boot-check: $(basename "$b"): an apps cell for each of the session's $plan commands (at least the $apps_commands of session.tsv)" \
		test "$plan" -ge "$apps_commands" -a "$(jq --arg b "$(basename "$b")" '[.[] | select(.boot == $b and .scenario == "apps")] | length' "$run/results.json")" = "$plan"
done
nconfigs=$(echo "$boots" | grep -o 'compat32-[yn]' | sort -u | grep -c .)
if [ "$nconfigs" -ge 2 ]; then
	expect "boot-check: both configs were measured" \
		test "$(jq -r '[.[].config | select(startswith("compat32"))] | unique | join(" ")' "$run/results.json")" = "compat32-n compat32-y"
else
	skip "boot-check: both configs were measured" "this run booted one config ($(echo "$boots" | grep -o 'compat32-[yn]' | sort -u))"
fi
tap_end
