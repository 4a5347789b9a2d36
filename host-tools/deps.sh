#!/usr/bin/env bash
# deps.sh - make sure the Debian packages the lab needs are installed.
#
#   deps.sh PACKAGE...
#
# Installs nothing when all are there. As root it installs what is missing
# with apt-get; otherwise it prints the exact command and fails.
# (Never gcc-multilib: it conflicts with the ARM cross compilers.)
set -euo pipefail

missing=()
for p in "$@"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "y2038-lab: these Debian packages are missing: ${missing[*]}" >&2
	echo "y2038-lab: install them as root, then run make again:" >&2
	echo "  sudo apt-get update && sudo $cmd" >&2
	exit 1
fi
echo "  DEPS     installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
$cmd
