#!/bin/bash
# initramfs.sh CONFIG
# Build build/initramfs/CONFIG.img with dracut: a bash initramfs holding
# the series' kselftests as "make -C tools/testing/selftests
# TARGETS=devkmem install" lays them out (run_kselftest.sh, the kselftest
# runner, devkmem/ with CONFIG's System.map beside the tests), what only
# this harness runs (boot-tests/: the benchmark, end-boot, the runner of
# a set and the sets), the tools the kselftest runner calls, and the hook
# that runs it all (boot-tests/dracut-hook.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"

name=$1
O=$BUILD/$name
[ -f "$O/System.map" ] || die "$name: no build/$name/System.map; run 'make'"

ksft=$BUILD/kselftest
# Static: dracut copies the files, not the libraries they need.
make -s -C "$TREE/tools/testing/selftests" TARGETS=devkmem \
	O="$ksft/build" INSTALL_PATH="$ksft/install" LDFLAGS=-static \
	install >/dev/null
make -s -C "$TOP/boot-tests" OUTPUT="$BUILD/boot-tests" \
	KSFT="$TREE/tools/testing/selftests"

stage=$BUILD/initramfs/$name.root
dir=$stage/usr/lib/devkmem-tests
rm -rf "$stage"
mkdir -p "$dir"
cp -a "$ksft/install/." "$dir/"
cp "$O/System.map" "$dir/devkmem/"
cp "$BUILD/boot-tests/kmem-bench" "$BUILD/boot-tests/end-boot" \
	"$TOP/boot-tests/run-in-guest.sh" \
	"$TOP/boot-tests/sets" "$dir/"

img=$BUILD/initramfs/$name.img
dracut --quiet --no-kernel --no-hostonly --no-hostonly-cmdline \
	--no-compress --force --kver "$(cat "$O/include/config/kernel.release")" \
	--modules "bash base" \
	--install "realpath dirname basename cat grep sed cut uniq wc tr timeout" \
	--include "$stage" / \
	--include "$TOP/boot-tests/dracut-hook.sh" \
		/lib/dracut/hooks/cmdline/00-devkmem-tests.sh \
	"$img"
echo "  INITRD  build/initramfs/$name.img"
