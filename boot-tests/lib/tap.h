/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP 13 producer for the boot tests, in the shape kselftest
 * uses: test points as they run, the plan at the end, exit status 0 when
 * every point passed, 1 otherwise, 4 (KSFT_SKIP) when all were skipped.
 */
#ifndef DEVKMEM_TAP_H
#define DEVKMEM_TAP_H

#include <stdbool.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

void tap_header(void);
/* One test point; returns cond so that callers can skip dependent checks. */
bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A diagnostic line ("# ..."), never a result. */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * ret must be -1 with errno == want; on a mismatch the diagnostic shows
 * what the call returned instead.
 */
bool tap_errno(long ret, int want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "ENXIO" for ENXIO; "errno N" for what has no name. */
const char *tap_errname(int e);
/* Abort the program: what follows cannot be tested ("Bail out!"). */
void tap_bail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* Print the plan and return the exit status. */
int tap_finish(void);

#endif
