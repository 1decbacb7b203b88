// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-on: the /dev/kmem node, the deprecation warning of its first
 * open, its seek rules, and pread/pwrite, which cannot reach kernel
 * addresses. The runner starts this program first, so that its open is
 * the first one of the boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

/*
 * Count the kernel log records that carry the deprecation warning; the
 * last one found is left in line.
 */
static int warnings(char *line, size_t size)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	char rec[1024];
	ssize_t n;
	int count = 0;

	if (fd < 0)
		return -1;
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE) {
		if (n <= 0)
			continue;	/* EPIPE: records were overwritten */
		rec[n] = '\0';
		if (strstr(rec, "/dev/kmem is deprecated")) {
			count++;
			snprintf(line, size, "%s", rec);
		}
	}
	close(fd);
	return count;
}

static void warning_tests(void)
{
	char line[1024] = "", want[64];
	int i, fd;

	for (i = 0; i < 3; i++) {
		fd = open(KMEM_PATH, O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	snprintf(want, sizeof(want), "opened by kmem-node (pid %d)", getpid());
	tap_ok(warnings(line, sizeof(line)) == 1,
	       "three opens log the deprecation warning once");
	tap_ok(strstr(line, want) != NULL, "it names the opener: %s", want);
}

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
	warning_tests();

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
