# armv7: a 32-bit ARM kernel on QEMU's virt board running the armhf userland.
# Keys: see machines/i386.mk.
armv7.karch        := arm
armv7.ktarget      := zImage
armv7.kimage       := arch/arm/boot/zImage
armv7.kcross       := arm-linux-gnueabihf-
armv7.fragment     := patches/config/arch-armv7.config
armv7.userland     := armhf
armv7.ucross       := arm-linux-gnueabihf-
armv7.qemu         := qemu-system-arm
armv7.qemu_args    := -M virt,highmem=off -cpu cortex-a15 -m 256
armv7.console      := ttyAMA0
armv7.tap_dev      := /dev/hvc0
armv7.console_qemu := -serial file:@FILE@
armv7.tap_qemu     := -device virtio-serial-device -chardev file,id=tap,path=@FILE@ -device virtconsole,chardev=tap
armv7.accel        := tcg
armv7.packages     := gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-system-arm
armv7.kunit_arch   := arm
armv7.distro_arch    := armhf
armv7.debian_flavour := armmp
armv7.scan_machine   := arm
# qemu-user, called directly: no binfmt registration on this host.
armv7.faketime          := qemu-arm
armv7.faketime_packages := qemu-user
armv7.lava_arch      := arm
