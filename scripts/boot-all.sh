#!/bin/bash
# boot-all.sh: make the initramfs of every config of the queue BASE
# selects, boot each of its sets and add up the results.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
keep_mine
s=$(dirname "$0")

st=0
for c in $("$s/configs.sh" names); do
	"$s/initramfs.sh" "$c" || st=1
done
results=()
while read -r c set result; do
	results+=("$result")
	"$s/boot-test.sh" "$c" "$set" || st=1
done < <("$s/configs.sh" boots)
"$s/summary.sh" "${results[@]}" || st=1
exit $st
