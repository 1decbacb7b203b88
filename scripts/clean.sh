#!/bin/bash
# clean.sh: remove what the queue BASE selects built, but its unpacked
# tree (build/linux, build/<base>/linux) and the other queues' folders.
set -euo pipefail
. "$(dirname "$0")/common.sh"

for d in $("$(dirname "$0")/configs.sh" names) results initramfs \
	 boot-tests kselftest menuconfig i386-root; do
	rm -rf "${BUILD:?}/$d"
done
