// SPDX-License-Identifier: GPL-2.0
/*
 * mm set (two vCPUs): concurrency. A child process rewrites the scratch
 * page through /dev/kmem WRITES times, whole or in part, with byte values
 * 0x10..0xef, while reader threads read parts of it through /dev/kmem
 * until it is done, and a mapper thread
 * maps it (mmap of /dev/kmem) and reads the mapping. Every read that
 * succeeds must be full length and hold only values the writer wrote
 * (a torn or zero-filled page reported as data would show other bytes);
 * every write must store all it was given. The kernel must not report
 * anything (the boot fails on a splat).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define LO		0x10
#define HI		0xef
#define READERS		3
#define WRITES		20000	/* the bound: readers read until they are done */

static struct scratch s;
static volatile int stop;

struct result {
	unsigned long ops, short_reads, errors, bad_bytes;
};

static unsigned long bad_in(const unsigned char *b, size_t len)
{
	unsigned long bad = 0;
	size_t i;

	for (i = 0; i < len; i++)
		bad += b[i] < LO || b[i] > HI;
	return bad;
}

static void *reader(void *arg)
{
	struct result *r = arg;
	unsigned long st = (unsigned long)arg | 1;
	unsigned char buf[PAGE];
	int fd = open(KMEM_PATH, O_RDONLY);

	while (fd >= 0 && !stop) {
		size_t off = rng_next(&st) % PAGE;
		size_t len = 1 + rng_next(&st) % (PAGE - off);
		ssize_t n = kmem_read_at(fd, s.kva + off, buf, len);

		r->ops++;
		if (n < 0)
			r->errors++;
		else if ((size_t)n != len)
			r->short_reads++;
		else
			r->bad_bytes += bad_in(buf, len);
	}
	if (fd < 0)
		r->errors++;
	else
		close(fd);
	return NULL;
}

static void *mapper(void *arg)
{
	struct result *r = arg;
	int fd = open(KMEM_PATH, O_RDONLY);

	while (fd >= 0 && !stop) {
		unsigned char *m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd,
					(off_t)s.kva);

		r->ops++;
		if (m == MAP_FAILED) {
			r->errors++;
			continue;
		}
		r->bad_bytes += bad_in(m, PAGE);
		munmap(m, PAGE);
	}
	if (fd < 0)
		r->errors++;
	else
		close(fd);
	return NULL;
}

/* The writer, in its own process; exit status 0 if every write was whole. */
static int writer(void)
{
	unsigned long st = 0x3717e5, gen = 0, bad = 0;
	unsigned char buf[PAGE];
	int fd = open(KMEM_PATH, O_RDWR);

	if (fd < 0)
		return 2;
	while (gen < WRITES) {
		size_t off = 0, len = PAGE;
		ssize_t n;

		if (gen % 2) {
			off = rng_next(&st) % PAGE;
			len = 1 + rng_next(&st) % (PAGE - off);
		}
		memset(buf, LO + gen++ % (HI - LO + 1), len);
		n = kmem_write_at(fd, s.kva + off, buf, len);
		bad += n != (ssize_t)len;
	}
	close(fd);
	return bad ? 1 : 0;
}

int main(void)
{
	struct result r[READERS + 1];
	pthread_t t[READERS + 1];
	unsigned long ops = 0, shorts = 0, errors = 0, bad = 0;
	int i, status = -1;
	pid_t pid;

	tap_header();
	scratch_page(&s);
	memset(s.map, LO, PAGE);
	memset(r, 0, sizeof(r));

	pid = fork();
	if (pid == 0)
		_exit(writer());
	for (i = 0; i < READERS; i++)
		pthread_create(&t[i], NULL, reader, &r[i]);
	pthread_create(&t[READERS], NULL, mapper, &r[READERS]);
	waitpid(pid, &status, 0);
	stop = 1;
	for (i = 0; i <= READERS; i++) {
		pthread_join(t[i], NULL);
		if (i < READERS) {
			ops += r[i].ops;
			shorts += r[i].short_reads;
			errors += r[i].errors;
			bad += r[i].bad_bytes;
		}
	}
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "writer process: every write stored its whole length (status %#x)",
	       status);
	tap_ok(ops > 100 && errors == 0 && shorts == 0,
	       "%d readers: %lu reads, none failed or came back short (%lu errors, %lu short)",
	       READERS, ops, errors, shorts);
	tap_ok(bad == 0, "every byte the readers got is one the writer wrote (%lu were not)",
	       bad);
	tap_ok(r[READERS].ops > 10 && r[READERS].errors == 0,
	       "mapper: %lu mmaps of the page while it was written, none failed",
	       r[READERS].ops);
	tap_ok(r[READERS].bad_bytes == 0,
	       "every byte seen through the mappings is one the writer wrote (%lu were not)",
	       r[READERS].bad_bytes);
	tap_ok(bad_in(s.map, PAGE) == 0,
	       "the memfd's own mapping shows only written values afterwards");
	return tap_finish();
}
