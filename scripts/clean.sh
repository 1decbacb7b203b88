#!/bin/bash
# clean.sh: remove what the queue BASE selects built, but its unpacked
# tree (KEEP/linux: build/linux, build/<base>/linux) and the other
# queues' folders: its configs' O= folders and Debian's tree in KEEP
# (common.sh) too. The compiler cache stays.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock

for d in $("$(dirname "$0")/configs.sh" names); do
	rm -rf "${KEEP:?}/$d"
done
rm -rf "${KEEP:?}/debian"
for d in $("$(dirname "$0")/configs.sh" names) results initramfs \
	 boot-tests kselftest menuconfig i386-root debian; do
	rm -rf "${BUILD:?}/$d"
done
