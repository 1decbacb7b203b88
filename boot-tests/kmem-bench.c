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
 * mmap() set-up latency of 4 KiB to 128 MiB, kmem against mem, paired
 * the same way, over RAM in use: a /dev/kmem mapping holds a reference on
 * every page and refuses free ones (EPERM), so the test first fills the
 * guest's free memory with pages of its own and then looks, from the top
 * of the linear map down, for 128 MiB that /dev/kmem maps. Lines starting "bench:" are the table that
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

#define PLAN	9	/* kcore, 3 read sizes, the window, 4 mmap sizes */

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
	unsigned int s;
	int r, bad;

	ksft_print_msg("bench: read throughput, %lu MiB of RAM from physical %lu MiB, median of %d interleaved rounds\n",
		 REGION >> 20, PHYS >> 20, ROUNDS);
	ksft_print_msg("bench: %8s %12s %12s %12s %9s %10s\n", "buffer", "kmem MiB/s",
		 "mem MiB/s", "kcore MiB/s", "kmem/mem", "kmem/kcore");
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
					tm[r] = read_pass(mem, (off_t)PHYS, chunks[s]);
					break;
				default:
					tc[r] = read_pass(kcore, kc_off, chunks[s]);
				}
			}
			bad += tk[r] <= 0 || tm[r] <= 0 || tc[r] <= 0;
			/* throughput ratio = inverse time ratio */
			rm[r] = tm[r] / tk[r];
			rc[r] = tc[r] / tk[r];
		}
		if (!result(!bad, "reads at %zu KiB through all three devices\n",
			    chunks[s] >> 10))
			continue;
		ksft_print_msg("bench: %6zu K %12.1f %12.1f %12.1f %9.2f %10.2f   budget (issue 11): kmem/mem >= 0.98, kmem/kcore >= 1.00\n",
			 chunks[s] >> 10, (REGION >> 20) / median(tk, ROUNDS),
			 (REGION >> 20) / median(tm, ROUNDS),
			 (REGION >> 20) / median(tc, ROUNDS),
			 median(rm, ROUNDS), median(rc, ROUNDS));
	}
}

#define MAP_MAX		(128UL << 20)
#define FREE_LEFT	(32UL << 20)	/* what the filler leaves free */

/* MemAvailable in bytes, 0 if unknown */
static unsigned long mem_available(void)
{
	char text[4096], *p;

	if (read_text("/proc/meminfo", text, sizeof(text)) < 0)
		return 0;
	p = strstr(text, "MemAvailable:");
	return p ? strtoul(p + 13, NULL, 10) << 10 : 0;
}

/*
 * Physical address of MAP_MAX bytes of RAM, all in use, that /dev/kmem
 * maps; 0 if none. *fill is the filler, left mapped while the bench runs.
 */
static unsigned long mappable_window(int kmem, void **fill, size_t *fill_len)
{
	unsigned long hm = kmem_high_memory(kmem) - PAGE_OFFSET, phys;
	unsigned long avail = mem_available();

	*fill_len = avail > FREE_LEFT ? avail - FREE_LEFT : 0;
	*fill = mmap(NULL, *fill_len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (*fill == MAP_FAILED)
		return 0;
	for (phys = (hm - MAP_MAX) & ~((1UL << 20) - 1); phys >= PHYS;
	     phys -= 1UL << 20) {
		void *m = mmap(NULL, MAP_MAX, PROT_READ, MAP_SHARED, kmem,
			       (off_t)(PAGE_OFFSET + phys));

		if (m != MAP_FAILED) {
			munmap(m, MAP_MAX);
			return phys;
		}
	}
	return 0;
}

static void mmap_bench(int kmem, int mem)
{
	static const size_t sizes[] = { 4096, 1 << 20, 16 << 20, MAP_MAX };
	unsigned long phys;
	size_t fill_len;
	void *fill;
	double tk[ROUNDS], tm[ROUNDS], rk[ROUNDS], d[ROUNDS];
	double k4 = 0, d4 = 0;
	unsigned int s;
	int r, bad;

	phys = mappable_window(kmem, &fill, &fill_len);
	if (!result(phys, "128 MiB of RAM in use that /dev/kmem maps (%zu MiB filled)\n",
		    fill_len >> 20)) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			ksft_test_result_skip("mmap of %zu KiB: no window\n",
					      sizes[s] >> 10);
		return;
	}
	ksft_print_msg("bench: mmap set-up, the same RAM (in use) from physical %lu MiB, median of %d interleaved rounds\n",
		 phys >> 20, ROUNDS);
	ksft_print_msg("bench: %8s %10s %10s %9s %16s\n", "size", "kmem us",
		 "mem us", "kmem/mem", "kmem-mem us");
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		double mk, dm;

		bad = 0;
		for (r = 0; r < ROUNDS; r++) {
			tk[r] = mmap_setup(kmem, (off_t)(PAGE_OFFSET + phys),
					   sizes[s]);
			tm[r] = mmap_setup(mem, (off_t)phys, sizes[s]);
			bad += tk[r] <= 0 || tm[r] <= 0;
			rk[r] = tk[r] / tm[r];
			d[r] = tk[r] - tm[r];
		}
		if (!result(!bad, "mmap of %zu KiB through both devices\n",
			    sizes[s] >> 10))
			continue;
		mk = median(tk, ROUNDS);
		dm = median(d, ROUNDS);
		if (s == 0) {
			k4 = mk;
			d4 = dm;
		}
		ksft_print_msg("bench: %6zu K %10.1f %10.1f %9.2f %16.1f%s\n",
			 sizes[s] >> 10, mk * 1e6, median(tm, ROUNDS) * 1e6,
			 median(rk, ROUNDS), dm * 1e6,
			 sizes[s] == MAP_MAX ?
			 "   budget (issue 11): kmem/mem <= 1.10" : "");
		if (s == 3 && k4 > 0)
			ksft_print_msg("bench: kmem 128 MiB / 4 KiB set-up: %.1fx; the range check's own cost (kmem-mem) at 128 MiB: %.1f us, at 4 KiB: %.1f us\n",
				 mk / k4, dm * 1e6, d4 * 1e6);
	}
	munmap(fill, fill_len);
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
	mmap_bench(kmem, mem);
	ksft_finished();
}
