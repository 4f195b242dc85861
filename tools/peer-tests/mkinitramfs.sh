#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh KERNEL KO TESTDIR [lean|full|chacha]
#
# The peer-test guest's initramfs, printed as a path: static busybox for
# /init, and Debian's own programs that cryptsetup's test scripts call
# (bash, cryptsetup, dmsetup, util-linux's losetup and wipefs, kmod, GNU
# sed, grep and coreutils) with their shared libraries and the loader;
# chacha20_simd.ko (KO) in /lib/modules/KVER/extra beside the kernel's own
# modules those scripts reach (lean: for their ChaCha lines; full: for
# every line; with their dependencies, unpacked) and a depmod index;
# tools/lib-posix.sh; the scripts themselves from TESTDIR (the tests/
# folder of Debian's cryptsetup source) in /peer-tests, unchanged (chacha:
# lean's modules, and each script cut down to its ChaCha lines by
# chacha-lines.awk, for make check); and tools/peer-tests/guest-init.sh as
# /init.  Cached by content hash under
# $CHACHA_CACHE/peer-initramfs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

kernel=${1:?usage: $0 KERNEL chacha20_simd.ko TESTDIR [lean|full|chacha]}
ko=${2:?usage: $0 KERNEL chacha20_simd.ko TESTDIR [lean|full|chacha]}
testdir=${3:?usage: $0 KERNEL chacha20_simd.ko TESTDIR [lean|full|chacha]}
variant=${4:-lean}
load_kernel "$kernel"
[ "$KARCH" = amd64 ] || die "only x86-64 guests so far"

# The kernel's modules the scripts' ChaCha lines need: loop (mode-test's
# loop device), dm-crypt, dm-integrity; Adiantum (adiantum, nhpoly1305,
# AES; the in-tree xchacha drivers too, so that a rejected module shows as
# instances built on those, not as a missing algorithm); rfc7539(chacha20,
# poly1305); xts(aes), which LUKS2 uses for the keyslots of an AEAD
# device; AF_ALG, through which cryptsetup encrypts keyslots and, before
# it formats a device with --integrity, checks that the kernel has the
# AEAD (algif_aead: without it every such line prints [N/A]).  With these
# (and what Debian's kernel has built in: cbc, cipher_null, hmac, sha1,
# sha256) mode-test's aes and null lines run too, so essiv must be here:
# cryptsetup formats LUKS1 with aes-cbc-essiv:sha256 through AF_ALG's
# cbc(aes), working out ESSIV itself, and mode-test fails (exit 100) when
# dm-crypt then cannot open it.  essiv needs authenc, and with that
# luks2-integrity-test's hmac-sha256 and hmac-sha1 lines run as well.
# lean leaves the rest out: those lines print [n/a] / [N/A], which run.sh
# lists as not run.  Names that a kernel lacks (built in, or renamed) are
# only noted.
want="loop dm-mod dm-crypt dm-integrity
	chacha20poly1305 chacha_generic chacha-x86_64 libchacha
	poly1305_generic poly1305-x86_64 adiantum nhpoly1305 nhpoly1305-sse2
	nhpoly1305-avx2 aes_generic aesni-intel ecb xts essiv authenc
	af_alg algif_skcipher algif_aead algif_hash"
# full: every cipher, mode and MAC the scripts' other lines name (mode-test:
# twofish, serpent, lrw; luks2-integrity-test: hmac(sha512), gcm, ccm,
# aegis128).  Under TCG they cost tens of minutes (README.md), so only on
# request.
[ "$variant" != full ] || want+=" twofish_generic twofish-x86_64
	twofish-x86_64-3way twofish-avx-x86_64 serpent_generic
	serpent-sse2-x86_64 serpent-avx-x86_64 serpent-avx2 lrw
	crypto_null ctr gcm ccm ghash-generic ghash-clmulni-intel aegis128
	aegis128-aesni hmac sha1_generic sha1-ssse3 sha256_generic
	sha256-ssse3 sha512_generic sha512-ssse3"

stage=$cache/peer-stage-$KVER-$variant
exec 9>"$stage.lock"
flock 9
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,etc} \
	"$stage/lib/modules/$KVER/extra" "$stage/peer-tests"
mdir=$stage/lib/modules/$KVER

# shellcheck disable=SC2086,SC2046 # one module a word
stage_kmods "$stage" $want $(ko_deps "$ko")
cp "$ko" "$mdir/extra/chacha20_simd.ko"
depmod -b "$stage" "$KVER"

# need NAME: the host's program of that name (Debian's), not busybox's
need() {
	local p
	p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$1") ||
		die "$1 missing (apt-get install $2)"
	p=$(readlink -f "$p")
	[ "${p##*/}" != busybox ] || die "$1 is busybox's (apt-get install $2)"
	echo "$p"
}

bb=$(command -v busybox) || die "busybox missing (apt-get install busybox-static)"
! ldd "$bb" >/dev/null 2>&1 || die "$bb is not static (apt-get install busybox-static)"
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
# The programs the scripts run, all Debian's: the scripts are tested
# against these (GNU sed's '\t' in a bracket, grep -m1, ...), not against
# busybox's look-alikes.  They go in /usr, which the guest puts first in
# PATH; busybox's links land in /bin and /sbin.
stage_prog "$stage" "$(need bash bash)" usr/bin
stage_prog "$stage" "$(need cryptsetup cryptsetup-bin)" usr/sbin
stage_prog "$stage" "$(need dmsetup dmsetup)" usr/sbin
stage_prog "$stage" "$(need losetup mount)" usr/sbin
stage_prog "$stage" "$(need wipefs util-linux)" usr/sbin
stage_prog "$stage" "$(need kmod kmod)" usr/bin
for p in modprobe insmod rmmod lsmod modinfo; do
	ln -s ../usr/bin/kmod "$stage/sbin/$p"
done
stage_prog "$stage" "$(need sed sed)" usr/bin
stage_prog "$stage" "$(need grep grep)" usr/bin
for p in dd cut sha256sum id rm sync cat basename; do
	stage_prog "$stage" "$(need $p coreutils)" usr/bin
done

for t in mode-test luks2-integrity-test; do
	[ -f "$testdir/$t" ] || die "no $t in $testdir"
	if [ "$variant" = chacha ]; then
		awk -f "$here/chacha-lines.awk" "$testdir/$t" \
			>"$stage/peer-tests/$t"
	else
		cp "$testdir/$t" "$stage/peer-tests/"
	fi
done
cp "$here/guest-init.sh" "$stage/init"
cp "$top_dir/tools/lib-posix.sh" "$stage/bin/"
chmod 755 "$stage/init"

pack_initramfs "$stage" "$cache/peer-initramfs" "$KVER-$variant" 3
