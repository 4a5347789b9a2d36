# x86_64: a 64-bit x86 kernel (IA32_EMULATION) running the i386 userland.
# Keys: see machines/i386.mk.
x86_64.karch        := x86_64
x86_64.ktarget      := bzImage
x86_64.kimage       := arch/x86/boot/bzImage
x86_64.kcross       :=
x86_64.fragment     := patches/config/arch-x86_64.config
x86_64.userland     := i386
x86_64.ucross       := i686-linux-gnu-
x86_64.qemu         := qemu-system-x86_64
x86_64.qemu_args    := -M pc -m 256
x86_64.console      := ttyS0
x86_64.tap_dev      := /dev/ttyS1
x86_64.console_qemu := -serial file:@FILE@
x86_64.tap_qemu     := -serial file:@FILE@
x86_64.accel        := kvm tcg
x86_64.packages     := gcc-i686-linux-gnu libc6-dev-i386-cross qemu-system-x86
x86_64.lava_arch      := x86_64
