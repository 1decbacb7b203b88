// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-on, "make bench": /dev/kmem against /dev/mem and /proc/kcore
 * over the same physical RAM (16 MiB from physical 16 MiB), in one boot.
 *
 * Read throughput at buffer sizes of 4 KiB, 64 KiB and 1 MiB: each round
 * reads the region once through each device, interleaved, the order
 * rotating from round to round (kmem, mem, kcore; mem, kcore, kmem; ...),
 * ROUNDS times; the result is the median of the
 * per-round ratios, since single runs under TCG scatter widely.
 * mmap() set-up latency of kernel text through /dev/kmem alone (see
 * mmap_bench()). Lines starting "bench:" are the table that
 * scripts/bench.sh writes to build/results/bench.txt. Timings are
 * printed, never asserted; the test points only check that every
 * measurement ran.
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "devkmem/kmem.h"

#define ROUNDS	9
#define PHYS	(16UL << 20)
#define REGION	(16UL << 20)

#define PLAN	7	/* kcore, 3 read sizes, 3 mmap sizes */

static unsigned char *buf;

/* One test point; returns ok so that callers can skip what depends on it. */
static bool result(bool ok, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (ok)
		ksft_test_result_pass("%s", what);
	else
		ksft_test_result_fail("%s", what);
	return ok;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Seconds to read REGION from offset off of fd in chunks; -1 on error */
static double read_pass(int fd, off_t off, size_t chunk)
{
	double t0 = now();
	size_t done = 0;

	if (lseek(fd, off, SEEK_SET) == (off_t)-1 && errno)
		return -1;
	while (done < REGION) {
		ssize_t n = read(fd, buf, chunk);

		if (n <= 0) {
			ksft_print_msg("read of %zu at %#lx + %zu: %zd (%s)\n", chunk,
				 (unsigned long)off, done, n,
				 n < 0 ? strerror(errno) : "end of file");
			return -1;
		}
		done += n;
	}
	return now() - t0;
}

static double mmap_setup(int fd, off_t off, size_t len)
{
	double t0 = now(), t;
	void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);

	t = now() - t0;
	if (m == MAP_FAILED)
		return -1;
	munmap(m, len);
	return t;
}

static void read_bench(int kmem, int mem, int kcore, off_t kc_off)
{
	static const size_t chunks[] = { 4096, 64 << 10, 1 << 20 };
	double tk[ROUNDS], tm[ROUNDS], tc[ROUNDS], rm[ROUNDS], rc[ROUNDS];
	/* STRICT_DEVMEM (distribution kernels, devkmem-on) refuses RAM */
	bool with_mem = pread(mem, buf, 4096, PHYS) == 4096;
	unsigned int s;
	int r, bad;

	ksft_print_msg("bench: read throughput, %lu MiB of RAM from physical %lu MiB, median of %d interleaved rounds\n",
		 REGION >> 20, PHYS >> 20, ROUNDS);
	ksft_print_msg("bench: %8s %12s %12s %12s %9s %10s\n", "buffer", "kmem MiB/s",
		 "mem MiB/s", "kcore MiB/s", "kmem/mem", "kmem/kcore");
	if (!with_mem)
		ksft_print_msg("bench: /dev/mem refuses RAM here (%s: STRICT_DEVMEM): its columns are 0, no measure\n",
			       strerror(errno));
	for (s = 0; s < sizeof(chunks) / sizeof(chunks[0]); s++) {
		bad = 0;
		for (r = 0; r < ROUNDS; r++) {
			int k;

			/* each device goes first in a third of the rounds */
			for (k = 0; k < 3; k++) {
				switch ((r + k) % 3) {
				case 0:
					tk[r] = read_pass(kmem, (off_t)(PAGE_OFFSET + PHYS),
							  chunks[s]);
					break;
				case 1:
					tm[r] = with_mem ?
						read_pass(mem, (off_t)PHYS,
							  chunks[s]) : 0;
					break;
				default:
					tc[r] = read_pass(kcore, kc_off, chunks[s]);
				}
			}
			bad += tk[r] <= 0 || (with_mem && tm[r] <= 0) ||
			       tc[r] <= 0;
			/* throughput ratio = inverse time ratio */
			rm[r] = tm[r] / tk[r];
			rc[r] = tc[r] / tk[r];
		}
		if (!result(!bad, "reads at %zu KiB through %s\n",
			    chunks[s] >> 10,
			    with_mem ? "all three devices" : "kmem and kcore"))
			continue;
		ksft_print_msg("bench: %6zu K %12.1f %12.1f %12.1f %9.2f %10.2f   budget (issue 11): kmem/mem >= 0.98, kmem/kcore >= 1.00\n",
			 chunks[s] >> 10, (REGION >> 20) / median(tk, ROUNDS),
			 with_mem ? (REGION >> 20) / median(tm, ROUNDS) : 0,
			 (REGION >> 20) / median(tc, ROUNDS),
			 median(rm, ROUNDS), median(rc, ROUNDS));
	}
}

/*
 * mmap() serves only the kernel image, and /dev/mem refuses to map RAM
 * on a PAT kernel (EINVAL): there is no /dev/mem mapping of the same
 * memory to pair with. What is measured is /dev/kmem's set-up of the
 * image's text, by image address, at 4 KiB, 1 MiB and all of its whole
 * MiBs: the check is linear in pages, and the per-page figure shows it.
 */
static void mmap_bench(int kmem)
{
	unsigned long text = ksym("_text"), etext = ksym("_etext");
	size_t sizes[] = { 4096, 1 << 20, (etext - text) & ~((1UL << 20) - 1) };
	double tk[ROUNDS], k4 = 0;
	unsigned int s;
	int r, bad;

	ksft_print_msg("bench: mmap set-up of kernel text (%lu KiB) by image address, median of %d rounds\n",
		       (etext - text) >> 10, ROUNDS);
	ksft_print_msg("bench: %8s %10s %14s %12s\n", "size", "kmem us",
		       "us per page", "vs 4 KiB");
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		double mk;

		bad = !text || !etext || !sizes[s];
		for (r = 0; r < ROUNDS && !bad; r++) {
			tk[r] = mmap_setup(kmem, (off_t)text, sizes[s]);
			bad += tk[r] <= 0;
		}
		if (!result(!bad, "mmap of %zu KiB of kernel text\n",
			    sizes[s] >> 10))
			continue;
		mk = median(tk, ROUNDS);
		if (s == 0)
			k4 = mk;
		ksft_print_msg("bench: %6zu K %10.1f %14.3f %11.1fx\n",
			       sizes[s] >> 10, mk * 1e6,
			       mk * 1e6 / (sizes[s] / PAGE), k4 > 0 ? mk / k4 : 0);
	}
	ksft_print_msg("bench: budget (issue 11) kmem/mem <= 1.10 at 128 MiB: no measure (mmap serves only the image; /dev/mem refuses RAM under PAT)\n");
}

int main(void)
{
	int kmem, mem, kcore;
	off_t kc_off;

	ksft_print_header();
	ksft_set_plan(PLAN);
	buf = malloc(1 << 20);
	kmem = open(KMEM_PATH, O_RDONLY);
	mem = open("/dev/mem", O_RDONLY);
	kcore = open("/proc/kcore", O_RDONLY);
	if (!buf || kmem < 0 || mem < 0 || kcore < 0)
		ksft_exit_fail_msg("open /dev/kmem, /dev/mem, /proc/kcore: %s\n",
			 strerror(errno));
	kc_off = kcore_offset(kcore, PAGE_OFFSET + PHYS, REGION);
	if (!result(kc_off > 0, "/proc/kcore's program headers cover the region\n"))
		ksft_exit_fail();
	read_bench(kmem, mem, kcore, kc_off);
	mmap_bench(kmem);
	ksft_finished();
}
