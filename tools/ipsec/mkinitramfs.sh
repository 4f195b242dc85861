#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh KERNEL [KO]
#
# The IPsec guests' initramfs, printed as a path: static busybox, iproute2's
# `ip` and kmod (Debian's binaries with their shared libraries and the
# loader), the kernel's own modules for ESP with rfc7539esp(chacha20,poly1305)
# and for a virtio NIC (with their dependencies, unpacked), a depmod index
# and tools/ipsec/guest-init.sh as /init.  arm64 kernels: the user space is
# Debian's arm64 one (tools/vm/userland-arm64.sh for busybox and kmod,
# ip-arm64.sh for `ip`), plus virtio_console for the host's channel.  With KO, chacha20_simd.ko goes in
# /lib/modules/KVER/extra (guest A); without it the image holds no trace of
# the module, so nothing can load it (guest B).  Cached by content hash under
# $CHACHA_CACHE/ipsec-initramfs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

kernel=${1:?usage: $0 KERNEL [chacha20_simd.ko]}
ko=${2:-}
load_kernel "$kernel"
role=b
[ -z "$ko" ] || role=a

# ESP and the AEAD it asks for (seqiv(rfc7539esp(chacha20,poly1305)); seqiv
# takes its salt from the default "stdrng", a DRBG (hmac(sha512) seeded by
# jitterentropy; the DRBG's self-tests also run its CTR variants, so ctr and
# aes), and copies through "ecb(cipher_null)": without them the SA fails
# with "unable to initialize cryptographic operations"), the in-tree
# ChaCha and Poly1305 drivers, `ip xfrm`'s netlink family, kTLS (tls:
# the kTLS checks), the NIC.
# Missing names (built in, or renamed in 7.x) are only noted.
want="esp4 xfrm_user xfrm_algo seqiv ecb crypto_null drbg jitterentropy_rng
	hmac sha512_generic sha256_generic ctr aes_generic aesni-intel
	chacha20poly1305 chacha_generic
	chacha-x86_64 chacha libchacha poly1305_generic poly1305-x86_64
	tls virtio_net virtio_pci"
# arm64: the NEON drivers, and virtio_console: virt has a single UART (the
# kernel's console), so the host's commands come over a virtio serial port.
[ "$KARCH" = amd64 ] || want="esp4 xfrm_user xfrm_algo seqiv ecb crypto_null
	drbg jitterentropy_rng hmac sha512_generic sha256_generic ctr
	aes_generic aes-arm64 aes-ce-cipher chacha20poly1305 chacha_generic
	chacha-neon libchacha poly1305_generic poly1305-neon
	tls virtio_net virtio_pci virtio_console"

stage=$cache/ipsec-stage-$KVER-$role
exec 9>"$stage.lock"
flock 9
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,etc} "$stage/lib/modules/$KVER"
mdir=$stage/lib/modules/$KVER

# shellcheck disable=SC2086,SC2046 # one module a word
stage_kmods "$stage" $want ${ko:+$(ko_deps "$ko")}
if [ -n "$ko" ]; then
	mkdir -p "$mdir/extra"
	cp "$ko" "$mdir/extra/chacha20_simd.ko"
fi
depmod -b "$stage" "$KVER"


if [ "$KARCH" = arm64 ]; then
	ul=$("$vm_dir/userland-arm64.sh") || die "no arm64 user space"
	ipd=$("$here/ip-arm64.sh") || die "no arm64 ip"
	cp -a "$ul"/bin "$ul"/sbin "$ul"/lib "$stage/"
	cp -a "$ipd"/sbin "$ipd"/lib "$stage/"
	ln -s busybox "$stage/bin/sh"
else
	bb=$(command -v busybox) ||
		die "busybox missing (apt-get install busybox-static)"
	! ldd "$bb" >/dev/null 2>&1 ||
		die "$bb is not static (apt-get install busybox-static)"
	cp "$bb" "$stage/bin/busybox"
	ln -s busybox "$stage/bin/sh"
	ipbin=$(PATH=$PATH:/usr/sbin:/sbin command -v ip) ||
		die "ip missing (apt-get install iproute2)"
	[ "$(readlink -f "$ipbin")" != "$(readlink -f "$bb")" ] ||
		die "$ipbin is busybox's, not iproute2's"
	stage_prog "$stage" "$(readlink -f "$ipbin")" sbin
	kmod=$(command -v kmod) || die "kmod missing (apt-get install kmod)"
	stage_prog "$stage" "$kmod" sbin
fi
for p in modprobe insmod rmmod lsmod modinfo; do
	ln -s kmod "$stage/sbin/$p"
done

# ktls-check (the kTLS checks), built static for the guest, one build at
# a time.
ktbin=$cache/ktls-check ktcc=gcc
[ "$KARCH" = amd64 ] || { ktbin+=-$KARCH; ktcc=aarch64-linux-gnu-gcc; }
flock "$ktbin.lock" make -s -f "$here/ktls-check.mk" KTLS_CHECK="$ktbin" \
	KTLS_CHECK_CC="$ktcc" >&2 || die "ktls-check does not build"
cp "$ktbin" "$stage/bin/ktls-check"

cp "$here/guest-init.sh" "$stage/init"
cp "$top_dir/tools/lib-posix.sh" "$stage/bin/"
chmod 755 "$stage/init"

pack_initramfs "$stage" "$cache/ipsec-initramfs" "$KVER-$role" 3
