# arm64: a 64-bit ARM kernel (COMPAT) on QEMU's virt board running the armhf
# userland: old 32-bit programs on a 64-bit kernel, for ARM.
# Keys and their defaults: machines/defaults.mk.
arm64.karch     := arm64
arm64.board     := arm-virt
arm64.userland  := armhf
arm64.ktarget   := Image
arm64.kcross    := aarch64-linux-gnu-
arm64.qemu      := qemu-system-aarch64
arm64.qemu_cpu  := cortex-a57
arm64.memory    := 256
arm64.bits      := 64
arm64.packages  := gcc-aarch64-linux-gnu qemu-system-arm
