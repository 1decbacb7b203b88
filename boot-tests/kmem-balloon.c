// SPDX-License-Identifier: GPL-2.0
/*
 * mm set (-m 1G, virtio-balloon-pci): pages a virtio balloon took back
 * from the guest (PageOffline, KPF_OFFLINE in /proc/kpageflags) are never
 * touched through /dev/kmem. The test asks the host to inflate the balloon
 * by 128 MiB (scripts/qmp-watch.sh answers over QMP), waits for the pages
 * to show up, checks read, write and mmap of a sample of them against
 * /proc/kcore, then has the balloon deflate while two threads keep reading
 * the sampled pages, and inflate and deflate once more while they read
 * random page frames of all memory: each read is a whole page, EIO
 * (ballooned) or ENXIO (a hole), never a fault or a report. The waits are
 * bounded by poll counts; nothing is timed.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define GUEST_BYTES	(1UL << 30)	/* -m 1G in boot-tests/sets */
#define BALLOON_BYTES	(128UL << 20)
#define SAMPLES		32
#define WAIT_POLLS	300		/* of 200 ms: a bound, not a measure */
#define RACE_PASSES	300

static unsigned long sample[SAMPLES];
static int nsample;
static unsigned long max_pfn;

struct found {
	unsigned long count, cap, *pfns;	/* pfns kept only if cap */
};

static void add(unsigned long pfn, void *arg)
{
	struct found *f = arg;

	if (f->cap && f->count == f->cap) {
		f->cap *= 2;
		f->pfns = realloc(f->pfns, f->cap * sizeof(*f->pfns));
		if (!f->pfns)
			tap_bail("out of memory");
	}
	if (f->cap)
		f->pfns[f->count] = pfn;
	f->count++;
}

/* Page frames with KPF_OFFLINE set; with keep, SAMPLES of them spread over all. */
static unsigned long offline_pages(int keep)
{
	struct found f = { 0, keep ? 4096 : 0, NULL };
	int i;

	if (keep && !(f.pfns = malloc(f.cap * sizeof(*f.pfns))))
		tap_bail("out of memory");
	/* /proc/kpageflags ends at the last frame */
	max_pfn = kpageflags_scan(KPF_OFFLINE, add, &f);
	if (keep && f.count) {
		nsample = f.count < SAMPLES ? f.count : SAMPLES;
		for (i = 0; i < nsample; i++)
			sample[i] = f.pfns[(f.count / nsample) * i];
	}
	free(f.pfns);
	return f.count;
}

static unsigned long wait_offline(int inflated)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < WAIT_POLLS; i++) {
		n = offline_pages(0);
		if (inflated ? n >= BALLOON_BYTES / PAGE : n == 0)
			break;
		usleep(200000);
	}
	return n;
}

static int kmem_fd;
static unsigned long race_bad, race_reads, race_eio;
static volatile int cycling;

static void count_read(ssize_t r, int err)
{
	__atomic_add_fetch(&race_reads, 1, __ATOMIC_RELAXED);
	if (r < 0 && err == EIO)
		__atomic_add_fetch(&race_eio, 1, __ATOMIC_RELAXED);
	else if (r != PAGE && !(r < 0 && err == ENXIO))
		__atomic_add_fetch(&race_bad, 1, __ATOMIC_RELAXED);
}

/*
 * Read on a file of its own (the offset is the file's): with arg NULL the
 * sampled pages, RACE_PASSES times over, while the balloon deflates;
 * otherwise random page frames of all memory (arg seeds them) until the
 * host's inflate/deflate cycle is over.
 */
static void *reader(void *arg)
{
	static __thread unsigned char buf[PAGE];
	unsigned long st = (unsigned long)arg | 1, n = 0, pfn;
	int fd = open(KMEM_PATH, O_RDONLY);
	ssize_t r;

	while (fd >= 0 && (arg ? cycling : n < RACE_PASSES * (unsigned long)nsample)) {
		pfn = arg ? rng_next(&st) % max_pfn : sample[n % nsample];
		/* errno after the call: argument order is unspecified */
		r = kmem_read_at(fd, PAGE_OFFSET + pfn * PAGE, buf, PAGE);
		count_read(r, errno);
		n++;
	}
	if (fd < 0)
		__atomic_add_fetch(&race_bad, 1, __ATOMIC_RELAXED);
	else
		close(fd);
	return NULL;
}

/* Two readers (random ones if random) while meanwhile() runs */
static void run_readers(int random, void (*meanwhile)(void))
{
	pthread_t t[2];
	int i;

	race_bad = race_reads = race_eio = 0;
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, reader,
				   random ? (void *)(0x9e37UL + i) : NULL))
			tap_bail("pthread_create failed");
	meanwhile();
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

static void deflate(void)
{
	host_request("balloon %lu", GUEST_BYTES);
}

/* Inflate and deflate once, each to the end, while the readers read. */
static void cycle(void)
{
	host_request("balloon %lu", GUEST_BYTES - BALLOON_BYTES);
	wait_offline(1);
	host_request("balloon %lu", GUEST_BYTES);
	wait_offline(0);
	cycling = 0;
}

int main(void)
{
	unsigned long n;
	char what[64];
	int i;

	tap_header();
	kmem_fd = open(KMEM_PATH, O_RDWR);
	if (kmem_fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));
	tap_ok(offline_pages(0) == 0, "no page is offline before inflation");

	host_request("balloon %lu", GUEST_BYTES - BALLOON_BYTES);
	n = wait_offline(1);
	if (!tap_ok(n >= BALLOON_BYTES / PAGE,
		    "the balloon took %lu pages (PageOffline)", n))
		return tap_finish();
	offline_pages(1);
	for (i = 0; i < nsample; i++) {
		snprintf(what, sizeof(what), "ballooned frame %#lx", sample[i]);
		expect_refused(kmem_fd, PAGE_OFFSET + sample[i] * PAGE, EIO,
			       what);
	}

	/* Deflate while two threads read: pages come back one by one. */
	run_readers(0, deflate);
	tap_ok(race_bad == 0,
	       "during deflation, %lu reads of ballooned pages: each a page or EIO (%lu were not; %lu EIO)",
	       race_reads, race_bad, race_eio);
	n = wait_offline(0);
	tap_ok(n == 0, "after deflation no page is offline (%lu are)", n);
	for (i = 0; i < nsample; i++)
		if (kmem_read_at(kmem_fd, PAGE_OFFSET + sample[i] * PAGE,
				 what, sizeof(what)) != sizeof(what))
			break;
	tap_ok(i == nsample, "the returned pages read again");

	/* One more inflate/deflate cycle under readers of all memory. */
	cycling = 1;
	run_readers(1, cycle);
	tap_ok(race_bad == 0 && race_reads > 0,
	       "inflate and deflate under two readers of random frames: %lu reads, %lu EIO, %lu neither a page, EIO nor ENXIO",
	       race_reads, race_eio, race_bad);
	close(kmem_fd);
	return tap_finish();
}
