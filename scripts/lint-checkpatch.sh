#!/bin/bash
# scripts/checkpatch.pl --strict on every patch of series/, as TAP: no
# ERROR, WARNING or CHECK. It runs in build/linux, so it sees the tree
# the series builds (MAINTAINERS, spdxcheck's license list).
# Writes build/results/lint-checkpatch/.
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$RESULTS/lint-checkpatch
mkdir -p "$out"
n=0
mapfile -t patches < <(series_patches)
# checkpatch runs spdxcheck.py through "env python3": make that Debian's,
# which has the python3-ply and python3-git that install-deps.sh added.
export PATH=/usr/bin:$PATH

{
echo "TAP version 13"
i=0
for p in "${patches[@]}"; do
	i=$((i + 1))
	log=$out/$i.log
	rc=0
	(cd "$TREE" && ./scripts/checkpatch.pl --strict --showfile \
		"$SERIES_DIR/$p") > "$log" 2>&1 || rc=$?
	first=$(grep -m1 -E '(^|: )(ERROR|WARNING|CHECK):|Traceback' "$log" || true)
	if [ $rc -eq 0 ] && [ -z "$first" ] &&
	   grep -q '^total: 0 errors, 0 warnings, 0 checks' "$log"; then
		point OK "checkpatch --strict: patch $i $p"
	else
		point FAIL "checkpatch --strict: patch $i $p: ${first:-exit $rc}"
		sed 's/^/# /' "$log"
	fi
done
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
