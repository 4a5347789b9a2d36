/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot-record.h - the boot record (a boot's "meta" file): one KEY=VALUE line
 * per key. Written by one writer, boot_record in host-tools/lib.sh (for
 * boot.sh, faketime.sh and lava.sh), which refuses any key not listed here;
 * read by the collector (y2038-collect.c), which reads exactly these, and
 * by the other tools through it (y2038-collect --boot DIR --json).
 *
 *   X(key, size, what it says)       size: the collector's buffer for it
 */
#ifndef Y2038_BOOT_RECORD_H
#define Y2038_BOOT_RECORD_H

#define BOOT_RECORD_KEYS(X) \
	X(run_id, 64, "the run this boot belongs to") \
	X(kind, 32, "its kind: a BOOT_KINDS name (host-tools/boot/boot.mk: matrix, rtc-after, bookworm, ...), a host column's (libfaketime, libfaketime-static), lava, or the test's that booted it") \
	X(machine, 32, "machines/<machine>.mk") \
	X(karch, 16, "the machine's kernel ARCH (i386, x86_64, arm, arm64)") \
	X(userland, 32, "the Debian architecture of the programs it ran") \
	X(distro, 32, "the distribution (distros/) whose root it carried, or -") \
	X(kernel, 64, "the kernel's Debian version, or the host's uname -r") \
	X(kernel_source, 64, "linux-source-X.Y, or \"this host\"") \
	X(config, 24, "compat32-y, compat32-n, libfaketime, libfaketime-static") \
	X(patches, 64, "\"none\", \"N patches @ HASH\", or the libfaketime version") \
	X(kernel_flavour, 16, "lab (the matrix's kernels), distro (validate-distro's), or -") \
	X(accel, 16, "kvm, tcg, native or qemu-user") \
	X(accel_note, 200, "why not the first way tried: kvm, or native for a host column") \
	X(scenarios, 512, "the programs it ran, comma-separated") \
	X(rtc_base, 32, "the guest's RTC at power-on, or -") \
	X(qemu_status, 16, "running, exited, timeout, failed or skipped") \
	X(qemu_exit, 16, "QEMU's exit status, or -") \
	X(wall_s, 16, "how long it took, in seconds") \
	X(timeout_s, 16, "the host's limit on it, in seconds") \
	X(skip_reason, 200, "why the machine was not booted at all") \
	X(error, 200, "why it could not be booted (no kernel, no initramfs, ...)")

#endif
