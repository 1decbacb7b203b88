#!/bin/bash
# tap-count.sh TAPFILE
# Count the test points of a run-in-guest.sh TAP stream: the programs'
# own points (indented under "# "), plus one failure for each program
# that failed (crashed, bailed out, wrong exit) without a failing point.
# Prints "passed N failed N skipped N".
set -euo pipefail

awk '
/^# (not )?ok / {
	if ($0 ~ /# SKIP/) skipped++
	else if ($2 == "not") { failed++; prog_failed++ }
	else passed++
	next
}
/^# selftests: / { prog_failed = 0; next }
/^not ok / { if (!prog_failed) failed++; next }
/^Bail out/ { failed++ }
END { printf "passed %d failed %d skipped %d\n", passed, failed, skipped }
' "$1"
