# Debian 12 "bookworm": glibc 2.36, and every 32-bit architecture still on
# 32-bit time_t (its coreutils and findutils are time64 by gnulib's year2038
# module). One file per distribution the lab knows; keys:
#   suite          the Debian suite its packages come from
#   demo_packages  what the old-binaries demo unpacks into the guest
#   programs       the demo's programs, PROGRAM=SESSION[+SESSION...]: the
#                  session runner named PROGRAM (SCENARIO-ABI: the ABI its
#                  programs were built with) runs the commands of
#                  distros/SESSION.tsv; programs.<userland> where a
#                  userland's differ
#   config_package the package of its shipped kernel configs (validate-distro)
#   apps_packages  the apps family's applications (with their dependencies)
#   apps_abi       the time_t its applications were built with (legacy,
#                  time64); apps_abi.<userland> where userlands differ
#   go             the version of its Go (golang-VERSION-go): the apps
#                  family's Go program is built with it
#   rust           the version of its rustc (Debian's rustc, unversioned in
#                  the archive: a suite whose rustc is another is an error):
#                  the apps family's Rust program is built with it and the
#                  userland's libstd-rust-dev (host-tools/initramfs/rust.sh)
#   go_more        more Go versions the apps family runs beside it (as
#                  goVVV_* cases), SUITE:VERSION of Debian's golang-VERSION-go
#                  (optional)
#   libc_scenarios the machines whose demo boot also runs the lab's libc
#                  programs on this distribution's libc (dynamically linked;
#                  optional)
#   glibc_source   the version of its glibc-source package the lab
#                  rebuilds for time64-only kernels (host-tools/libc/;
#                  optional)
#   musl_source    the version of its musl source package the lab
#                  rebuilds for time64-only kernels (host-tools/libc/
#                  musl.mk; optional)
# make validate-distro DISTRO=<name> validates it; make run boots the demo
# of each of DEMO_DISTROS.
bookworm.suite         := bookworm
bookworm.demo_packages := libc6 libgcc-s1 libacl1 libattr1 libgmp10 libselinux1 libpcre2-8-0 \
	coreutils findutils dash busybox-static
bookworm.programs      := bookworm-legacy=bookworm/busybox+bookworm/dash bookworm-time64=bookworm/time64
bookworm.config_package := linux-config-6.1
# apps: the apps family's applications (scenarios/apps/session.tsv), with
# all they depend on; apps_abi (.<userland> where they differ): the time_t
# they were built with. All of bookworm's 32-bit programs have 32-bit time_t.
bookworm.apps_packages := dash coreutils tar busybox-static python3-minimal python3.11 \
	libpython3.11-testsuite openssl sqlite3 snooze util-linux-extra perl-base perl gojq \
	nodejs fd-find git gpg gpg-agent systemd findutils
bookworm.apps_abi      := legacy
bookworm.go            := 1.19
bookworm.rust          := 1.63
