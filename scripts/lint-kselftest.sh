#!/bin/bash
# The series' kselftests build the way the kernel's CI builds them:
# "make -C tools/testing/selftests TARGETS=devkmem" in build/linux, with
# the tree's lib.mk and no flags of ours (dynamically linked; the boot
# tests' static build is scripts/initramfs.sh), into build/results/
# lint-kselftest/ (O=); every program in the list "make ... emit_tests"
# gives is built; for x86_64 and for i386 (CC="gcc -m32", which builds
# the programs kmem.h knows the i386 layout for). Writes
# build/results/lint-kselftest/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock

out=$RESULTS/lint-kselftest
rm -rf "$out"
mkdir -p "$out"
n=0
{
echo "TAP version 13"
# x86_64, and i386 as the i386 config's boot builds it (CC="gcc -m32")
for arch in x86_64 i386; do
	cc=$(arch_cc $arch)
	o=$out/build-$arch
	if make -C "$TREE/tools/testing/selftests" TARGETS=devkmem CC="$cc" \
		O="$o" > "$o.log" 2>&1; then
		point OK "$arch: make -C tools/testing/selftests TARGETS=devkmem CC=\"$cc\" builds"
	else
		point FAIL "$arch: make -C tools/testing/selftests TARGETS=devkmem CC=\"$cc\": see $BUILD_REL/results/lint-kselftest/build-$arch.log"
		sed 's/^/# /' "$o.log" | tail -20
	fi
	mapfile -t progs < <(make -s -C "$TREE/tools/testing/selftests/devkmem" \
		CC="$cc" emit_tests 2>/dev/null | sed -n 's/^[^:]*:\([^ ]*\).*/\1/p')
	missing=()
	for p in "${progs[@]}"; do
		[ -x "$o/kselftest/devkmem/$p" ] || missing+=("$p")
	done
	if [ ${#progs[@]} -gt 0 ] && [ ${#missing[@]} -eq 0 ]; then
		point OK "$arch: all ${#progs[@]} programs of the collection built"
	else
		point FAIL "$arch: programs not built: ${missing[*]:-none listed by emit_tests}"
	fi
done
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
