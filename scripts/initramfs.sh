#!/bin/bash
# initramfs.sh CONFIG
# Build build/initramfs/CONFIG.img: the series' kselftests as "make -C
# tools/testing/selftests TARGETS=devkmem install" lays them out
# (run_kselftest.sh, the kselftest runner, devkmem/ with CONFIG's
# System.map beside the tests), the seeds' tmap and its check run as
# devkmem:seed-tmap, what only this harness runs (boot-tests/: the
# benchmark, end-boot, the runner of a set and the sets), and the hook
# that runs it all (boot-tests/dracut-hook.sh). All built for CONFIG's
# architecture (scripts/configs.sh arch; i386: gcc -m32).
# x86_64: dracut, a bash initramfs with the tools the kselftest runner
# calls. i386: scripts/initramfs-cpio.sh (dracut cannot collect i386
# programs on this host).
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
s=$(dirname "$0")

name=$1
O=$KEEP/$name
[ -f "$O/System.map" ] || die "$name: no build/$name/System.map; run 'make'"
arch=$("$s/configs.sh" arch "$name")
cc=$(arch_cc "$arch")
seeds=$(seeds_dir) || die "no seeds folder (../shared/seeds) for tmap.c; set SEEDS="

# A failed build must leave no image: the boots then fail for want of
# one (scripts/boot-test.sh), never boot an older or a partial one.
img=$BUILD/initramfs/$name.img
rm -f "$img" "$img.new"

ksft=$BUILD/kselftest/$arch
# Static: the initramfs holds the files, not the libraries they need.
make -s -C "$TREE/tools/testing/selftests" TARGETS=devkmem CC="$cc" \
	O="$ksft/build" INSTALL_PATH="$ksft/install" LDFLAGS=-static \
	install >/dev/null
make -s -C "$TOP/boot-tests" OUTPUT="$BUILD/boot-tests/$arch" CC="$cc" \
	KSFT="$TREE/tools/testing/selftests" \
	SEED="$(echo "$seeds"/001-patch-fix-mmap-kmem-*.patch)"

stage=$BUILD/initramfs/$name.root
dir=$stage/usr/lib/devkmem-tests
rm -rf "$stage"
mkdir -p "$dir"
cp -a "$ksft/install/." "$dir/"
cp "$O/System.map" "$dir/devkmem/"
# The seeds' client runs under the kselftest runner, from devkmem/.
cp "$BUILD/boot-tests/$arch/tmap" "$BUILD/boot-tests/$arch/seed-tmap" \
	"$dir/devkmem/"
echo "devkmem:seed-tmap" >> "$dir/kselftest-list.txt"
cp "$BUILD/boot-tests/$arch/kmem-bench" "$BUILD/boot-tests/$arch/end-boot" \
	"$TOP/boot-tests/run-in-guest.sh" \
	"$TOP/boot-tests/sets" "$dir/"

if [ "$arch" = i386 ]; then
	cp "$TOP/boot-tests/dracut-hook.sh" "$dir/"
	"$s/initramfs-cpio.sh" "$name" "$stage" "$img.new"
else
	dracut --quiet --no-kernel --no-hostonly --no-hostonly-cmdline \
		--no-compress --force \
		--kver "$(cat "$O/include/config/kernel.release")" \
		--modules "bash base" \
		--install "${RUNNER_PROGRAMS[*]}" \
		--include "$stage" / \
		--include "$TOP/boot-tests/dracut-hook.sh" \
			/lib/dracut/hooks/cmdline/00-devkmem-tests.sh \
		"$img.new"
fi
mv "$img.new" "$img"
echo "  INITRD  $BUILD_REL/initramfs/$name.img"
