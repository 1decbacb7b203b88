#!/bin/bash
# summary.sh CONFIG...
# Add up build/results/CONFIG/summary of each config, print the closing
# line "N passed, N failed" and fail if anything failed or did not run.
set -euo pipefail
. "$(dirname "$0")/common.sh"

passed=0 failed=0 skipped=0
for c in "$@"; do
	if [ ! -f "$RESULTS/$c/summary" ]; then
		echo "not ok - $c: no results" >&2
		failed=$((failed + 1))
		continue
	fi
	read -r _ p _ f _ s < "$RESULTS/$c/summary"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
