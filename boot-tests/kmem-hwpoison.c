// SPDX-License-Identifier: GPL-2.0
/*
 * mm set: a hwpoisoned page is never touched through /dev/kmem. The test
 * poisons a page of its own with madvise(MADV_HWPOISON) (the frame found
 * in /proc/self/pagemap first, its KPF_HWPOISON bit checked after). On
 * real hardware a read of it is a machine check in kernel mode; in QEMU
 * it stays mapped, so only the driver's refusal protects it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

int main(void)
{
	static unsigned char buf[3 * PAGE];
	unsigned long pfn, kva;
	unsigned char *p;
	void *map;
	int fd;

	tap_header();
	fd = open(KMEM_PATH, O_RDWR);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	memset(p, 0x5a, PAGE);
	pfn = user_pfn(p);
	if (!pfn)
		tap_bail("no page frame for the test's page in pagemap");
	kva = PAGE_OFFSET + pfn * PAGE;
	tap_diag("page frame %#lx, linear-map address %#lx", pfn, kva);

	tap_ok(kmem_read_at(fd, kva, buf, PAGE) == PAGE && buf[0] == 0x5a &&
	       buf[PAGE - 1] == 0x5a, "before poisoning, the page reads");
	if (madvise(p, PAGE, MADV_HWPOISON))
		tap_bail("madvise(MADV_HWPOISON): %s", strerror(errno));
	if (!tap_ok(kpageflag(pfn, KPF_HWPOISON) == 1,
		    "kpageflags shows the frame hwpoisoned"))
		return tap_finish();

	expect_refused(fd, kva, EIO, "the hwpoisoned page");

	/* The page before it is the test's only way to run into it. */
	if (kmem_read_at(fd, kva - PAGE, buf, PAGE) != PAGE) {
		tap_skip("the page before it does not read",
			 "a read running into the poisoned page is short");
	} else {
		tap_ok(kmem_read_at(fd, kva - PAGE, buf, 3 * PAGE) == PAGE &&
		       lseek(fd, 0, SEEK_CUR) == (off_t)kva,
		       "a read running into it stops there (one page, offset at it)");
	}
	map = mmap(NULL, 3 * PAGE, PROT_READ, MAP_SHARED, fd,
		   (off_t)(kva - PAGE));
	if (map != MAP_FAILED)
		munmap(map, 3 * PAGE);
	tap_errno(map == MAP_FAILED ? -1 : 0, EIO,
		  "mmap of three pages with it in the middle");
	close(fd);
	return tap_finish();
}
