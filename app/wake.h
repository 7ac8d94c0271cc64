/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tables lcore's sleep. Idle, it blocks (epoll) until a worker sends it
 * an event, the command line posts a command, a sync datagram arrives or
 * its next timer is due, instead of waking thousands of times a second.
 * Whoever gives it work calls fcr_wake() after publishing the work; the
 * tables lcore says it is going to sleep (fcr_wake_prepare), looks for work
 * once more, and only then blocks: a wake between the two is never lost.
 */
#ifndef FCR_APP_WAKE_H
#define FCR_APP_WAKE_H

#include <stdint.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>

extern int fcr_wake_sleeping;

/* The eventfd and the epoll set. 0 or -1. */
int fcr_wake_init(void);
/* Also wake on input on fd (the sync socket). 0 or -1. */
int fcr_wake_watch(int fd);
void fcr_wake_close(void);

/* Anyone, after publishing work for the tables lcore: one write when it
 * sleeps (or is about to), nothing otherwise. The fence orders the work's
 * store before the flag's load. */
void fcr_wake_write(void);

static inline void
fcr_wake(void)
{
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (unlikely(__atomic_load_n(&fcr_wake_sleeping, __ATOMIC_RELAXED)))
		fcr_wake_write();
}

/* The tables lcore: about to sleep. Look for work after this, then call
 * fcr_wake_sleep (or fcr_wake_cancel when there was some). */
static inline void
fcr_wake_prepare(void)
{
	__atomic_store_n(&fcr_wake_sleeping, 1, __ATOMIC_SEQ_CST);
}

static inline void
fcr_wake_cancel(void)
{
	__atomic_store_n(&fcr_wake_sleeping, 0, __ATOMIC_RELAXED);
}

/* The tables lcore: block until woken or max_ms have passed. */
void fcr_wake_sleep(unsigned int max_ms);

#endif /* FCR_APP_WAKE_H */
