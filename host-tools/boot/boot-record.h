/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot-record.h - the boot record: one KEY=VALUE line per key. A boot's
 * plan (what make wrote for it to be booted: host-tools/boot/boot.mk) is
 * one, and boot.sh reads it and keeps it in the boot's folder as "plan" as
 * the boot starts; its "meta", written when the boot has ended, is one too,
 * and says what became of it. Written by one writer, boot_record in
 * host-tools/lib.sh (for make's plans, boot.sh, faketime.sh and lava.sh),
 * which refuses any key not listed here; read by the collector
 * (y2038-collect.c: meta's keys over the plan's), which reads exactly
 * these, and by the other tools through it (y2038-collect --boot DIR --json).
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
	X(machine_env, 256, "the machine's facts for the shell (build/machines/<machine>.env)") \
	X(kernel_env, 256, "its kernel's facts, as kernel.sh wrote them (image, version, patches)") \
	X(initrd, 256, "its initramfs") \
	X(disk, 256, "a disk it boots from (a distribution's root), or nothing") \
	X(disk_writes, 8, "keep (the disk keeps what the guest wrote) or drop") \
	X(disks, 1024, "more disk images, comma-separated") \
	X(memory, 8, "its memory in MiB, where its kind asks for more than the machine's") \
	X(extra_append, 256, "what its kind adds to the kernel command line") \
	X(guest_timeout, 16, "the guest's own limit on one program, in seconds") \
	X(timed, 4, "yes: its cases meet moments, it boots in one of the machine's timed slots") \
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
