#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages that `make check` and `make demo` need, if any
# is missing.  Touches only the system's own apt sources; kernels and
# headers for the VMs come through tools/debfetch.sh instead.
set -euo pipefail

pkgs=(
	gcc make perl bc xz-utils zstd cpio kmod
	libc6-dev valgrind
	busybox-static dmsetup
	cryptsetup-bin		# the LUKS2 check in the VMs
	mount util-linux	# make peer-tests: losetup, wipefs in its guest
	qemu-system-x86
	sparse			# make sparse (6.x)
	dpkg-dev		# make sparse (7.x): dpkg-source unpacks sid's sparse
	dkms			# make dkms (--no-install-recommends: no headers)
	debhelper dh-dkms lintian	# make deb: dpkg-buildpackage, dh, dh_dkms
	debootstrap		# make deb-check: a throwaway Debian 12 root
	python3-docutils	# make docs: rst2html
	qemu-system-arm qemu-user	# arm64 VMs and the arm64 harness
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
	dwarves			# pahole: the 6.12 headers build BTF
	ca-certificates
	libssl-dev libsodium-dev libgcrypt20-dev gnuplot-nox	# make bench
	# tools/kernel, tools/kunit: debug kernels for x86-64 and arm64
	bc bison flex libelf-dev ccache gcc-aarch64-linux-gnu qemu-system-arm python3
	# the 7.3 test kernels are clang kernels (LLVM=-19: clang, ld.lld,
	# llvm-ar, llvm-nm, llvm-objcopy...); tests' check-clang links with lld
	clang-19 lld-19 llvm-19
	e2fsprogs		# checks 12 (mke2fs for the guest's ext4)
	# tools/bochs: Bochs 3.0 built from source, booted from an isolinux CD
	g++ isolinux syslinux-common genisoimage
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: not root; run: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" >/dev/null
