/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loopback: lo up, and 127.0.0.1 usable, for the families that use a UDP
 * socket on it (sockets, waits) and for init, which brings it up once before
 * any program runs.
 *
 * Why the wait: IFF_UP shows in SIOCGIFFLAGS before the NETDEV_UP notifier
 * has given lo its address. Two programs starting at once saw it on
 * linux-source-7.2: one set IFF_UP, the other found it set and its bind to
 * 127.0.0.1 failed with EADDRNOTAVAIL. Up means bindable here.
 */
#ifndef Y2038_HARNESS_LOOPBACK_H
#define Y2038_HARNESS_LOOPBACK_H

#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#define LOOPBACK_WAIT_NS (2 * NSEC_PER_SEC)

/* 0 once a UDP socket binds to 127.0.0.1, else the errno that stopped it. */
static inline int loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int64_t waited = 0;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		err = errno;
	else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			err = errno;
	}
	while (!err && bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		err = errno;
		if (err != EADDRNOTAVAIL || waited >= LOOPBACK_WAIT_NS)
			break;
		err = 0;
		/* raw time64: libc's sleep may be the time32 call under test */
		raw64_sleep(10 * NSEC_PER_MSEC);
		waited += 10 * NSEC_PER_MSEC;
	}
	close(fd);
	return err;
}

#endif
