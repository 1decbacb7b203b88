#!/bin/bash
# fragment-cost.sh FRAGMENT CONFIG...: what merging
# kconfig-fragments/FRAGMENT.config costs each CONFIG's build. Each
# config is built from nothing twice in scratch O= folders
# (build/fragment-cost/): with its fragments but FRAGMENT, and with all
# of them, the order alternating from config to config; compiler cache
# off, bzImage only. Both .configs are made, and the second compared
# with the harness's, before either build is timed. Prints wall and CPU
# seconds (user + system, make and its children) of both and the ratio
# of CPU seconds beside issue 23's budget (a config's build grows by at
# most 10%); appended to $RESULTS/fragment-cost-FRAGMENT.txt. One pair
# a config: on a busy or virtual machine a single build strays (see
# docs/testing.md), so "within" and "over" are one pair's reading.
# A measurement, not a test: 10 to 20 minutes a config, not in make check.
set -euo pipefail
. "$(dirname "$0")/common.sh"
export LC_ALL=C CCACHE_DISABLE=1

[ $# -ge 2 ] || die "usage: $0 FRAGMENT CONFIG..."
frag=$1
fragment=$FRAGMENTS/$frag.config
shift
[ -f "$fragment" ] || die "no ${fragment#"$TOP"/}"
for name in "$@"; do
	"$TOP/scripts/configs.sh" fragments "$name" | matches -Fx "$fragment" ||
		die "$name does not merge ${fragment#"$TOP"/}"
done
keep_lock
keep_mine
scratch=$BUILD/fragment-cost
out=$RESULTS/fragment-cost-$frag.txt
mkdir -p "$RESULTS"

# What a build leaves but its logs and .config goes, at the end too
# when a build fails: a KASAN config's objects take gigabytes.
trim() {
	[ ! -d "$1" ] ||
		find "$1" -mindepth 1 -maxdepth 1 ! -name '*.log' ! -name .config \
			-exec rm -rf {} +
}
trim_all() {
	local d
	for d in "$scratch"/*; do trim "$d"; done
}
trap trim_all EXIT

# kconfig NAME DIR FRAGMENT...: DIR/.config for config NAME from the
# fragments, as build-kernel.sh makes it (kconfig_merge, common.sh).
kconfig() {
	local name=$1 o=$2
	shift 2
	rm -rf "$o"
	mkdir -p "$o"
	kconfig_merge "$o" "$name" "$@" > "$o/config.log" 2>&1 ||
		die "$o: no .config (its *.log)"
}

# build NAME DIR: bzImage in DIR; prints "wall cpu" in seconds. (Run in
# $(...), where bash drops set -e: a failure says so itself.)
build() {
	local name=$1 o=$2 t
	TIMEFORMAT='%R %U %S'
	t=$( { time kmake_in "$o" "$name" -j"$(nproc)" bzImage > "$o/build.log" 2>&1; } 2>&1 ) ||
		die "$o: the build failed (build.log)"
	trim "$o"
	awk '{ printf "%.0f %.0f\n", $1, $2 + $3 }' <<<"$t"
}

{
echo "# $(date -u '+%F %H:%M') UTC, $BASE: tree $(git -C "$TREE" rev-parse --short HEAD)," \
     "repository $(git -C "$TOP" describe --always --dirty), $(nproc) cores"
echo "# what ${fragment#"$TOP"/} costs a build from nothing, cache off (scripts/fragment-cost.sh)"
printf '%-18s %18s %18s %9s  %s\n' config "without: wall/CPU" "with: wall/CPU" "CPU ratio" budget
} | tee -a "$out"
i=0
for name in "$@"; do
	mapfile -t paths < <("$TOP/scripts/configs.sh" fragments "$name")
	without=()
	for p in "${paths[@]}"; do
		[ "$p" = "$fragment" ] || without+=("$p")
	done
	kconfig "$name" "$scratch/$name-without" "${without[@]}"
	kconfig "$name" "$scratch/$name-with" "${paths[@]}"
	if [ ! -f "$KEEP/$name/.config" ]; then
		what="no build/$name to compare the .config with"
	elif cmp -s "$scratch/$name-with/.config" "$KEEP/$name/.config"; then
		what="the .config is build/$name's"
	else
		what="the .config is NOT build/$name's (that folder may be at another commit)"
	fi
	order=(without with)
	[ $((i++ % 2)) -eq 0 ] || order=(with without)
	declare -A r=()
	load=
	for v in "${order[@]}"; do
		load+="${load:+,} $v $(cut -d' ' -f1 /proc/loadavg)"
		r[$v]=$(build "$name" "$scratch/$name-$v")
	done
	echo "# $name: $what; built ${order[0]} the fragment first; load average before each build:$load"
	read -r w0 c0 <<<"${r[without]}"
	read -r w1 c1 <<<"${r[with]}"
	awk -v n="$name" -v w0="$w0" -v c0="$c0" -v w1="$w1" -v c1="$c1" 'BEGIN {
		r = c1 / c0
		printf "%-18s %18s %18s %9.2f  <= 1.10 (issue 23): %s\n", n,
			w0 " / " c0, w1 " / " c1, r, (r > 1.10 ? "over (one pair)" : "within (one pair)") }'
done | tee -a "$out"
