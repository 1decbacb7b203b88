#!/bin/bash
# kunit-count.sh CONSOLE_LOG JSON_OUT
# Parse the KTAP that KUnit printed on the console during boot with the
# tree's own tools/testing/kunit/kunit.py parse, keep its JSON, and print
# "passed N failed N skipped N" over the test cases. No KTAP at all is
# one failure.
set -euo pipefail
. "$(dirname "$0")/common.sh"

log=$1
json=$2
rm -f "$json"
python3 "$TREE/tools/testing/kunit/kunit.py" parse --json="$json" "$log" \
	> "${json%.json}.txt" 2>&1 || true
if [ ! -s "$json" ]; then
	echo "passed 0 failed 1 skipped 0"
	exit 0
fi
python3 - "$json" <<'PY'
import json, sys

count = {"PASS": 0, "FAIL": 0, "SKIP": 0}

def walk(group):
    for case in group.get("test_cases", []):
        count[case["status"] if case["status"] in count else "FAIL"] += 1
    for sub in group.get("sub_groups", []):
        walk(sub)

walk(json.load(open(sys.argv[1])))
if sum(count.values()) == 0:
    count["FAIL"] = 1
print("passed %d failed %d skipped %d" % (count["PASS"], count["FAIL"], count["SKIP"]))
PY
