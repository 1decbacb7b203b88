#!/bin/bash
# scripts/checkpatch.pl --strict on every patch of series/, as TAP: no
# ERROR, WARNING or CHECK. It runs in build/linux, so it sees the tree
# the series builds (MAINTAINERS, spdxcheck's license list).
# One kind of CHECK is known to be false and is listed, not hidden:
# "Avoid CamelCase" for the kernel's own page-type accessors, which
# include/linux/page-flags.h generates with PAGE_TYPE_OPS() (checkpatch
# exempts SetPageX/ClearPageX, not their __-prefixed forms). The KUnit
# suite must call them to make a page PageOffline.
# Writes build/results/lint-checkpatch/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock

out=$RESULTS/lint-checkpatch
mkdir -p "$out"
n=0
known_false='(^|: )CHECK: Avoid CamelCase: <__(Set|Clear)PageOffline>$'
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
	known=$(grep -c -E "$known_false" "$log" || true)
	first=$(grep -E '(^|: )(ERROR|WARNING|CHECK):|Traceback' "$log" |
		grep -v -E "$known_false" | head -1 || true)
	# checkpatch exits 1 on any CHECK, the known false ones too
	if { [ $rc -eq 0 ] || [ "$known" -gt 0 ]; } && [ -z "$first" ] &&
	   grep -q "^total: 0 errors, 0 warnings, $known checks" "$log"; then
		point OK "checkpatch --strict: patch $i $p"
		[ "$known" -eq 0 ] ||
			echo "# $known known false CHECK(s): $(grep -E "$known_false" "$log" | sort -u | tr '\n' ' ')"
	else
		point FAIL "checkpatch --strict: patch $i $p: ${first:-exit $rc}"
		sed 's/^/# /' "$log"
	fi
done
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
