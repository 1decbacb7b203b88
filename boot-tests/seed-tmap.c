// SPDX-License-Identifier: GPL-2.0
/*
 * The seeds' own client: run tmap (tmap.c from Steven Rostedt's 2005 mail,
 * extracted unmodified at build time, see Makefile) against the System.map
 * of the running kernel, as its author did, and check what it prints:
 *
 *   found modprobe_path at (0xc03aa900) c03aa900
 *   /sbin/modprobe
 *
 * The address must be modprobe_path's in System.map, the string the
 * value of /proc/sys/kernel/modprobe. Run by the kselftest runner from
 * the devkmem folder, where tmap and System.map are installed.
 *
 * tmap reads at most 8 hex digits of an address (fscanf "%8s") and
 * seeks with a 32-bit off_t: it is a 32-bit program of 2005, for 32-bit
 * System.map files. It runs on i386 only (the highmem set); on a kernel
 * whose addresses have more digits the test fails, saying so, rather
 * than skip in every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kselftest.h"

#define TMAP		"./tmap ./System.map"

/* modprobe_path's address text in ./System.map ("" if absent) */
static void map_address(char *addr, size_t size)
{
	FILE *f = fopen("System.map", "r");
	char a[32], t[4], name[128];

	addr[0] = '\0';
	while (f && fscanf(f, "%31s %3s %127s", a, t, name) == 3) {
		if (!strcmp(name, "modprobe_path")) {
			snprintf(addr, size, "%s", a);
			break;
		}
	}
	if (f)
		fclose(f);
}

int main(void)
{
	char addr[32], want[512], modprobe[256], out[1024] = "";
	size_t len = 0, n;
	FILE *p, *f;
	int status;

	ksft_print_header();
	ksft_set_plan(2);

	map_address(addr, sizeof(addr));
	f = fopen("/proc/sys/kernel/modprobe", "r");
	if (!addr[0] || !f || !fgets(modprobe, sizeof(modprobe), f))
		ksft_exit_fail_msg("no modprobe_path in System.map or no /proc/sys/kernel/modprobe\n");
	fclose(f);

	p = popen(TMAP " 2>&1", "r");
	if (!p)
		ksft_exit_fail_msg("cannot run %s\n", TMAP);
	while (len < sizeof(out) - 1 &&
	       (n = fread(out + len, 1, sizeof(out) - 1 - len, p)) > 0)
		len += n;
	out[len] = '\0';
	status = pclose(p);
	ksft_print_msg("%s printed:\n", TMAP);
	ksft_print_msg("%s", out);

	if (strlen(addr) > 8)
		ksft_exit_fail_msg("modprobe_path is at %s: %zu digits, and tmap reads 8; it runs on i386 only (boot-tests/sets)\n",
				   addr, strlen(addr));

	snprintf(want, sizeof(want), "found modprobe_path at (0x%s) %s\n",
		 addr, addr);
	ksft_test_result(!strncmp(out, want, strlen(want)),
			 "tmap finds modprobe_path at %s\n", addr);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s",
		 modprobe);
	ksft_test_result(!strcmp(out, want) && WIFEXITED(status),
			 "tmap prints its value through mmap of /dev/kmem: %.*s\n",
			 (int)strcspn(modprobe, "\n"), modprobe);
	ksft_finished();
}
