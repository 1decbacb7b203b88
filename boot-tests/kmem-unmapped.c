// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-debug: free pages that DEBUG_PAGEALLOC (debug_pagealloc=on)
 * took out of the linear map. Scan the linear map up from 16 MiB for
 * pages whose read is EIO; on each, read, write and mmap fail with
 * EIO, and a read that starts on the mapped page before it returns just
 * that page. Writes are one byte, made only right after a read of the
 * page failed; a write that succeeded would itself fail the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define WANT	8

int main(void)
{
	unsigned long hm, a, found[WANT], scanned = 0;
	unsigned char buf[2 * PAGE], byte = 0;
	int fd, nfound = 0, i, bad_read = 0, bad_write = 0, bad_mmap = 0;
	int edges = 0, bad_edge = 0, realloc = 0;
	ssize_t n;
	void *m;

	tap_header();
	fd = open(KMEM_PATH, O_RDWR);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));
	hm = kmem_high_memory(fd);

	/* Upwards from 16 MiB, where used and free pages alternate. */
	for (a = PAGE_OFFSET + (1UL << 24); a < hm && nfound < WANT;
	     a += PAGE, scanned++) {
		if (kmem_read_at(fd, a, &byte, 1) == 1 || errno != EIO)
			continue;
		found[nfound++] = a;
		/* Write at once, while the page is known to be free. */
		n = kmem_write_at(fd, a, &byte, 1);
		if (!(n < 0 && errno == EIO)) {
			bad_write++;
			tap_diag("write at %#lx returned %zd (%s)", a, n,
				 n < 0 ? tap_errname(errno) : "a byte stored");
		}
	}
	tap_diag("scanned %lu pages from 16 MiB (high_memory %#lx)", scanned, hm);
	if (!tap_ok(nfound == WANT, "found %d unmapped free pages (wanted %d)",
		    nfound, WANT))
		return tap_finish();
	tap_ok(bad_write == 0, "one-byte write to each is EIO (%d were not)",
	       bad_write);

	for (i = 0; i < nfound; i++) {
		a = found[i];
		n = kmem_read_at(fd, a, buf, PAGE);
		if (n == (ssize_t)PAGE) {
			/* allocated (and mapped again) since the scan */
			realloc++;
			continue;
		}
		if (!(n < 0 && errno == EIO)) {
			bad_read++;
			tap_diag("read at %#lx returned %zd (%s)", a, n,
				 n < 0 ? tap_errname(errno) : "bytes");
		}
		m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)a);
		if (m != MAP_FAILED) {
			munmap(m, PAGE);
			bad_mmap++;
			tap_diag("mmap at %#lx succeeded", a);
		} else if (errno != EIO) {
			bad_mmap++;
			tap_diag("mmap at %#lx: %s", a, tap_errname(errno));
		}
		/* Edge: from the page before, when that one reads. */
		if (kmem_read_at(fd, a - PAGE, buf, 1) != 1)
			continue;
		edges++;
		n = kmem_read_at(fd, a - PAGE, buf, 2 * PAGE);
		if (n != (ssize_t)PAGE) {
			bad_edge++;
			tap_diag("read of %#lx..+2 pages returned %zd", a - PAGE, n);
		}
	}
	tap_diag("%d of the pages were allocated again before the second pass",
		 realloc);
	tap_ok(bad_read == 0, "a whole-page read of each is EIO (%d were not)",
	       bad_read);
	tap_ok(bad_mmap == 0, "mmap of each is EIO (%d were not)", bad_mmap);
	if (edges)
		tap_ok(bad_edge == 0,
		       "a read from the page before stops at the unmapped page (%d of %d did not)",
		       bad_edge, edges);
	else
		tap_skip("no mapped page right before an unmapped one",
			 "a read from the page before stops at the unmapped page");
	close(fd);
	return tap_finish();
}
