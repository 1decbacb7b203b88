#!/bin/bash
# What "make bench" runs: boot devkmem-on with the bench set
# (boot-tests/kmem-bench.c) and write its table, the lines the guest
# printed as "bench:", to build/results/bench.txt. Ratios from one boot
# are the result; the absolute numbers under TCG mean little.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
keep_mine
s=$(dirname "$0")

# A loaded host makes the guest's TSC calibration against the PIT fail,
# leaving it on the 4 ms jiffies clock: give it the host's TSC rate
# (TCG's TSC follows the host clock) and keep the watchdog off it.
khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
"$s/initramfs.sh" devkmem-on
BOOT_APPEND="tsc_early_khz=${khz:-2000000}" "$s/boot-test.sh" devkmem-on bench
tap=$RESULTS/devkmem-on.bench/tap.txt
{
	echo "# make bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
		"QEMU ${ACCEL:-tcg}, kernel build/devkmem-on"
	sed -n 's/^[# ]*bench: //p' "$tap"
} > "$RESULTS/bench.txt"
cat "$RESULTS/bench.txt"
grep -q 'kmem/mem' "$RESULTS/bench.txt" || die "no bench table in $tap"
