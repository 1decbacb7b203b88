#!/bin/bash
# Runs inside the guest (started by dracut-hook.sh): the programs of the
# set named on the command line (devkmem_test.set=, see boot-tests/sets).
# The series' kselftests (those kselftest-list.txt lists) run under the
# kselftest runner, run_kselftest.sh, as one KTAP stream; a set of
# harness programs (the benchmark) runs them in turn. Ends with the
# marker the host waits for.
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
programs=()
while IFS='|' read -r name _ _ _ list; do
	name=${name//[[:space:]]/}
	if [ -n "$set" ] && [ "$name" = "$set" ]; then
		read -r -a programs <<< "$list"
	fi
done < "$dir/sets"

mkdir -p /tmp
selftests=()
others=()
for p in "${programs[@]}"; do
	if grep -qx "devkmem:$p" "$dir/kselftest-list.txt"; then
		selftests+=(-t "devkmem:$p")
	else
		others+=("$p")
	fi
done

if [ ${#programs[@]} -eq 0 ]; then
	echo "TAP version 13"
	echo "1..0"
	echo "Bail out! no known devkmem_test.set= on the kernel command line"
elif [ ${#others[@]} -eq 0 ]; then
	"$dir/run_kselftest.sh" "${selftests[@]}" || true
elif [ ${#selftests[@]} -eq 0 ]; then
	for p in "${others[@]}"; do
		"$dir/$p" || echo "Bail out! $p: exit status $?"
	done
else
	echo "Bail out! set $set mixes kselftests and other programs"
fi
echo "# DEVKMEM-BOOT-TESTS-END"
