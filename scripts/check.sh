#!/bin/bash
# What "make check" runs: everything "make" does, make lint, then the
# boot tests of every config, then the budgets. Prints the wall time of each stage and
# ends with "N passed, N failed, N skipped" (non-zero exit on a failure).
# BUDGET=0 skips the rebuild-after-touching-mem.c measurement.
set -euo pipefail
. "$(dirname "$0")/common.sh"
s=$(dirname "$0")

mkdir -p "$RESULTS"
times=$RESULTS/times.txt
: > "$times"
start=$SECONDS
stage() {
	local what=$1 t0=$SECONDS rc=0
	shift
	"$@" || rc=$?
	echo "$what $((SECONDS - t0))" >> "$times"
	return $rc
}
boot() {
	"$s/initramfs.sh" "$1" &&
		"$s/boot-test.sh" "$1" "$("$s/configs.sh" tests "$1")"
}

mapfile -t configs < <("$s/configs.sh" names)
stage packages "$s/install-deps.sh"
stage tree "$s/tree.sh"
stage docs "$s/doc-check.sh"
for c in "${configs[@]}"; do
	stage "build:$c" "$s/build-kernel.sh" "$c"
done

stage lint "$s/lint.sh" || true
stage menuconfig "$s/menuconfig-test.sh"

# Budget: the edit-build-test loop after touching drivers/char/mem.c.
if [ "${BUDGET:-1}" != 0 ]; then
	touch "$TREE/drivers/char/mem.c"
	for c in "${configs[@]}"; do
		stage "rebuild-after-touch:$c" "$s/build-kernel.sh" "$c"
	done
fi

status=0
for c in "${configs[@]}"; do
	stage "boot:$c" boot "$c" || status=1
done
total=$((SECONDS - start))

echo
echo "Stage times (seconds), this run:"
awk '{ printf "  %-32s %5d\n", $1, $2 }' "$times"
rebuild=$(awk '/^(rebuild-after-touch|boot):/ { t += $2 } END { print t + 0 }' \
	"$times")
echo "  total $total s (budget for a cold run: 1500 s)"
if [ "${BUDGET:-1}" != 0 ]; then
	echo "  rebuild after touching mem.c + all boots: $rebuild s (budget: 180 s)"
fi
echo
mapfile -t lint < <("$s/lint.sh" names)
"$s/summary.sh" docs "${lint[@]}" menuconfig "${configs[@]}" || status=1
exit $status
