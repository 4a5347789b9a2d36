# make try: the user's own program before, across and after the overflow
# (host-tools/distro/distro.mk).
try.initrd := try.cpio
try.rtc    := $(RTC_BASE)
try.bins   := try-user
try.memory := 512
