// SPDX-License-Identifier: GPL-2.0
/*
 * mm set: a /dev/kmem mapping never outlives its checks. A free page
 * cannot be mapped at all (EPERM: nothing holds it, it would be handed
 * out again while mapped; read() still serves it). A page in use is held
 * by the mapping: when its owner (a memfd of the test's own) lets it go,
 * it is not freed into reuse, and after memory pressure from a new owner
 * the mapping still shows the old contents.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define KPF_BUDDY	10
#define PRESSURE	(64UL << 20)

static void highest(unsigned long pfn, void *arg)
{
	*(unsigned long *)arg = pfn;
}

/* The highest page frame that heads a free buddy block; 0 if none. */
static unsigned long free_pfn(void)
{
	unsigned long found = 0;

	kpageflags_scan(KPF_BUDDY, highest, &found);
	return found;
}

static void free_page_test(int fd)
{
	static unsigned char buf[PAGE];
	unsigned long pfn = free_pfn(), kva = PAGE_OFFSET + pfn * PAGE;
	void *map;

	if (!tap_ok(pfn, "kpageflags shows a free page (%#lx)", pfn))
		return;
	tap_ok(kmem_read_at(fd, kva, buf, PAGE) == PAGE, "read() serves it");
	map = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)kva);
	if (map != MAP_FAILED)
		munmap(map, PAGE);
	tap_errno(map == MAP_FAILED ? -1 : 0, EPERM,
		  "mmap of it is EPERM (kpageflags buddy now: %d)",
		  kpageflag(pfn, KPF_BUDDY));
}

static void held_page_test(int fd)
{
	static unsigned char want[PAGE];
	unsigned char *map, *more;
	unsigned long pfn;
	struct scratch s;

	scratch_page(&s);
	memset(s.map, 0x3c, PAGE);
	pfn = (s.kva - PAGE_OFFSET) / PAGE;
	map = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)s.kva);
	if (!tap_ok(map != MAP_FAILED, "the memfd page (frame %#lx) maps", pfn))
		return;

	/* The owner lets go: unmapped, truncated, closed. */
	munmap(s.map, PAGE);
	if (ftruncate(s.memfd, 0))
		tap_bail("ftruncate: %s", strerror(errno));
	close(s.memfd);
	tap_ok(kpageflag(pfn, KPF_BUDDY) == 0,
	       "after its owner let go, the frame is not free (held by the mapping)");

	/* A new owner takes memory; the held page must not be among it. */
	more = mmap(NULL, PRESSURE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (more == MAP_FAILED)
		tap_bail("mmap %lu MiB: %s", PRESSURE >> 20, strerror(errno));
	memset(more, 0x77, PRESSURE);
	memset(want, 0x3c, PAGE);
	tap_ok(!memcmp(map, want, PAGE),
	       "after %lu MiB were allocated and written, the mapping still shows the old page",
	       PRESSURE >> 20);
	munmap(more, PRESSURE);
	munmap(map, PAGE);
}

int main(void)
{
	int fd;

	tap_header();
	fd = open(KMEM_PATH, O_RDONLY);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));
	free_page_test(fd);
	held_page_test(fd);
	close(fd);
	return tap_finish();
}
