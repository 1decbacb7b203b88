// SPDX-License-Identifier: GPL-2.0
/*
 * mm set (movablecore=512M): a memory block that is offline is never
 * touched through /dev/kmem, and one that a /dev/kmem mapping maps cannot
 * go offline. The block is the lowest Movable one: the top ones hold
 * QEMU's ACPI area and pages memblock reserved early (top-down), and
 * cannot go offline at all. A page of a memfd of
 * the test's own that lands in the block is mapped through /dev/kmem;
 * offlining is then EBUSY and the mapping keeps its contents; after
 * munmap() the block goes offline, and read, write and mmap of its pages
 * are EIO (/proc/kcore reads zeros); back online, they read again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define MEMORY		"/sys/devices/system/memory"
#define MEMFD_MAX	(256UL << 20)

static char state_path[128];

/* Write what to the block's state file: 0, or the errno of the write. */
static int set_state(const char *what)
{
	int fd = open(state_path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		tap_bail("open %s: %s", state_path, strerror(errno));
	if (write(fd, what, strlen(what)) < 0)
		err = errno;
	close(fd);
	return err;
}

static int state_is(const char *want)
{
	char got[64];

	read_line(state_path, got, sizeof(got));
	return strcmp(got, want) == 0;
}

/* Lowest online block whose zone is Movable; -1 if none. */
static long movable_block(void)
{
	DIR *d = opendir(MEMORY);
	struct dirent *e;
	long n, best = -1;
	char path[300], line[64];

	while (d && (e = readdir(d))) {
		if (sscanf(e->d_name, "memory%ld", &n) != 1 ||
		    (best >= 0 && n >= best))
			continue;
		snprintf(path, sizeof(path), MEMORY "/%s/valid_zones", e->d_name);
		if (read_text(path, line, sizeof(line)) > 0 &&
		    !strcmp(line, "Movable\n"))
			best = n;
	}
	if (d)
		closedir(d);
	return best;
}

int main(void)
{
	static unsigned char buf[PAGE];
	unsigned long block, first, last, pfn = 0, kva, off;
	unsigned char *mem, *map;
	char line[64];
	long n;
	int fd, memfd, err, tries;

	tap_header();
	fd = open(KMEM_PATH, O_RDWR);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));
	read_line(MEMORY "/block_size_bytes", line, sizeof(line));
	block = strtoul(line, NULL, 16);
	n = movable_block();
	if (n < 0 || !block)
		tap_bail("no Movable memory block (movablecore= missing?)");
	snprintf(state_path, sizeof(state_path), MEMORY "/memory%ld/state", n);
	first = n * block / PAGE;
	last = first + block / PAGE - 1;
	tap_diag("memory%ld: page frames %#lx-%#lx", n, first, last);

	/* A page of the test's own in the block: memfd pages are movable. */
	memfd = memfd_create("devkmem-offline", 0);
	if (memfd < 0 || ftruncate(memfd, MEMFD_MAX))
		tap_bail("memfd: %s", strerror(errno));
	mem = mmap(NULL, MEMFD_MAX, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (mem == MAP_FAILED)
		tap_bail("mmap memfd: %s", strerror(errno));
	for (off = 0; off < MEMFD_MAX && !pfn; off += PAGE) {
		memset(mem + off, 0xa5, PAGE);
		pfn = user_pfn(mem + off);
		if (pfn < first || pfn > last)
			pfn = 0;
	}
	if (!pfn)
		tap_bail("no memfd page landed in memory%ld", n);
	off -= PAGE;
	kva = PAGE_OFFSET + pfn * PAGE;
	tap_diag("memfd page at frame %#lx, %#lx", pfn, kva);

	map = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)kva);
	if (!tap_ok(map != MAP_FAILED, "a page of the block maps"))
		return tap_finish();
	tap_ok(map[0] == 0xa5 && map[PAGE - 1] == 0xa5,
	       "the mapping shows the memfd page");
	err = set_state("offline");
	tap_ok(err == EBUSY, "offlining the block while it is mapped is EBUSY (got %s)",
	       err ? tap_errname(err) : "success");
	tap_ok(state_is("online"), "the block stays online");
	tap_ok(map[0] == 0xa5 && map[PAGE - 1] == 0xa5,
	       "the mapping still shows the memfd page");
	munmap(map, PAGE);
	munmap(mem, MEMFD_MAX);
	close(memfd);

	/* Migration can be busy for a moment with pages in flight. */
	for (tries = 0; tries < 10; tries++) {
		err = set_state("offline");
		if (err != EBUSY && err != EAGAIN)
			break;
	}
	if (!tap_ok(err == 0 && state_is("offline"),
		    "after munmap() the block goes offline (%s)",
		    err ? tap_errname(err) : "ok"))
		return tap_finish();

	expect_refused(fd, kva, EIO, "a page of the offline block");

	err = set_state("online_movable");
	tap_ok(err == 0 && state_is("online"), "the block comes back online");
	tap_ok(kmem_read_at(fd, kva, buf, PAGE) == PAGE,
	       "a page of it reads again");
	close(fd);
	return tap_finish();
}
