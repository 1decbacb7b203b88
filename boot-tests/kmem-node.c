// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-on: the /dev/kmem node, its seek rules, and pread/pwrite, which
 * cannot reach kernel addresses.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

int main(void)
{
	unsigned long banner = ksym("linux_banner");
	struct stat st;
	char buf[16];
	off_t off;
	int fd;

	tap_header();
	if (!banner)
		tap_bail("linux_banner not in /proc/kallsyms");

	if (!tap_ok(stat(KMEM_PATH, &st) == 0, "devtmpfs has " KMEM_PATH))
		return tap_finish();
	tap_ok(S_ISCHR(st.st_mode), "it is a character device");
	tap_ok(major(st.st_rdev) == 1 && minor(st.st_rdev) == 2,
	       "its number is 1:2 (got %u:%u)",
	       major(st.st_rdev), minor(st.st_rdev));
	tap_ok((st.st_mode & 07777) == 0600, "its mode is 0600 (got %04o)",
	       st.st_mode & 07777);
	tap_ok(st.st_uid == 0 && st.st_gid == 0, "it belongs to root:root");

	fd = open(KMEM_PATH, O_RDWR);
	if (!tap_ok(fd >= 0, "root opens it read-write"))
		return tap_finish();

	errno = 0;
	off = lseek(fd, (off_t)banner, SEEK_SET);
	tap_ok((unsigned long)off == banner && errno == 0,
	       "SEEK_SET to a kernel address (%#lx) returns it", banner);
	off = lseek(fd, 16, SEEK_CUR);
	tap_ok((unsigned long)off == banner + 16 && errno == 0,
	       "SEEK_CUR moves from there");
	off = lseek(fd, -16, SEEK_CUR);
	tap_ok((unsigned long)off == banner && errno == 0,
	       "SEEK_CUR backwards");
	tap_errno(lseek(fd, 0, SEEK_END), EINVAL, "SEEK_END is EINVAL");
	tap_errno(lseek(fd, -1, SEEK_SET), EOVERFLOW,
		  "SEEK_SET to the last byte (an errno value) is EOVERFLOW");

	/* See kmem.h: the syscall refuses negative offsets itself. */
	tap_errno(pread(fd, buf, sizeof(buf), (off_t)banner), EINVAL,
		  "pread at a kernel address is EINVAL (negative loff_t)");
	tap_errno(pwrite(fd, buf, sizeof(buf), (off_t)banner), EINVAL,
		  "pwrite at a kernel address is EINVAL (negative loff_t)");

	close(fd);
	return tap_finish();
}
