// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-off: no /dev/kmem at all, char 1:2 is ENXIO, and /dev/mem is
 * unchanged (with STRICT_DEVMEM: the BIOS area reads, kernel RAM does not).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define NODE		"/tmp/kmem-1-2"
#define BIOS_ROM	0xf0000UL

int main(void)
{
	unsigned long banner = ksym("linux_banner");
	struct stat st;
	char buf[64];
	int fd;

	tap_header();

	errno = 0;
	tap_errno(stat(KMEM_PATH, &st), ENOENT, "devtmpfs has no " KMEM_PATH);

	mkdir("/tmp", 01777);
	unlink(NODE);
	if (tap_ok(mknod(NODE, S_IFCHR | 0600, makedev(1, 2)) == 0,
		   "mknod c 1 2")) {
		tap_errno(open(NODE, O_RDONLY), ENXIO,
			  "opening char 1:2 read-only is ENXIO");
		tap_errno(open(NODE, O_RDWR), ENXIO,
			  "opening char 1:2 read-write is ENXIO");
		unlink(NODE);
	}

	fd = open("/dev/mem", O_RDONLY);
	if (!tap_ok(fd >= 0, "/dev/mem opens"))
		return tap_finish();
	tap_ok(pread(fd, buf, sizeof(buf), BIOS_ROM) == sizeof(buf),
	       "/dev/mem reads the BIOS ROM at %#lx", BIOS_ROM);
	if (banner)
		tap_errno(pread(fd, buf, sizeof(buf),
				banner - START_KERNEL_MAP), EPERM,
			  "/dev/mem refuses kernel RAM (STRICT_DEVMEM)");
	else
		tap_skip("linux_banner not in /proc/kallsyms",
			 "/dev/mem refuses kernel RAM");
	close(fd);
	return tap_finish();
}
