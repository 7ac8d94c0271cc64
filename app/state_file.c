/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "fcr_state.h"
#include "fcr_state_snapshot.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "log.h"
#include "state_file.h"

/* What the writer could not do, each logged once until a write succeeds. */
enum { WF_OPEN, WF_WRITE, WF_FSYNC, WF_RENAME, WF_DIR, WF_KINDS };
static const char *const wf_what[WF_KINDS] = {
	"cannot create", "cannot write", "cannot fsync", "cannot rename over the state file",
	"cannot fsync the folder of",
};

static struct {
	struct fcr_tables *t;
	char path[PATH_MAX];
	char tmp[PATH_MAX + 8];
	char dir[PATH_MAX];
	char node[FCR_STATE_NODE_MAX + 1];
	pthread_t thread;
	int started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* two buffers: the tables lcore fills one while the other may still
	 * be the writer's */
	uint8_t *buf[2];
	size_t cap[2];
	unsigned int fill;       /* the one the tables lcore fills next */
	/* under mu: a buffer handed over and not yet taken (-1: none) */
	int handed;
	size_t handed_len;
	int quit;
	/* the writer has a buffer from hand-over to the end of its write
	 * (atomic; the tables lcore hands nothing while it is set) */
	int busy;
	int retry;               /* atomic: the last write failed */
	uint64_t gen_handed;     /* the tables' state_gen of the last snapshot */
	uint64_t last_ms;
	uint64_t writes, failures; /* atomic, the writer's */
	unsigned int logged;     /* the writer's: failure kinds logged */
	int keep_off;            /* a refused file could not be moved aside */
} sf = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
	.handed = -1,
};

void
fcr_state_file_node(char *out, size_t len, uint16_t nb_ports)
{
	char host[256], name[RTE_ETH_NAME_MAX_LEN], ports[4096];
	size_t n = 0;
	uint16_t p;

	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "?");
	host[sizeof(host) - 1] = '\0';
	ports[0] = '\0';
	for (p = 0; p < nb_ports && n < sizeof(ports); p++) {
		if (rte_eth_dev_get_name_by_port(p, name) != 0)
			snprintf(name, sizeof(name), "?");
		n += (size_t)snprintf(ports + n, sizeof(ports) - n, "%s%s", p ? "," : "", name);
	}
	if ((size_t)snprintf(out, len, "%.100s ports %s", host, ports) > FCR_STATE_NODE_MAX)
		snprintf(out, len, "%.100s ports %u crc32c %08" PRIx32, host, nb_ports,
			 fcr_state_crc((const uint8_t *)ports, strlen(ports)));
}

/* ------------------------------------------------------------------ */
/* Loading */

/* path moved aside to path.bad-<UTC time> (ISO 8601's basic form, no
 * colons in a file name: 20261207T101303Z; -1, -2 ... if taken): never
 * deleted. 0, or -1 with errno. */
static int
move_aside(const char *path, char *bad, size_t len)
{
	char when[FCR_TIME_STRLEN];
	int i;

	fcr_time_format_basic(time(NULL), when);
	for (i = 0; i < 100; i++) {
		if (i == 0)
			snprintf(bad, len, "%s.bad-%s", path, when);
		else
			snprintf(bad, len, "%s.bad-%s-%d", path, when, i);
		if (renameat2(AT_FDCWD, path, AT_FDCWD, bad, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

static void
refuse(const char *path, const char *why)
{
	char bad[PATH_MAX + 32];

	if (move_aside(path, bad, sizeof(bad)) == 0)
		FCR_LOG(ERR, main, "state file %s refused: %s; moved aside to %s, nothing "
			"restored: starting empty", path, why, bad);
	else {
		FCR_LOG(ERR, main, "state file %s refused: %s; it cannot be moved aside "
			"(%s), nothing restored: starting empty, and it is not written over",
			path, why, strerror(errno));
		sf.keep_off = 1;
	}
}

/* The file's bytes, or NULL with why. */
static uint8_t *
read_checked(const char *path, uint32_t max_bindings, uint32_t max_paths, size_t *len,
	     char *why, size_t why_len, int *absent)
{
	size_t max = fcr_state_size(max_bindings, FCR_STATE_MAX_FCFS, FCR_STATE_NODE_MAX) +
		     (size_t)max_paths * FCR_STATE_PATH_LEN +
		     (size_t)max_bindings * FCR_STATE_NAME_LEN;
	uint8_t *buf = NULL;
	struct stat st;
	size_t got = 0;
	int fd;

	*absent = 0;
	/* not through a link; O_NONBLOCK: a FIFO put there does not hang the start */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		*absent = errno == ENOENT;
		snprintf(why, why_len, "%s", errno == ELOOP ? "a symbolic link" : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, why_len, "fstat: %s", strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(why, why_len, "not a regular file");
	} else if (st.st_uid != geteuid()) {
		snprintf(why, why_len, "owned by uid %u, not by this process's (%u)",
			 (unsigned int)st.st_uid, (unsigned int)geteuid());
	} else if (st.st_mode & 077) {
		snprintf(why, why_len, "mode %04o: its group or others may read or write it "
			 "(0600 wanted)", (unsigned int)(st.st_mode & 07777));
	} else if ((uint64_t)st.st_size > max) {
		snprintf(why, why_len, "%jd bytes, more than %u bindings (--max-bindings) and %u "
			 "redirects (--max-redirects) take", (intmax_t)st.st_size, max_bindings,
			 max_paths);
	} else if ((buf = malloc(st.st_size > 0 ? (size_t)st.st_size : 1)) == NULL) {
		snprintf(why, why_len, "no memory for %jd bytes", (intmax_t)st.st_size);
	} else {
		while (got < (size_t)st.st_size) {
			ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		if (got != (size_t)st.st_size) {
			snprintf(why, why_len, "read %zu of %jd bytes", got, (intmax_t)st.st_size);
			free(buf);
			buf = NULL;
		}
	}
	close(fd);
	*len = got;
	return buf;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct ENodes of n bindings. */
static uint32_t
count_enodes(const struct fcr_state_binding *b, uint32_t n)
{
	uint64_t *k = malloc(sizeof(*k) * (n ? n : 1));
	uint32_t i, m = 0, d = 0;

	if (k == NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (b[i].enode != 0)
			k[m++] = b[i].enode;
	qsort(k, m, sizeof(*k), cmp_u64);
	for (i = 0; i < m; i++)
		d += i == 0 || k[i] != k[i - 1];
	free(k);
	return d;
}

uint32_t
fcr_state_file_load(const char *path, const char *node, struct fcr_tables *t,
		    uint16_t nb_ports, uint32_t fabric_mask, uint32_t max_bindings,
		    uint32_t max_redirects)
{
	struct fcr_state_expect exp = {
		.node = node, .max_bindings = max_bindings, .nb_ports = nb_ports,
		.fabric_mask = fabric_mask, .max_paths = max_redirects,
	};
	struct fcr_state_binding *b = NULL;
	struct fcr_state_fcf *f = NULL;
	struct fcr_state_path *pa = NULL;
	struct fcr_state_info info;
	uint32_t i, restored = 0, paths = 0, active = 0;
	char why[256];
	uint8_t *buf;
	size_t len;
	int absent;
	long ago;

	buf = read_checked(path, max_bindings, max_redirects, &len, why, sizeof(why), &absent);
	if (buf == NULL) {
		if (absent)
			FCR_LOG(NOTICE, main, "no state file %s: starting empty", path);
		else
			refuse(path, why);
		return 0;
	}
	if (fcr_state_header(buf, len, &exp, &info, why, sizeof(why)) < 0)
		goto bad;
	b = malloc(sizeof(*b) * (info.nb_bindings ? info.nb_bindings : 1));
	f = malloc(sizeof(*f) * (info.nb_fcfs ? info.nb_fcfs : 1));
	pa = malloc(sizeof(*pa) * (info.nb_paths ? info.nb_paths : 1));
	if (b == NULL || f == NULL || pa == NULL) {
		snprintf(why, sizeof(why), "no memory for %u bindings", info.nb_bindings);
		goto bad;
	}
	if (fcr_state_records(buf, len, &exp, &info, b, f, why, sizeof(why)) < 0 ||
	    fcr_state_paths(buf, len, &info, pa, why, sizeof(why)) < 0)
		goto bad;
	/* all checked: now applied */
	t->fka_ms = info.fka_ms;
	restored = fcr_state_restore(t, b, info.nb_bindings, f, info.nb_fcfs, rte_rdtsc(),
				     rte_get_tsc_hz() / 1000);
	t->st.state_restored_bindings = restored;
	/* the pairs' paths after the bindings: each active at once when its
	 * four ports came back */
	for (i = 0; i < info.nb_paths; i++) {
		int id = fcr_redirect_restore(t->redirects, pa[i].vlan, pa[i].host, pa[i].target,
					      pa[i].vi, pa[i].vt, pa[i].cutover);

		if (id < 0)
			continue;
		paths++;
		active += t->redirects->r[id].state == FCR_RS_ACTIVE;
	}
	t->st.state_restored_redirects = paths;
	ago = (long)time(NULL) - (long)info.written;
	FCR_LOG(NOTICE, main, "restored %u bindings of %u ENodes, %u FCFs, %u redirects "
		"(%u active) from %s (written %ld s ago)", restored,
		count_enodes(b, info.nb_bindings), info.nb_fcfs, paths, active, path, ago);
	if (paths != info.nb_paths)
		FCR_LOG(WARNING, main, "state file %s: %u of its %u redirects not restored "
			"(no room)", path, info.nb_paths - paths, info.nb_paths);
	if (restored != info.nb_bindings)
		FCR_LOG(WARNING, main, "state file %s: %u of its %u bindings not restored "
			"(the tables refused them)", path, info.nb_bindings - restored,
			info.nb_bindings);
	free(b);
	free(f);
	free(pa);
	free(buf);
	/* the tables now hold what the file holds: nothing to write yet */
	sf.gen_handed = fcr_tables_state_gen(t);
	return restored;
bad:
	free(b);
	free(f);
	free(pa);
	free(buf);
	refuse(path, why);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Writing */

static void
write_failed(int kind, const char *path)
{
	int err = errno;

	__atomic_fetch_add(&sf.failures, 1, __ATOMIC_RELAXED);
	if (sf.logged & 1u << kind)
		return;
	sf.logged |= 1u << kind;
	FCR_LOG(ERR, main, "state file: %s %s: %s (counted in state_write_failures; "
		"logged once until a write succeeds)", wf_what[kind], path, strerror(err));
}

/* PATH.tmp, mode 0600, fsync, renamed over PATH, the folder fsync'd. */
static int
write_file(const uint8_t *buf, size_t len)
{
	size_t off = 0;
	int fd, dfd;

	fd = open(sf.tmp, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		write_failed(WF_OPEN, sf.tmp);
		return -1;
	}
	if (fchmod(fd, 0600) != 0) {
		write_failed(WF_OPEN, sf.tmp);
		close(fd);
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			write_failed(WF_WRITE, sf.tmp);
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	if (fsync(fd) != 0) {
		write_failed(WF_FSYNC, sf.tmp);
		close(fd);
		return -1;
	}
	close(fd);
	if (rename(sf.tmp, sf.path) != 0) {
		write_failed(WF_RENAME, sf.path);
		return -1;
	}
	dfd = open(sf.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) != 0) {
		write_failed(WF_DIR, sf.dir);
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	close(dfd);
	return 0;
}

static void *
writer_main(void *arg)
{
	(void)arg;
	for (;;) {
		int i;
		size_t len;

		pthread_mutex_lock(&sf.mu);
		while (sf.handed < 0 && !sf.quit)
			pthread_cond_wait(&sf.cv, &sf.mu);
		i = sf.handed;
		len = sf.handed_len;
		sf.handed = -1;
		pthread_mutex_unlock(&sf.mu);
		if (i < 0)
			break; /* quit, nothing left */
		if (write_file(sf.buf[i], len) == 0) {
			if (sf.logged != 0)
				FCR_LOG(NOTICE, main, "state file %s written again", sf.path);
			sf.logged = 0;
			__atomic_store_n(&sf.retry, 0, __ATOMIC_RELAXED);
			__atomic_fetch_add(&sf.writes, 1, __ATOMIC_RELAXED);
		} else {
			__atomic_store_n(&sf.retry, 1, __ATOMIC_RELAXED);
		}
		__atomic_store_n(&sf.busy, 0, __ATOMIC_RELEASE);
	}
	return NULL;
}

int
fcr_state_file_start(const char *path, const char *node, struct fcr_tables *t)
{
	const char *slash = strrchr(path, '/');

	if (sf.keep_off)
		return 0; /* said when it was refused */
	sf.t = t;
	snprintf(sf.path, sizeof(sf.path), "%s", path);
	snprintf(sf.tmp, sizeof(sf.tmp), "%s.tmp", path);
	snprintf(sf.node, sizeof(sf.node), "%s", node);
	if (slash == NULL)
		snprintf(sf.dir, sizeof(sf.dir), ".");
	else if (slash == path)
		snprintf(sf.dir, sizeof(sf.dir), "/");
	else
		snprintf(sf.dir, sizeof(sf.dir), "%.*s", (int)(slash - path), path);
	if (rte_ctrl_thread_create(&sf.thread, "fcr-state", NULL, writer_main, NULL) != 0) {
		FCR_LOG(ERR, main, "state file %s: cannot start its writer thread", path);
		return -1;
	}
	sf.started = 1;
	return 0;
}

/* The learned state into buffer i; its length, or 0 (no memory). */
static size_t
snapshot(unsigned int i)
{
	return fcr_state_snapshot(sf.t, sf.node, (uint64_t)time(NULL), &sf.buf[i], &sf.cap[i]);
}

/* Snapshot and hand over; the writer is idle (busy clear). */
static void
hand_over(uint64_t ms)
{
	unsigned int i = sf.fill;
	uint64_t gen = fcr_tables_state_gen(sf.t);
	size_t len = snapshot(i);

	sf.last_ms = ms;
	if (len == 0) {
		__atomic_fetch_add(&sf.failures, 1, __ATOMIC_RELAXED);
		return;
	}
	sf.gen_handed = gen;
	__atomic_store_n(&sf.busy, 1, __ATOMIC_RELAXED);
	/* the writer holds mu only to take a buffer, never while writing */
	pthread_mutex_lock(&sf.mu);
	sf.handed = (int)i;
	sf.handed_len = len;
	pthread_cond_signal(&sf.cv);
	pthread_mutex_unlock(&sf.mu);
	sf.fill ^= 1;
}

static void
counters(void)
{
	sf.t->st.state_writes = __atomic_load_n(&sf.writes, __ATOMIC_RELAXED);
	sf.t->st.state_write_failures = __atomic_load_n(&sf.failures, __ATOMIC_RELAXED);
}

void
fcr_state_file_tick(uint64_t ms)
{
	if (!sf.started)
		return;
	counters();
	if (fcr_tables_state_gen(sf.t) == sf.gen_handed && !__atomic_load_n(&sf.retry, __ATOMIC_RELAXED))
		return;
	if (ms - sf.last_ms < FCR_STATE_FILE_PERIOD_MS ||
	    __atomic_load_n(&sf.busy, __ATOMIC_ACQUIRE))
		return; /* a later round */
	hand_over(ms);
}

void
fcr_state_file_final(void)
{
	if (!sf.started)
		return;
	/* on the way out: waiting for the writer holds up nothing now */
	while (__atomic_load_n(&sf.busy, __ATOMIC_ACQUIRE))
		usleep(1000);
	hand_over(fcr_now_ms());
}

void
fcr_state_file_stop(void)
{
	if (!sf.started)
		return;
	pthread_mutex_lock(&sf.mu);
	sf.quit = 1;
	pthread_cond_signal(&sf.cv);
	pthread_mutex_unlock(&sf.mu);
	pthread_join(sf.thread, NULL);
	sf.started = 0;
	counters();
	free(sf.buf[0]);
	free(sf.buf[1]);
	sf.buf[0] = sf.buf[1] = NULL;
}

void
fcr_state_file_settle(void *arg)
{
	static int done;
	struct fcr_tables *t = sf.t;
	unsigned int kept, recut, removed;

	(void)arg;
	/* once, and only where a state file is kept */
	if (done || t == NULL)
		return;
	done = 1;
	fcr_redirect_settle_restored(t->redirects, &kept, &recut, &removed);
	t->st.state_redirects_recut += recut;
	t->st.state_redirects_removed += removed;
	if (kept + recut + removed > 0)
		FCR_LOG(NOTICE, main, "restored redirects at the start of forwarding: %u kept "
			"as they were, %u in a cutover begun again, %u no longer configured "
			"removed through a cutover", kept, recut, removed);
}
