#!/bin/bash
# /init of an initramfs made without dracut (scripts/initramfs-cpio.sh,
# the 32-bit config): mount what dracut's init mounts, then run the boot
# tests and end the boot as dracut runs boot-tests/dracut-hook.sh.
export PATH=/usr/bin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
# devtmpfs has no /dev/stdout; the kselftest runner writes to it
ln -s /proc/self/fd /dev/fd
ln -s fd/0 /dev/stdin
ln -s fd/1 /dev/stdout
ln -s fd/2 /dev/stderr
. /usr/lib/devkmem-tests/dracut-hook.sh
