#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh 6.1|6.12|7.3|6.1-rt|6.12-rt[-arm64]
#
# Build the test VM's initramfs and print its path: busybox, kmod,
# dmsetup, cryptsetup and mke2fs (with their shared libraries), the static
# afalg-check and fscrypt-check, /init and
# the guest scripts, chacha20_simd.ko in /lib/modules/KVER/extra (with
# CHACHA_KO=FILE: that prebuilt module, in updates/dkms/ as DKMS puts it),
# the kernel's own modules the checks use with their dependencies, and a depmod
# index.  Cached by content hash.  arm64: the user space comes from
# userland-arm64.sh, afalg-check is cross-built.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

kernel=${1:?usage: $0 6.1|6.12|7.3|6.1-rt|6.12-rt[-arm64]}
load_kernel "$kernel"
if [ -n "${CHACHA_KO:-}" ]; then
	ko=$CHACHA_KO kodir=updates/dkms
else
	ko=$("$vm_dir/build-module.sh" "$kernel") kodir=extra
fi

# Kernel modules the checks load; dependencies are added from modules.dep.
# chacha, aes: 7.x's names (chacha20-lib, aes-lib); each kernel has some.
# ctr, xts, cts, gcm: the templates 7.x's aes-lib registers modes through
# when they are configured (ESP and fscrypt select them); its self-tests
# compare with them and say so in dmesg when they cannot be loaded.
# Checks 12 and 13: ext4 with crc32c, fscrypt's HKDF (hmac, sha512);
# dm-integrity, and xts(aes) for cryptsetup's keyslots beside an AEAD.
want="chacha_generic chacha-x86_64 libchacha poly1305_generic poly1305-x86_64
	chacha20poly1305 adiantum nhpoly1305 nhpoly1305-sse2 nhpoly1305-avx2
	aes_generic aesni-intel tcrypt af_alg algif_skcipher algif_aead
	crypto_user dm-mod dm-crypt brd
	chacha aes ctr xts cts gcm
	ext4 crc32c_generic crc32c-intel sha512_generic sha512-ssse3 hmac
	dm-integrity"
[ "$KARCH" = arm64 ] && want="chacha_generic chacha-neon libchacha
	poly1305_generic poly1305-neon chacha20poly1305 adiantum nhpoly1305
	nhpoly1305-neon aes_generic aes-arm64 aes-ce-cipher tcrypt af_alg
	algif_skcipher algif_aead crypto_user dm-mod dm-crypt brd
	chacha aes ctr xts cts gcm
	ext4 crc32c_generic sha512_generic sha512-arm64 hmac
	dm-integrity aes-ce-blk aes-neon-blk"

stage=$cache/initramfs-stage-$KVER
exec 9>"$stage.lock"
flock 9
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,etc/modprobe.d} \
	"$stage/lib/modules/$KVER/$kodir"
mdir=$stage/lib/modules/$KVER

# shellcheck disable=SC2086,SC2046 # one module a word
stage_kmods "$stage" $want $(ko_deps "$ko")
cp "$ko" "$mdir/$kodir/chacha20_simd.ko"
depmod -b "$stage" "$KVER"


# User space: static busybox; dmsetup; kmod, as busybox modprobe retries a
# failed finit_module() with init_module() and so runs tcrypt twice.
if [ "$KARCH" = arm64 ]; then
	ul=$("$vm_dir/userland-arm64.sh") || die "no arm64 user space"
	cp -a "$ul"/bin "$ul"/sbin "$ul"/lib "$stage/"
	ln -s busybox "$stage/bin/sh"
else
bb=$(command -v busybox) ||
	die "busybox missing (apt-get install busybox-static)"
! ldd "$bb" >/dev/null 2>&1 ||
	die "$bb is not static (apt-get install busybox-static)"
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
for p in dmsetup kmod; do
	command -v $p >/dev/null || die "$p missing (apt-get install $p)"
	stage_prog "$stage" "$(command -v $p)" sbin
done
# cryptsetup for the LUKS2 check: Debian's cryptsetup-bin is dynamically
# linked, so stage_prog brings its libraries and the loader (host ldd; the
# arm64 user space above carries its own cryptsetup).
cryptsetup=${CRYPTSETUP:-$(PATH=$PATH:/usr/sbin:/sbin command -v cryptsetup)} ||
	die "cryptsetup missing (apt-get install cryptsetup-bin)"
stage_prog "$stage" "$cryptsetup" sbin
# mke2fs for check 12 (e2fsprogs), run as mkfs.ext4.
mke2fs=$(PATH=$PATH:/usr/sbin:/sbin command -v mke2fs) ||
	die "mke2fs missing (apt-get install e2fsprogs)"
stage_prog "$stage" "$mke2fs" sbin
fi
ln -s mke2fs "$stage/sbin/mkfs.ext4"
for p in modprobe insmod rmmod lsmod modinfo; do
	ln -s kmod "$stage/sbin/$p"
done

# The checks' tools (fscrypt-check: checks 12 and 13), and Wycheproof's
# ChaCha20-Poly1305 tests, afalg-check's data for check 7.
stage_tool "$stage" "$KARCH" afalg-check || true
stage_tool "$stage" "$KARCH" fscrypt-check || true
cp "$vm_dir/wycheproof-chacha20poly1305.txt" "$stage/"

cp "$vm_dir/guest-init.sh" "$stage/init"
cp "$vm_dir/guest-check.sh" "$vm_dir/guest-demo.sh" \
	"$top_dir/tools/lib-posix.sh" "$stage/bin/"
chmod 755 "$stage/init" "$stage"/bin/*

pack_initramfs "$stage" "$cache/initramfs" "$KVER" 4
