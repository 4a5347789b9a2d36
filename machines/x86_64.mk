# x86_64: a 64-bit x86 kernel (IA32_EMULATION) running the i386 userland:
# old 32-bit programs on a 64-bit distribution kernel.
# Keys and their defaults: machines/defaults.mk.
x86_64.karch     := x86_64
x86_64.board     := pc
# The guest runs i386 programs, which IA32_EMULATION executes.
x86_64.userland  := i386
x86_64.qemu      := qemu-system-x86_64
# qemu-system-x86_64's own default CPU, named, as i386's.
x86_64.qemu_cpu  := qemu64
x86_64.memory    := 256
x86_64.bits      := 64
x86_64.accel     := kvm tcg
x86_64.packages  := qemu-system-x86
# Debian 13 (trixie) ships no i386 kernel: its i386 roots run on its amd64
# one. make validate-distro DISTRO=trixie DISTRO_ARCH=i386 boots them here,
# against Debian's amd64 config (distros/trixie.mk names this machine).
x86_64.debian_arch    := amd64
x86_64.debian_flavour := amd64
