// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-on: write() of /dev/kmem. Writable kernel data changes (and is
 * restored); read-only data, user space, vmalloc and addresses that are
 * not served are refused with their errno and left unchanged; a write
 * that runs off what is served is short.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define MODPROBE		"/proc/sys/kernel/modprobe"

static int fd;

static void modprobe_path_tests(void)
{
	static const char test[] = "/sbin/written-through-dev-kmem";
	unsigned long addr = ksym("modprobe_path");
	char orig[256], now[256];

	if (!addr)
		tap_bail("modprobe_path not in /proc/kallsyms");
	tap_ok(ksym_map(SYSTEM_MAP, "modprobe_path") == addr,
	       "modprobe_path: System.map and kallsyms agree (%#lx)", addr);
	read_line(MODPROBE, orig, sizeof(orig));
	tap_ok(kmem_write_at(fd, addr, test, sizeof(test)) == sizeof(test),
	       "writing modprobe_path returns the whole count");
	read_line(MODPROBE, now, sizeof(now));
	tap_ok(strcmp(now, test) == 0, MODPROBE " shows the new value");
	kmem_write_at(fd, addr, orig, strlen(orig) + 1);
	read_line(MODPROBE, now, sizeof(now));
	tap_ok(strcmp(now, orig) == 0, "restored to '%s'", orig);
}

/* A refused write must leave the target as it was. */
static void refused_unchanged(unsigned long addr, int want, const char *what)
{
	char before[64], after[64], junk[64];

	memset(junk, 0xa5, sizeof(junk));
	kmem_read_at(fd, addr, before, sizeof(before));
	tap_errno(kmem_write_at(fd, addr, junk, sizeof(junk)), want,
		  "a write into %s is %s", what, tap_errname(want));
	tap_ok(kmem_read_at(fd, addr, after, sizeof(after)) == sizeof(after) &&
	       memcmp(before, after, sizeof(after)) == 0,
	       "and %s is unchanged", what);
}

static void read_only_tests(void)
{
	unsigned long banner = ksym("linux_banner");
	unsigned long text = sym("_stext");

	refused_unchanged(banner, EACCES, "linux_banner (.rodata)");
	refused_unchanged(linear_alias(banner), EACCES,
			  "linux_banner's linear-map alias");
	refused_unchanged(text, EACCES, "kernel text (_stext)");
}

/*
 * Short writes: the same bytes that are there are written back, so that
 * memory the test does not own is not changed.
 */
static void short_write(unsigned long limit, const char *what)
{
	char buf[64];

	if (kmem_read_at(fd, limit - 16, buf, 16) != 16) {
		tap_ok(0, "read the 16 bytes below %s", what);
		return;
	}
	memset(buf + 16, 0, sizeof(buf) - 16);
	tap_ok(kmem_write_at(fd, limit - 16, buf, sizeof(buf)) == 16,
	       "a write running into %s is short (16)", what);
}

static void other_tests(void)
{
	unsigned long hm = 0, vm, end;
	char mine[64], junk[2 * 4096];

	short_write(sym("_end"), "_end");
	kmem_read_at(fd, sym("high_memory"), &hm, sizeof(hm));
	short_write(hm, "high_memory");
	tap_errno(kmem_write_at(fd, hm, junk, sizeof(junk)), ENXIO,
		  "a write at high_memory is ENXIO");

	memset(mine, 0x5a, sizeof(mine));
	memset(junk, 0xa5, sizeof(junk));
	tap_errno(kmem_write_at(fd, (unsigned long)mine, junk, sizeof(junk)),
		  ENXIO, "a write to a user-space address is ENXIO");
	tap_ok(mine[0] == 0x5a && mine[63] == 0x5a,
	       "and our buffer is unchanged");
	tap_errno(kmem_write_at(fd, 0x8000000000000000UL, junk, sizeof(junk)),
		  ENXIO, "a write to a non-canonical address is ENXIO");
	tap_errno(kmem_write_at(fd, 0xfffffffffffff000UL, junk, 2 * 4096),
		  EOVERFLOW, "a write that would wrap the address space is EOVERFLOW");

	if (!vmalloc_area(PAGE, &vm, &end))
		vm = 0;
	if (vm)
		refused_unchanged(vm, EPERM, "a vmalloc area");
	else
		tap_skip("no vmalloc area", "a write into vmalloc is EPERM");
	tap_ok(kmem_write_at(fd, sym("modprobe_path"), junk, 0) == 0,
	       "a write of 0 bytes returns 0");
}

int main(void)
{
	tap_header();
	fd = open(KMEM_PATH, O_RDWR);
	if (fd < 0)
		tap_bail("open " KMEM_PATH ": %s", strerror(errno));

	modprobe_path_tests();
	read_only_tests();
	other_tests();

	close(fd);
	return tap_finish();
}
