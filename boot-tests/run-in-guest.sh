#!/bin/bash
# Runs inside the guest (started by dracut-hook.sh): the boot tests of
# the set named on the command line (devkmem_test.set=, see
# boot-tests/sets), as one kselftest-style TAP stream; each program's own
# TAP is indented under "# ". Ends with the marker the host waits for.
set -euo pipefail

dir=/usr/lib/devkmem-tests
set=
read -r -a args < /proc/cmdline
for a in "${args[@]}"; do
	case $a in
	devkmem_test.set=*) set=${a#*=} ;;
	esac
done

# Plain bash: the initramfs has no awk.
tests=()
while IFS='|' read -r name _ _ _ programs; do
	name=${name//[[:space:]]/}
	if [ -n "$set" ] && [ "$name" = "$set" ]; then
		read -r -a tests <<< "$programs"
	fi
done < "$dir/sets"

# %pK in /proc/vmallocinfo prints hashed pointers when kptr_restrict is 0;
# at 1 it prints real ones to a reader with CAP_SYSLOG (root here).
echo 1 > /proc/sys/kernel/kptr_restrict

echo "TAP version 13"
echo "1..${#tests[@]}"
if [ ${#tests[@]} -eq 0 ]; then
	echo "Bail out! no known devkmem_test.set= on the kernel command line"
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
