#!/bin/bash
# initramfs.sh CONFIG
# Build build/initramfs/CONFIG.img with dracut: a bash initramfs holding
# the boot-test programs, the runner and its sets, CONFIG's System.map and the hook
# that runs them (boot-tests/dracut-hook.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"

name=$1
O=$BUILD/$name
[ -f "$O/System.map" ] || die "$name: no build/$name/System.map; run 'make'"

make -s -C "$TOP/boot-tests" OUTPUT="$BUILD/boot-tests"

stage=$BUILD/initramfs/$name.root
rm -rf "$stage"
mkdir -p "$stage/usr/lib/devkmem-tests"
cp "$BUILD"/boot-tests/* "$TOP/boot-tests/run-in-guest.sh" "$TOP/boot-tests/sets" \
	"$O/System.map" "$stage/usr/lib/devkmem-tests/"

img=$BUILD/initramfs/$name.img
dracut --quiet --no-kernel --no-hostonly --no-hostonly-cmdline \
	--no-compress --force --kver "$(cat "$O/include/config/kernel.release")" \
	--modules "bash base" \
	--include "$stage" / \
	--include "$TOP/boot-tests/dracut-hook.sh" \
		/lib/dracut/hooks/cmdline/00-devkmem-tests.sh \
	"$img"
echo "  INITRD  build/initramfs/$name.img"
