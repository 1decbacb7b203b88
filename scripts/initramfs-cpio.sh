#!/bin/bash
# initramfs-cpio.sh CONFIG STAGE IMAGE
# The initramfs of a 32-bit config (scripts/configs.sh arch: i386),
# without dracut: dracut cannot collect from an i386 root on this host,
# since both it (dracut-install) and the libraries it finds (ldd) must
# run i386 programs, and this machine's kernel refuses them ("Exec
# format error"; see docs/testing.md). Instead: the programs the tests
# and the kselftest runner call, from Debian's own i386 packages
# (apt-get download, unpacked under build/i386-root/), with the shared
# libraries they need (found with readelf, which reads i386 ELF here),
# STAGE (the tests, as initramfs.sh lays them out), and
# boot-tests/init-cpio.sh as /init, packed by the kernel's own
# usr/gen_init_cpio into IMAGE.
set -euo pipefail
. "$(dirname "$0")/common.sh"

name=$1 stage=$2 img=$3
packages=(libc6 bash libtinfo6 coreutils libacl1 libattr1 libselinux1
	  libpcre2-8-0 libgmp10 grep sed findutils mount libmount1 libblkid1)
programs=(bash "${RUNNER_PROGRAMS[@]}" head find mkdir rm ls ln sleep mount)

root=$BUILD/i386-root
sysroot=$root/sysroot
if [ ! -f "$root/stamp" ] || [ "$(cat "$root/stamp")" != "${packages[*]}" ]; then
	rm -rf "$root"
	mkdir -p "$root/debs" "$sysroot"
	(cd "$root/debs" && apt-get download -q "${packages[@]/%/:i386}") \
		>"$root/download.log" 2>&1 ||
		die "apt-get download of i386 packages failed: $(tail -2 "$root/download.log")"
	for d in "$root"/debs/*.deb; do
		dpkg-deb -x "$d" "$sysroot"
	done
	echo "${packages[*]}" > "$root/stamp"
fi

# path of program or library name in the sysroot (usrmerge: /bin is usr/bin)
find_in_root() {
	local d
	for d in usr/bin bin usr/sbin sbin lib/i386-linux-gnu \
		 usr/lib/i386-linux-gnu; do
		if [ -e "$sysroot/$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}

# the files to pack: the programs, the loader, and every DT_NEEDED library
declare -A files=() where=()
todo=()
for p in "${programs[@]}"; do
	where[$p]=$(find_in_root "$p") || die "i386 root: no program $p"
	todo+=("${where[$p]}")
done
todo+=(lib/i386-linux-gnu/ld-linux.so.2)
while [ ${#todo[@]} -gt 0 ]; do
	f=${todo[0]}
	todo=("${todo[@]:1}")
	[ -n "${files[$f]+set}" ] && continue
	files[$f]=1
	while read -r lib; do
		l=$(find_in_root "$lib") || die "i386 root: no library $lib (for $f)"
		todo+=("$l")
	done < <(readelf -d "$sysroot/$f" 2>/dev/null |
		 sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
done

list=$BUILD/initramfs/$name.list
{
	for d in /bin /dev /proc /sys /tmp /lib /lib/i386-linux-gnu /usr \
		 /usr/bin /usr/lib /usr/lib/i386-linux-gnu; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	# programs in /usr/bin, libraries where the root has them; links
	# resolved: the image holds the files themselves
	for p in "${programs[@]}"; do
		f=${where[$p]}
		unset "files[$f]"
		echo "file /usr/bin/$p $(realpath "$sysroot/$f") 0755 0 0"
	done
	for f in "${!files[@]}"; do
		echo "file /$f $(realpath "$sysroot/$f") 0755 0 0"
	done
	echo "slink /lib/ld-linux.so.2 /lib/i386-linux-gnu/ld-linux.so.2 0777 0 0"
	echo "slink /bin/sh /usr/bin/bash 0777 0 0"
	echo "slink /bin/bash /usr/bin/bash 0777 0 0"
	echo "file /init $TOP/boot-tests/init-cpio.sh 0755 0 0"
	(cd "$stage" && find . -mindepth 1 | sort) | while read -r p; do
		p=${p#.}
		if [ -d "$stage$p" ]; then
			echo "dir $p 0755 0 0"
		else
			echo "file $p $stage$p $(stat -c %a "$stage$p") 0 0"
		fi
	done
} > "$list"
"$KEEP/$name/usr/gen_init_cpio" "$list" > "$img"
