# The files family on the filesystems devices ship (FS_IMAGES, initramfs.mk):
# the same source built with those filesystems' cases, on a kernel with
# their drivers (the filesystems flavour: patches/config/
# flavour-filesystems.config), their images attached as disks, on the 32-bit
# machines, then a distribution's cp and tar copying between them
# (scenarios/filesystems/copy.tsv). The matrix's kernels and boots do not
# carry them.
filesystems.initrd   := filesystems.cpio
filesystems.rtc      := $(RTC_BASE)
filesystems.bins      = $(call machine_filesystems_bins,$(1))
filesystems.memory   := 256
filesystems.flavour  := filesystems
filesystems.disks     = $(FS_IMAGES:%=$(BUILD)/images/%.img)
filesystems.machines  = $(FILESYSTEMS_MACHINES)
filesystems.default  := yes
filesystems.schedule := 5
