# i386: a 32-bit x86 PC kernel running the i386 userland.
# Keys and their defaults: machines/defaults.mk.
i386.karch          := i386
i386.board          := pc
i386.userland       := i386
i386.qemu           := qemu-system-i386
i386.memory         := 128
i386.bits           := 32
i386.accel          := kvm tcg
i386.packages       := qemu-system-x86
# qemu-system-i386's own default CPU, named: LAVA's qemu template would
# otherwise say core2duo.
i386.qemu_cpu       := qemu32
# i386 runs the KUnit tests with RTC_HCTOSYS_Y2038=y, armv7 without: both
# answers of rtc_hctosys_time_ok() are tested.
i386.kunit_arch     := i386
i386.kunit_add      := CONFIG_RTC_HCTOSYS_Y2038=y
# make validate-distro boots Debian's i386 roots here, against Debian's
# 686-pae config.
i386.distro_arch    := i386
i386.debian_flavour := 686-pae
