#!/bin/bash
# boot-test.sh CONFIG EXPECT
# Boot build/CONFIG's kernel in QEMU with its initramfs; the guest runs
# the boot tests for EXPECT (on|off). Writes build/results/CONFIG/:
#   serial.log  the console (kernel messages), ttyS0
#   tap.txt     the tests' TAP, ttyS1
#   kunit.json  KUnit results parsed from serial.log (KUnit configs only)
#   summary     "passed N failed N skipped N" for scripts/summary.sh
# The boot fails when it does not reach the end marker in time, or when
# the kernel printed an oops, a BUG, a WARNING or a call trace.
# Environment: ACCEL=tcg (default; kvm is opt-in, it hangs here),
# BOOT_TIMEOUT=30 (seconds).
set -euo pipefail
. "$(dirname "$0")/common.sh"

name=$1
expect=$2
accel=${ACCEL:-tcg}
timeout=${BOOT_TIMEOUT:-30}
O=$BUILD/$name
out=$RESULTS/$name
mkdir -p "$out"
rm -f "$out/serial.log" "$out/tap.txt" "$out/summary"

echo "  BOOT    $name (accel=$accel, timeout ${timeout}s)"
rc=0
timeout --foreground -k 5 "$timeout" \
	qemu-system-x86_64 -accel "$accel" -m 512 -smp 1 -nodefaults \
	-display none -no-reboot \
	-kernel "$O/arch/x86/boot/bzImage" \
	-initrd "$BUILD/initramfs/$name.img" \
	-append "console=ttyS0 panic=-1 oops=panic nokaslr devkmem_test.expect=$expect" \
	-serial "file:$out/serial.log" -serial "file:$out/tap.txt" \
	</dev/null >"$out/qemu.log" 2>&1 || rc=$?
touch "$out/serial.log" "$out/tap.txt"	# QEMU may not have started at all

problem=
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	problem="timed out after ${timeout}s"
elif [ $rc -ne 0 ]; then
	problem="qemu exited with $rc: $(head -c 300 "$out/qemu.log")"
fi
splat=$(grep -m1 -E 'Oops|BUG:|WARNING:|Call Trace|Kernel panic' \
	"$out/serial.log" || true)
[ -n "$splat" ] && problem="kernel reported: $splat"
if ! grep -q '^# DEVKMEM-BOOT-TESTS-END' "$out/tap.txt"; then
	problem=${problem:-"no end marker: the tests did not finish"}
fi

"$(dirname "$0")/tap-count.sh" "$out/tap.txt" > "$out/summary"
read -r _ passed _ failed _ skipped < "$out/summary"
grep -E '^# *not ok|^not ok|Bail out' "$out/tap.txt" || true

# A kernel built with KUnit ran its suites during boot: count them too.
if grep -q '^CONFIG_KUNIT=y' "$O/.config"; then
	read -r _ kp _ kf _ ks < <("$(dirname "$0")/kunit-count.sh" \
		"$out/serial.log" "$out/kunit.json")
	echo "  KUNIT   $name: $kp passed, $kf failed, $ks skipped" \
		"(build/results/$name/kunit.txt)"
	[ "$kf" -eq 0 ] || grep -E 'FAILED|not ok' "$out/kunit.txt" || true
	passed=$((passed + kp)) failed=$((failed + kf)) skipped=$((skipped + ks))
fi

if [ -n "$problem" ]; then
	failed=$((failed + 1))
	echo "not ok - boot $name: $problem"
	echo "--- last lines of build/results/$name/serial.log:"
	tail -n 25 "$out/serial.log"
	echo "---"
else
	passed=$((passed + 1))
	echo "ok - boot $name: reached the end, no kernel warnings"
fi
echo "passed $passed failed $failed skipped $skipped" > "$out/summary"
echo "  RESULT  $name: $passed passed, $failed failed, $skipped skipped"
