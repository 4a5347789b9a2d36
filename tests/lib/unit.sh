# unit.sh - sourced by the unit tests (tests/unit/*.sh), which make runs as
# SCRIPT HOST_TOOLS_DIR BUILD: sets $host (the built tools), $build, $top
# (the tree), $fixtures and $work (a scratch folder, removed at exit),
# exports LAB_COLLECT (the built collector) and PYTHONPATH (its Python face,
# as make does: host-tools/verdicts/verdicts.mk), and sources tap.sh.
[ $# -ge 2 ] || { echo "usage: $0 HOST_TOOLS_DIR BUILD" >&2; exit 2; }
host=$(realpath "$1")
build=$(realpath "$2")
# the collector the readers of results and boots ask (host-tools/verdicts/collector.py)
export LAB_COLLECT=$host/y2038-collect
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export PYTHONPATH=$top/host-tools/verdicts
fixtures=$top/tests/fixtures
work=$(realpath "$(mktemp -d)")	# the scanner prints resolved paths
trap 'rm -rf "$work"' EXIT
# shellcheck source=host-tools/tap.sh
. "$top/host-tools/tap.sh"
