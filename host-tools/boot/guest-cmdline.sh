# guest-cmdline.sh - sourced by boot.sh and lava.sh: the guest's kernel
# command line, in one place, so a LAVA job boots exactly as the lab does.
#
#   guest_cmdline CONSOLE SCENARIOS TAP_DEV TIMEOUT [EXTRA]
#
# EXTRA: the machine's own (append in machines/*.mk) and a boot's.
#
# SCENARIOS and TIMEOUT may be empty: a guest that only shows it booted
# (boot.sh's KVM check).
guest_cmdline() {
	printf '%s' "console=$1 panic=-1 y2038.guest${2:+ y2038.run=$2} y2038.tap=$3${4:+ y2038.timeout=$4}${5:+ $5}"
}
