#!/bin/bash
# qmp-watch.sh QEMU_PID SERIAL_LOG QMP_SOCKET
# The host side of the guest's memory-state tests, run beside QEMU by
# boot-test.sh: a guest test asks for a change of the machine with a
# line "devkmem-qmp: balloon-take BYTES" in the kernel log (serial
# console; tools/testing/selftests/devkmem/kmem.h, host_request()); this
# answers each such line once, in order, over QMP: the virtio balloon
# inflates or deflates until it holds BYTES of the guest's RAM ("balloon"
# takes the guest's new size: its RAM, from query-memory-size-summary,
# less BYTES). Prints what it did; "qmp-watch: error ..." fails the boot.
# After the first request it also prints the balloon's actual size each
# time it has changed (query-balloon, polled every 5 s), so that a boot
# that times out shows how far the guest got.
set -euo pipefail

qemu=$1
log=$2
sock=$3
qmp=$(dirname "$0")/qmp.py
done_n=0
ram=
polls=0
actual=
while kill -0 "$qemu" 2>/dev/null; do
	mapfile -t reqs < <(sed -n \
		's/.*devkmem-qmp: balloon-take \([0-9][0-9]*\).*/\1/p' \
		"$log" 2>/dev/null)
	while [ "$done_n" -lt "${#reqs[@]}" ]; do
		take=${reqs[$done_n]}
		done_n=$((done_n + 1))
		if [ -z "$ram" ] && ! ram=$("$qmp" "$sock" \
			query-memory-size-summary 2>&1 |
			python3 -c 'import json, sys; print(json.load(sys.stdin)["base-memory"])'); then
			echo "qmp-watch: error: query-memory-size-summary failed"
			ram=
			continue
		fi
		if out=$("$qmp" "$sock" balloon \
			"{\"value\": $((ram - take))}" 2>&1); then
			echo "qmp-watch: balloon-take $take (of $ram): $out"
		else
			echo "qmp-watch: error: balloon-take $take: $out"
		fi
	done
	polls=$((polls + 1))
	if [ "$done_n" -gt 0 ] && [ $((polls % 10)) -eq 0 ] &&
	   now=$("$qmp" "$sock" query-balloon 2>/dev/null) &&
	   [ "$now" != "$actual" ]; then
		actual=$now
		echo "qmp-watch: query-balloon: $now"
	fi
	sleep 0.5
done
