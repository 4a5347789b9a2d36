// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-probe - does KVM really run a guest here?
 *
 * /dev/kvm can exist on a host whose CPU has no vmx/svm, and there a KVM
 * guest hangs. So this does not look for the device: it runs one real guest
 * instruction (hlt, in real mode) and expects KVM_EXIT_HLT within 2 s.
 * Prints "kvm" and exits 0 when it did; prints "tcg: <why>" and exits 1
 * otherwise. Optional argument: the device path (default /dev/kvm).
 *
 *   kvm-probe --tsc-khz
 *
 * prints the rate of this x86 host's TSC in kHz, which is also the rate of
 * a TCG guest's (QEMU reads the host's), and exits 0; on another host it
 * exits 1. A guest kernel that calibrates its TSC against the emulated PIT
 * on a busy host now and then gets it wrong (638 MHz for 2596 MHz): given
 * this, it does not calibrate (tsc_early_khz=).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static int no_kvm(const char *what)
{
	printf("tcg: %s: %s\n", what, errno ? strerror(errno) : "unexpected");
	return 1;
}

static void on_alarm(int sig)
{
	(void)sig;	/* only here to interrupt KVM_RUN */
}

/* The TSC's ticks over 100 ms of CLOCK_MONOTONIC_RAW, in kHz; 0 if none. */
static unsigned long tsc_khz(void)
{
#if defined(__x86_64__) || defined(__i386__)
	struct timespec a, b, pause = { 0, 100000000 };
	unsigned long long t0, t1;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = __rdtsc();
	nanosleep(&pause, NULL);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	t1 = __rdtsc();
	ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	return ns > 0 ? (unsigned long)((t1 - t0) * 1000000ULL / (unsigned long long)ns) : 0;
#else
	return 0;
#endif
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/kvm";
	struct sigaction sa = { .sa_handler = on_alarm };
	struct kvm_userspace_memory_region region;
	struct kvm_sregs sregs;
	struct kvm_regs regs;
	struct kvm_run *run;
	int kvm, vm, vcpu, size;
	unsigned char *mem;

	if (!strcmp(dev, "--tsc-khz")) {
		unsigned long khz = tsc_khz();

		if (!khz)
			return 1;
		printf("%lu\n", khz);
		return 0;
	}
	errno = 0;
	kvm = open(dev, O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return no_kvm(dev);
	if (ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION)
		return no_kvm("KVM_GET_API_VERSION");
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return no_kvm("KVM_CREATE_VM");
	mem = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return no_kvm("mmap");
	mem[0] = 0xf4;	/* hlt */
	region = (struct kvm_userspace_memory_region) {
		.slot = 0, .guest_phys_addr = 0x1000, .memory_size = 0x1000,
		.userspace_addr = (unsigned long)mem,
	};
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region))
		return no_kvm("KVM_SET_USER_MEMORY_REGION");
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		return no_kvm("KVM_CREATE_VCPU");
	size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (size <= 0)
		return no_kvm("KVM_GET_VCPU_MMAP_SIZE");
	run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		return no_kvm("mmap vcpu");
	if (ioctl(vcpu, KVM_GET_SREGS, &sregs))
		return no_kvm("KVM_GET_SREGS");
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs))
		return no_kvm("KVM_SET_SREGS");
	memset(&regs, 0, sizeof(regs));
	regs.rip = 0x1000;
	regs.rflags = 0x2;
	if (ioctl(vcpu, KVM_SET_REGS, &regs))
		return no_kvm("KVM_SET_REGS");
	sigaction(SIGALRM, &sa, NULL);
	alarm(2);
	if (ioctl(vcpu, KVM_RUN, 0)) {
		if (errno == EINTR) {
			printf("tcg: KVM_RUN did not return within 2 s (a guest would hang)\n");
			return 1;
		}
		return no_kvm("KVM_RUN");
	}
	alarm(0);
	if (run->exit_reason != KVM_EXIT_HLT) {
		printf("tcg: KVM_RUN exit reason %u, not KVM_EXIT_HLT\n",
		       run->exit_reason);
		return 1;
	}
	printf("kvm\n");
	return 0;
}
