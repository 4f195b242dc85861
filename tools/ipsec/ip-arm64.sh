#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ip-arm64.sh
#
# iproute2's `ip` for an arm64 IPsec guest, from Debian's arm64 packages
# (tools/debfetch.sh -a arm64), with the shared libraries it needs (by their
# DT_NEEDED entries, transitively).  Prints a directory holding sbin/ip and
# lib/aarch64-linux-gnu/; the loader and libc's siblings that kmod needs
# come from tools/vm/userland-arm64.sh, which mkinitramfs.sh copies too.
# Busybox's own `ip` has no `xfrm`, hence this.  Cached.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../vm/lib.sh
. "$here/../vm/lib.sh"

readelf=${CHACHA_CROSS:-aarch64-linux-gnu-}readelf
command -v "$readelf" >/dev/null ||
	die "$readelf missing (apt-get install binutils-aarch64-linux-gnu)"

pkgs="iproute2 libbpf1 libelf1 libmnl0 libbsd0 libcap2 libmd0 zlib1g libc6"
# shellcheck disable=SC2086 # one package a word
dirs=$("$debfetch" -a arm64 get $pkgs) || die "cannot fetch $pkgs"
out=$cache/ipsec-ip-arm64
key=$(echo "$dirs" | sha256sum | cut -c1-16)
if [ -e "$out/.done-$key" ]; then
	echo "$out"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"/{sbin,lib/aarch64-linux-gnu}

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

cp "$(find_file bin/ip sbin/ip usr/bin/ip usr/sbin/ip)" "$out/sbin/ip"
todo=$out/sbin/ip
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
