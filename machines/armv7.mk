# armv7: a 32-bit ARM kernel on QEMU's virt board running the armhf userland.
# Keys and their defaults: machines/defaults.mk.
armv7.karch          := arm
armv7.board          := arm-virt
armv7.userland       := armhf
armv7.ktarget        := zImage
armv7.kcross         := arm-linux-gnueabihf-
armv7.qemu           := qemu-system-arm
armv7.qemu_machine   := virt,highmem=off
armv7.qemu_cpu       := cortex-a15
armv7.memory         := 256
armv7.bits           := 32
armv7.packages       := qemu-system-arm
armv7.kunit_arch     := arm
armv7.distro_arch    := armhf
armv7.debian_flavour := armmp
