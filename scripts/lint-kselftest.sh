#!/bin/bash
# The series' kselftests build the way the kernel's CI builds them:
# "make -C tools/testing/selftests TARGETS=devkmem" in build/linux, with
# the tree's lib.mk and no flags of ours (dynamically linked; the boot
# tests' static build is scripts/initramfs.sh), into build/results/
# lint-kselftest/ (O=); every program in the list "make ... emit_tests"
# gives is built. Writes build/results/lint-kselftest/.
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$RESULTS/lint-kselftest
rm -rf "$out"
mkdir -p "$out"
n=0
{
echo "TAP version 13"
if make -C "$TREE/tools/testing/selftests" TARGETS=devkmem \
	O="$out/build" > "$out/build.log" 2>&1; then
	point OK "make -C tools/testing/selftests TARGETS=devkmem builds"
else
	point FAIL "make -C tools/testing/selftests TARGETS=devkmem: see build/results/lint-kselftest/build.log"
	sed 's/^/# /' "$out/build.log" | tail -20
fi
mapfile -t progs < <(make -s -C "$TREE/tools/testing/selftests/devkmem" \
	emit_tests 2>/dev/null | sed -n 's/^[^:]*:\([^ ]*\).*/\1/p')
missing=()
for p in "${progs[@]}"; do
	[ -x "$out/build/kselftest/devkmem/$p" ] || missing+=("$p")
done
if [ ${#progs[@]} -gt 0 ] && [ ${#missing[@]} -eq 0 ]; then
	point OK "all ${#progs[@]} programs of the collection built"
else
	point FAIL "programs not built: ${missing[*]:-none listed by emit_tests}"
fi
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
