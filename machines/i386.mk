# i386: a 32-bit x86 PC kernel running the i386 userland.
# One file per machine; the Makefile reads every machines/*.mk. Keys:
#   karch, ktarget, kimage, kcross  the kernel's ARCH, make target, image, CROSS_COMPILE
#   fragment                        its config fragment (plus common and compat32-y/n)
#   userland, ucross                which scenario build runs on it, and its compiler
#   qemu, qemu_args                 the emulator and the board
#   console, tap_dev                kernel console, and the guest device TAP goes to
#   console_qemu, tap_qemu          how qemu wires them to files (@FILE@ is the path)
#   accel                           accelerators to try in order (kvm only if proved)
#   packages                        the Debian packages this machine needs
#   kunit_arch, kunit_add           kunit.py --arch for the patches' KUnit tests, and
#                                   options added to its config (both optional)
#   distro_arch, debian_flavour     make validate-distro boots roots of this Debian
#   scan_machine                    architecture here, against Debian's shipped config
#                                   of this kernel flavour; y2038-scan's name for the
#                                   root's programs' machine (all optional)
#   faketime, faketime_packages     how this host runs the userland's programs for the
#                                   libfaketime column (native, or qemu-user's qemu-ARCH),
#                                   and the packages that takes (optional: no column)
#   lava_arch                       LAVA's name for the architecture (make lava)
i386.karch        := i386
i386.ktarget      := bzImage
i386.kimage       := arch/x86/boot/bzImage
i386.kcross       :=
i386.fragment     := patches/config/arch-i386.config
i386.userland     := i386
i386.ucross       := i686-linux-gnu-
i386.qemu         := qemu-system-i386
i386.qemu_args    := -M pc -m 128
i386.console      := ttyS0
i386.tap_dev      := /dev/ttyS1
i386.console_qemu := -serial file:@FILE@
i386.tap_qemu     := -serial file:@FILE@
i386.accel        := kvm tcg
i386.packages     := gcc-i686-linux-gnu libc6-dev-i386-cross qemu-system-x86
i386.kunit_arch   := i386
# i386 runs the KUnit tests with RTC_HCTOSYS_Y2038=y, armv7 without: both
# answers of rtc_hctosys_time_ok() are tested.
i386.kunit_add    := CONFIG_RTC_HCTOSYS_Y2038=y
i386.distro_arch    := i386
i386.debian_flavour := 686-pae
i386.scan_machine   := i386
# x86-64 runs i386 programs itself (IA32 emulation).
i386.faketime       := native
i386.lava_arch      := i386
