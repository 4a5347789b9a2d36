# Debian 12 "bookworm": glibc 2.36, and every 32-bit architecture still on
# 32-bit time_t (its coreutils and findutils are time64 by gnulib's year2038
# module). One file per distribution the lab knows; keys:
#   suite          the Debian suite its packages come from
#   demo_packages  what the old-binaries demo unpacks into the guest
#   sessions       the demo's sessions: distros/<name>/<session>.tsv, each run
#                  as the program <name>-<session> (the scenario is <name>)
#   config_package the package of its shipped kernel configs (validate-distro)
#   libc           its C library and version
# make validate-distro DISTRO=<name> validates it; the demo boots
# DEMO_DISTROS (make run), which need the sessions.
bookworm.suite         := bookworm
bookworm.demo_packages := libc6 libgcc-s1 libacl1 libattr1 libgmp10 libselinux1 libpcre2-8-0 \
	coreutils findutils dash busybox-static
bookworm.sessions      := legacy time64
bookworm.config_package := linux-config-6.1
bookworm.libc          := glibc-2.36
