// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-on: mmap() of /dev/kmem. The seed's scenario done right (the
 * string may cross a page), writable and read-only mappings, and every
 * range that must be refused because some page of it is not linear-map
 * or kernel-image RAM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define MODPROBE		"/proc/sys/kernel/modprobe"

static int fd;

static unsigned long page_down(unsigned long a)
{
	return a & ~(PAGE - 1);
}

/* mmap() of /dev/kmem at kernel address kva; -1 (errno set) on failure */
static long kmap(unsigned long kva, size_t len, int prot, void **map)
{
	*map = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)kva);
	return *map == MAP_FAILED ? -1 : 0;
}

static void refuse(unsigned long kva, size_t len, int prot, int want,
		   const char *what)
{
	void *map;
	long r = kmap(kva, len, prot, &map);

	tap_errno(r, want, "mmap of %s is %s", what, tap_errname(want));
	if (!r)
		munmap(map, len);
}

/*
 * The string at kernel address kva, read through a mapping of the two
 * pages it starts in (the seed's program mapped one page and printed past
 * its end when the string crossed).
 */
static int mapped_string(unsigned long kva, char *out, size_t size)
{
	unsigned long off = kva & (PAGE - 1);
	size_t max = 2 * PAGE - off;
	char *map;

	if (kmap(page_down(kva), 2 * PAGE, PROT_READ, (void **)&map))
		return -1;
	if (max > size - 1)
		max = size - 1;
	strncpy(out, map + off, max);
	out[max] = '\0';
	munmap(map, 2 * PAGE);
	return 0;
}

static void seed_tests(void)
{
	unsigned long mp = ksym("modprobe_path");
	unsigned long mp_map = ksym_map(SYSTEM_MAP, "modprobe_path");
	char want[256], got[256];

	read_line(MODPROBE, want, sizeof(want));
	tap_ok(mp && mp == mp_map,
	       "modprobe_path: System.map and kallsyms agree (%#lx)", mp_map);
	tap_ok(mapped_string(mp_map, got, sizeof(got)) == 0 &&
	       strcmp(got, want) == 0,
	       "modprobe_path read through a mapping is '%s'", want);
}

/*
 * A string that really crosses a page boundary: find a boundary in
 * .rodata with text on both sides, go back to where that string starts,
 * and compare what the mapping gives with what read() gives.
 */
static void crossing_string_test(void)
{
	unsigned long ro = sym("__start_rodata"), end = sym("__end_rodata");
	unsigned long b, start = 0;
	char buf[2 * 256], viaread[256], viamap[256];
	int i;

	for (b = page_down(ro) + PAGE; b < end && !start; b += PAGE) {
		if (kmem_read_at(fd, b - 256, buf, sizeof(buf)) != sizeof(buf))
			continue;
		/* printable on both sides of the boundary */
		for (i = 256 - 8; i < 256 + 8; i++)
			if (buf[i] < 0x20 || buf[i] > 0x7e)
				break;
		if (i < 256 + 8)
			continue;
		for (i = 256 - 8; i > 0 && buf[i - 1] != '\0'; i--)
			;
		if (i > 0 && memchr(buf + 256, '\0', 256))
			start = b - 256 + i;
	}
	if (!start) {
		tap_skip("no string crosses a page in .rodata",
			 "a string crossing a page boundary");
		return;
	}
	kmem_read_at(fd, start, viaread, sizeof(viaread));
	viaread[sizeof(viaread) - 1] = '\0';
	tap_ok(mapped_string(start, viamap, sizeof(viamap)) == 0 &&
	       strcmp(viamap, viaread) == 0 &&
	       page_down(start) != page_down(start + strlen(viaread)),
	       "a string crossing a page (%#lx, %zu bytes) reads whole",
	       start, strlen(viaread));
}

static void write_tests(void)
{
	static const char test[] = "/sbin/stored-through-a-kmem-mapping";
	unsigned long mp = ksym("modprobe_path");
	unsigned long banner = ksym("linux_banner");
	char orig[256], now[256];
	char *map;

	read_line(MODPROBE, orig, sizeof(orig));
	if (tap_ok(kmap(page_down(mp), 2 * PAGE, PROT_READ | PROT_WRITE,
			(void **)&map) == 0,
		   "a writable shared mapping of modprobe_path")) {
		memcpy(map + (mp & (PAGE - 1)), test, sizeof(test));
		read_line(MODPROBE, now, sizeof(now));
		tap_ok(strcmp(now, test) == 0,
		       "a store through it shows in " MODPROBE);
		memcpy(map + (mp & (PAGE - 1)), orig, strlen(orig) + 1);
		read_line(MODPROBE, now, sizeof(now));
		tap_ok(strcmp(now, orig) == 0, "restored to '%s'", orig);
		munmap(map, 2 * PAGE);
	}

	refuse(page_down(banner), PAGE, PROT_READ | PROT_WRITE, EACCES,
	       "linux_banner's page writable (.rodata)");
	refuse(linear_alias(page_down(banner)),
	       PAGE, PROT_READ | PROT_WRITE, EACCES,
	       "its linear-map alias writable");
	if (tap_ok(kmap(page_down(banner), PAGE, PROT_READ,
			(void **)&map) == 0,
		   "a read-only mapping of linux_banner's page")) {
		tap_ok(strncmp(map + (banner & (PAGE - 1)), "Linux version ",
			       14) == 0, "it shows the banner");
		tap_errno(mprotect(map, PAGE, PROT_READ | PROT_WRITE), EACCES,
			  "mprotect(PROT_WRITE) on it is EACCES");
		munmap(map, PAGE);
	}
}

/* Bytes agree between read() and a mapping of the same range. */
static void agree(unsigned long kva, size_t len, const char *what)
{
	char *buf = malloc(len), *map;
	int same = 0;

	if (buf && kmem_read_at(fd, kva, buf, len) == (ssize_t)len &&
	    kmap(kva, len, PROT_READ, (void **)&map) == 0) {
		same = memcmp(buf, map, len) == 0;
		munmap(map, len);
	}
	tap_ok(same, "read() and mmap() agree over %s", what);
	free(buf);
}

static void edge_tests(void)
{
	static char mmap_buf[PAGE];
	unsigned long hm = 0, end = (sym("_end") + PAGE - 1) & ~(PAGE - 1);
	unsigned long vm, e;
	char *mine;

	kmem_read_at(fd, sym("high_memory"), &hm, sizeof(hm));
	/* read() serves it; mmap() only if it is in use (else EPERM) */
	tap_ok(kmem_read_at(fd, hm - PAGE, mmap_buf, PAGE) == PAGE,
	       "the last page below high_memory reads");
	refuse(hm - PAGE, 2 * PAGE, PROT_READ, ENXIO,
	       "a range crossing high_memory");
	refuse(hm - PAGE, 65 * PAGE, PROT_READ, ENXIO,
	       "a range running 64 pages past high_memory");
	refuse(hm, PAGE, PROT_READ, ENXIO, "high_memory itself");

	/* in use for good, unlike the brk and init pages freed at boot */
	agree(page_down(sym("_edata") - 1), PAGE, "the last page of .data");
	refuse(end, PAGE, PROT_READ, ENXIO, "the page after the image (_end)");
	refuse(end - PAGE, 2 * PAGE, PROT_READ, ENXIO,
	       "a range crossing the end of the image");
	agree(page_down(ksym("linux_banner")), PAGE, "linux_banner's page");
	agree(PAGE_OFFSET + (16UL << 20), 16 * PAGE,
	      "16 pages of the linear map");

	if (!vmalloc_area(PAGE, &vm, &e))
		vm = 0;
	if (vm)
		refuse(vm, PAGE, PROT_READ, ENXIO, "a vmalloc area");
	else
		tap_skip("no vmalloc area", "mmap of vmalloc is ENXIO");

	mine = aligned_alloc(PAGE, PAGE);
	refuse((unsigned long)mine, PAGE, PROT_READ, ENXIO,
	       "a user-space address (our own page)");
	free(mine);
	refuse(0x8000000000000000UL, PAGE, PROT_READ, ENXIO,
	       "a non-canonical address");
	/* do_mmap() refuses an offset range that wraps before the driver */
	refuse(0xfffffffffffff000UL, 2 * PAGE, PROT_READ, EOVERFLOW,
	       "a range wrapping the address space");
	refuse(page_down(ksym("linux_banner")) + 1, PAGE, PROT_READ, EINVAL,
	       "a misaligned offset");
}

/*
 * The hole-in-the-middle case that a first/last-page check misses: the
 * last RAM page below a gap in /proc/iomem's System RAM and the first one
 * above it each map, the range spanning both does not.
 */
static void hole_test(void)
{
	unsigned long s, e, prev_end = 0, lo = 0, hi = 0;
	static char buf[PAGE];
	char line[256];
	FILE *f = fopen("/proc/iomem", "r");

	while (f && !hi && fgets(line, sizeof(line), f)) {
		if (line[0] == ' ' || !strstr(line, ": System RAM") ||
		    sscanf(line, "%lx-%lx", &s, &e) != 2)
			continue;
		if (prev_end && s > prev_end + 1) {
			lo = page_down(prev_end + 1) - PAGE;
			hi = (s + PAGE - 1) & ~(PAGE - 1);
		}
		prev_end = e;
	}
	if (f)
		fclose(f);
	if (!hi) {
		tap_skip("System RAM has no gap", "a range with a hole inside");
		return;
	}
	/* Either may be a free page, which mmap() cannot hold (EPERM). */
	tap_ok(kmem_read_at(fd, PAGE_OFFSET + lo, buf, PAGE) == PAGE,
	       "the RAM page below the gap at %#lx reads", lo + PAGE);
	tap_ok(kmem_read_at(fd, PAGE_OFFSET + hi, buf, PAGE) == PAGE,
	       "the RAM page above it (%#lx) reads", hi);
	refuse(PAGE_OFFSET + lo, hi + PAGE - lo, PROT_READ, ENXIO,
	       "a range from one to the other (a hole in the middle)");
}

/* Fastest of 5 mmap() set-ups of len bytes at offset off of fd. */
static double mmap_seconds(int dev, unsigned long off, size_t len)
{
	double best = -1;
	int i;

	for (i = 0; i < 5; i++) {
		struct timespec a, b;
		void *map;
		double t;

		clock_gettime(CLOCK_MONOTONIC, &a);
		map = mmap(NULL, len, PROT_READ, MAP_SHARED, dev, (off_t)off);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (map == MAP_FAILED)
			return -1;
		munmap(map, len);
		t = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

/*
 * The same physical pages (kernel text, from 16 MiB: pages in use, which
 * a mapping can hold) through /dev/kmem and /dev/mem: the difference is
 * the cost of the checks and references. Printed, not asserted (tests
 * never assert wall-clock times).
 */
static void cost_report(void)
{
	size_t sizes[] = { 4096, 1 << 20,
			   (sym("_etext") - sym("_text")) & ~((1UL << 20) - 1) };
	unsigned long phys = 16UL << 20;
	int mem = open("/dev/mem", O_RDONLY);
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		double k = mmap_seconds(fd, PAGE_OFFSET + phys, sizes[i]);
		double m = mem < 0 ? -1 : mmap_seconds(mem, phys, sizes[i]);

		if (!tap_ok(k >= 0, "%zu KiB of RAM maps", sizes[i] >> 10))
			continue;
		if (m > 0)
			tap_diag("mmap set-up %6zu KiB: kmem %8.1f us, mem %8.1f us, kmem/mem %.2f",
				 sizes[i] >> 10, k * 1e6, m * 1e6, k / m);
	}
	if (mem >= 0)
		close(mem);
}

int main(void)
{
	tap_header();
	fd = open(KMEM_PATH, O_RDWR);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));

	seed_tests();
	crossing_string_test();
	write_tests();
	edge_tests();
	hole_test();
	cost_report();

	close(fd);
	return tap_finish();
}
