#!/bin/bash
# build-kernel.sh [--config] CONFIG
# Make build/CONFIG/.config (a link to KEEP/CONFIG, kept between clones:
# common.sh) from tinyconfig plus the fragments listed for CONFIG in
# kconfig-fragments/configs, check it, and build bzImage there
# (--config: stop after the .config; make lint's prefix walk builds it).
# The .config is only replaced when its contents change, so an unchanged
# config never triggers a rebuild; and it is not made again while what
# it is made from is unchanged (.config.key: a hash of those inputs and
# of the .config itself, so a .config changed since is made again).
# A config with no folder yet whose SEED_CONFIG (common.sh) was built at
# this tree's commit starts from a copy of that folder. Every make goes
# through ccache (kmake, common.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
s=$(dirname "$0")

only_config=0
if [ "$1" = --config ]; then
	only_config=1
	shift
fi
name=$1
mapfile -t paths < <("$s/configs.sh" fragments "$name")
[ ${#paths[@]} -gt 0 ] || exit 1

O=$KEEP/$name
# No folder yet, and its seed config (SEED_CONFIG) is built at this
# tree's commit: start from a copy of the seed's, timestamps kept (cp -a:
# a plain copy would be all new to make), without its .config key, so
# that the .config is made again below and kbuild's syncconfig sees which
# symbols changed (fixdep's include/config/ files).
seed=${SEED_CONFIG[$name]:-}
if [ ! -d "$O" ] && [ $only_config = 0 ] && [ -n "$seed" ] &&
   [ -f "$KEEP/$seed/arch/x86/boot/bzImage" ] &&
   [ "$(cat "$KEEP/$seed/.tree-head" 2>/dev/null)" = "$(git -C "$TREE" rev-parse HEAD)" ]; then
	echo "  SEED    $name from $seed"
	rm -rf "$O.tmp"
	cp -a "$KEEP/$seed" "$O.tmp"
	rm -f "$O.tmp/.config.key" "$O.tmp/.tree-head"
	# objtool's own build (tools/objtool) records its folder's absolute
	# path in its .cmd files: point them at this folder, or objtool is
	# built again and, newer than every object (each depends on it),
	# makes kbuild compile them all again. (No tools/ on i386: 32-bit
	# x86 has no objtool.)
	if [ -d "$O.tmp/tools" ]; then
		{ grep -rlIZ "$KEEP/$seed/" "$O.tmp/tools" || true; } |
			xargs -0 -r sed -i "s|$KEEP/$seed/|$O/|g"
	fi
	mv "$O.tmp" "$O"
fi
mkdir -p "$O"
keep_link "$name"

# inputs: what the .config is made from: the fragments, the tree's
# Kconfig files (its commit and any change not committed), the arch, the
# tools kconfig asks for their versions, and the scripts that make it.
inputs() {
	{ printf '%s\n' "${paths[@]#"$TOP"/}"; cat "${paths[@]}"
	  git -C "$TREE" rev-parse HEAD
	  git -C "$TREE" diff HEAD -- ':(glob)**/Kconfig*'
	  "$s/configs.sh" arch "$name"
	  gcc --version; ld --version
	  cat "$0" "$s/config-check.sh"; declare -f kmake_in kconfig_merge; } |
		sha256sum | cut -c1-16
}
config_key() {
	echo "$(inputs) $(sha256sum < "$O/.config" | cut -c1-16)"
}

# make_config: regenerate .config in place; if nothing changed, put the
# previous file (and its timestamp) back so that kbuild sees no change.
make_config() {
	local prev=$O/.config.prev
	rm -f "$prev"
	[ ! -f "$O/.config" ] || cp -p "$O/.config" "$prev"
	kconfig_merge "$O" "$name" "${paths[@]}"
	if ! "$s/config-check.sh" --tree "$TREE" "$O/.config" "${paths[@]}"; then
		die "$name: .config does not match kconfig-fragments (see above)"
	fi
	if [ -f "$prev" ] && cmp -s "$prev" "$O/.config"; then
		mv "$prev" "$O/.config"
	else
		rm -f "$prev"
	fi
	config_key > "$O/.config.key"
}

if [ ! -f "$O/.config" ] || [ ! -f "$O/.config.key" ] ||
   [ "$(cat "$O/.config.key")" != "$(config_key)" ]; then
	make_config
fi
[ $only_config = 0 ] || exit 0

echo "  BUILD   $name"
rm -f "$O/.tree-head"
kmake "$name" -s -j"$(nproc)" bzImage
# The tree's commit this folder was last built at, for a config seeded
# from it.
git -C "$TREE" rev-parse HEAD > "$O/.tree-head"
echo "  KERNEL  $BUILD_REL/$name/arch/x86/boot/bzImage"
