# glibc's own tests (make glibc-tests, host-tools/libc/libc.mk): a lab
# glibc's build (GLIBC_TESTS_GLIBC) kept with its tests, patched and unpatched
# (GLIBC_TESTS_VARIANTS), each on a disk of its own, run by
# guest-init/glibc-run.c, one program a subdir, on the distro flavour's
# kernels (what the tests ask of a kernel beyond the matrix's: epoll,
# inotify, file locks, seccomp, rseq, modify_ldt), at an ordinary date.
define glibc-tests-kind
glibc-tests-$(1).initrd        := glibc-tests.cpio
glibc-tests-$(1).rtc            = $$(GLIBC_TESTS_RTC)
glibc-tests-$(1).bins           = $$(GLIBC_TESTS_SUBDIRS:%=glibc-%)
glibc-tests-$(1).memory        := 512
glibc-tests-$(1).flavour       := distro
glibc-tests-$(1).machines       = $$(GLIBC_TESTS_MACHINES)
glibc-tests-$(1).disks          = $$(BUILD)/$$($$(1).userland)/glibc-tests-$(1).img
glibc-tests-$(1).guest_timeout  = $$(GLIBC_TESTS_GUEST_TIMEOUT)
glibc-tests-$(1).boot_timeout   = $$(GLIBC_TESTS_BOOT_TIMEOUT)
glibc-tests-$(1).timed         := no
endef
$(foreach v,$(GLIBC_TESTS_VARIANTS),$(eval $(call glibc-tests-kind,$(v))))
