#!/bin/bash
# Bisectability, as TAP. In build/linux, go back to the pristine base and
# apply series/ with "git am --whitespace=error" one patch at a time;
# each prefix must apply and build devkmem-on and devkmem-off
# (LINT_CONFIGS), each in its own build/<config>, adding no compiler,
# kconfig or objtool warning that the pristine tree does not give.
# What is built is what each patch can change:
#  - at every patch, with W=1, the objects that a file the patch touches
#    is compiled into: kbuild's dependency files (build/<config>/.*.o.cmd)
#    list every source and header an object was made from; compared with
#    the same objects built with W=1 at the base;
#  - the whole vmlinux at the base, at the series (bzImage: the boots
#    use it) and at a patch that changes the config a prefix gets (a
#    Kconfig change that adds or drops a symbol), a kbuild Makefile, or
#    a header outside drivers/char/, or whose objects need a symbol the
#    last vmlinux linked does not define; compared with the base's build.
# LINT_ENDS_CONFIGS (devkmem-i386-off) are built at the base and the
# full series only. At the base and at the full series, also run sparse
# (C=2) and W=1 on the C files of the series. Keeps the pristine vmlinux
# and the objects the series can change (and, for configs with the
# device, those built without its KUnit suite) for zero-cost.sh.
# Needs only build/linux: each config's .config is made first
# (build-kernel.sh --config), and an empty build/<config> is built from
# the base up (make check builds them at the series first, then walks).
# Leaves build/linux and build/<config> at the series, bzImage built.
# Writes build/results/lint-prefixes/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
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
	[ -f "$KEEP/$c/arch/x86/boot/bzImage" ] || built=0
done
key=$( { git -C "$TREE" rev-parse HEAD; cat "$0" "$s/common.sh"
	for c in "${all[@]}"; do cat "$KEEP/$c/.config"; done
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
	cp -p "$KEEP/$c/.config" "$out/$c.config"
done
# The series' C files that kbuild compiles (mem_kunit.c is #included):
# those of them the first config links at the base (objects()), for
# sparse.
mapfile -t sources < <(git -C "$TREE" diff --name-only base HEAD -- '*.c')
# Every file the series touches, for the objects it can change.
mapfile -t touched < <(git -C "$TREE" diff --name-only base HEAD)
objs=()
objects() {
	local f
	for f in "${sources[@]}"; do
		! linked "${configs[0]}" "${f%.c}.o" || objs+=("${f%.c}.o")
	done
}

# dependents CONFIG FILE...: the objects build/CONFIG links that were
# compiled from one of the FILEs (paths in the tree), by kbuild's
# dependency files: fixdep writes the source and every header of an
# object into its .<object>.cmd, as paths into the tree (absolute, or
# relative to the O= folder when ccache's base_dir rewrote them).
dependents() {
	local c=$1 f re o
	shift
	[ $# -gt 0 ] || return 0
	re=$(for f in "$@"; do printf '%s\n' "$f"; done |
		sed -e 's/[.[\*^$]/\\&/g' -e 's|^|/linux/|' | paste -sd'|')
	(cd "$KEEP/$c" && grep -rlE --include='.*.o.cmd' "($re)([[:space:]\\]|\$)" . || true) |
		sed -e 's|^\./||' -e 's|\.cmd$||' -e 's|\(.*/\)\{0,1\}\.\([^/]*\)$|\1\2|' |
		sort | while read -r o; do
			if linked "$c" "$o"; then echo "$o"; fi
		done
	return 0
}

# relinks FILE...: whether a patch touching FILEs can change more than
# its objects: a kbuild Makefile, or a header outside drivers/char/
# (the config is compared separately).
relinks() {
	local f
	for f in "$@"; do
		case $f in
		tools/*|Documentation/*) ;;
		*/Makefile|Makefile|*/Kbuild|Kbuild|*.mk) return 0 ;;
		drivers/char/*) ;;
		*.h) return 0 ;;
		esac
	done
	return 1
}

# touches_kconfig FILE...: whether a patch touching FILEs changes a
# Kconfig file.
touches_kconfig() {
	printf '%s\n' "$@" | matches Kconfig
}

restore() {
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f "$branch"
	for c in "${all[@]}"; do
		# newer than auto.conf: the next build runs syncconfig
		[ -f "$out/$c.config" ] && cp "$out/$c.config" "$KEEP/$c/.config"
	done
}
trap restore EXIT

# Warnings of a log, without line numbers and build paths, one per line.
warnings() {
	grep -E '(warning|error):' "$1" |
		sed -E -e "s|$KEEP/[^/]+/||g" \
		       -e 's/:[0-9]+(:[0-9]+)?:/:/' | sort || true
}

# prepare CONFIG [CONFIG-EDIT...]: the series' .config, edited. The
# build's own syncconfig (kbuild runs it when .config is newer than
# include/config/auto.conf) drops what this prefix does not have yet, as
# olddefconfig would, without a make run of its own; its kconfig
# warnings go to the build's log. Before the patch that lets DEVKMEM sit
# beside STRICT_DEVMEM, the series' STRICT_DEVMEM=y would drop DEVKMEM:
# such a prefix builds a config with the device as it had to be then,
# STRICT_DEVMEM off.
prepare() {
	local edits=("${@:2}")
	cp "$out/$1.config" "$KEEP/$1/.config"
	if grep -q '^CONFIG_DEVKMEM=y' "$out/$1.config" &&
	   grep -q '^	depends on .*!STRICT_DEVMEM' "$TREE/drivers/char/Kconfig"; then
		edits+=(--disable STRICT_DEVMEM)
	fi
	[ ${#edits[@]} -eq 0 ] || "$TREE/scripts/config" --file "$KEEP/$1/.config" "${edits[@]}"
}

# without_device CONFIG: the series builds CONFIG with /dev/kmem, this
# prefix has the option, and yet its config lost it.
without_device() {
	grep -q '^CONFIG_DEVKMEM=y' "$out/$1.config" &&
		grep -q '^config DEVKMEM$' "$TREE/drivers/char/Kconfig" &&
		! grep -q '^CONFIG_DEVKMEM=y' "$KEEP/$1/include/config/auto.conf"
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

# keep LABEL CONFIG: save vmlinux and the objects the series can change
# in CONFIG ($out/CONFIG.objects, found at the base) for zero-cost.sh, as
# LABEL-CONFIG.vmlinux and LABEL-CONFIG.<path-of-object>.
keep() {
	local o
	cp "$KEEP/$2/vmlinux" "$out/$1-$2.vmlinux"
	while read -r o; do
		! linked "$2" "$o" || cp "$KEEP/$2/$o" "$out/$1-$2.${o//\//-}"
	done < "$out/$2.objects"
}

# w1 LABEL CONFIG OBJECT...: the OBJECTs alone, with W=1, into
# LABEL-CONFIG.w1 (its warnings into LABEL-CONFIG.w1.warnings).
w1() {
	local label=$1 c=$2
	shift 2
	: > "$out/$label-$c.w1"
	# Compiled again even where nothing changed, so that its warnings show.
	[ $# -eq 0 ] || (cd "$KEEP/$c" && rm -f "$@")
	[ $# -eq 0 ] || kmake "$c" -s -j"$(nproc)" W=1 "$@" > "$out/$label-$c.w1" 2>&1 || return 1
	warnings "$out/$label-$c.w1" > "$out/$label-$c.w1.warnings"
}

# check_step LABEL DESCRIPTION [FILE...]: build every config at this
# prefix; the FILEs are what its patch touched (none at the base).
check_step() {
	local label=$1 what=$2 c new cs=("${configs[@]}") ends_step=0
	shift 2
	if [ "$label" = base ] || [ "$label" = "$total" ]; then
		cs=("${all[@]}") ends_step=1
	fi
	for c in "${cs[@]}"; do
		local t=$SECONDS rc=0 full=$ends_step mine=() how w1note
		# The config this prefix gets, where a Kconfig file changed:
		# kbuild's syncconfig drops what the prefix does not have yet
		# (build() runs it again, a no-op).
		: > "$out/$label-$c.kconfig"
		if [ $full = 1 ] || touches_kconfig "$@"; then
			prepare "$c" && kmake "$c" -s syncconfig > "$out/$label-$c.kconfig" 2>&1 || rc=$?
			[ $rc -ne 0 ] || [ $full = 1 ] ||
				cmp -s "$KEEP/$c/include/config/auto.conf" "$out/$c.auto.conf" || full=1
			[ $rc -ne 0 ] || cp "$KEEP/$c/include/config/auto.conf" "$out/$c.auto.conf"
		fi
		if [ $rc -eq 0 ] && without_device "$c"; then
			point FAIL "$what: $c has no DEVKMEM at this prefix ($BUILD_REL/results/lint-prefixes/$label-$c.kconfig)"
			continue
		fi
		[ $rc -ne 0 ] || [ $full = 1 ] || ! relinks "$@" || full=1
		# The objects the patch's files are compiled into, with W=1.
		if [ $rc -eq 0 ] && [ "$label" != base ] &&
		   [[ " ${ends[*]} " != *" $c "* ]]; then
			mapfile -t mine < <(dependents "$c" "$@")
			w1 "$label" "$c" "${mine[@]}" || rc=$?
		fi
		# ... or need a symbol the last vmlinux linked does not define
		# (patch 6 is the first to call kcore_pfn_is_ram() from mem.o).
		if [ $rc -eq 0 ] && [ $full = 0 ] && [ ${#mine[@]} -gt 0 ] &&
		   [ -n "$( (cd "$KEEP/$c" && nm -u "${mine[@]}") |
			   awk 'NF == 2 { print $2 }' | sort -u |
			   comm -23 - "$out/$c.defined")" ]; then
			full=1
		fi
		# sparse leaves its W=1 objects behind: at the series it runs
		# before the build, which puts back the objects the boots and
		# zero-cost.sh use; at the base after it (and after keep), as
		# the folder may have had no objects to pick from before.
		if [ $rc -eq 0 ] && [ "$label" = "$total" ]; then
			sparse "$label" "$c" ||
				warn "sparse/W=1 failed at $label for $c"
		fi
		if [ $rc -eq 0 ] && [ $full = 1 ]; then
			build "$label" "$c" || rc=$?
			cat "$out/$label-$c.kconfig" >> "$out/$label-$c.log"
			# What this vmlinux defines, for the check above.
			[ $rc -ne 0 ] || nm "$KEEP/$c/vmlinux" | awk 'NF == 3 { print $3 }' |
				sort -u > "$out/$c.defined"
		fi
		[[ " ${ends[*]} " != *" $c "* ]] || ends_time=$((ends_time + SECONDS - t))
		if [ $rc -ne 0 ]; then
			point FAIL "$what: does not build $c ($BUILD_REL/results/lint-prefixes/$label-$c.*)"
			for f in "$out/$label-$c".{log,w1}; do
				[ ! -f "$f" ] || tail -n 5 "$f"
			done | sed 's/^/# /'
			continue
		fi
		[ $full = 0 ] || warnings "$out/$label-$c.log" > "$out/$label-$c.warnings"
		if [ "$label" = base ]; then
			[ ${#objs[@]} -gt 0 ] || objects
			dependents "$c" "${touched[@]}" > "$out/$c.objects"
			keep base "$c"
			t=$SECONDS
			# An ends config has no W=1 pass of its own: sparse's
			# (C=2 W=1) at the base and at the series' end stands for it.
			w1note="W=1 in sparse's pass only, compared at the series' end"
			if [[ " ${ends[*]} " != *" $c "* ]]; then
				mapfile -t mine < "$out/$c.objects"
				if w1 base "$c" "${mine[@]}"; then
					w1note="W=1 on the ${#mine[@]} objects the series can change: $(wc -l < "$out/base-$c.w1.warnings")"
				else
					point FAIL "$what: W=1 on $(xargs < "$out/$c.objects") does not build $c"
					w1note="W=1 failed"
				fi
			fi
			sparse base "$c" || warn "sparse/W=1 failed at base for $c"
			[[ " ${ends[*]} " != *" $c "* ]] || ends_time=$((ends_time + SECONDS - t))
			point OK "$what builds $c (pristine; $(wc -l < "$out/base-$c.warnings") warnings, $w1note)"
			continue
		fi
		# New warnings: of the build (kconfig's among them), or of
		# kconfig alone where nothing was linked, and of the W=1 objects.
		if [ $full = 1 ]; then
			new=$(comm -13 "$out/base-$c.warnings" "$out/$label-$c.warnings")
		else
			new=$(comm -13 "$out/base-$c.warnings" <(warnings "$out/$label-$c.kconfig"))
		fi
		if [ ${#mine[@]} -gt 0 ]; then
			new+=${new:+$'\n'}$(comm -13 "$out/base-$c.w1.warnings" "$out/$label-$c.w1.warnings")
		fi
		how="W=1 on ${mine[*]:-no object}"
		if [ $full = 1 ]; then how+="; vmlinux linked"; else how+="; not linked"; fi
		if [ -z "$new" ]; then
			point OK "$what builds $c with no new warning ($how)"
		else
			point FAIL "$what builds $c with new warnings ($how): $(head -1 <<<"$new")"
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
	mapfile -t files < <(git -C "$TREE" diff --name-only HEAD~1 HEAD)
	check_step "$i" "base + patches 1-$i" "${files[@]}"
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
