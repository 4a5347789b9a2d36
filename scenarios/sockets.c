// SPDX-License-Identifier: GPL-2.0
/*
 * sockets: the time a UDP socket on 127.0.0.1 reports, and the timeouts it
 * keeps, either side of the rollover.
 *
 * After the overflow (03:14:08.05) a datagram is sent to ourselves and its
 * receive timestamp decoded: from the cmsg that SO_TIMESTAMP,
 * SO_TIMESTAMPNS and SO_TIMESTAMPING (software RX) attach, and from the
 * SIOCGSTAMP and SIOCGSTAMPNS ioctls. Each cmsg is decoded by its cmsg_type
 * with the layout the kernel gives that type: the _OLD types carry longs
 * (32-bit tv_sec on a 32-bit ABI, and in compat on a 64-bit kernel), the
 * _NEW types __kernel_sock_timeval / __kernel_timespec (64-bit). A read-back
 * into more bytes than its layout has is reported, not trusted.
 *
 * At 03:14:07.95 a 100 ms SO_RCVTIMEO or SO_SNDTIMEO is set, read back with
 * getsockopt past the overflow, and for SO_RCVTIMEO waited for by a recv()
 * on an empty socket.
 *
 * libc is legacy or time64 glibc, whichever this binary was built as, using
 * the plain names (SO_TIMESTAMP, SIOCGSTAMP, ...) with struct timeval and
 * timespec: _OLD in a legacy build, _NEW in a time64 one. raw is the
 * explicit _OLD constant (raw32) or _NEW constant (raw64) through the direct
 * setsockopt, getsockopt, recvmsg, recvfrom and ioctl syscalls (366, 365,
 * 372, 371, 54 on i386), never through glibc's conversions. Expected
 * outcomes: expectations.tsv.
 */
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>
#include "harness.h"

#define WAIT_NS		Y2038_ACROSS_WAIT_NS
/* A datagram to ourselves on lo arrives at once; this only bounds a bug. */
#define ARRIVE_TIMEOUT_NS	NSEC_PER_SEC
/* Our own bound on a recv whose timeout was lost, inside the harness's. */
#define WATCHDOG_S	3
/* Timeouts are kept in jiffies: reading back may round up by one (HZ=100). */
#define JIFFY_SLACK_NS	(10 * NSEC_PER_MSEC)

/* 64-bit targets: glibc names only the one layout (asm-generic numbers). */
#ifndef SO_TIMESTAMP_OLD
#define SO_RCVTIMEO_OLD		20
#define SO_SNDTIMEO_OLD		21
#define SO_TIMESTAMP_OLD	29
#define SO_TIMESTAMPNS_OLD	35
#define SO_TIMESTAMPING_OLD	37
#define SO_TIMESTAMP_NEW	63
#define SO_TIMESTAMPNS_NEW	64
#define SO_TIMESTAMPING_NEW	65
#define SO_RCVTIMEO_NEW		66
#define SO_SNDTIMEO_NEW		67
#endif

/* The kernel's two layouts: _OLD is longs, _NEW is 64-bit. */
struct old_pair {
	long sec;
	long frac;	/* usec or nsec */
};

struct new_pair {
	int64_t sec;
	int64_t frac;
};

/* A libc program's struct must be the layout of the constant it names. */
#define LAYOUT_SIZE(is_new)	((is_new) ? sizeof(struct new_pair) : \
					    sizeof(struct old_pair))
_Static_assert(sizeof(struct timeval) ==
	       LAYOUT_SIZE(SO_TIMESTAMP == SO_TIMESTAMP_NEW), "timeval");
_Static_assert(sizeof(struct timespec) ==
	       LAYOUT_SIZE(SO_TIMESTAMPNS == SO_TIMESTAMPNS_NEW), "timespec");
_Static_assert(sizeof(struct timeval) ==
	       LAYOUT_SIZE(SO_RCVTIMEO == SO_RCVTIMEO_NEW), "rcvtimeo");

static const struct {
	unsigned long num;
	const char *name;
	int is_new;
} names[] = {
	{ SO_TIMESTAMP_OLD, "SO_TIMESTAMP_OLD", 0 },
	{ SO_TIMESTAMPNS_OLD, "SO_TIMESTAMPNS_OLD", 0 },
	{ SO_TIMESTAMPING_OLD, "SO_TIMESTAMPING_OLD", 0 },
	{ SO_TIMESTAMP_NEW, "SO_TIMESTAMP_NEW", 1 },
	{ SO_TIMESTAMPNS_NEW, "SO_TIMESTAMPNS_NEW", 1 },
	{ SO_TIMESTAMPING_NEW, "SO_TIMESTAMPING_NEW", 1 },
	{ SO_RCVTIMEO_OLD, "SO_RCVTIMEO_OLD", 0 },
	{ SO_SNDTIMEO_OLD, "SO_SNDTIMEO_OLD", 0 },
	{ SO_RCVTIMEO_NEW, "SO_RCVTIMEO_NEW", 1 },
	{ SO_SNDTIMEO_NEW, "SO_SNDTIMEO_NEW", 1 },
	{ SIOCGSTAMP_OLD, "SIOCGSTAMP_OLD", 0 },
	{ SIOCGSTAMPNS_OLD, "SIOCGSTAMPNS_OLD", 0 },
	{ SIOCGSTAMP_NEW, "SIOCGSTAMP_NEW", 1 },
	{ SIOCGSTAMPNS_NEW, "SIOCGSTAMPNS_NEW", 1 },
};

static int find_name(unsigned long num)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].num == num)
			return i;
	return -1;
}

static int is_new(unsigned long num)
{
	int i = find_name(num);

	return i >= 0 && names[i].is_new;
}

/*
 * How a detail names a constant: "SO_TIMESTAMP_OLD" for a raw cell,
 * "SO_TIMESTAMP=SO_TIMESTAMP_OLD" for a plain name, what libc made of it.
 */
static void label(char *buf, size_t len, const char *plain, unsigned long num)
{
	int i = find_name(num);
	const char *name = i >= 0 ? names[i].name : "?";

	if (plain)
		snprintf(buf, len, "%s=%s", plain, name);
	else
		snprintf(buf, len, "%s", name);
}

/*
 * What a case is about, the argument of both its rows: an option or ioctl
 * request as the plain name a libc program writes, and what libc makes of
 * it (the LIBC row), or as the explicit constant of this build's width (the
 * RAW row: _OLD in a legacy build, _NEW in a time64 one); and for a
 * timestamp option, the value setsockopt sets.
 */
struct sock_opt {
	const char *plain;
	unsigned long libc, raw;
	int val;
};
#define SOCK_OPT(name, val)	{ #name, name, RAW_PICK(name##_OLD, name##_NEW), val }

/* The constant a case's row uses, and in name how its details name it (label). */
static unsigned long row_opt(const struct y2038_case *c, char *name, size_t len)
{
	const struct sock_opt *opt = c->arg;
	unsigned long num = c->kind == RAW ? opt->raw : opt->libc;

	label(name, len, c->kind == RAW ? NULL : opt->plain, num);
	return num;
}

/* The calls under test: glibc's, or the direct syscall. */
static int do_setsockopt(int raw, int fd, int opt, const void *val,
			 socklen_t len)
{
	if (raw)
		return syscall(__NR_setsockopt, fd, SOL_SOCKET, opt, val, len) ?
		       errno : 0;
	return setsockopt(fd, SOL_SOCKET, opt, val, len) ? errno : 0;
}

static int do_getsockopt(int raw, int fd, int opt, void *val, socklen_t *len)
{
	if (raw)
		return syscall(__NR_getsockopt, fd, SOL_SOCKET, opt, val, len) ?
		       errno : 0;
	return getsockopt(fd, SOL_SOCKET, opt, val, len) ? errno : 0;
}

static ssize_t do_recvmsg(int raw, int fd, struct msghdr *msg, int flags)
{
	if (raw)
		return syscall(__NR_recvmsg, fd, msg, flags);
	return recvmsg(fd, msg, flags);
}

static ssize_t do_recv(int raw, int fd, void *buf, size_t len)
{
	if (raw)
		return syscall(__NR_recvfrom, fd, buf, len, 0, NULL, NULL);
	return recv(fd, buf, len, 0);
}

static int do_ioctl(int raw, int fd, unsigned long req, void *arg)
{
	if (raw)
		return syscall(__NR_ioctl, fd, req, arg) ? errno : 0;
	return ioctl(fd, req, arg) ? errno : 0;
}

/* A UDP socket on 127.0.0.1, its own address in *addr; -1 on ERROR. */
static int udp_self(struct outcome *o, struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int fd, err = loopback_up();

	if (err) {
		outcome_setup_failed(o, "lo up (SIOCSIFFLAGS, bind 127.0.0.1)", NULL, err);
		return -1;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		outcome_setup_failed(o, "socket AF_INET SOCK_DGRAM", NULL, errno);
		return -1;
	}
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) ||
	    getsockname(fd, (struct sockaddr *)addr, &len)) {
		outcome_setup_failed(o, "bind 127.0.0.1", NULL, errno);
		close(fd);
		return -1;
	}
	return fd;
}

/* Send one datagram to ourselves and wait until it is there to read. */
static int send_self(struct outcome *o, int fd, const struct sockaddr_in *addr)
{
	int ret;

	if (sendto(fd, "y2038", 5, 0, (const struct sockaddr *)addr,
		   sizeof(*addr)) != 5) {
		outcome_setup_failed(o, "sendto 127.0.0.1", NULL, errno);
		return -1;
	}
	ret = wait_readable(fd, ARRIVE_TIMEOUT_NS);
	if (ret <= 0) {
		outcome_set(o, "ERROR", "the datagram to 127.0.0.1 %s",
			    ret ? "could not be waited for" : "never arrived");
		return -1;
	}
	return 0;
}

/*
 * tv_sec of a timestamp cmsg, decoded by its type with the layout the
 * kernel gives that type; for SO_TIMESTAMPING, ts[0], the software stamp.
 * Returns 0, or -1 if its length is not that layout's.
 */
static int decode_cmsg(const struct cmsghdr *c, int64_t *sec)
{
	size_t len = c->cmsg_len - CMSG_LEN(0);
	int n = c->cmsg_type == SO_TIMESTAMPING_OLD ||
		c->cmsg_type == SO_TIMESTAMPING_NEW ? 3 : 1;
	struct old_pair old;
	struct new_pair new;

	if (is_new(c->cmsg_type)) {
		if (len != n * sizeof(new))
			return -1;
		memcpy(&new, CMSG_DATA(c), sizeof(new));
		*sec = new.sec;
	} else {
		if (len != n * sizeof(old))
			return -1;
		memcpy(&old, CMSG_DATA(c), sizeof(old));
		*sec = old.sec;
	}
	return 0;
}

/*
 * Turn a timestamp option on, receive a datagram sent after the overflow,
 * and judge the cmsg of the type the option names. Every SOL_SOCKET cmsg
 * type that came is listed: glibc may add or convert some.
 */
/*
 * The first socket that asks for receive stamps switches them on in a work
 * item (net_enable_timestamp, with jump labels): a datagram that arrives
 * before it has run carries no stamp, and only SO_TIMESTAMP(NS) stamp late
 * by themselves. A guest rarely loses that race, a fast host does. Wait up
 * to 0.5 s for a warm-up datagram that carries the stamp opt asks for.
 */
static void wait_until_stamped(int raw, int fd, const struct sockaddr_in *addr,
			       int opt)
{
	const struct kts64 gap = kts64_from_ns(10 * NSEC_PER_MSEC);
	int i;

	for (i = 0; i < 50; i++) {
		union {
			struct cmsghdr align;
			char buf[512];
		} ctl;
		char data[16];
		struct iovec iov = { data, sizeof(data) };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
		};
		struct cmsghdr *c;

		if (sendto(fd, "warm-up", 7, 0, (const struct sockaddr *)addr,
			   sizeof(*addr)) < 0 ||
		    do_recvmsg(raw, fd, &msg, MSG_DONTWAIT) < 0)
			return;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == opt)
				return;
		raw64_clock_nanosleep(CLOCK_MONOTONIC, 0, &gap);
	}
}

static void run_tstamp(struct outcome *o, const struct y2038_case *c)
{
	char data[16], name[48], call[96], seen[64] = "";
	int raw = c->kind == RAW, opt = row_opt(c, name, sizeof(name));
	int val = ((const struct sock_opt *)c->arg)->val;
	union {
		struct cmsghdr align;
		char buf[512];
	} ctl;
	struct iovec iov = { data, sizeof(data) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	const struct cmsghdr *want = NULL;
	struct cmsghdr *cmsg;
	struct sockaddr_in addr;
	int64_t lo, hi, sec;
	int fd, err;
	ssize_t n;

	fd = udp_self(o, &addr);
	if (fd < 0)
		return;
	err = do_setsockopt(raw, fd, opt, &val, sizeof(val));
	if (err) {
		snprintf(call, sizeof(call), "%ssetsockopt %s",
			 raw ? "syscall " : "", name);
		outcome_errno(o, call, err);
		goto out;
	}
	wait_until_stamped(raw, fd, &addr, opt);
	lo = clock_ns(CLOCK_REALTIME);
	if (send_self(o, fd, &addr))
		goto out;
	n = do_recvmsg(raw, fd, &msg, MSG_DONTWAIT);
	hi = clock_ns(CLOCK_REALTIME);
	if (n < 0) {
		outcome_errno(o, raw ? "syscall recvmsg" : "recvmsg", errno);
		goto out;
	}
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_SOCKET)
			continue;
		snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen),
			 " %d", cmsg->cmsg_type);
		if (cmsg->cmsg_type == opt && !want)
			want = cmsg;
	}
	if (!want) {
		outcome_set(o, "WRONG", "no %s cmsg; SOL_SOCKET cmsgs:%s%s",
			    name, seen[0] ? seen : " none",
			    msg.msg_flags & MSG_CTRUNC ? " (MSG_CTRUNC)" : "");
		goto out;
	}
	snprintf(call, sizeof(call), "%s cmsg tv_sec", name);
	if (decode_cmsg(want, &sec))
		outcome_set(o, "WRONG", "%s cmsg: %zu bytes of data, not its layout's",
			    name, (size_t)(want->cmsg_len - CMSG_LEN(0)));
	else
		judge_reading(o, call, sec, lo, hi);
	snprintf(o->detail + strlen(o->detail),
		 sizeof(o->detail) - strlen(o->detail), "; cmsgs%s", seen);
out:
	close(fd);
}

/*
 * Bytes past the layout that a read-back changed: the kernel wrote more
 * than the struct it promised. Returns how far it wrote, or 0.
 */
#define CANARY		0xa5
#define READBACK_SIZE	32

static size_t overrun(const unsigned char *buf, size_t size)
{
	size_t end = READBACK_SIZE;

	while (end > size && buf[end - 1] == CANARY)
		end--;
	return end > size ? end : 0;
}

/*
 * SIOCGSTAMP(NS): the stamp of the last datagram received, in the layout
 * the request number names. The first call, before anything arrived, only
 * turns stamping on (ENOENT), so the datagram gets a stamp of its own.
 */
static void run_siocgstamp(struct outcome *o, const struct y2038_case *c)
{
	char name[48], call[96];
	int raw = c->kind == RAW;
	unsigned long req = row_opt(c, name, sizeof(name));
	unsigned char buf[READBACK_SIZE];
	size_t size = LAYOUT_SIZE(is_new(req)), far;
	struct sockaddr_in addr;
	struct old_pair old;
	struct new_pair new;
	int64_t lo, hi;
	int fd, err;

	snprintf(call, sizeof(call), "%sioctl %s", raw ? "syscall " : "", name);
	fd = udp_self(o, &addr);
	if (fd < 0)
		return;
	do_ioctl(raw, fd, req, buf);
	lo = clock_ns(CLOCK_REALTIME);
	if (send_self(o, fd, &addr))
		goto out;
	if (do_recv(raw, fd, buf, sizeof(buf)) < 0) {
		outcome_errno(o, raw ? "syscall recvfrom" : "recv", errno);
		goto out;
	}
	memset(buf, CANARY, sizeof(buf));
	err = do_ioctl(raw, fd, req, buf);
	hi = clock_ns(CLOCK_REALTIME);
	far = overrun(buf, size);
	memcpy(&old, buf, sizeof(old));
	memcpy(&new, buf, sizeof(new));
	if (err) {
		outcome_errno(o, call, err);
	} else if (far) {
		/* What it wrote, read as a 64-bit pair, and what we read. */
		outcome_set(o, "WRONG",
			    "%s wrote %zu bytes into the %zu-byte struct: as 64-bit, tv_sec = %lld; its own tv_sec reads %lld",
			    call, far, size, (long long)new.sec,
			    (long long)(is_new(req) ? new.sec : old.sec));
	} else {
		strcat(call, " tv_sec");
		judge_reading(o, call, is_new(req) ? new.sec : old.sec, lo, hi);
	}
out:
	close(fd);
}

/* A timeout in the layout its option names, and back. */
static socklen_t timeout_pack(unsigned char *buf, int opt, int64_t ns)
{
	struct old_pair old = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC / 1000 };
	struct new_pair new = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC / 1000 };

	if (is_new(opt)) {
		memcpy(buf, &new, sizeof(new));
		return sizeof(new);
	}
	memcpy(buf, &old, sizeof(old));
	return sizeof(old);
}

static int64_t timeout_unpack(const unsigned char *buf, int opt)
{
	struct old_pair old;
	struct new_pair new;

	if (is_new(opt)) {
		memcpy(&new, buf, sizeof(new));
		return new.sec * NSEC_PER_SEC + new.frac * 1000;
	}
	memcpy(&old, buf, sizeof(old));
	return (int64_t)old.sec * NSEC_PER_SEC + (int64_t)old.frac * 1000;
}

/* A timeout read back must be what was set, give or take a jiffy. */
static void judge_timeout(struct outcome *o, const char *call, int64_t got,
			  int64_t want)
{
	const int64_t wrap = Y2038_WRAP * NSEC_PER_SEC;

	if (got >= want && got <= want + JIFFY_SLACK_NS)
		outcome_set(o, "PASS", "%s = %.3f s", call, got / 1e9);
	else if (llabs(got - want) > wrap - NSEC_PER_SEC &&
		 llabs(got - want) < wrap + NSEC_PER_SEC)
		outcome_set(o, "WRAP", "%s = %.3f s, 2^32 s off", call,
			    got / 1e9);
	else
		outcome_set(o, "WRONG", "%s = %.3f s, set %.3f s", call,
			    got / 1e9, want / 1e9);
}

/*
 * A UDP socket with the timeout option opt (named name) set to WAIT_NS, in
 * the layout opt names, *size bytes. The fd, or -1 with o set: an ERROR
 * if there is no socket, the errno if setsockopt failed.
 */
static int timeout_socket(struct outcome *o, int raw, int opt, const char *name,
			  socklen_t *size)
{
	unsigned char buf[READBACK_SIZE];
	char call[96];
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err;

	if (fd < 0) {
		outcome_setup_failed(o, "socket AF_INET SOCK_DGRAM", NULL, errno);
		return -1;
	}
	*size = timeout_pack(buf, opt, WAIT_NS);
	err = do_setsockopt(raw, fd, opt, buf, *size);
	if (err) {
		snprintf(call, sizeof(call), "%ssetsockopt %s",
			 raw ? "syscall " : "", name);
		outcome_errno(o, call, err);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Set a 100 ms timeout at 03:14:07.95, then read it back at 03:14:08.05:
 * it is kept in jiffies, so the rollover should not touch it.
 */
static void run_timeo(struct outcome *o, const struct y2038_case *c)
{
	char name[48], call[96];
	int raw = c->kind == RAW, opt = row_opt(c, name, sizeof(name));
	unsigned char buf[READBACK_SIZE];
	socklen_t size, len;
	struct kts64 pause = kts64_from_ns(Y2038_ACROSS_WAIT_NS);
	int fd, err;
	size_t far;

	fd = timeout_socket(o, raw, opt, name, &size);
	if (fd < 0)
		return;
	while (raw64_clock_nanosleep(CLOCK_MONOTONIC, 0, &pause) == -EINTR)
		;
	snprintf(call, sizeof(call), "%sgetsockopt %s", raw ? "syscall " : "",
		 name);
	memset(buf, CANARY, sizeof(buf));
	len = size;
	err = do_getsockopt(raw, fd, opt, buf, &len);
	far = overrun(buf, size);
	if (err)
		outcome_errno(o, call, err);
	else if (far || len != size)
		outcome_set(o, "WRONG", "%s: optlen %u, wrote %zu bytes of a %u-byte struct",
			    call, (unsigned int)len, far ? far : (size_t)len,
			    (unsigned int)size);
	else
		judge_timeout(o, call, timeout_unpack(buf, opt), WAIT_NS);
	close(fd);
}

static void watchdog(int sig)
{
	(void)sig;
}

/*
 * Set a 100 ms SO_RCVTIMEO at 03:14:07.95 and recv() on an empty socket:
 * it should give up with EAGAIN at 03:14:08.05. A timeout that was lost
 * would block for ever: SIGALRM (no SA_RESTART) breaks that off.
 */
static void run_rcvtimeo_wait(struct outcome *o, const struct y2038_case *c)
{
	char name[48], call[96];
	int raw = c->kind == RAW, opt = row_opt(c, name, sizeof(name));
	struct sigaction sa = { .sa_handler = watchdog };
	struct itimerval itv = { .it_value = { WATCHDOG_S, 0 } };
	unsigned char buf[READBACK_SIZE];
	int64_t t0, took;
	socklen_t size;
	int fd, err;
	ssize_t n;

	fd = timeout_socket(o, raw, opt, name, &size);
	if (fd < 0)
		return;
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &itv, NULL)) {
		outcome_setup_failed(o, "sigaction/setitimer (watchdog)", NULL, errno);
		goto out;
	}
	snprintf(call, sizeof(call), "%s with %s", raw ? "syscall recvfrom" :
		 "recv", name);
	t0 = clock_ns(CLOCK_MONOTONIC);
	n = do_recv(raw, fd, buf, sizeof(buf));
	err = n < 0 ? errno : 0;
	took = clock_ns(CLOCK_MONOTONIC) - t0;
	if (err == EINTR)
		outcome_set(o, "TIMEOUT", "%s still blocked after %d s: the timeout was lost",
			    call, WATCHDOG_S);
	else if (!err)
		outcome_set(o, "WRONG", "%s received %zd bytes on an empty socket",
			    call, n);
	else
		judge_wait_slack(o, call, err == EAGAIN || err == EWOULDBLOCK ? 0 : err,
				 WAIT_NS, took, Y2038_JIFFIES_SLACK_NS);
out:
	close(fd);
}

/* SO_TIMESTAMPING: software receive stamps, and reporting them. */
#define RX_SOFTWARE	(SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE)

static const struct sock_opt so_timestamp = SOCK_OPT(SO_TIMESTAMP, 1);
static const struct sock_opt so_timestampns = SOCK_OPT(SO_TIMESTAMPNS, 1);
static const struct sock_opt so_timestamping = SOCK_OPT(SO_TIMESTAMPING, RX_SOFTWARE);
static const struct sock_opt siocgstamp = SOCK_OPT(SIOCGSTAMP, 0);
static const struct sock_opt siocgstampns = SOCK_OPT(SIOCGSTAMPNS, 0);
static const struct sock_opt so_rcvtimeo = SOCK_OPT(SO_RCVTIMEO, 0);
static const struct sock_opt so_sndtimeo = SOCK_OPT(SO_SNDTIMEO, 0);

/* Every case once, in both kinds: the table's LIBC rows, then its RAW rows. */
#define SOCKET_CASES(X) \
	X("so_timestamp", Y2038_AFTER, run_tstamp, so_timestamp) \
	X("so_timestampns", Y2038_AFTER, run_tstamp, so_timestampns) \
	X("so_timestamping", Y2038_AFTER, run_tstamp, so_timestamping) \
	X("siocgstamp", Y2038_AFTER, run_siocgstamp, siocgstamp) \
	X("siocgstampns", Y2038_AFTER, run_siocgstamp, siocgstampns) \
	X("so_rcvtimeo", Y2038_ACROSS, run_timeo, so_rcvtimeo) \
	X("so_sndtimeo", Y2038_ACROSS, run_timeo, so_sndtimeo) \
	X("so_rcvtimeo_wait", Y2038_ACROSS, run_rcvtimeo_wait, so_rcvtimeo)
#define LIBC_CASE(name, phase, body, opt) { name, LIBC, phase, .run_arg = body, .arg = &opt },
#define RAW_CASE(name, phase, body, opt) { name, RAW, phase, .run_arg = body, .arg = &opt },

static const struct y2038_case cases[] = {
	SOCKET_CASES(LIBC_CASE)
	SOCKET_CASES(RAW_CASE)
};

Y2038_MAIN(cases)
