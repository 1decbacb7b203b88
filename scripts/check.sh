#!/bin/bash
# What "make check" runs for the queue BASE selects (scripts/check-all.sh
# runs it for each queue): everything "make" does, make lint, the checks
# of Debian's configs and menuconfig, then the boot tests of every
# config, then the budgets. Prints the wall and CPU seconds and the
# ccache hits of each stage and
# ends with "N passed, N failed, N skipped" (non-zero exit on a failure).
# BUDGET=0 skips the rebuild-after-touching-mem.c measurement.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
s=$(dirname "$0")

mkdir -p "$RESULTS"
times=$RESULTS/times.txt
: > "$times"
# Each stage's compilations, as ccache's stats log (ccache_rate).
cclogs=$RESULTS/ccache
rm -rf "$cclogs"
mkdir -p "$cclogs"
start=$SECONDS
# cpu: set CPU to the seconds (user + system) this shell's children used
# so far; "times" runs in this shell, not in a $(...) subshell.
cpu() {
	times > "$cclogs/.times"
	CPU=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
		printf "%d\n", t }' "$cclogs/.times")
}
# stage NAME CMD...: run CMD; record its wall and CPU seconds in
# times.txt and its compilations in ccache/NAME.log.
stage() {
	local what=$1 t0=$SECONDS c0 rc=0
	shift
	cpu
	c0=$CPU
	CCACHE_STATSLOG=$cclogs/$what.log "$@" || rc=$?
	cpu
	echo "$what $((SECONDS - t0)) $((CPU - c0))" >> "$times"
	return $rc
}

mapfile -t configs < <("$s/configs.sh" names)
stage packages "$s/install-deps.sh"
stage tree "$s/tree.sh"
stage docs run_check docs "$s/doc-check.sh" || true
stage distro-config run_check distro-config "$s/distro-check.sh" || true

# A config that make lint walks and whose folder was built before (kept
# between clones: common.sh, KEEP) is built after the walk, which leaves
# it built at the series: before, it would be compiled and linked at the
# series once more for nothing. An unbuilt one is built first, so that
# the walk starts from its objects, and devkmem-off from devkmem-on's.
walked=" ${LINT_CONFIGS[*]} $(lint_ends_configs | xargs) "
after=()
for c in "${configs[@]}"; do
	if [[ $walked == *" $c "* ]] && [ -f "$KEEP/$c/arch/x86/boot/bzImage" ]; then
		after+=("$c")
		continue
	fi
	stage "build:$c" "$s/build-kernel.sh" "$c"
done
# make lint after the builds: its walk then starts from the folders
# built at the series, and the KASAN builds overlap the other queue's
# work (run first, the walk left 6.1's devkmem-debug and devkmem-i386
# builds to run nearly alone at the end: 6.1 took longer). A failing
# check is counted from its summary (summary.sh, at the end); it must
# not stop the boots.
stage lint "$s/lint.sh" || true
for c in "${after[@]}"; do
	stage "build:$c" "$s/build-kernel.sh" "$c"
done

# Debian's own configs, where the queue names them (series/debian-configs)
debian=()
if [ -f "$SERIES_DIR/debian-configs" ]; then
	debian=(debian-configs)
	stage debian-configs run_check debian-configs "$s/debian-configs.sh" || true
fi
stage menuconfig run_check menuconfig "$s/menuconfig-test.sh" || true

# Budget: the edit-build-test loop after touching drivers/char/mem.c.
if [ "${BUDGET:-1}" != 0 ]; then
	# An edit changes the file: compiled again, not a ccache hit.
	touch "$TREE/drivers/char/mem.c"
	for c in "${LINT_CONFIGS[@]}"; do
		CCACHE_RECACHE=1 stage "rebuild-after-touch:$c" "$s/build-kernel.sh" "$c"
	done
fi

# The boots come last, with nothing else of this queue beside them: a
# TCG guest runs slower as the host gets busier, and the balloon stall
# came from that (boot-tests/sets, mm).
status=0
results=()
for c in "${configs[@]}"; do
	stage "initramfs:$c" "$s/initramfs.sh" "$c" || status=1
done
while read -r c set result; do
	results+=("$result")
	stage "boot:$result" "$s/boot-test.sh" "$c" "$set" || status=1
done < <("$s/configs.sh" boots)
total=$((SECONDS - start))

echo
echo "Stage times (seconds, wall and CPU of this queue), ccache hits, this run:"
while read -r what wall cpus; do
	printf '  %-32s %5d %6d  %s\n' "$what" "$wall" "$cpus" "$(ccache_rate "$cclogs/$what.log")"
done < "$times"
echo "  ccache, this queue: $(ccache_rate "$cclogs"/*.log) (cache $CCACHE_DIR)"
rebuild=$(awk '/^(rebuild-after-touch|boot):devkmem-(on|off) / { t += $2 } END { print t + 0 }' \
	"$times")
echo "  total $total s (this queue; issue 40's budgets are for all queues: check-all.sh)"
i386=$(awk '/^(build|rebuild-after-touch|initramfs|boot):devkmem-i386/ { t += $2 } END { print t + 0 }' \
	"$times")
i386_lint=$(sed -n 's/^# prefixes applied .*(base and series): \([0-9]*\) s$/\1/p' \
	"$RESULTS/lint-prefixes/tap.txt" 2>/dev/null || true)
if [[ " ${configs[*]} " == *" devkmem-i386 "* ]]; then
	echo "  devkmem-i386 and devkmem-i386-off: builds, rebuilds, initramfs, boots $i386 s," \
		"in make lint ${i386_lint:-0} s; together $((i386 + ${i386_lint:-0})) s (budget, issue 13: 360 s)"
fi
if [ ${#debian[@]} -gt 0 ]; then
	echo "  Debian's configs: $(awk '$1 == "debian-configs" { print $2 }' "$times") s" \
		"(budget, issue 15: 240 s added to a cold run)"
fi
if [ "${BUDGET:-1}" != 0 ]; then
	echo "  rebuild after touching mem.c + boots of devkmem-on, devkmem-off: $rebuild s (budget, issue 40: 180 s)"
fi
echo
mapfile -t lint < <("$s/lint.sh" names)
# The fuzzer's own summary, from the guest (kselftest devkmem/kmem-fuzz),
# and its floor: a queue that boots the debug set runs at least 100,000
# operations there (issue 12), counted as one check (fuzz-ops).
fuzz=()
most=0
for r in "${results[@]}"; do
	if grep -q 'fuzz-summary:' "$RESULTS/$r/tap.txt" 2>/dev/null; then
		echo "kmem-fuzz in $r ($BUILD_REL/results/$r/tap.txt):"
		sed -n 's/^[# ]*fuzz-summary: /  /p' "$RESULTS/$r/tap.txt"
		ops=$(sed -n 's/.*fuzz-summary: seed [0-9]*, \([0-9]*\) operations.*/\1/p' \
			"$RESULTS/$r/tap.txt")
		echo "  operations: ${ops:-none} (budget, issue 12: at least 100000 in the debug boot)"
		echo
		[ "${ops:-0}" -le "$most" ] || most=$ops
	fi
done
if "$s/configs.sh" boots | awk '$2 == "debug" { found = 1 } END { exit !found }'; then
	fuzz=(fuzz-ops)
	mkdir -p "$RESULTS/fuzz-ops"
	if [ "$most" -ge 100000 ]; then
		echo "passed 1 failed 0 skipped 0" > "$RESULTS/fuzz-ops/summary"
	else
		echo "not ok - kmem-fuzz ran $most operations in the debug boot, fewer than 100000"
		echo "passed 0 failed 1 skipped 0" > "$RESULTS/fuzz-ops/summary"
	fi
fi
"$s/summary.sh" docs "${lint[@]}" "${debian[@]}" menuconfig "${results[@]}" "${fuzz[@]}" ||
	status=1
exit $status
