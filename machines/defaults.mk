# Every machine's keys, and the value a machine has unless its own file
# (machines/<name>.mk, one per machine) says otherwise: its own value, else
# its userland's, else its board's, else the default below. Keys:
#   karch, ktarget, kimage, kcross  the kernel's ARCH, make target, image, CROSS_COMPILE
#   bits                            the kernel's word size, 32 or 64: every subset of
#                                   "the 32-bit machines" is derived from it (Makefile)
#   fragment                        its config fragment (plus common and compat32-y/n)
#   series_fragment, disk_fragment  what its kernel takes with the lab's series, and in
#                                   a flavour that boots disks: from its word size (the
#                                   series' options that exist on 32-bit kernels only)
#                                   and its board (how a disk attaches there). A fragment
#                                   named and missing is an error (host-tools/kernel/kernel.mk)
#   userland                        which userland's programs run on it (userland.*: below)
#   qemu, memory                    the emulator, and the guest's memory in MiB (a boot
#                                   kind may ask for more: host-tools/boot/boot.mk)
#   qemu_machine, qemu_cpu          QEMU's -M and -cpu (the board's machine by default,
#                                   and no -cpu: QEMU's own); LAVA's qemu device type
#                                   is told the same two (host-tools/engines/lava.sh)
#   qemu_extra                      more QEMU options (none; the fault boots add -S)
#   console, tap_dev                kernel console, and the guest device TAP goes to
#   append                          what the machine's kernel command line adds
#   console_qemu, tap_qemu          how qemu wires them: the console to a file (@FILE@
#                                   is its path), TAP to the character device @TAP@
#                                   (a file's, or stdio for LAVA: qemu_options in
#                                   host-tools/lib.sh)
#   accel                           accelerators to try in order (kvm only if proved)
#   packages                        the Debian packages this machine needs (its userland's
#                                   are added: userland.*.packages)
#   kunit_arch, kunit_add           kunit.py --arch for the patches' KUnit tests, and
#                                   options added to its config (both optional)
#   distro_arch, debian_flavour     make validate-distro boots roots of this Debian
#                                   architecture here, against Debian's shipped config
#                                   of this kernel flavour (both optional)
#   debian_arch                     the Debian architecture of that config (default:
#                                   distro_arch; amd64 for a 64-bit kernel that a
#                                   distribution runs its i386 roots on)
#   lava_arch                       LAVA's name for the architecture (make lava)
#   virtio_blk                      QEMU's virtio block device on the board: a
#                                   distribution's root disk (make validate-distro)
#   board                           the QEMU board's facts below (pc, arm-virt)
# A userland's keys (userland.<name>.<key>, the name its Debian architecture's),
# which each machine running it has:
#   ucross                          its cross compiler's prefix
#   elf_machine                     the ELF machine (e_machine) of its programs: a
#                                   root's programs are checked against it
#   goarch, goarm                   Go's GOARCH and GOARM for its programs
#   rust_target                     Rust's target for its programs (Debian's
#                                   libstd-rust-dev of its architecture has it)
#   musl_target                     Debian musl-dev's target: the 32-bit machines that
#                                   run it have the musl column (optional)
#   faketime, faketime_packages     the ways this host may run its programs for the
#                                   libfaketime column, tried in order (native, or
#                                   qemu-user's qemu-ARCH), and the packages they take:
#                                   the 32-bit machines that run it have the column
#   packages                        the Debian packages that build its programs
MACHINE_KEYS := karch bits ktarget kimage kcross fragment series_fragment disk_fragment userland \
	elf_machine ucross goarch goarm rust_target qemu qemu_machine qemu_cpu qemu_extra memory \
	console tap_dev console_qemu tap_qemu accel packages kunit_arch kunit_add \
	musl_target distro_arch debian_arch debian_flavour faketime faketime_packages lava_arch board \
	virtio_blk append

# The userlands: the 32-bit programs the lab builds and runs.
userland.i386.ucross            := i686-linux-gnu-
userland.i386.elf_machine       := 3
userland.i386.goarch            := 386
userland.i386.rust_target       := i686-unknown-linux-gnu
userland.i386.musl_target       := i386-linux-musl
# x86-64 runs i386 programs itself (IA32 emulation); a host kernel built or
# booted without it refuses them, and qemu-i386 runs them.
userland.i386.faketime          := native qemu-i386
userland.i386.faketime_packages := qemu-user
userland.i386.packages          := gcc-i686-linux-gnu libc6-dev-i386-cross
userland.armhf.ucross            := arm-linux-gnueabihf-
userland.armhf.elf_machine       := 40
# Debian's armhf baseline: ARMv7 with VFPv3-D16
userland.armhf.goarch            := arm
userland.armhf.goarm             := 7
userland.armhf.rust_target       := armv7-unknown-linux-gnueabihf
userland.armhf.musl_target       := arm-linux-musleabihf
# qemu-user, called directly: no binfmt registration on this host.
userland.armhf.faketime          := qemu-arm
userland.armhf.faketime_packages := qemu-user
userland.armhf.packages          := gcc-arm-linux-gnueabihf libc6-dev-armhf-cross

# A machine's value of a key, when neither it, its userland nor its board
# says ($(1) is the machine's name).
default.kcross       :=
# The image kbuild leaves: arch/ARCH/boot/TARGET (the PC's is under x86/).
default.kimage        = arch/$($(1).karch)/boot/$($(1).ktarget)
default.fragment      = patches/config/arch-$(1).config
default.series_fragment = $(bits.$($(1).bits).series_fragment)
default.console_qemu := -serial file:@FILE@
default.tap_qemu     := -chardev @TAP@,id=tap -serial chardev:tap
default.accel        := tcg
default.lava_arch     = $($(1).karch)
default.qemu_cpu     :=
default.qemu_extra   :=
default.debian_arch   = $($(1).distro_arch)

# The PC: console on the first 8250 UART, TAP on the second.
board.pc.qemu_machine := pc
board.pc.ktarget      := bzImage
board.pc.kimage       := arch/x86/boot/bzImage
board.pc.console      := ttyS0
board.pc.tap_dev      := /dev/ttyS1
board.pc.virtio_blk   := virtio-blk-pci
board.pc.disk_fragment := patches/config/disk-board-pc.config
# The guest's TSC runs at the host's (under TCG QEMU reads the host's):
# given its rate, the kernel does not calibrate it against the emulated PIT,
# which on a busy host now and then gives a wrong one (638 MHz for 2596)
# and a clock that runs seconds fast until the watchdog notices. And the
# watchdog does not judge it (tsc=reliable), as on a PC whose TSC is
# invariant: on a busy host the emulated PIT lags, the watchdog blamed the
# TSC (switching to the PIT) in 15 of 24 PC boots of run cold40a, and with
# the PIT the vDSO cannot read the clock and falls back to the syscall, so
# whether a time32 vDSO call or a Go program works with
# COMPAT_32BIT_TIME=n depended on the host's load (run vdso61a).
board.pc.append       := tsc_early_khz=@HOST_TSC_KHZ@ tsc=reliable
# QEMU's ARM virt board: console on the PL011, TAP on a virtio console (virt
# has one UART).
board.arm-virt.qemu_machine := virt
board.arm-virt.console  := ttyAMA0
board.arm-virt.tap_dev  := /dev/hvc0
board.arm-virt.virtio_blk := virtio-blk-device
board.arm-virt.disk_fragment := patches/config/disk-board-arm-virt.config
board.arm-virt.tap_qemu := -device virtio-serial-device -chardev @TAP@,id=tap -device virtconsole,chardev=tap

# A 32-bit kernel with the lab's series: the RTC option exists there only.
bits.32.series_fragment := patches/config/series-bits-32.config
