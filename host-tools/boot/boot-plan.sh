#!/usr/bin/env bash
# boot-plan.sh - write a boot's plan: the boot record (boot-record.h) of
# what make knows of a boot before it boots it (host-tools/boot/boot.mk),
# which boot.sh, lava.sh and the other tools that boot read.
#
#   boot-plan.sh FILE KEY=VALUE...
#
# Written whole (lib.sh's boot_record: a key boot-record.h does not list is
# refused), and only when it changed, so that its time says when it did.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
[ $# -ge 1 ] || die "usage: boot-plan.sh FILE KEY=VALUE..."
file=$1
shift
mkdir -p "$(dirname "$file")"
boot_record "$file.new" "$@"
if cmp -s "$file.new" "$file"; then
	rm -f "$file.new"
else
	mv "$file.new" "$file"
fi
