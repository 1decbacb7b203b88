// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

static int tap_count, tap_failed, tap_skipped;

void tap_header(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
}

static void tap_line(const char *result, const char *directive,
		     const char *fmt, va_list ap)
{
	printf("%s %d - ", result, ++tap_count);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	printf("\n");
}

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(cond ? "ok" : "not ok", NULL, fmt, ap);
	va_end(ap);
	if (!cond)
		tap_failed++;
	return cond;
}

void tap_skip(const char *why, const char *fmt, ...)
{
	char directive[256];
	va_list ap;

	snprintf(directive, sizeof(directive), "SKIP %s", why);
	va_start(ap, fmt);
	tap_line("ok", directive, fmt, ap);
	va_end(ap);
	tap_skipped++;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

const char *tap_errname(int e)
{
	static char buf[32];
	const char *name = strerrorname_np(e);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

bool tap_errno(long ret, int want, const char *fmt, ...)
{
	int got = errno;
	bool pass = ret == -1 && got == want;
	va_list ap;

	va_start(ap, fmt);
	tap_line(pass ? "ok" : "not ok", NULL, fmt, ap);
	va_end(ap);
	if (!pass) {
		tap_failed++;
		if (ret == -1)
			tap_diag("expected %s, got %s", tap_errname(want),
				 tap_errname(got));
		else
			tap_diag("expected %s, call returned %ld",
				 tap_errname(want), ret);
	}
	return pass;
}

void tap_bail(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(KSFT_FAIL);
}

int tap_finish(void)
{
	printf("1..%d\n", tap_count);
	if (tap_failed)
		return KSFT_FAIL;
	if (tap_count && tap_skipped == tap_count)
		return KSFT_SKIP;
	return KSFT_PASS;
}
