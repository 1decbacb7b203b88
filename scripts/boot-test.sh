#!/bin/bash
# boot-test.sh CONFIG SET
# Boot build/CONFIG's kernel in QEMU with its initramfs; the guest runs
# the boot tests of SET (boot-tests/sets: programs, command line added,
# timeout). Writes build/results/RESULT/, RESULT being CONFIG for its
# first set and CONFIG.SET for the others (scripts/configs.sh boots):
#   serial.log  the console (kernel messages), ttyS0
#   tap.txt     the tests' TAP, ttyS1
#   ktap.json   tap.txt's results as kunit.py parse read them, and
#               ktap.txt, its report (scripts/ktap.py)
#   kunit.json  KUnit results parsed from serial.log (configs with the series' suite, DEVKMEM_KUNIT_TEST: the
#               suite runs at every boot), and kunit.txt, kunit.py's report
#   summary     "passed N failed N skipped N" for scripts/summary.sh
#   skips       the skips boot-tests/skips allows in this boot
#   qmp.log     what scripts/qmp-watch.sh did for the guest (balloon,
#               virtio-mem)
# The boot fails when it does not reach the end marker in time, when the
# kernel printed an oops, a BUG, a WARNING, a call trace or an ACPI
# error (a device left without its interrupt route), when a set
# booted with -smp N did not bring up N CPUs, when an x86_64 kernel
# booted without PAT, when a QMP request failed, or when there is no
# initramfs (scripts/initramfs.sh removes it before building it). A skip
# that boot-tests/skips does not allow here counts as a failure.
# Environment: ACCEL=tcg (default; kvm is opt-in, it hangs here),
# BOOT_TIMEOUT (seconds; default: the set's), FUZZ_SEED (replays a
# kmem-fuzz run: devkmem_test.seed=), BOOT_APPEND (more command line).
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
s=$(dirname "$0")

name=$1
set=$2
result=$("$s/configs.sh" boots | awk -v c="$name" -v s="$set" \
	'$1 == c && $2 == s { print $3 }')
result=${result:-$name.$set}	# a set the config does not list (bench)
cmdline=$("$s/configs.sh" sets-table "$set" cmdline)
accel=${ACCEL:-tcg}
timeout=${BOOT_TIMEOUT:-$("$s/configs.sh" sets-table "$set" timeout)}
read -r -a machine < <("$s/configs.sh" sets-table "$set" machine)
[ ${#machine[@]} -gt 0 ] || machine=(-m 512 -smp 1)
cpus=$(sed -n 's/.*-smp \([0-9]*\).*/\1/p' <<<"${machine[*]}")
cpus=${cpus:-1}
[ "$accel" = tcg ] && accel=tcg,thread=multi
O=$KEEP/$name
out=$RESULTS/$result
mkdir -p "$out"
rm -f "$out"/*
initrd=$BUILD/initramfs/$name.img
# The skips allowed in this set on this queue (boot-tests/skips).
awk -F'|' -v set="$set" -v base="$BASE" '
	/^#/ || NF < 4 { next }
	{ for (i = 1; i <= 3; i++) gsub(/^[ \t]+|[ \t]+$/, "", $i) }
	$1 == set && (index(" " $2 " ", " all ") || index(" " $2 " ", " " base " ")) { print $3 }' \
	"$TOP/boot-tests/skips" > "$out/skips"
# devkmem_test.qmp=1: qmp-watch.sh answers the guest's host requests.
append="console=ttyS0 panic=-1 oops=panic devkmem_test.set=$set"
append+=" devkmem_test.qmp=1"
append+=${cmdline:+ $cmdline}
append+=${FUZZ_SEED:+ devkmem_test.seed=$FUZZ_SEED}
append+=${BOOT_APPEND:+ $BOOT_APPEND}

arch=$("$s/configs.sh" arch "$name")	# x86_64 or i386

# Guests with two vCPUs (the debug and mm sets) take turns across the
# queues (check-all.sh boots them side by side): two such boots at once
# put four vCPU threads on the host's two cores. Slowed down that much,
# a 6.1 mm boot lost its balloon's interrupt on an i440FX machine
# (boot-tests/sets, mm), when only balloon boots took turns, and a 6.1
# debug boot beside another queue's mm boot hung in early boot, after
# its TSC calibration against the PIT had failed (docs/testing.md). The
# lock is held until QEMU and qmp-watch.sh, which inherit it, have exited.
if [ "$cpus" -gt 1 ]; then
	t=$SECONDS
	mkdir -p "$TOP/build"
	exec {lock}>"$TOP/build/smp.lock"
	flock "$lock"
	[ $((SECONDS - t)) -eq 0 ] ||
		echo "  WAIT    $result: $((SECONDS - t)) s for another queue's boot with $cpus vCPUs"
fi

echo "  BOOT    $result ($arch, accel=$accel ${machine[*]}, timeout ${timeout}s): $append"
rc=0
if [ ! -f "$initrd" ]; then
	echo "no initramfs $BUILD_REL/initramfs/$name.img: scripts/initramfs.sh failed" \
		> "$out/qemu.log"
	rc=1
else
	timeout --foreground -k 5 "$timeout" \
		"qemu-system-$arch" -accel "$accel" "${machine[@]}" -nodefaults \
		-display none -no-reboot \
		-kernel "$O/arch/x86/boot/bzImage" \
		-initrd "$initrd" \
		-append "$append" \
		-serial "file:$out/serial.log" -serial "file:$out/tap.txt" \
		-qmp "unix:$out/qmp.sock,server=on,wait=off" \
		</dev/null >"$out/qemu.log" 2>&1 &
	qemu=$!
	"$s/qmp-watch.sh" "$qemu" "$out/serial.log" "$out/qmp.sock" \
		>"$out/qmp.log" 2>&1 &
	watch=$!
	wait $qemu || rc=$?
	wait $watch || echo "qmp-watch: error: exit $?" >> "$out/qmp.log"
fi
touch "$out/serial.log" "$out/tap.txt"	# QEMU may not have started at all

problem=
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	# the kselftest that had started and not finished
	running=$(awk '/^# selftests: / { p = $NF }
		/^(not )?ok [0-9]+ selftests: / { p = "" } END { print p }' \
		"$out/tap.txt")
	problem="timed out after ${timeout}s${running:+ in $running}"
elif [ $rc -ne 0 ]; then
	problem="qemu exited with $rc: $(head -c 300 "$out/qemu.log")"
fi
if [ "$cpus" -gt 1 ] &&
   ! grep -q "smp: Brought up .* $cpus CPUs" "$out/serial.log"; then
	problem=${problem:-"booted with -smp $cpus, the kernel brought up fewer CPUs"}
fi
# x86_64 kernels are built with distro.config: PAT must be on, or mmap
# is tested on a memory-type policy no distribution kernel has. A kernel
# without PAT prints the line too, with WB/WT/UC- only.
if [ "$arch" = x86_64 ] &&
   ! grep -q 'x86/PAT: Configuration \[0-7\]:.* WC ' "$out/serial.log"; then
	problem=${problem:-"PAT is off (no x86/PAT configuration with WC on the console)"}
fi
qmp_err=$(grep -m1 '^qmp-watch: error' "$out/qmp.log" || true)
[ -n "$qmp_err" ] && problem=${problem:-$qmp_err}
splat=$(grep -m1 -E 'Oops|BUG:|WARNING:|Call Trace|Kernel panic|ACPI Error' \
	"$out/serial.log" || true)
[ -n "$splat" ] && problem="kernel reported: $splat"
if ! grep -q '^# DEVKMEM-BOOT-TESTS-END' "$out/tap.txt"; then
	problem=${problem:-"no end marker: the tests did not finish"}
fi

# One parser for both streams: the tree's kunit.py parse (scripts/ktap.py).
mode=
grep -q '^# selftests: ' "$out/tap.txt" && mode=--kselftest
# A parser that dies prints no counts: that counts as one failure.
counts=$("$s/ktap.py" $mode --skips "$out/skips" "$TREE" "$out/tap.txt" \
	"$out/ktap.json") || true
read -r _ passed _ failed _ skipped <<<"${counts:-passed 0 failed 1 skipped 0}"
echo "  KTAP    $result: $passed passed, $failed failed, $skipped skipped" \
	"($BUILD_REL/results/$result/ktap.txt)"
# What failed, with the last 8 lines the harness said while each failed
# test ran (its assertion, TH_LOG lines, a timeout), since CI shows only
# this log.
awk '/^# #  RUN / { n = 0 } { said[n++] = $0 }
	/^# *not ok|^not ok|Bail out/ {
		k = 0
		if ($0 ~ /^# not ok/)
			for (i = 1; i < n - 1; i++)
				if (said[i] ~ /^# # /) why[k++] = said[i]
		for (i = k > 8 ? k - 8 : 0; i < k; i++) print why[i]
		print; n = 0 }' "$out/tap.txt"

# A kernel built with the series' KUnit suite runs it at every boot:
# count it once per kernel, in the boot of its first set (devkmem-off
# has KUnit's core and no suite); the kernel's other boots count only
# its failures.
if grep -q '^CONFIG_DEVKMEM_KUNIT_TEST=y' "$O/.config"; then
	counts=$("$s/ktap.py" --skips "$out/skips" "$TREE" "$out/serial.log" \
		"$out/kunit.json") || true
	read -r _ kp _ kf _ ks <<<"${counts:-passed 0 failed 1 skipped 0}"
	counted="counted in this boot"
	if [ "$result" != "$name" ]; then
		counted="counted in $name's boot; its failures count here too"
		kp=0 ks=0
	fi
	echo "  KUNIT   $result: $kp passed, $kf failed, $ks skipped ($counted;" \
		"$BUILD_REL/results/$result/kunit.txt)"
	[ "$kf" -eq 0 ] || grep -E 'FAILED|not ok' "$out/kunit.txt" || true
	passed=$((passed + kp)) failed=$((failed + kf)) skipped=$((skipped + ks))
fi

if [ -n "$problem" ]; then
	failed=$((failed + 1))
	echo "not ok - boot $result: $problem"
	echo "--- last lines of $BUILD_REL/results/$result/serial.log:"
	tail -n 25 "$out/serial.log"
	echo "---"
else
	passed=$((passed + 1))
	echo "ok - boot $result: reached the end, no kernel warnings"
fi
echo "passed $passed failed $failed skipped $skipped" > "$out/summary"
echo "  RESULT  $result: $passed passed, $failed failed, $skipped skipped"
