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
# shellcheck source=../lib.sh
. "$here/../lib.sh"

out=$cache/ipsec-ip-arm64
stage_arm64 "$out" "iproute2 libbpf1 libelf1 libmnl0 libbsd0 libcap2 libmd0
	zlib1g libc6" sbin/ip=bin/ip:sbin/ip:usr/bin/ip:usr/sbin/ip
echo "$out"
