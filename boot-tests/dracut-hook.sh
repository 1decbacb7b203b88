# Sourced by dracut's init at the cmdline hook (installed as
# /lib/dracut/hooks/cmdline/00-devkmem-tests.sh): run the boot tests with
# their TAP on the second serial port, then end the boot, since there is
# no root file system to go on to.
echo "devkmem-tests: running" > /dev/console
/usr/lib/devkmem-tests/run-in-guest.sh > /dev/ttyS1 2>&1
echo "devkmem-tests: done, rebooting" > /dev/console
/usr/lib/devkmem-tests/end-boot
