#!/bin/bash
# kernels.sh: build every config of the queue BASE selects and say where
# each kernel is.
set -euo pipefail
. "$(dirname "$0")/common.sh"
s=$(dirname "$0")
keep_lock
"$s/tree.sh"

mapfile -t configs < <("$s/configs.sh" names)
for c in "${configs[@]}"; do
	"$s/build-kernel.sh" "$c"
done
for c in "${configs[@]}"; do
	echo "$c: $BUILD_REL/$c/arch/x86/boot/bzImage (.config, vmlinux, System.map beside it)"
done
