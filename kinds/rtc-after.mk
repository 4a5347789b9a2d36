# A device that powers on after the overflow: the clock at boot only.
rtc-after.initrd   := initramfs.cpio
rtc-after.rtc      := $(RTC_AFTER_BASE)
rtc-after.bins     := rtc-kernel
rtc-after.timed    := no
rtc-after.default  := yes
rtc-after.schedule := 9
