#!/bin/bash
# Install the Debian packages the build and the tests use, if any is
# missing. Not root: print the exact command to run and fail.
set -euo pipefail

packages=(
	build-essential bc bison flex libelf-dev libssl-dev	# kernel build
	xz-utils git						# the trees
	dracut-core cpio kmod					# initramfs
	gcc-multilib						# i386 tests (-m32)
	qemu-system-x86 python3					# boot tests, kunit.py
	rsync							# kselftest install
	libncurses-dev pkg-config tmux				# menuconfig test
	sparse python3-ply python3-git			# make lint
	quilt							# make debian, its check
	ccache							# every kernel build
)

# Each queue's kernel source, the package its base-version names
# (linux-source-6.1 for series/), and Debian's own kernel configs for
# that base (linux-config-6.1): distro-check.sh compares
# kconfig-fragments/distro.config with them, and debian-configs.sh builds
# those a queue's "debian-configs" file names.
. "$(dirname "$0")/common.sh"
while read -r b; do
	packages+=("$(base_package "$b")" "$(config_package "$b")")
done < <(bases)

# The i386 config's initramfs is made of Debian's i386 packages
# (scripts/initramfs-cpio.sh downloads them): apt must know that
# architecture.
foreign=
dpkg --print-foreign-architectures | matches -x i386 || foreign=i386

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && [ -z "$foreign" ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "error: missing Debian packages; as root run:" >&2
	echo "  ${foreign:+dpkg --add-architecture i386 && }apt-get update && $cmd" >&2
	exit 1
fi
if [ -n "$foreign" ]; then
	echo "  DPKG    --add-architecture i386"
	dpkg --add-architecture i386
fi
echo "  APT     ${missing[*]}"
# A mirror in the middle of a sync fails one index (seen 2026-12-06:
# bookworm-security's i386 Packages, "File has unexpected size") and
# apt-get update exits 100; the lists it already has still serve the
# install, which fails by itself if a package cannot be found.
apt-get update -q || echo "warning: apt-get update failed; installing from the lists apt has" >&2
[ ${#missing[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive $cmd
