# The matrix: every scenario program of the machine, the RTC 13 s before the
# overflow: the first verdicts.
matrix.initrd   := initramfs.cpio
matrix.dir      :=
matrix.rtc      := $(RTC_BASE)
matrix.bins      = $(call machine_scenario_bins,$(1))
matrix.default  := yes
matrix.schedule := 1
