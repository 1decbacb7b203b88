#!/bin/bash
# fragment-cost.sh FRAGMENT CONFIG...: what merging
# kconfig-fragments/FRAGMENT.config costs each CONFIG's build. Each
# config is built from nothing twice, one build after the other, in
# scratch O= folders (build/fragment-cost/): with its fragments but
# FRAGMENT, then with all of them; compiler cache off, bzImage only.
# Prints wall and CPU seconds (user + system, make and its children) of
# both and the ratio of CPU seconds beside issue 23's budget (a config's
# build grows by at most 10%), to build/results/fragment-cost.txt too.
# A measurement, not a test: some minutes a config, not in make check.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
keep_mine

[ $# -ge 2 ] || die "usage: $0 FRAGMENT CONFIG..."
fragment=$FRAGMENTS/$1.config
shift
[ -f "$fragment" ] || die "no $fragment"
scratch=$BUILD/fragment-cost
out=$RESULTS/fragment-cost.txt
mkdir -p "$RESULTS"

# build ARCH DIR FRAGMENT...: .config from tinyconfig and the
# fragments, as build-kernel.sh makes it, then bzImage; prints "wall
# cpu" in seconds. (Run in $(...), where bash drops set -e: each step
# says so itself when it fails.)
build() {
	local arch=$1 o=$2 t
	shift 2
	rm -rf "$o"
	mkdir -p "$o"
	{ make -C "$TREE" O="$o" ARCH="$arch" -s tinyconfig &&
	  "$TREE/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$@" &&
	  make -C "$TREE" O="$o" ARCH="$arch" -s olddefconfig; } > "$o/config.log" 2>&1 ||
		die "$o: no .config (config.log)"
	TIMEFORMAT='%R %U %S'
	t=$( { time CCACHE_DISABLE=1 make -C "$TREE" O="$o" ARCH="$arch" \
		"${KBUILD_CC[@]}" "${KBUILD_STAMPS[@]}" -j"$(nproc)" bzImage \
		> "$o/build.log" 2>&1; } 2>&1 ) ||
		die "$o: the build failed (build.log)"
	awk '{ printf "%.0f %.0f\n", $1, $2 + $3 }' <<<"$t"
}

{
echo "# $BASE at $(git -C "$TREE" rev-parse --short HEAD): what ${fragment#"$TOP"/} costs a build"
echo "# (from nothing, cache off, $(nproc) cores; scripts/fragment-cost.sh)"
printf '%-18s %16s %16s %9s  %s\n' config "without: wall/CPU" "with: wall/CPU" "CPU ratio" budget
} | tee "$out"
for name in "$@"; do
	mapfile -t paths < <("$TOP/scripts/configs.sh" fragments "$name")
	[ ${#paths[@]} -gt 0 ] || exit 1
	without=()
	for p in "${paths[@]}"; do
		[ "$p" = "$fragment" ] || without+=("$p")
	done
	[ ${#without[@]} -lt ${#paths[@]} ] ||
		die "$name does not merge ${fragment#"$TOP"/}"
	arch=$("$TOP/scripts/configs.sh" arch "$name")
	r0=$(build "$arch" "$scratch/$name-without" "${without[@]}")
	r1=$(build "$arch" "$scratch/$name-with" "${paths[@]}")
	read -r w0 c0 <<<"$r0"
	read -r w1 c1 <<<"$r1"
	# What was measured is what the harness builds: its .config, if any.
	if [ -f "$KEEP/$name/.config" ] &&
	   ! cmp -s "$scratch/$name-with/.config" "$KEEP/$name/.config"; then
		echo "# $name: the .config measured is not build/$name's"
	fi
	rm -rf "$scratch/$name-without" "$scratch/$name-with"
	awk -v n="$name" -v w0="$w0" -v c0="$c0" -v w1="$w1" -v c1="$c1" 'BEGIN {
		r = c1 / c0
		printf "%-18s %16s %16s %9.2f  <= 1.10 (issue 23)%s\n", n,
			w0 " / " c0, w1 " / " c1, r, (r > 1.10 ? ": over" : ": met") }'
done | tee -a "$out"
