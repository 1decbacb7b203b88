// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-debug: a seeded, bounded fuzzer for /dev/kmem. Offsets come
 * from classes that have broken such devices before (0, the top of the
 * address space, non-canonical, user addresses, high_memory +- pages,
 * /proc/iomem edges, kallsyms, /proc/vmallocinfo, the test's scratch
 * page), nudged by 0, +-1, +-a page or less; lengths are 0, 1, odd, a
 * page +-1, the whole user buffer, or huge. Operations: lseek + read,
 * pread (EINVAL at every kernel address), read-only mmap (touching every
 * page mapped), and writes into the scratch page only, some from a user
 * buffer that runs into an unmapped guard page.
 *
 * Fails on: an errno outside the op's list (docs/errno.md), a read of
 * more than asked or than the buffer holds, a read of 0 bytes for a
 * non-zero length, scratch bytes read that differ from the page, a write
 * whose effect is not exactly its first N bytes (N what it returned), a
 * pread at a kernel address that is not EINVAL. A kernel report fails
 * the boot itself (panic_on_warn=1, oops=panic).
 *
 * devkmem_test.seed=N on the command line replays a run; the seed is
 * printed first. Stops after FUZZ_OPS operations or FUZZ_SECONDS.
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

#define FUZZ_OPS	25000
#define FUZZ_MIN_OPS	20000
#define FUZZ_SECONDS	55
#define BUF_PAGES	3
#define BUFSZ		(BUF_PAGES * PAGE)
#define MAX_ADDRS	8192

enum cls { ZERO, TOP, NONCANON, USER, HIGHMEM, IOMEM, KALLSYMS, VMALLOC,
	   SCRATCH, NCLASS };
static const char *const cls_name[NCLASS] = {
	"zero", "top", "non-canonical", "user", "high_memory", "iomem",
	"kallsyms", "vmallocinfo", "scratch",
};
enum op { READ, PREAD, MMAP, WRITE, NOPS };
static const char *const op_name[NOPS] = { "read", "pread", "mmap", "write" };

/* errnos each op may give (docs/errno.md); anything else is a failure */
static const int allowed[NOPS][7] = {
	[READ] = { ENXIO, EIO, EFAULT, EINVAL, EOVERFLOW },
	[PREAD] = { ENXIO, EIO, EFAULT, EINVAL, EOVERFLOW },
	[MMAP] = { ENXIO, EIO, EPERM, EINVAL, EOVERFLOW, ENOMEM },
	[WRITE] = { EFAULT, EOVERFLOW },
};

#define NERR 140
static unsigned long count[NCLASS][NOPS], succeeded[NCLASS][NOPS];
static unsigned long errs[NCLASS][NERR];
static unsigned long failures;

static unsigned long addrs[NCLASS][MAX_ADDRS];
static int naddrs[NCLASS];
static unsigned long rng, seed;
static struct scratch s;
static unsigned char *ubuf;	/* BUFSZ bytes, then a PROT_NONE page */

static void add(enum cls c, unsigned long a)
{
	if (naddrs[c] < MAX_ADDRS)
		addrs[c][naddrs[c]++] = a;
}

static void load_iomem(void)
{
	FILE *f = fopen("/proc/iomem", "r");
	unsigned long start, end;
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " %lx-%lx", &start, &end) == 2) {
			add(IOMEM, PAGE_OFFSET + start);
			add(IOMEM, PAGE_OFFSET + end + 1);
		}
	if (f)
		fclose(f);
}

static void load_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long a, i = 0;
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx", &a) == 1 && a && i++ % 4 == 0)
			add(KALLSYMS, a);
	if (f)
		fclose(f);
}

static void load_vmallocinfo(void)
{
	FILE *f = fopen("/proc/vmallocinfo", "r");
	unsigned long start, end;
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &start, &end) == 2) {
			add(VMALLOC, start);
			add(VMALLOC, end);
		}
	if (f)
		fclose(f);
}

static unsigned long pick(unsigned long n)
{
	return rng_next(&rng) % n;
}

static unsigned long nudge(unsigned long a)
{
	switch (pick(6)) {
	case 0: return a;
	case 1: return a + 1;
	case 2: return a - 1;
	case 3: return a + pick(PAGE);
	case 4: return a - pick(PAGE);
	default: return pick(2) ? a + PAGE : a - PAGE;
	}
}

static unsigned long offset_in(enum cls c, unsigned long hm)
{
	switch (c) {
	case ZERO:
		return pick(4) ? 0 : pick(PAGE);
	case TOP:
		return ~0UL - pick(3 * PAGE);
	case NONCANON:
		return pick(2) ? 0x0000800000000000UL + pick(1UL << 46) :
				 0xffff7fffffffffffUL - pick(1UL << 46);
	case USER:
		return 0x400000UL + pick(0x7fffffff0000UL);
	case HIGHMEM:
		return hm + (pick(9) - 4) * PAGE + (pick(2) ? pick(PAGE) : 0);
	case SCRATCH:
		return s.kva + pick(PAGE);
	default:
		if (!naddrs[c])
			return 0;
		return nudge(addrs[c][pick(naddrs[c])]);
	}
}

static size_t length(void)
{
	switch (pick(8)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return pick(PAGE) | 1;
	case 3: return PAGE - 1;
	case 4: return PAGE;
	case 5: return PAGE + 1;
	case 6: return BUFSZ;
	default: return 1UL << 30;
	}
}

static void fail(unsigned long i, enum cls c, enum op o, unsigned long off,
		 size_t len, const char *what)
{
	failures++;
	if (failures <= 20)
		tap_diag("FAIL op %lu: %s %s at %#lx len %zu: %s (errno %s)",
			 i, cls_name[c], op_name[o], off, len, what,
			 tap_errname(errno));
}

/* Account a -1 result; false if its errno is not allowed for the op. */
static int error_ok(enum cls c, enum op o, int e)
{
	int k;

	errs[c][e < NERR ? e : 0]++;
	for (k = 0; k < 7 && allowed[o][k]; k++)
		if (allowed[o][k] == e)
			return 1;
	return 0;
}

static void do_read(int fd, unsigned long i, enum cls c, unsigned long off,
		    enum op o)
{
	size_t len = length();
	ssize_t n;

	errno = 0;
	if (o == PREAD)
		n = pread(fd, ubuf, len, (off_t)off);
	else
		n = kmem_read_at(fd, off, ubuf, len);
	if (n < 0) {
		int e = errno;

		if (o == PREAD && (long)off < 0 && e != EINVAL)
			fail(i, c, o, off, len, "pread at a kernel address is not EINVAL");
		else if (!error_ok(c, o, e))
			fail(i, c, o, off, len, "unexpected errno");
		return;
	}
	succeeded[c][o]++;
	if (o == PREAD && (long)off < 0)
		fail(i, c, o, off, len, "pread at a kernel address succeeded");
	else if ((size_t)n > len || (size_t)n > BUFSZ)
		fail(i, c, o, off, len, "read more than asked or than the buffer");
	else if (n == 0 && len > 0)
		fail(i, c, o, off, len, "read of a non-zero length returned 0");
	else if (c == SCRATCH && off >= s.kva && off - s.kva < PAGE) {
		size_t in = PAGE - (off - s.kva);

		if (memcmp(ubuf, s.map + (off - s.kva), (size_t)n < in ? (size_t)n : in))
			fail(i, c, o, off, len, "scratch bytes read differ from the page");
	}
}

static void do_mmap(int fd, unsigned long i, enum cls c, unsigned long off)
{
	static const unsigned long npages[] = { 1, 2, 16, 64 };
	unsigned long pages = npages[pick(4)], p;
	unsigned long a = off & ~(PAGE - 1);
	volatile unsigned char sink;
	unsigned char *m;

	m = mmap(NULL, pages * PAGE, PROT_READ, pick(2) ? MAP_SHARED : MAP_PRIVATE,
		 fd, (off_t)a);
	if (m == MAP_FAILED) {
		if (!error_ok(c, MMAP, errno))
			fail(i, c, MMAP, a, pages * PAGE, "unexpected errno");
		return;
	}
	succeeded[c][MMAP]++;
	for (p = 0; p < pages; p++)
		sink = m[p * PAGE];
	(void)sink;
	munmap(m, pages * PAGE);
}

/* Writes go into the scratch page only, and are checked byte by byte. */
static void do_write(int fd, unsigned long i)
{
	unsigned char before[PAGE], src[PAGE];
	size_t off = pick(PAGE), len = 1 + pick(PAGE - off), k;
	const unsigned char *from = src;
	ssize_t n;

	for (k = 0; k < len; k++)
		src[k] = (unsigned char)rng_next(&rng);
	if (pick(8) == 0) {
		/* from a user buffer whose end runs into the guard page */
		size_t valid = pick(len);

		memcpy(ubuf + BUFSZ - valid, src, valid);
		from = ubuf + BUFSZ - valid;
	}
	memcpy(before, s.map, PAGE);
	n = kmem_write_at(fd, s.kva + off, from, len);
	if (n < 0) {
		if (!error_ok(SCRATCH, WRITE, errno))
			fail(i, SCRATCH, WRITE, s.kva + off, len, "unexpected errno");
		n = 0;
	} else {
		succeeded[SCRATCH][WRITE]++;
		if ((size_t)n > len)
			fail(i, SCRATCH, WRITE, s.kva + off, len, "wrote more than asked");
	}
	memcpy(before + off, src, (size_t)n);
	if (memcmp(before, s.map, PAGE))
		fail(i, SCRATCH, WRITE, s.kva + off, len,
		     "the page is not its old bytes with exactly the written ones replaced");
	if (n > 0 && (kmem_read_at(fd, s.kva + off, src, (size_t)n) != n ||
		      memcmp(src, before + off, (size_t)n)))
		fail(i, SCRATCH, WRITE, s.kva + off, len, "read-back differs");
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void summary(double secs, unsigned long ops)
{
	static const int show[] = { ENXIO, EIO, EFAULT, EINVAL, EOVERFLOW,
				    ENOMEM };
	char line[512];
	int c, o, k, len;

	tap_diag("fuzz-summary: %lu operations in %.1f s, seed %lu, %lu failures",
		 ops, secs, seed, failures);
	for (c = 0; c < NCLASS; c++) {
		len = snprintf(line, sizeof(line), "fuzz-summary: %-13s",
			       cls_name[c]);
		for (o = 0; o < NOPS; o++)
			if (count[c][o])
				len += snprintf(line + len, sizeof(line) - len,
						" %s %lu/%lu ok", op_name[o],
						succeeded[c][o], count[c][o]);
		for (k = 0; k < 6; k++)
			if (errs[c][show[k]])
				len += snprintf(line + len, sizeof(line) - len,
						" %s=%lu", tap_errname(show[k]),
						errs[c][show[k]]);
		tap_diag("%s", line);
	}
}

int main(void)
{
	unsigned long i, hm;
	double t0, secs;
	int fd, c, o;

	tap_header();
	seed = cmdline_ulong("devkmem_test.seed", 0);
	if (!seed)
		seed = (unsigned long)time(NULL) * 2654435761UL;
	rng = seed | 1;
	tap_diag("seed %lu (replay: FUZZ_SEED=%lu make check)", seed, seed);

	fd = open(KMEM_PATH, O_RDWR);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));
	ubuf = mmap(NULL, BUFSZ + PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ubuf == MAP_FAILED || mprotect(ubuf + BUFSZ, PAGE, PROT_NONE))
		tap_bail("user buffer: %s", strerror(errno));
	scratch_page(&s);
	hm = kmem_high_memory(fd);
	load_iomem();
	load_kallsyms();
	load_vmallocinfo();
	for (c = IOMEM; c <= VMALLOC; c++)
		if (!tap_ok(naddrs[c] > 0, "%s gives offsets (%d)", cls_name[c],
			    naddrs[c]))
			return tap_finish();

	t0 = now();
	for (i = 0; i < FUZZ_OPS && now() - t0 < FUZZ_SECONDS; i++) {
		enum cls cl = pick(NCLASS);
		enum op op = pick(10) < 8 ? (pick(3) == 0 ? MMAP : READ) : WRITE;
		unsigned long off;

		if (op == READ && pick(4) == 0)
			op = PREAD;
		if (op == WRITE)
			cl = SCRATCH;
		count[cl][op]++;
		off = offset_in(cl, hm);
		if (op == WRITE)
			do_write(fd, i);
		else if (op == MMAP)
			do_mmap(fd, i, cl, off);
		else
			do_read(fd, i, cl, off, op);
	}
	secs = now() - t0;
	close(fd);

	summary(secs, i);
	tap_ok(i >= FUZZ_MIN_OPS && secs < 60,
	       "%lu operations in %.1f s (at least %d in under 60 s)", i, secs,
	       FUZZ_MIN_OPS);
	for (o = 0; o < NOPS; o++) {
		unsigned long n = 0;

		for (c = 0; c < NCLASS; c++)
			n += count[c][o];
		tap_ok(n > 0, "%s ran %lu times", op_name[o], n);
	}
	tap_ok(failures == 0, "no operation broke the rules (%lu did)", failures);
	return tap_finish();
}
