#!/bin/bash
# Runs inside the guest (started by dracut-hook.sh): the boot tests for
# the kind of kernel named on the command line (devkmem_test.expect=on or
# off), as one kselftest-style TAP stream; each program's own TAP is
# indented under "# ". Ends with the marker the host waits for.
set -euo pipefail

dir=/usr/lib/devkmem-tests
expect=
read -r -a args < /proc/cmdline
for a in "${args[@]}"; do
	case $a in
	devkmem_test.expect=*) expect=${a#*=} ;;
	esac
done

case $expect in
on) tests=(kmem-node kmem-perm kmem-read kmem-write kmem-mmap) ;;
off) tests=(kmem-absent) ;;
*) tests=() ;;
esac

# %pK in /proc/vmallocinfo prints hashed pointers when kptr_restrict is 0;
# at 1 it prints real ones to a reader with CAP_SYSLOG (root here).
echo 1 > /proc/sys/kernel/kptr_restrict

echo "TAP version 13"
echo "1..${#tests[@]}"
if [ ${#tests[@]} -eq 0 ]; then
	echo "Bail out! no devkmem_test.expect=on|off on the kernel command line"
fi
n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	echo "# selftests: devkmem: $t"
	rc=0
	"$dir/$t" > "/tmp/$t.tap" 2>&1 || rc=$?
	while IFS= read -r line; do
		echo "# $line"
	done < "/tmp/$t.tap"
	case $rc in
	0) echo "ok $n selftests: devkmem: $t" ;;
	4) echo "ok $n selftests: devkmem: $t # SKIP" ;;
	*) echo "not ok $n selftests: devkmem: $t # exit=$rc" ;;
	esac
done
echo "# DEVKMEM-BOOT-TESTS-END"
