#!/bin/bash
# Bisectability, as TAP. In build/linux, go back to the pristine base and
# apply series/ with "git am --whitespace=error" one patch at a time;
# after the base and after each patch, build devkmem-on and devkmem-off
# (LINT_CONFIGS) incrementally, each in its own build/<config>: each
# prefix must apply and build, adding no compiler, kconfig or objtool
# warning that the pristine build does not give. LINT_ENDS_CONFIGS
# (devkmem-i386-off) are built at the base and the full series only. At
# the base and at the full series, also run sparse (C=2) and W=1 on the C
# files of the series. Keeps the pristine vmlinux and objects (and, for
# configs with the device, those built without its KUnit suite) for
# zero-cost.sh. The prefixes in between build vmlinux, the base and the
# series bzImage.
# Needs only build/linux: each config's .config is made first
# (build-kernel.sh --config), and an empty build/<config> is built from
# the base up (make check builds them at the series first, then walks).
# Leaves build/linux and build/<config> at the series, bzImage built.
# Writes build/results/lint-prefixes/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
s=$(dirname "$0")

out=$RESULTS/lint-prefixes
configs=("${LINT_CONFIGS[@]}")
mapfile -t ends < <(lint_ends_configs)	# built at the base and the series only
all=("${configs[@]}" "${ends[@]}")
mapfile -t patches < <(series_patches)
total=${#patches[@]}
n=0
t0=$SECONDS

"$s/tree.sh" >/dev/null
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes"
for c in "${all[@]}"; do
	"$s/build-kernel.sh" --config "$c" > /dev/null
done

# Nothing the walk depends on changed since a walk that passed (the
# series' commits, the configs, this script, the compiler) and its
# kernels are still there: keep its results instead of rebuilding each
# config at every prefix. LINT_FRESH=1 walks anyway.
built=1
for c in "${all[@]}"; do
	[ -f "$BUILD/$c/arch/x86/boot/bzImage" ] || built=0
done
key=$( { git -C "$TREE" rev-parse HEAD; cat "$0" "$s/common.sh"
	for c in "${all[@]}"; do cat "$BUILD/$c/.config"; done
	gcc --version | head -1; } | sha256sum | cut -c1-16)
if [ "${LINT_FRESH:-0}" != 1 ] && [ $built = 1 ] && [ -f "$out/key" ] &&
   [ "$(cat "$out/key")" = "$key" ] &&
   [ -s "$out/tap.txt" ] && ! grep -q '^not ok' "$out/tap.txt"; then
	sed '$d' "$out/tap.txt"
	echo "# unchanged since the walk of $(date -u -r "$out/key" '+%Y-%m-%d %H:%M UTC'): results kept (LINT_FRESH=1 walks again)"
	tail -1 "$out/tap.txt"
	tap_summary "$out/tap.txt" > "$out/summary"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
branch=$(git -C "$TREE" symbolic-ref --short HEAD)
head=$(git -C "$TREE" rev-parse HEAD)
for c in "${all[@]}"; do
	cp -p "$BUILD/$c/.config" "$out/$c.config"
done
# The series' C files that kbuild compiles (mem_kunit.c is #included):
# those of them the first config links at the base (objects()).
mapfile -t sources < <(git -C "$TREE" diff --name-only base HEAD -- '*.c')
objs=()
objects() {
	local f
	for f in "${sources[@]}"; do
		! linked "${configs[0]}" "${f%.c}.o" || objs+=("${f%.c}.o")
	done
	printf '%s\n' "${objs[@]}" > "$out/objects"
}

restore() {
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f "$branch"
	for c in "${all[@]}"; do
		[ -f "$out/$c.config" ] && cp -p "$out/$c.config" "$BUILD/$c/.config"
	done
}
trap restore EXIT

# Warnings of a log, without line numbers and build paths, one per line.
warnings() {
	grep -E '(warning|error):' "$1" |
		sed -E -e "s|$BUILD/[^/]+/||g" -e "s|$TREE/||g" \
		       -e 's/:[0-9]+(:[0-9]+)?:/:/' | sort || true
}

# prepare CONFIG [CONFIG-EDIT...]: the series' .config, edited. The
# build's own syncconfig (kbuild runs it when .config is newer than
# include/config/auto.conf) drops what this prefix does not have yet, as
# olddefconfig would, without a make run of its own; its kconfig
# warnings go to the build's log.
prepare() {
	cp "$out/$1.config" "$BUILD/$1/.config"
	[ $# -eq 1 ] || "$TREE/scripts/config" --file "$BUILD/$1/.config" "${@:2}"
}

# build LABEL CONFIG [CONFIG-EDIT...]: bzImage at the base and the series
# (the boots need it; the base's is the pristine reference for its
# warnings), vmlinux in between (the rest of bzImage is not the series').
build() {
	local target=vmlinux
	[ "$1" != base ] && [ "$1" != "$total" ] || target=bzImage
	prepare "${@:2}" && kmake "$2" -s -j"$(nproc)" $target > "$out/$1-$2.log" 2>&1
}

# sparse LABEL CONFIG: C=2 W=1 on the series' objects that CONFIG builds
# (fs/proc/kcore.o is not built without PROC_KCORE), not silent, so that
# the CHECK lines show it ran.
sparse() {
	local o mine=()
	for o in "${objs[@]}"; do
		! linked "$2" "$o" || mine+=("$o")
	done
	prepare "$2" &&
		kmake "$2" C=2 W=1 "${mine[@]}" > "$out/$1-$2.sparse" 2>&1
}

# keep LABEL CONFIG: save vmlinux and the series' objects for zero-cost.sh
# as LABEL-CONFIG.vmlinux and LABEL-CONFIG.<path-of-object>.
keep() {
	local o
	cp "$BUILD/$2/vmlinux" "$out/$1-$2.vmlinux"
	for o in "${objs[@]}"; do
		! linked "$2" "$o" || cp "$BUILD/$2/$o" "$out/$1-$2.${o//\//-}"
	done
}

# check_step LABEL DESCRIPTION: build every config at this prefix.
check_step() {
	local label=$1 what=$2 c new cs=("${configs[@]}")
	if [ "$label" = base ] || [ "$label" = "$total" ]; then
		cs=("${all[@]}")
	fi
	for c in "${cs[@]}"; do
		local t=$SECONDS rc=0
		# sparse leaves its W=1 objects behind: at the series it runs
		# before the build, which puts back the objects the boots and
		# zero-cost.sh use; at the base after it (and after keep), as
		# the folder may have had no objects to pick from before.
		if [ "$label" = "$total" ]; then
			sparse "$label" "$c" ||
				warn "sparse/W=1 failed at $label for $c"
		fi
		build "$label" "$c" || rc=$?
		[[ " ${ends[*]} " != *" $c "* ]] || ends_time=$((ends_time + SECONDS - t))
		if [ $rc -ne 0 ]; then
			point FAIL "$what: does not build $c ($BUILD_REL/results/lint-prefixes/$label-$c.log)"
			tail -5 "$out/$label-$c.log" | sed 's/^/# /'
			continue
		fi
		warnings "$out/$label-$c.log" > "$out/$label-$c.warnings"
		if [ "$label" = base ]; then
			[ ${#objs[@]} -gt 0 ] || objects
			keep base "$c"
			t=$SECONDS
			sparse base "$c" || warn "sparse/W=1 failed at base for $c"
			[[ " ${ends[*]} " != *" $c "* ]] || ends_time=$((ends_time + SECONDS - t))
			point OK "$what builds $c (pristine; $(wc -l < "$out/base-$c.warnings") warnings)"
			continue
		fi
		new=$(comm -13 "$out/base-$c.warnings" "$out/$label-$c.warnings")
		if [ -z "$new" ]; then
			point OK "$what builds $c with no new warning"
		else
			point FAIL "$what builds $c with new warnings: $(head -1 <<<"$new")"
			sed 's/^/# /' <<<"$new"
		fi
	done
}

ends_time=0
{
echo "TAP version 13"
git -C "$TREE" checkout -q --detach base
check_step base "base (pristine tree)"
i=0
for p in "${patches[@]}"; do
	i=$((i + 1))
	if git -C "$TREE" -c user.name="devkmem tooling" \
	     -c user.email=tooling@invalid am -q --whitespace=error \
	     "$SERIES_DIR/$p" > "$out/am-$i.log" 2>&1; then
		point OK "patch $i/$total $p: git am --whitespace=error applies it"
	else
		point FAIL "patch $i/$total $p: git am --whitespace=error refuses it: $(head -1 "$out/am-$i.log")"
		sed 's/^/# /' "$out/am-$i.log"
		break
	fi
	check_step "$i" "base + patches 1-$i"
done

if git -C "$TREE" diff --quiet "$head" HEAD; then
	point OK "git am of all of series/ gives build/linux's tree"
else
	point FAIL "git am of series/ does not give build/linux's tree; run 'make tree'"
fi
for c in "${all[@]}"; do
	new=$(comm -13 <(warnings "$out/base-$c.sparse") \
		<(warnings "$out/$total-$c.sparse") || true)
	if [ -s "$out/base-$c.sparse" ] && [ -s "$out/$total-$c.sparse" ] &&
	   grep -q ' CHECK ' "$out/$total-$c.sparse" && [ -z "$new" ]; then
		point OK "sparse (C=2) and W=1 on the objects of ${objs[*]} that $c builds: nothing the pristine tree does not give"
	elif [ -z "$new" ]; then
		point FAIL "sparse (C=2) and W=1 did not run in $c ($BUILD_REL/results/lint-prefixes/*-$c.sparse)"
	else
		point FAIL "sparse (C=2) or W=1 in $c: new: $(head -1 <<<"$new")"
		sed 's/^/# /' <<<"$new"
	fi
done

# The device's own cost: the series built without its KUnit suite.
for c in "${configs[@]}"; do
	[ "$("$s/configs.sh" sets "$c" | head -1)" = on ] || continue
	if build nokunit "$c" --disable DEVKMEM_KUNIT_TEST; then
		keep nokunit "$c"
	else
		point FAIL "series without DEVKMEM_KUNIT_TEST does not build $c"
	fi
	build "$total" "$c" || point FAIL "rebuilding $c at the series failed"
done
echo "# prefixes applied and built in $((SECONDS - t0)) s${ends[*]:+, of which ${ends[*]} (base and series): $ends_time s}"
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
echo "$key" > "$out/key"
