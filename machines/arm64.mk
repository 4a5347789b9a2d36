# arm64: a 64-bit ARM kernel (COMPAT) on QEMU's virt board running the armhf
# userland. Keys: see machines/i386.mk.
arm64.karch        := arm64
arm64.ktarget      := Image
arm64.kimage       := arch/arm64/boot/Image
arm64.kcross       := aarch64-linux-gnu-
arm64.fragment     := patches/config/arch-arm64.config
arm64.userland     := armhf
arm64.ucross       := arm-linux-gnueabihf-
arm64.qemu         := qemu-system-aarch64
arm64.qemu_args    := -M virt -cpu cortex-a57 -m 256
arm64.console      := ttyAMA0
arm64.tap_dev      := /dev/hvc0
arm64.console_qemu := -serial file:@FILE@
arm64.tap_qemu     := -device virtio-serial-device -chardev file,id=tap,path=@FILE@ -device virtconsole,chardev=tap
arm64.accel        := tcg
arm64.packages     := gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-system-arm
arm64.lava_arch      := arm64
