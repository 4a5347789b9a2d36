# Boot kinds: one data file each (kinds/<kind>.mk), or one for a family of
# kinds (the demos and the apps boots of each distribution, glibc's tests
# of each build, validate-distro's). A kind is what one boot of a machine
# with one kernel config carries and when: host-tools/boot/boot.mk makes a
# boot of each kind the run asks for (BOOT_KINDS) on each of its machines
# and configs, and writes each boot's plan from these keys
# (KIND.KEY; a function of the machine, $(1), where it says so):
#   initrd          its initramfs, built into build/USERLAND/ (every kind has one)
#   dir             its boots' folder suffix (-KIND by default; the matrix has none)
#   rtc             the guest's RTC at power-on
#   bins            the programs it runs, in order (of the machine)
#   memory          its memory in MiB, where it needs more than the machine's
#   distro          the distribution whose root it carries (- for none)
#   machines        the machines it boots on (all of the run's by default)
#   configs         the kernel configs it boots, by role (results-record.h:
#                   with-time32, without-time32; both by default)
#   flavour         its kernels' flavour (host-tools/kernel/kernel.mk), none by default
#   disk            a disk it boots from (validate-distro's roots), disk_writes
#                   keep or drop (the default); disks: more disks (of the machine)
#   append          what it adds to the kernel command line (of the machine)
#   guest_timeout, boot_timeout   its limits (GUEST_TIMEOUT, BOOT_TIMEOUT by default)
#   timed           no for a kind whose cases meet no moment (yes by default):
#                   a timed kind boots in one of the machine's timed slots (boot.sh)
#   default         yes: make run boots it (BOOT_KINDS' default)
#   schedule        where make starts its boots: the lower first (5 by default),
#                   so that the first verdicts come first and short boots, not
#                   a long one, end the run
KIND_KEYS := initrd dir rtc bins memory distro machines configs flavour disk disk_writes disks append \
	guest_timeout boot_timeout timed default schedule
