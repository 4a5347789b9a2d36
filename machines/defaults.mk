# Every machine's keys, and the value a machine has unless its own file
# (machines/<name>.mk, one per machine) says otherwise. Keys:
#   karch, ktarget, kimage, kcross  the kernel's ARCH, make target, image, CROSS_COMPILE
#   bits                            the kernel's word size, 32 or 64: every subset of
#                                   "the 32-bit machines" is derived from it (Makefile)
#   fragment                        its config fragment (plus common and compat32-y/n)
#   userland, ucross                which scenario build runs on it, and its compiler
#   elf_machine                     the ELF machine (e_machine) of its userland's programs:
#                                   3 for i386, 40 for ARM (a root's programs are checked
#                                   against it)
#   musl_target                     Debian musl-dev's target for that userland: the
#                                   machine runs the musl column (optional)
#   qemu, qemu_args, memory         the emulator, the board, and the guest's memory in
#                                   MiB (a boot kind may ask for more: host-tools/boot/boot.mk)
#   console, tap_dev                kernel console, and the guest device TAP goes to
#   append                          what the machine's kernel command line adds
#   console_qemu, tap_qemu          how qemu wires them to files (@FILE@ is the path)
#   accel                           accelerators to try in order (kvm only if proved)
#   packages                        the Debian packages this machine needs
#   kunit_arch, kunit_add           kunit.py --arch for the patches' KUnit tests, and
#                                   options added to its config (both optional)
#   distro_arch, debian_flavour     make validate-distro boots roots of this Debian
#   scan_machine                    architecture here, against Debian's shipped config
#                                   of this kernel flavour; y2038-scan's name for the
#                                   root's programs' machine (all optional)
#   debian_arch                     the Debian architecture of that config (default:
#                                   distro_arch; amd64 for a 64-bit kernel that a
#                                   distribution runs its i386 roots on)
#   faketime, faketime_packages     the ways this host may run the userland's programs
#                                   for the libfaketime column, tried in order (native,
#                                   or qemu-user's qemu-ARCH), and the packages they take
#                                   (optional: no column)
#   lava_arch                       LAVA's name for the architecture (make lava)
#   virtio_blk                      QEMU's virtio block device on the board: a
#                                   distribution's root disk (make validate-distro)
#   board                           the QEMU board's facts below (pc, arm-virt), which
#                                   a machine has unless it says otherwise
MACHINE_KEYS := karch bits ktarget kimage kcross fragment userland elf_machine ucross qemu qemu_args memory \
	console tap_dev console_qemu tap_qemu accel packages kunit_arch kunit_add \
	musl_target distro_arch debian_arch debian_flavour scan_machine faketime faketime_packages lava_arch board \
	virtio_blk append


# A machine's value of a key: its own, else its board's, else this default
# ($(1) is the machine's name).
default.kcross       :=
# The image kbuild leaves: arch/ARCH/boot/TARGET (the PC's is under x86/).
default.kimage        = arch/$($(1).karch)/boot/$($(1).ktarget)
default.fragment      = patches/config/arch-$(1).config
default.console_qemu := -serial file:@FILE@
default.tap_qemu     := -serial file:@FILE@
default.accel        := tcg
default.lava_arch     = $($(1).karch)
default.debian_arch   = $($(1).distro_arch)

# The PC: console on the first 8250 UART, TAP on the second.
board.pc.ktarget      := bzImage
board.pc.kimage       := arch/x86/boot/bzImage
board.pc.console      := ttyS0
board.pc.tap_dev      := /dev/ttyS1
board.pc.virtio_blk   := virtio-blk-pci
# The guest's TSC runs at the host's (under TCG QEMU reads the host's):
# given its rate, the kernel does not calibrate it against the emulated PIT,
# which on a busy host now and then gives a wrong one (638 MHz for 2596)
# and a clock that runs seconds fast until the watchdog notices. The guest
# keeps the TSC, as a PC does: 7.2's hrtimer race needs it (run hrtimer2).
board.pc.append       := tsc_early_khz=@HOST_TSC_KHZ@
# QEMU's ARM virt board: console on the PL011, TAP on a virtio console (virt
# has one UART).
board.arm-virt.console  := ttyAMA0
board.arm-virt.tap_dev  := /dev/hvc0
board.arm-virt.virtio_blk := virtio-blk-device
board.arm-virt.tap_qemu := -device virtio-serial-device -chardev file,id=tap,path=@FILE@ -device virtconsole,chardev=tap
