#!/usr/bin/env bash
# skipped.sh - a check of make check that this host does not make, said as
# one TAP skip with its reason (and counted), so that it never vanishes.
#
#   tests/run/skipped.sh CHECK REASON
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: skipped.sh CHECK REASON" >&2; exit 2; }
# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../../host-tools/tap.sh"
skip "$1" "$2"
tap_end
