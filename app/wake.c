/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "wake.h"

int fcr_wake_sleeping;
static int efd = -1;
static int epfd = -1;

int
fcr_wake_init(void)
{
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (efd < 0 || epfd < 0 || fcr_wake_watch(efd) < 0) {
		fcr_wake_close();
		return -1;
	}
	return 0;
}

int
fcr_wake_watch(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epfd < 0 ? -1 : epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

void
fcr_wake_close(void)
{
	if (efd >= 0)
		close(efd);
	if (epfd >= 0)
		close(epfd);
	efd = epfd = -1;
}

void
fcr_wake_write(void)
{
	uint64_t one = 1;

	/* the first to see it asleep wakes it; the rest need not */
	if (__atomic_exchange_n(&fcr_wake_sleeping, 0, __ATOMIC_ACQ_REL) && efd >= 0)
		(void)!write(efd, &one, sizeof(one));
}

void
fcr_wake_sleep(unsigned int max_ms)
{
	struct epoll_event ev[4];
	uint64_t n;

	if (epfd < 0)
		usleep(100);
	else if (epoll_wait(epfd, ev, 4, (int)max_ms) > 0)
		(void)!read(efd, &n, sizeof(n)); /* a wake counted: cleared */
	fcr_wake_cancel();
}
