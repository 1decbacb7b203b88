// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-on: read() of /dev/kmem. What the kernel maps as RAM reads back
 * its bytes; everything else fails with ENXIO; a read that runs off the
 * end of what is served is short.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"


static int fd;

static void banner_tests(const char *version, size_t len)
{
	unsigned long banner = ksym("linux_banner");
	unsigned long mapped = ksym_map(SYSTEM_MAP, "linux_banner");
	char buf[512];

	tap_ok(mapped == banner,
	       "linux_banner: System.map and kallsyms agree (%#lx)", mapped);
	memset(buf, 0, sizeof(buf));
	tap_ok(kmem_read_at(fd, mapped, buf, len) == (ssize_t)len &&
	       memcmp(buf, version, len) == 0,
	       "linux_banner (System.map address) reads as /proc/version");
	memset(buf, 0, sizeof(buf));
	tap_ok(kmem_read_at(fd, linear_alias(banner), buf, len) ==
	       (ssize_t)len && memcmp(buf, version, len) == 0,
	       "its linear-map alias reads the same");
	memset(buf, 0, sizeof(buf));
	tap_ok(kmem_read_at(fd, banner, buf, len) == (ssize_t)len &&
	       lseek(fd, 0, SEEK_CUR) == (off_t)(banner + len),
	       "a read advances the offset by what it read");
}

/* The whole image through the linear map, and text through both maps. */
static void image_tests(void)
{
	unsigned long text = sym("_text"), etext = sym("_etext");
	unsigned long end = sym("_end");
	size_t size = end - text, tsize = etext - text;
	char *a = malloc(size), *b = malloc(size);

	if (!text || !etext || !end || !a || !b)
		tap_bail("_text/_etext/_end not found");
	tap_ok(kmem_read_at(fd, linear_alias(text), a, size) == (ssize_t)size,
	       "the whole image (%zu KiB) reads through the linear map",
	       size >> 10);
	tap_ok(kmem_read_at(fd, text, b, tsize) == (ssize_t)tsize &&
	       memcmp(a, b, tsize) == 0,
	       "kernel text reads the same through the image mapping");
	tap_ok(kmem_read_at(fd, end - 16, a, 64) == 16,
	       "a read from _end - 16 stops at _end (short count 16)");
	tap_errno(kmem_read_at(fd, end, a, 64), ENXIO,
		  "a read at _end (past the image) is ENXIO");
	free(a);
	free(b);
}

static void high_memory_tests(void)
{
	unsigned long hm_sym = sym("high_memory"), hm = 0;
	char buf[64];
	ssize_t n;

	n = kmem_read_at(fd, hm_sym, &hm, sizeof(hm));
	if (!tap_ok(n == sizeof(hm) && hm > PAGE_OFFSET,
		    "high_memory read through /dev/kmem (%#lx)", hm))
		return;
	tap_ok(kmem_read_at(fd, hm - PAGE, buf, sizeof(buf)) == sizeof(buf),
	       "the last page below high_memory reads");
	tap_ok(kmem_read_at(fd, hm - 16, buf, sizeof(buf)) == 16,
	       "a read running into high_memory is short (16)");
	tap_errno(kmem_read_at(fd, hm, buf, sizeof(buf)), ENXIO,
		  "a read at high_memory is ENXIO");
}

static void refused_tests(void)
{
	static const struct { unsigned long addr; const char *what; } bad[] = {
		{ 0, "address 0" },
		{ 0x0000800000000000UL, "first non-canonical address" },
		{ 0x8000000000000000UL, "non-canonical 0x8000000000000000" },
		{ 0xffff800000000000UL, "start of the kernel half (guard hole)" },
		{ 0xfffffffffffff000UL, "last page of the address space" },
	};
	char mine[64], buf[64];
	unsigned int i;

	memset(mine, 0x5a, sizeof(mine));
	memset(buf, 0, sizeof(buf));
	tap_errno(kmem_read_at(fd, (unsigned long)mine, buf, sizeof(buf)),
		  ENXIO, "a user-space address (our own buffer) is ENXIO");
	tap_ok(memcmp(buf, mine, sizeof(buf)) != 0,
	       "and none of its bytes came back");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_errno(kmem_read_at(fd, bad[i].addr, buf, sizeof(buf)),
			  ENXIO, "%s is ENXIO", bad[i].what);
	/* rw_verify_area() refuses it before the driver runs */
	tap_errno(kmem_read_at(fd, 0xffffffffffffe000UL, buf, 3 * PAGE),
		  EOVERFLOW, "a read that would wrap the address space is EOVERFLOW");
	tap_ok(kmem_read_at(fd, sym("linux_banner"), buf, 0) == 0,
	       "a read of 0 bytes returns 0");
}

/* A vmalloc area of at least one page and its guard page; an ioremap. */
static void vmalloc_tests(void)
{
	unsigned long start, vstart, vend, io = 0;
	char line[512], *buf = malloc(2 * PAGE);
	FILE *f = fopen("/proc/vmallocinfo", "r");

	if (!buf || !vmalloc_area(2 * PAGE, &vstart, &vend))
		vstart = 0;
	while (f && !io && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-", &start) == 1 && strstr(line, " ioremap"))
			io = start;
	if (f)
		fclose(f);

	if (!vstart)
		tap_bail("no vmalloc area in /proc/vmallocinfo");
	tap_ok(kmem_read_at(fd, vstart, buf, PAGE) == (ssize_t)PAGE,
	       "a vmalloc page reads (%#lx)", vstart);
	/* The area's last page is its guard page: nothing is mapped there. */
	tap_ok(kmem_read_at(fd, vend - 2 * PAGE, buf, 2 * PAGE) ==
	       (ssize_t)PAGE,
	       "a read into the area's guard page is short (one page)");
	tap_errno(kmem_read_at(fd, vend - PAGE, buf, PAGE), ENXIO,
		  "the guard page itself is ENXIO");
	if (io)
		tap_errno(kmem_read_at(fd, io, buf, PAGE), ENXIO,
			  "an ioremap area (%#lx) is ENXIO", io);
	else
		tap_skip("no ioremap area in this guest",
			 "an ioremap area is ENXIO");
	free(buf);
}

int main(void)
{
	char version[512];
	ssize_t len;

	tap_header();
	len = read_text("/proc/version", version, sizeof(version));
	if (len <= 0)
		tap_bail("cannot read /proc/version");
	fd = open(KMEM_PATH, O_RDONLY);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));

	banner_tests(version, len);
	image_tests();
	high_memory_tests();
	refused_tests();
	vmalloc_tests();

	close(fd);
	return tap_finish();
}
