// SPDX-License-Identifier: GPL-2.0
/*
 * devkmem-on: who may open /dev/kmem. Root without CAP_SYS_RAWIO gets
 * EPERM from the driver; an unprivileged user is stopped by the node's
 * mode (EACCES) before the driver runs. Privilege is checked at open, as
 * for /dev/mem: a read-only fd that root opened and handed to an
 * unprivileged process reads kernel memory there, cannot write (EBADF)
 * and cannot be reopened (EACCES). Passing the fd hands over the
 * privilege.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/kmem.h"
#include "lib/tap.h"

#define NOBODY	65534

static int drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[cap / 32].effective &= ~(1U << (cap % 32));
	data[cap / 32].permitted &= ~(1U << (cap % 32));
	data[cap / 32].inheritable &= ~(1U << (cap % 32));
	return syscall(SYS_capset, &hdr, data);
}

/*
 * Run the opens in a child that gave up its privilege; it reports the
 * errno of each open (0 for success) through a pipe.
 */
static void open_as(int nobody, int errs[2])
{
	int p[2], status;
	pid_t pid;

	errs[0] = errs[1] = -1;
	if (pipe(p))
		tap_bail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		int e[2] = { -1, -1 };
		int ok = nobody ? setgid(NOBODY) == 0 && setuid(NOBODY) == 0 :
				  drop_cap(CAP_SYS_RAWIO) == 0;

		if (ok) {
			int flags[2] = { O_RDONLY, O_RDWR };
			int i, fd;

			for (i = 0; i < 2; i++) {
				fd = open(KMEM_PATH, flags[i]);
				e[i] = fd < 0 ? errno : 0;
				if (fd >= 0)
					close(fd);
			}
		}
		if (write(p[1], e, sizeof(e)) != sizeof(e))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], errs, 2 * sizeof(int)) != 2 * sizeof(int))
		errs[0] = errs[1] = -1;
	close(p[0]);
	waitpid(pid, &status, 0);
}

/*
 * Root opens /dev/kmem read-only, then forks a child that becomes uid
 * 65534 and keeps the fd: the way a privileged helper hands an fd on
 * (SCM_RIGHTS gives the same open file; the test kernel has no
 * CONFIG_UNIX). The child reads 16 bytes of linux_banner through it,
 * tries to write them back, and tries to reopen it through
 * /proc/self/fd, which goes through open() again.
 */
static void passed_fd(void)
{
	struct { ssize_t n; int read_err, write_err, reopen_err; char bytes[16]; } r;
	unsigned long banner = sym("linux_banner");
	char mine[16], path[64];
	int p[2], fd, status;
	pid_t pid;

	fd = open(KMEM_PATH, O_RDONLY);
	if (!banner || fd < 0 || pipe(p) ||
	    kmem_read_at(fd, banner, mine, sizeof(mine)) != sizeof(mine))
		tap_bail("root's own read of linux_banner: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		memset(&r, 0, sizeof(r));
		r.n = -2;
		close(p[0]);
		if (setgid(NOBODY) == 0 && setuid(NOBODY) == 0) {
			int again;

			r.n = kmem_read_at(fd, banner, r.bytes, sizeof(r.bytes));
			r.read_err = r.n < 0 ? errno : 0;
			r.write_err = kmem_write_at(fd, banner, r.bytes, 1) < 0 ?
				      errno : 0;
			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			again = open(path, O_RDONLY);
			r.reopen_err = again < 0 ? errno : 0;
		}
		if (write(p[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	close(fd);
	if (read(p[0], &r, sizeof(r)) != sizeof(r))
		r.n = -3;
	close(p[0]);
	waitpid(pid, &status, 0);
	tap_ok(r.n == sizeof(mine) && !memcmp(r.bytes, mine, sizeof(mine)),
	       "uid 65534 reads linux_banner through the read-only fd root opened (%zd%s%s)",
	       r.n, r.n == -1 ? ", " : "", r.n == -1 ? tap_errname(r.read_err) : "");
	errno = r.write_err;
	tap_errno(r.write_err ? -1 : 0, EBADF,
		  "uid 65534 cannot write through that read-only fd (EBADF)");
	errno = r.reopen_err;
	tap_errno(r.reopen_err ? -1 : 0, EACCES,
		  "uid 65534 cannot reopen it read-only through /proc/self/fd (EACCES)");
}

static void check(int got, int want, const char *what)
{
	errno = got;
	tap_errno(got > 0 ? -1 : got, want, "%s is %s", what,
		  tap_errname(want));
}

int main(void)
{
	int errs[2];
	int fd;

	tap_header();
	fd = open(KMEM_PATH, O_RDONLY);
	tap_ok(fd >= 0, "root with CAP_SYS_RAWIO opens " KMEM_PATH);
	if (fd >= 0)
		close(fd);

	open_as(0, errs);
	check(errs[0], EPERM, "uid 0 without CAP_SYS_RAWIO, read-only open,");
	check(errs[1], EPERM, "uid 0 without CAP_SYS_RAWIO, read-write open,");
	open_as(1, errs);
	check(errs[0], EACCES, "uid 65534, read-only open,");
	check(errs[1], EACCES, "uid 65534, read-write open,");
	passed_fd();
	return tap_finish();
}
