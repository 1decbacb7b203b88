// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-debug: lockdown. Booted with lockdown=integrity or
 * lockdown=confidentiality, root with every capability cannot open
 * /dev/kmem (EPERM from security_locked_down(LOCKDOWN_DEV_MEM)), nor
 * /dev/mem; booted without lockdown= (the lockdown LSM is still built
 * in), it can.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

static void try_open(const char *path, int flags, const char *mode,
		     const char *lockdown)
{
	int fd = open(path, flags);

	if (*lockdown)
		tap_errno(fd, EPERM, "lockdown=%s: %s open of %s is EPERM",
			  lockdown, mode, path);
	else
		tap_ok(fd >= 0, "no lockdown: %s open of %s succeeds%s%s", mode,
		       path, fd < 0 ? ", not " : "",
		       fd < 0 ? tap_errname(errno) : "");
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char cmdline[4096], lockdown[64] = "", *p;

	tap_header();
	read_line("/proc/cmdline", cmdline, sizeof(cmdline));
	p = strstr(cmdline, "lockdown=");
	if (p)
		sscanf(p, "lockdown=%63s", lockdown);
	try_open(KMEM_PATH, O_RDONLY, "read-only", lockdown);
	try_open(KMEM_PATH, O_RDWR, "read-write", lockdown);
	try_open("/dev/mem", O_RDONLY, "read-only", lockdown);
	return tap_finish();
}
