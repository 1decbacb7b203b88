// SPDX-License-Identifier: GPL-2.0
/*
 * End the boot once the tests ran: reboot(2), which QEMU's -no-reboot
 * turns into an exit. (poweroff halts without ACPI and QEMU keeps going.)
 */
#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(void)
{
	sync();
	reboot(RB_AUTOBOOT);
	perror("reboot");
	return 1;
}
