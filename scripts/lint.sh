#!/bin/bash
# lint.sh [names]: what "make lint" runs, the checks a reviewer runs on a
# series before it is mailed: checkpatch, the form of the mail, every
# prefix applied and built, and the cost when off. Each writes
# build/results/<check>/ and the run ends with "N passed, N failed".
# "lint.sh names" lists the checks.
set -euo pipefail
. "$(dirname "$0")/common.sh"
s=$(dirname "$0")

checks=(lint-checkpatch lint-form lint-kselftest lint-queues lint-prefixes zero-cost)
if [ "${1:-}" = names ]; then
	printf '%s\n' "${checks[@]}"
	exit 0
fi
keep_lock
"$s/tree.sh" > /dev/null
st=0
for c in "${checks[@]}"; do
	t0=$SECONDS
	run_check "$c" "$s/$c.sh" || st=1
	echo "# $c: $((SECONDS - t0)) s"
done
"$s/summary.sh" "${checks[@]}" || st=1
exit $st
