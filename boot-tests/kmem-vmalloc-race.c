// SPDX-License-Identifier: GPL-2.0
/*
 * mm set (two vCPUs): reads of vmalloc space race vfree(). A forker
 * thread creates and reaps FORKS short-lived children (each a vmalloc'd
 * kernel stack, VMAP_STACK) while two readers read a page of every
 * vmalloc area listed in /proc/vmallocinfo, re-listing as they go. An area
 * freed under a read must give ENXIO (gone) or EIO, never zero-filled
 * "data" reported as read, never a fault; KASAN and lockdep watch the
 * kernel side (the boot fails on a report). Bounded by the fork count.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define FORKS		1500
#define MAX_AREAS	4096

struct result {
	unsigned long pages, gone, eio, other;
};

static volatile int forking = 1;

static void *forker(void *arg)
{
	unsigned long *failed = arg;
	int i;

	for (i = 0; i < FORKS; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			(*failed)++;
	}
	forking = 0;
	return NULL;
}

/* Start addresses of the vmalloc()ed areas in /proc/vmallocinfo. */
static int list_areas(unsigned long *a, int max)
{
	FILE *f = fopen("/proc/vmallocinfo", "r");
	char line[512];
	unsigned long s, e;
	int n = 0;

	while (f && n < max && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 &&
		    strstr(line, " vmalloc") && !strstr(line, "ioremap"))
			a[n++] = s;
	if (f)
		fclose(f);
	return n;
}

static void *reader(void *arg)
{
	static __thread unsigned long areas[MAX_AREAS];
	static __thread unsigned char buf[PAGE];
	struct result *r = arg;
	int fd = open(KMEM_PATH, O_RDONLY);
	int i, n;

	if (fd < 0) {
		r->other++;
		return NULL;
	}
	while (forking) {
		n = list_areas(areas, MAX_AREAS);
		for (i = 0; i < n && forking; i++) {
			ssize_t got = kmem_read_at(fd, areas[i], buf, PAGE);

			if (got == PAGE)
				r->pages++;
			else if (got < 0 && errno == ENXIO)
				r->gone++;
			else if (got < 0 && errno == EIO)
				r->eio++;
			else
				r->other++;
		}
	}
	close(fd);
	return NULL;
}

int main(void)
{
	struct result r[2] = { { 0 } };
	unsigned long failed = 0;
	pthread_t t[3];
	int i;

	tap_header();
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, reader, &r[i]))
			tap_bail("pthread_create failed");
	if (pthread_create(&t[2], NULL, forker, &failed))
		tap_bail("pthread_create failed");
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	tap_ok(failed == 0, "%d forks and exits (%lu failed)", FORKS, failed);
	for (i = 0; i < 2; i++) {
		tap_diag("reader %d: %lu pages read, %lu areas gone (ENXIO), %lu EIO",
			 i, r[i].pages, r[i].gone, r[i].eio);
		tap_ok(r[i].pages > 0 && r[i].other == 0,
		       "reader %d: every read a whole page, ENXIO or EIO (%lu were not)",
		       i, r[i].other);
	}
	return tap_finish();
}
