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
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

readelf=${CHACHA_CROSS:-aarch64-linux-gnu-}readelf
command -v "$readelf" >/dev/null ||
	die "$readelf missing (apt-get install binutils-aarch64-linux-gnu)"

pkgs="busybox-static kmod libkmod2 liblzma5 libzstd1 libssl3 zlib1g
	dmsetup libdevmapper1.02.1 libselinux1 libudev1 libpcre2-8-0 libc6
	cryptsetup-bin libcryptsetup12 libargon2-1 libjson-c5 libblkid1
	libuuid1 libpopt0 e2fsprogs libext2fs2 libcom-err2"
# shellcheck disable=SC2086 # one package a word
dirs=$("$debfetch" -a arm64 get $pkgs) || die "cannot fetch $pkgs"
out=$cache/userland-arm64
key=$(echo "$dirs" | sha256sum | cut -c1-16)
if [ -e "$out/.done-$key" ]; then
	echo "$out"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"/{bin,sbin,lib/aarch64-linux-gnu}

# find_file RELATIVE-PATHS...: the first that exists in an unpacked package
find_file() {
	local d r

	for r in "$@"; do
		for d in $dirs; do
			[ -e "$d/$r" ] && { echo "$d/$r"; return 0; }
		done
	done
	return 1
}

cp "$(find_file bin/busybox)" "$out/bin/busybox"
cp "$(find_file bin/kmod usr/bin/kmod)" "$out/sbin/kmod"
cp "$(find_file sbin/dmsetup usr/sbin/dmsetup)" "$out/sbin/dmsetup"
cp "$(find_file sbin/cryptsetup usr/sbin/cryptsetup)" "$out/sbin/cryptsetup"
cp "$(find_file sbin/mke2fs usr/sbin/mke2fs)" "$out/sbin/mke2fs"
cp -L "$(find_file lib/ld-linux-aarch64.so.1 \
	lib/aarch64-linux-gnu/ld-linux-aarch64.so.1 \
	usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1)" \
	"$out/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1"
ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$out/lib/ld-linux-aarch64.so.1"

# The libraries the programs need, and theirs, by soname.
todo="$out/sbin/kmod $out/sbin/dmsetup $out/sbin/cryptsetup $out/sbin/mke2fs"
while [ -n "$todo" ]; do
	next=''
	for f in $todo; do
		for so in $("$readelf" -d "$f" |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			dst=$out/lib/aarch64-linux-gnu/$so
			[ -e "$dst" ] && continue
			lib=$(find_file "lib/aarch64-linux-gnu/$so" \
				"usr/lib/aarch64-linux-gnu/$so") ||
				die "$so (needed by ${f##*/}) is in none of: $pkgs"
			cp -L "$lib" "$dst"
			next+=" $dst"
		done
	done
	todo=$next
done
touch "$out/.done-$key"
echo "$out"
