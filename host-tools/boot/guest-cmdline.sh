# guest-cmdline.sh - sourced by boot.sh and lava.sh: the guest's kernel
# command line, in one place, so a LAVA job boots exactly as the lab does.
#
#   guest_cmdline CONSOLE SCENARIOS TAP_DEV TIMEOUT [EXTRA]
guest_cmdline() {
	printf '%s' "console=$1 panic=-1 y2038.guest y2038.run=$2 y2038.tap=$3 y2038.timeout=$4${5:+ $5}"
}
