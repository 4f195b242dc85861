#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# userland-arm64.sh
#
# The arm64 user space of the test VM, from Debian's arm64 packages
# (tools/debfetch.sh -a arm64): static busybox, kmod, dmsetup, cryptsetup
# and mke2fs (e2fsprogs) with the shared libraries they need (found through their DT_NEEDED entries) and
# the dynamic loader.  Prints a directory holding bin/, sbin/ and lib/ for
# mkinitramfs.sh to copy into the initramfs.  Cached.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

out=$cache/userland-arm64
stage_arm64 "$out" "busybox-static kmod libkmod2 liblzma5 libzstd1 libssl3
	zlib1g dmsetup libdevmapper1.02.1 libselinux1 libudev1 libpcre2-8-0
	libc6 cryptsetup-bin libcryptsetup12 libargon2-1 libjson-c5 libblkid1
	libuuid1 libpopt0 e2fsprogs libext2fs2 libcom-err2" \
	bin/busybox=bin/busybox \
	sbin/kmod=bin/kmod:usr/bin/kmod \
	sbin/dmsetup=sbin/dmsetup:usr/sbin/dmsetup \
	sbin/cryptsetup=sbin/cryptsetup:usr/sbin/cryptsetup \
	sbin/mke2fs=sbin/mke2fs:usr/sbin/mke2fs \
	lib/aarch64-linux-gnu/ld-linux-aarch64.so.1=lib/ld-linux-aarch64.so.1:lib/aarch64-linux-gnu/ld-linux-aarch64.so.1:usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1
[ -L "$out/lib/ld-linux-aarch64.so.1" ] ||
	ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$out/lib/ld-linux-aarch64.so.1"
echo "$out"
