#!/bin/bash
# build-kernel.sh [--config] CONFIG
# Make build/CONFIG/.config from tinyconfig plus the fragments listed for
# CONFIG in kconfig-fragments/configs, check it, and build bzImage there
# (--config: stop after the .config; make lint's prefix walk builds it).
# The .config is only replaced when its contents change, so an unchanged
# config never triggers a rebuild.
set -euo pipefail
. "$(dirname "$0")/common.sh"

only_config=0
if [ "$1" = --config ]; then
	only_config=1
	shift
fi
name=$1
mapfile -t paths < <("$(dirname "$0")/configs.sh" fragments "$name")
[ ${#paths[@]} -gt 0 ] || exit 1

O=$BUILD/$name
mkdir -p "$O"

# Regenerate .config in place; if nothing changed, put the previous file
# (and its timestamp) back so that kbuild sees no change at all.
prev=$O/.config.prev
rm -f "$prev"
[ -f "$O/.config" ] && cp -p "$O/.config" "$prev"
kmake "$name" -s tinyconfig >"$O/tinyconfig.log" 2>&1
"$TREE/scripts/kconfig/merge_config.sh" -m -O "$O" "$O/.config" "${paths[@]}" \
	>"$O/merge_config.log"
kmake "$name" -s olddefconfig
if ! "$(dirname "$0")/config-check.sh" "$O/.config" "${paths[@]}"; then
	die "$name: .config does not match kconfig-fragments (see above)"
fi
if [ -f "$prev" ] && cmp -s "$prev" "$O/.config"; then
	mv "$prev" "$O/.config"
else
	rm -f "$prev"
fi

[ $only_config = 0 ] || exit 0

echo "  BUILD   $name"
kmake "$name" -s -j"$(nproc)" bzImage
echo "  KERNEL  $BUILD_REL/$name/arch/x86/boot/bzImage"
