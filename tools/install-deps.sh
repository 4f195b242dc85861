#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh [GROUP...]: install the Debian packages of GROUPs (default
# all: what `make check` and `make demo` need), if any is missing.  As
# root it installs them; as another user it names the missing ones and
# fails, and with none missing it does nothing, as any user.  The groups:
#   user	make -C tests check check-clang (make test-user)
#   arm64	make -C tests check-arm64 (make test-arm64)
#   checkpatch	make checkpatch (checkpatch.pl from Debian's linux-source)
#   docs	make docs (rst2html)
#   bench	make bench (the libraries, gnuplot; Debian's 6.12 headers and
#		their tools' libelf1 and pahole)
#   all		every package below
# Touches only the system's own apt sources; kernels and headers for the
# VMs come through tools/debfetch.sh instead.
set -euo pipefail

user=(gcc make libc6-dev valgrind clang-19 lld-19)
arm64=(gcc make gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
	libc6-dev-arm64-cross qemu-user)
checkpatch=(perl xz-utils ca-certificates)
docs=(python3-docutils)
# bench: the @kernel rows' flags come from a module build against the
# 6.12 headers (tools/bench/kflags.sh), whose unpacked kbuild tools need
# libelf1 (objtool) and pahole (the module's BTF; Debian 12's dwarves is
# a transitional package for it).
bench=(gcc make libc6-dev libssl-dev libsodium-dev libgcrypt20-dev
	gnuplot-nox xz-utils zstd kmod ca-certificates libelf1 pahole)
all=(
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
	pahole			# the 6.12 headers build BTF
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

[ $# -gt 0 ] || set -- all
pkgs=()
for g in "$@"; do
	case $g in
	user | arm64 | checkpatch | docs | bench | all) ;;
	*) echo "install-deps: no group $g" >&2; exit 2 ;;
	esac
	declare -n grp=$g
	pkgs+=("${grp[@]}")
	unset -n grp
done

missing=()
for p in $(printf '%s\n' "${pkgs[@]}" | sort -u); do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing ${missing[*]}; not root, so not installed" >&2
	echo "install-deps: run: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" >/dev/null
