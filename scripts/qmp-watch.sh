#!/bin/bash
# qmp-watch.sh QEMU_PID SERIAL_LOG QMP_SOCKET
# The host side of the guest's memory-state tests, run beside QEMU by
# boot-test.sh: a guest test asks for a change of the machine with a
# line "devkmem-qmp: REQUEST BYTES" in the kernel log (serial console;
# tools/testing/selftests/devkmem/kmem.h, host_request()); this answers
# each such line once, in order, over QMP:
#   balloon-take BYTES  the virtio balloon inflates or deflates until it
#                       holds BYTES of the guest's RAM ("balloon" takes
#                       the guest's new size: its RAM, from
#                       query-memory-size-summary, less BYTES);
#   vmem-size BYTES     the virtio-mem device vmem0 (boot-tests/sets, mm)
#                       is asked for BYTES (its requested-size);
#   vmem-untouched OFFSET LENGTH
#                       that range of the device's memory, a memfd the
#                       device punches holes in where it unplugs, is still
#                       a hole: nothing read or wrote it since (lseek's
#                       SEEK_DATA, on QEMU's descriptor in /proc/PID/fd).
# Prints what it did; "qmp-watch: error ..." fails the boot. After the
# first request it also prints the balloon's and the device's actual
# sizes (those the machine has) each time they have changed (polled
# every 5 s), so that a boot that times out shows how far the guest got.
set -euo pipefail

qemu=$1
log=$2
sock=$3
qmp=$(dirname "$0")/qmp.py
vmem=/machine/peripheral/vmem0
done_n=0
ram=
polls=0
declare -A shown=()

# Run one QMP command; print its reply, or an error line and return 1.
send() {
	local what=$1 out
	shift
	if out=$("$qmp" "$sock" "$@" 2>&1); then
		echo "qmp-watch: $what: $out"
	else
		echo "qmp-watch: error: $what: $out"
		return 1
	fi
}

# Print a query's reply when it differs from the last one printed.
show() {
	local now
	now=$("$qmp" "$sock" "$@" 2>/dev/null) || return 0
	if [ "${shown[$*]:-}" != "$now" ]; then
		shown[$*]=$now
		echo "qmp-watch: $*: $now"
	fi
}

# Is [OFFSET, OFFSET + LENGTH) of the device's memfd a hole? QEMU's
# descriptor for it is the one /proc names memfd:memory-backend-memfd
# (QEMU_PID may be timeout(1)'s, QEMU its child).
untouched() {
	local off=$1 len=$2 pid f memfd=
	for pid in "$qemu" $(cat /proc/"$qemu"/task/*/children 2>/dev/null); do
		for f in /proc/"$pid"/fd/*; do
			[[ $(readlink "$f" 2>/dev/null) == /memfd:memory-backend-memfd* ]] &&
				memfd=$f
		done
	done
	if [ -z "$memfd" ]; then
		echo "qmp-watch: error: vmem-untouched: QEMU has no memory-backend-memfd"
		return
	fi
	python3 - "$memfd" "$off" "$len" 2>&1 <<'EOF'
import errno, os, sys
path, off, ln = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
what = "vmem-untouched %d %d" % (off, ln)
try:
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    if ln <= 0 or off + ln > size:
        sys.exit("qmp-watch: error: %s: not a range of the %d-byte memfd"
                 % (what, size))
    try:
        data = os.lseek(fd, off, os.SEEK_DATA)
    except OSError as e:
        if e.errno != errno.ENXIO:
            raise
        data = size
except OSError as e:
    sys.exit("qmp-watch: error: %s: %s" % (what, e))
if data < off + ln:
    print("qmp-watch: error: %s: data at offset %d" % (what, data))
else:
    print("qmp-watch: %s: a hole" % what)
EOF
}

# The requests on the console so far, one "REQUEST NUMBER..." line each
requests() {
	sed -n 's/.*devkmem-qmp: \([a-z-]*\) \([0-9][0-9 ]*\).*/\1 \2/p' \
		"$log" 2>/dev/null
}

while kill -0 "$qemu" 2>/dev/null; do
	mapfile -t reqs < <(requests)
	while [ "$done_n" -lt "${#reqs[@]}" ]; do
		read -r req bytes len rest <<<"${reqs[$done_n]}"
		done_n=$((done_n + 1))
		case $req in
		balloon-take)
			if [ -z "$ram" ] && ! ram=$("$qmp" "$sock" \
				query-memory-size-summary 2>&1 |
				python3 -c 'import json, sys; print(json.load(sys.stdin)["base-memory"])'); then
				echo "qmp-watch: error: query-memory-size-summary failed"
				ram=
				continue
			fi
			send "balloon-take $bytes (of $ram)" balloon \
				"{\"value\": $((ram - bytes))}" || true
			;;
		vmem-size)
			send "vmem-size $bytes" qom-set \
				"{\"path\": \"$vmem\", \"property\": \"requested-size\", \"value\": $bytes}" ||
				true
			;;
		vmem-untouched)
			untouched "$bytes" "${len:-0}" || true
			;;
		*)
			echo "qmp-watch: error: unknown request $req"
			;;
		esac
	done
	polls=$((polls + 1))
	if [ "$done_n" -gt 0 ] && [ $((polls % 10)) -eq 0 ]; then
		show query-balloon
		show qom-get "{\"path\": \"$vmem\", \"property\": \"size\"}"
	fi
	sleep 0.5
done
# A request QEMU exited before this answered was never carried out.
mapfile -t reqs < <(requests)
while [ "$done_n" -lt "${#reqs[@]}" ]; do
	echo "qmp-watch: error: unanswered request ${reqs[$done_n]} (QEMU exited)"
	done_n=$((done_n + 1))
done
