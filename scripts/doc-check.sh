#!/bin/bash
# The kernel's own checks of the documentation the series adds, as TAP:
# scripts/get_abi.pl validates Documentation/ABI and finds /dev/kmem's
# obsolete entry; scripts/kernel-doc finds vmalloc_area_call()'s comment
# (the series' one kernel-doc comment, in mm/vmalloc.c), complete with
# its Context and Return sections, and is silent on it and on
# drivers/char/mem.c; devices.txt marks 1:2 deprecated. Writes
# build/results/docs/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock

out=$RESULTS/docs
mkdir -p "$out"
n=0

cd "$TREE"
{
echo "TAP version 13"
rc=0
./scripts/get_abi.pl validate --dir Documentation/ABI > "$out/abi-validate.txt" 2>&1 ||
	rc=$?
if [ $rc -eq 0 ] && ! grep -q 'dev-kmem' "$out/abi-validate.txt"; then
	point OK "get_abi.pl validate: no complaint about ABI/obsolete/dev-kmem"
else
	point FAIL "get_abi.pl validate (rc $rc): see $BUILD_REL/results/docs/abi-validate.txt"
fi
./scripts/get_abi.pl search '^/dev/kmem$' --dir Documentation/ABI \
	> "$out/abi-search.txt" 2>&1 || true
if grep -q 'Replacement' "$out/abi-search.txt" &&
   grep -q 'Planned removal' "$out/abi-search.txt"; then
	point OK "get_abi.pl search finds /dev/kmem with its replacement and removal"
else
	point FAIL "get_abi.pl search does not find the /dev/kmem entry"
fi
kdoc=$({ ./scripts/kernel-doc -none drivers/char/mem.c
	./scripts/kernel-doc -none -function vmalloc_area_call mm/vmalloc.c; } 2>&1 ||
	echo "exit $?")
if [ -z "$kdoc" ]; then
	point OK "kernel-doc -none: silent on drivers/char/mem.c and vmalloc_area_call()"
else
	point FAIL "kernel-doc -none on drivers/char/mem.c and vmalloc_area_call(): $kdoc"
fi
sections=$(./scripts/kernel-doc -rst -function vmalloc_area_call mm/vmalloc.c 2>/dev/null |
	sed -n 's/^[[:space:]]*\*\*\(Parameters\|Context\|Return\)\*\*$/\1/p' | xargs)
if [ "$sections" = "Parameters Context Return" ]; then
	point OK "kernel-doc finds vmalloc_area_call() with its parameters, Context and Return"
else
	point FAIL "kernel-doc: vmalloc_area_call() has sections '${sections:-none}', not Parameters, Context, Return"
fi
if grep -E '^[[:space:]]+2 = /dev/kmem' -A2 Documentation/admin-guide/devices.txt |
   grep -q 'DEPRECATED, see CONFIG_DEVKMEM'; then
	point OK "devices.txt: 1:2 /dev/kmem marked deprecated, pointing to CONFIG_DEVKMEM"
else
	point FAIL "devices.txt: 1:2 /dev/kmem not marked deprecated"
fi
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
