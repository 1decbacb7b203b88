// SPDX-License-Identifier: GPL-2.0
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kmem.h"
#include "tap.h"

/* Both files have lines "<hex address> <type> <name>[ [module]]". */
static unsigned long symbol_in(const char *path, const char *name)
{
	char line[512], sym[256], type;
	unsigned long addr, found = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &addr, &type, sym) == 3 &&
		    strcmp(sym, name) == 0) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

unsigned long ksym(const char *name)
{
	return symbol_in("/proc/kallsyms", name);
}

unsigned long ksym_map(const char *map, const char *name)
{
	return symbol_in(map, name);
}

unsigned long sym(const char *name)
{
	unsigned long a = ksym(name);

	return a ? a : ksym_map(SYSTEM_MAP, name);
}

static int kmem_seek(int fd, unsigned long addr)
{
	off_t got = lseek(fd, (off_t)addr, SEEK_SET);

	if (got == (off_t)-1 && errno)
		return -1;
	if ((unsigned long)got != addr) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

ssize_t kmem_read_at(int fd, unsigned long addr, void *buf, size_t len)
{
	errno = 0;
	if (kmem_seek(fd, addr))
		return -1;
	return read(fd, buf, len);
}

ssize_t kmem_write_at(int fd, unsigned long addr, const void *buf,
		      size_t len)
{
	errno = 0;
	if (kmem_seek(fd, addr))
		return -1;
	return write(fd, buf, len);
}

ssize_t read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

void read_line(const char *path, char *buf, size_t size)
{
	if (read_text(path, buf, size) <= 0)
		tap_bail("cannot read %s", path);
	buf[strcspn(buf, "\n")] = '\0';
}

int vmalloc_area(unsigned long min, unsigned long *start, unsigned long *end)
{
	FILE *f = fopen("/proc/vmallocinfo", "r");
	char line[512];
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%lx-%lx", start, end) == 2 &&
			strstr(line, " vmalloc") && *end - *start >= min;
	if (f)
		fclose(f);
	return found;
}

unsigned long user_pfn(const void *p)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	unsigned long long e = 0;
	off_t at = (off_t)((unsigned long)p / PAGE) * sizeof(e);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e), at) != sizeof(e))
		e = 0;
	close(fd);
	/* bit 63: present; bits 0-54: the page frame (0 without CAP_SYS_ADMIN) */
	return e >> 63 ? (unsigned long)(e & ((1ULL << 55) - 1)) : 0;
}

void scratch_page(struct scratch *s)
{
	unsigned long pfn;

	s->memfd = memfd_create("devkmem-scratch", 0);
	if (s->memfd < 0 || ftruncate(s->memfd, PAGE))
		tap_bail("scratch memfd: %s", strerror(errno));
	s->map = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      s->memfd, 0);
	if (s->map == MAP_FAILED)
		tap_bail("scratch mmap: %s", strerror(errno));
	memset(s->map, 0, PAGE);
	if (mlock(s->map, PAGE))
		tap_bail("scratch mlock: %s", strerror(errno));
	pfn = user_pfn(s->map);
	if (!pfn)
		tap_bail("scratch page: no page frame in /proc/self/pagemap");
	s->kva = PAGE_OFFSET + pfn * PAGE;
}

unsigned long kmem_high_memory(int fd)
{
	unsigned long hm = 0, a = sym("high_memory");

	if (!a || kmem_read_at(fd, a, &hm, sizeof(hm)) != sizeof(hm))
		tap_bail("cannot read high_memory through " KMEM_PATH);
	return hm;
}

/* xorshift64*: small, and the same sequence for the same seed everywhere */
unsigned long rng_next(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dUL;
}

unsigned long cmdline_ulong(const char *key, unsigned long dflt)
{
	char buf[4096], *p;
	size_t klen = strlen(key);

	if (read_text("/proc/cmdline", buf, sizeof(buf)) < 0)
		return dflt;
	for (p = strtok(buf, " \n"); p; p = strtok(NULL, " \n"))
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return strtoul(p + klen + 1, NULL, 0);
	return dflt;
}

int kpageflag(unsigned long pfn, int bit)
{
	static int fd = -1;
	unsigned long long flags;

	if (fd < 0)
		fd = open("/proc/kpageflags", O_RDONLY);
	if (fd < 0 || pread(fd, &flags, sizeof(flags), (off_t)(pfn * 8)) !=
	    sizeof(flags))
		return -1;
	return (flags >> bit) & 1;
}

unsigned long kpageflags_scan(int bit, void (*each)(unsigned long, void *),
			      void *arg)
{
	static unsigned long long flags[4096];
	int fd = open("/proc/kpageflags", O_RDONLY);
	unsigned long pfn = 0;
	ssize_t n, i;

	if (fd < 0)
		tap_bail("open /proc/kpageflags: %s", strerror(errno));
	while ((n = pread(fd, flags, sizeof(flags), (off_t)(pfn * 8))) > 0)
		for (i = 0; i < n / 8; i++, pfn++)
			if ((flags[i] >> bit) & 1)
				each(pfn, arg);
	close(fd);
	return pfn;
}

off_t kcore_offset(int kcore, unsigned long va, size_t len)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i;

	if (pread(kcore, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return -1;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(kcore, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph))
			return -1;
		if (ph.p_type == PT_LOAD && va >= ph.p_vaddr &&
		    va + len <= ph.p_vaddr + ph.p_memsz)
			return ph.p_offset + (va - ph.p_vaddr);
	}
	return -1;
}

void host_request(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int fd = open("/dev/kmsg", O_WRONLY);
	int n;

	va_start(ap, fmt);
	n = snprintf(line, sizeof(line), "devkmem-qmp: ");
	n += vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	/* without a newline printk holds the line back as a fragment */
	line[n++] = '\n';
	if (fd < 0 || write(fd, line, n) != n)
		tap_bail("cannot ask the host through /dev/kmsg: %s",
			 strerror(errno));
	close(fd);
}

void expect_refused(int fd, unsigned long kva, int want, const char *what)
{
	static unsigned char buf[PAGE], zero[PAGE];
	int kcore = open("/proc/kcore", O_RDONLY);
	off_t off = kcore < 0 ? -1 : kcore_offset(kcore, kva, PAGE);
	void *map;

	tap_errno(kmem_read_at(fd, kva, buf, PAGE), want, "read of %s", what);
	tap_errno(kmem_write_at(fd, kva, zero, 1), want, "write to %s", what);
	map = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)kva);
	if (map != MAP_FAILED)
		munmap(map, PAGE);
	tap_errno(map == MAP_FAILED ? -1 : 0, want, "mmap of %s", what);
	memset(buf, 0xff, sizeof(buf));
	tap_ok(off >= 0 && pread(kcore, buf, PAGE, off) == PAGE &&
	       !memcmp(buf, zero, PAGE),
	       "/proc/kcore reads zeros from %s", what);
	if (kcore >= 0)
		close(kcore);
}
