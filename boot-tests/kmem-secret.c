// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-debug: memfd_secret(). A secret page is taken out of the
 * kernel's linear map; its linear-map address, found through the page
 * frame /proc/self/pagemap reports, must not give the secret away:
 * read, write and mmap are EIO, a read that runs into the page stops at
 * its start, and the secret is never in what was read nor changed.
 * Needs secretmem.enable=1 on 6.1's command line (boot-tests/sets).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif

static unsigned char secret[64];

static int has_secret(const unsigned char *buf, size_t len)
{
	return memmem(buf, len, secret, 16) != NULL;
}

int main(void)
{
	unsigned char *map, before[2 * PAGE];
	unsigned long pfn, kva, state = 0x5ec2e7;
	void *m;
	int fd, sfd, i;
	ssize_t n;

	tap_header();
	for (i = 0; i < (int)sizeof(secret); i++)
		secret[i] = (unsigned char)rng_next(&state);
	sfd = syscall(SYS_memfd_secret, 0);
	if (sfd < 0)
		tap_bail("memfd_secret: %s (boot with secretmem.enable=1)",
			 strerror(errno));
	if (ftruncate(sfd, PAGE))
		tap_bail("ftruncate: %s", strerror(errno));
	map = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, sfd, 0);
	if (map == MAP_FAILED)
		tap_bail("mmap of the secret: %s", strerror(errno));
	memcpy(map, secret, sizeof(secret));
	pfn = user_pfn(map);
	if (!tap_ok(pfn != 0, "pagemap gives the secret page's frame (%#lx)",
		    pfn))
		return tap_finish();
	kva = PAGE_OFFSET + pfn * PAGE;
	tap_diag("secret page at %#lx in the linear map", kva);

	fd = open(KMEM_PATH, O_RDWR);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));

	memset(before, 0, sizeof(before));
	n = kmem_read_at(fd, kva, before, PAGE);
	tap_errno(n, EIO, "read of the secret page is EIO");
	tap_ok(!has_secret(before, sizeof(before)),
	       "the secret is not in the read buffer");

	n = kmem_read_at(fd, kva - PAGE, before, 2 * PAGE);
	tap_ok(n == (ssize_t)PAGE || (n < 0 && errno == EIO),
	       "read of the page before and the secret page stops at the secret (%zd%s%s)",
	       n, n < 0 ? ", " : "", n < 0 ? tap_errname(errno) : "");
	tap_ok(!has_secret(before, sizeof(before)),
	       "the secret is not in that read either");

	memset(before, 0xa5, 64);
	n = kmem_write_at(fd, kva, before, 64);
	tap_errno(n, EIO, "write to the secret page is EIO");
	tap_ok(!memcmp(map, secret, sizeof(secret)),
	       "the secret is unchanged after the write");

	m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)kva);
	tap_errno(m == MAP_FAILED ? -1 : 0, EIO, "mmap of the secret page is EIO");
	if (m != MAP_FAILED)
		munmap(m, PAGE);
	m = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, (off_t)(kva - PAGE));
	tap_errno(m == MAP_FAILED ? -1 : 0, EIO,
		  "mmap of the page before and the secret page is EIO");
	if (m != MAP_FAILED)
		munmap(m, 2 * PAGE);
	close(fd);
	return tap_finish();
}
