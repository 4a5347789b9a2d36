#!/usr/bin/env bash
# deps.sh - make sure the Debian packages the lab needs are installed.
#
#   deps.sh [--optional] PACKAGE...
#
# --optional: the packages of particular machines. When they cannot be had,
# say so and go on: those machines are skipped with the reason.
#
# Installs nothing when all are there. As root it installs what is missing
# with apt-get; otherwise it prints the exact command and fails.
# (Never gcc-multilib: it conflicts with the ARM cross compilers.)
# apt-get runs with Debian's own PATH: a maintainer script's "python3" must
# be Debian's (lava-server's postinst fails under another one, pyenv's). It
# starts no service and loads nothing into this machine's kernel: first in
# dpkg's PATH, invoke-rc.d and deb-systemd-invoke (which maintainer scripts
# start services with), modprobe and insmod are stand-ins that say what they
# were asked and do nothing (mdadm's postinst, which lava-dispatcher brings
# through libguestfs0, runs "modprobe md"; fuse3's, "modprobe fuse"). The
# host's /usr/sbin/policy-rc.d is never written: a SIGKILL would leave it.
set -euo pipefail

optional=0
if [ "${1:-}" = --optional ]; then
	optional=1	# machines' packages: without them a machine is skipped
	shift
fi
missing=()
for p in "$@"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ] && [ $optional -eq 1 ]; then
	echo "y2038-lab: machines needing ${missing[*]} will be skipped; to run them:" >&2
	echo "  sudo apt-get update && sudo $cmd" >&2
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "y2038-lab: these Debian packages are missing: ${missing[*]}" >&2
	echo "y2038-lab: install them as root, then run make again:" >&2
	echo "  sudo apt-get update && sudo $cmd" >&2
	exit 1
fi
echo "  DEPS     installing ${missing[*]}"
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/lib.sh"
standins=$(mktemp -d)
trap 'rm -rf "$standins"' EXIT
no_module_loading "$standins"
no_service_starts "$standins"
# apt-get gives dpkg its own PATH (DPkg::Path): the stand-ins go first there
export DEBIAN_FRONTEND=noninteractive PATH=$standins:/usr/sbin:/usr/bin:/sbin:/bin
cmd="apt-get -o DPkg::Path=$PATH install -y --no-install-recommends ${missing[*]}"
apt-get update -qq
# shellcheck disable=SC2086
if ! $cmd && [ $optional -eq 1 ]; then
	echo "y2038-lab: could not install ${missing[*]}: the machines needing them will be skipped" >&2
elif [ $optional -eq 0 ]; then
	# shellcheck disable=SC2086
	dpkg-query -W $* >/dev/null	# fail loudly if apt-get did not deliver
fi
