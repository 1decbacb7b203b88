#!/bin/bash
# check-all.sh [BASE...]: "make check" for each queue (every queue when
# none is named). One queue runs scripts/check.sh in the foreground.
# Several run side by side, one scripts/check.sh each: the prefix walks,
# the links and the TCG boots each keep one core busy, so two queues
# share this machine's two cores better than one after the other. Each
# line is prefixed with its base, and each queue's output is kept in its
# results folder (build/results/check.log, build/6.12/results/check.log).
# Ends with each queue's result line and what failed in it, then the sum
# of the queues' "N passed, N failed, N skipped".
set -euo pipefail
. "$(dirname "$0")/common.sh"
s=$(dirname "$0")

bases=("$@")
[ ${#bases[@]} -gt 0 ] || mapfile -t bases < <(bases)
if [ ${#bases[@]} -eq 1 ]; then
	BASE=${bases[0]} exec "$s/check.sh"
fi

# Each queue's output, kept in its results folder.
check_log() { echo "$(base_build_dir "$1")/results/check.log"; }

t0=$SECONDS
"$s/install-deps.sh"	# once: two apt-get runs would fight over the lock
# A cold run starts with an empty compiler cache (a fresh machine, or
# after "ccache -C"); a warm one with what an earlier run left in it.
cached=$(ccache --print-stats | awk '$1 == "files_in_cache" { print $2 }')
pids=()
for b in "${bases[@]}"; do
	log=$(check_log "$b")
	mkdir -p "$(dirname "$log")"
	( set -o pipefail; BASE=$b "$s/check.sh" 2>&1 | tee "$log" | sed -u "s/^/[$b] /" ) &
	pids+=($!)
done
st=0
for p in "${pids[@]}"; do
	wait "$p" || st=1
done

echo
p=0 f=0 sk=0
for b in "${bases[@]}"; do
	log=$(check_log "$b")
	last=$(tail -1 "$log")
	if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
		echo "  queue $b: $last (${log#"$TOP"/})"
		p=$((p + BASH_REMATCH[1])) f=$((f + BASH_REMATCH[2])) sk=$((sk + BASH_REMATCH[3]))
		# What failed, again at the end, where a log's tail shows it.
		[ "${BASH_REMATCH[2]}" -eq 0 ] ||
			awk '/^ *(# *)?not ok|^# # / && n++ < 80' "$log" | sed 's/^/    /'
	else
		echo "  queue $b: no result line (${log#"$TOP"/}); counted as one failure"
		f=$((f + 1)) st=1
	fi
done
# budget KIND LIMIT: the figure beside the budget that applies to this run.
total=$((SECONDS - t0))
budget() {
	printf '  all queues, side by side: %d s (budget, issue 40: %d s for a %s run%s)\n' \
		"$total" "$2" "$1" "$( [ "$total" -le "$2" ] || echo "; OVER BUDGET")"
}
if [ "${cached:-0}" -eq 0 ]; then
	budget cold 4500
	echo "    cold: the compiler cache was empty at the start"
else
	budget warm 2700
	echo "    warm: the compiler cache held $cached files at the start (a cold run's budget: 4500 s)"
fi
mapfile -t cclogs < <(for b in "${bases[@]}"; do ls "$(base_build_dir "$b")"/results/ccache/*.log; done 2>/dev/null)
echo "  ccache, all queues: $(ccache_rate "${cclogs[@]}")" \
	"($CCACHE_DIR: $(ccache --print-stats | awk '$1 == "cache_size_kibibyte" { printf "%.1f GiB", $2 / 1048576 }') of $CCACHE_MAXSIZE)"
echo "$p passed, $f failed, $sk skipped"
[ "$f" -eq 0 ] || st=1
exit $st
