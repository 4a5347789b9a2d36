# x86_64: a 64-bit x86 kernel (IA32_EMULATION) running the i386 userland:
# old 32-bit programs on a 64-bit distribution kernel.
# Keys and their defaults: machines/defaults.mk.
x86_64.karch     := x86_64
x86_64.board     := pc
x86_64.qemu      := qemu-system-x86_64
x86_64.qemu_args := -M pc -m 256
x86_64.accel     := kvm tcg
# The guest runs i386 programs, which IA32_EMULATION executes.
x86_64.userland  := i386
x86_64.ucross    := i686-linux-gnu-
x86_64.packages  := gcc-i686-linux-gnu libc6-dev-i386-cross qemu-system-x86
