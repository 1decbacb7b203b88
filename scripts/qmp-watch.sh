#!/bin/bash
# qmp-watch.sh QEMU_PID SERIAL_LOG QMP_SOCKET
# The host side of the guest's memory-state tests, run beside QEMU by
# boot-test.sh: a guest test asks for a change of the machine with a
# line "devkmem-qmp: balloon BYTES" in the kernel log (serial console);
# this answers each such line once, in order, over QMP ("balloon": the
# guest's new size, so the virtio balloon inflates or deflates to it).
# Prints what it did; "qmp-watch: error ..." fails the boot.
set -euo pipefail

qemu=$1
log=$2
sock=$3
done_n=0
while kill -0 "$qemu" 2>/dev/null; do
	mapfile -t reqs < <(sed -n 's/.*devkmem-qmp: balloon \([0-9][0-9]*\).*/\1/p' \
		"$log" 2>/dev/null)
	while [ "$done_n" -lt "${#reqs[@]}" ]; do
		bytes=${reqs[$done_n]}
		done_n=$((done_n + 1))
		if out=$("$(dirname "$0")/qmp.py" "$sock" balloon \
			"{\"value\": $bytes}" 2>&1); then
			echo "qmp-watch: balloon $bytes: $out"
		else
			echo "qmp-watch: error: balloon $bytes: $out"
		fi
	done
	sleep 0.5
done
