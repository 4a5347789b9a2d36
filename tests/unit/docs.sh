#!/usr/bin/env bash
# docs.sh - the front door and the map stay whole: docs/layout.md names
# every folder and file of host-tools/ and every file of data/; the README
# fits its 150 lines, shows the data flow in its first screen, and every
# target its table names is one make knows.
#
#   tests/unit/docs.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

layout=$top/docs/layout.md
for f in "$top"/host-tools/* "$top"/data/*; do
	rel=${f#"$top"/}
	[ -d "$f" ] && rel=$rel/
	case $rel in data/*) name=$(basename "$rel") ;; *) name=$rel ;; esac
	expect "docs/layout.md names $rel" grep -qF "\`$name\`" "$layout"
done
readme=$top/README.md
expect "README.md is at most 150 lines ($(wc -l <"$readme"))" test "$(wc -l <"$readme")" -le 150
expect "README.md shows the data flow in its first 45 lines" \
	bash -c "head -45 '$readme' | grep -q 'host-tools/kernel/' && head -45 '$readme' | grep -q 'host-tools/report/'"
# Every target the README's table names is a target make knows.
known=$(make -C "$top" -pnq BUILD="$work/build" CACHE="$work/cache" RESULTS="$work/results" 2>/dev/null |
	sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' | sort -u)
for t in $(sed -n 's/^| `make \([a-z][a-z0-9-]*\).*/\1/p' "$readme" | sort -u); do
	expect "README's make $t is a target" grep -qx "$t" <<<"$known"
done
tap_end
