/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the boot tests: kernel symbol look-up and access to
 * /dev/kmem at a kernel virtual address.
 */
#ifndef DEVKMEM_KMEM_H
#define DEVKMEM_KMEM_H

#include <stddef.h>
#include <sys/types.h>

#define KMEM_PATH	"/dev/kmem"
/* The build's System.map, put into the initramfs by scripts/boot-test.sh */
#define SYSTEM_MAP	"/usr/lib/devkmem-tests/System.map"

/* x86_64 with 4-level paging and no KASLR (the guest boots nokaslr) */
#define PAGE_OFFSET		0xffff888000000000UL
#define START_KERNEL_MAP	0xffffffff80000000UL
#define PAGE			4096UL

/* Linear-map alias of a kernel-image address. */
static inline unsigned long linear_alias(unsigned long image_addr)
{
	return PAGE_OFFSET + (image_addr - START_KERNEL_MAP);
}

/* Address of a symbol in /proc/kallsyms, or 0 if it is not there. */
unsigned long ksym(const char *name);
/* Address of a symbol in a System.map file, or 0. */
unsigned long ksym_map(const char *map, const char *name);
/* kallsyms first, then the build's System.map for what it leaves out. */
unsigned long sym(const char *name);

/*
 * Read or write at a kernel virtual address. pread()/pwrite() cannot do
 * this on 64-bit: ksys_pread64() refuses a negative loff_t with EINVAL
 * before the driver runs, and every x86_64 kernel address is negative as
 * a loff_t. /dev/kmem has FMODE_UNSIGNED_OFFSET, so lseek() accepts the
 * address and read()/write() continue from there. Both return what
 * read()/write() return (or -1 with lseek's errno if the seek failed).
 */
ssize_t kmem_read_at(int fd, unsigned long addr, void *buf, size_t len);
ssize_t kmem_write_at(int fd, unsigned long addr, const void *buf,
		      size_t len);

/*
 * First vmalloc()ed area of /proc/vmallocinfo at least min bytes long
 * (its size includes the guard page at its end); 0 if there is none.
 */
int vmalloc_area(unsigned long min, unsigned long *start, unsigned long *end);

/* Whole contents of a small text file, NUL-terminated; length or -1. */
ssize_t read_text(const char *path, char *buf, size_t size);
/* Its first line without the newline; bails out if it cannot be read. */
void read_line(const char *path, char *buf, size_t size);

/* Page frame behind a user address (/proc/self/pagemap; root); 0 if none. */
unsigned long user_pfn(const void *p);

/*
 * A page of RAM the test owns, seen from both sides: a locked shared
 * mapping of a memfd page, and its linear-map address. Writes through
 * /dev/kmem go only here; the mapping shows what they did. Bails out if
 * it cannot be made.
 */
struct scratch {
	int memfd;
	unsigned char *map;
	unsigned long kva;
};
void scratch_page(struct scratch *s);

/* The kernel's high_memory, read through fd (an open /dev/kmem). */
unsigned long kmem_high_memory(int fd);

/* Reproducible pseudo-random numbers (xorshift64*); state must not be 0. */
unsigned long rng_next(unsigned long *state);

/* Bits of /proc/kpageflags (include/uapi/linux/kernel-page-flags.h) */
#define KPF_HWPOISON	19
#define KPF_OFFLINE	23

/* Is bit set in pfn's /proc/kpageflags entry? -1 if it cannot be read. */
int kpageflag(unsigned long pfn, int bit);

/*
 * Call each(pfn, arg) for every page frame whose /proc/kpageflags entry
 * has bit set, in order; return how many frames the file lists. Bails out
 * if it cannot be read.
 */
unsigned long kpageflags_scan(int bit, void (*each)(unsigned long, void *),
			      void *arg);

/* /proc/kcore file offset of [va, va + len), or -1 if no segment holds it */
off_t kcore_offset(int kcore, unsigned long va, size_t len);

/*
 * Ask the host for a change of the machine, with a line on the kernel log
 * that scripts/qmp-watch.sh answers over QMP ("balloon BYTES").
 */
void host_request(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A page frame /dev/kmem must not touch, at its linear-map address: read,
 * write and mmap each fail with want (one test point each), and
 * /proc/kcore, the reference, reads zeros there.
 */
void expect_refused(int fd, unsigned long kva, int want, const char *what);

/* key=value from /proc/cmdline as a number, or dflt. */
unsigned long cmdline_ulong(const char *key, unsigned long dflt);

#endif
