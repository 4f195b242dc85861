#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh [--ike|--load] KERNEL [KO]
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
# $CHACHA_CACHE/ipsec-initramfs.  --ike (x86-64 only) adds strongSwan from
# Debian 12's packages (stage_strongswan below), for run.sh --ike; without
# it the image is the same as before.  --load (x86-64 only) adds
# ymm-check, ping-sweep and guest-load.sh, for run.sh --load.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

ike='' load=''
case ${1:-} in
--ike) ike=-ike; shift ;;
--load) load=-load; shift ;;
esac
kernel=${1:?usage: $0 [--ike|--load] KERNEL [chacha20_simd.ko]}
ko=${2:-}
load_kernel "$kernel"
role=b
[ -z "$ko" ] || role=a
[ -z "$ike" ] || [ "$KARCH" = amd64 ] || die "--ike: x86-64 guests only"
[ -z "$load" ] || [ "$KARCH" = amd64 ] || die "--load: x86-64 guests only"

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

stage=$cache/ipsec-stage-$KVER-$role$ike$load
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

# ktls-check (the kTLS checks), built static for the guest.
stage_tool "$stage" "$KARCH" ktls-check "$here" || die "ktls-check does not build"

# stage_strongswan: Debian 12's charon, swanctl, libstrongswan with its
# plugins (the openssl plugin has ChaCha20-Poly1305 and X25519 for IKE;
# kernel-netlink installs the SAs; vici is swanctl's socket), every shared
# library any of them needs (the plugins are dlopen()ed, so ldd of each one,
# with the packages' /usr/lib/ipsec and its plugins/ on the search path,
# as their RUNPATHs have it in the guest), and a strongswan.conf that
# loads only the plugins the tunnel uses and logs to /tmp/charon.log.
stage_strongswan() {
	local pkgs dirs d f lib path=$stage/usr/lib/ipsec
	path+=:$path/plugins
	pkgs="libstrongswan libstrongswan-standard-plugins strongswan-libcharon
		strongswan-charon strongswan-swanctl"
	# shellcheck disable=SC2086 # one word per package
	dirs=$("$debfetch" get $pkgs) || die "cannot fetch $pkgs"
	mkdir -p "$stage/usr/lib/ipsec" "$stage/var/run"
	# swanctl --load-all reads these (credentials: none here).
	for d in bliss ecdsa pkcs12 pkcs8 private pubkey rsa x509 x509aa x509ac \
		x509ca x509crl x509ocsp; do
		mkdir -p "$stage/etc/swanctl/$d"
	done
	for d in $dirs; do
		cp -a "$d/usr/lib/ipsec/." "$stage/usr/lib/ipsec/"
		[ ! -e "$d/usr/sbin/swanctl" ] || cp "$d/usr/sbin/swanctl" \
			"$stage/usr/sbin/"
	done
	find "$stage/usr/lib/ipsec" "$stage/usr/sbin/swanctl" -type f |
		while read -r f; do
			file -b "$f" | grep -q '^ELF' || continue
			LD_LIBRARY_PATH=$path ldd "$f" |
				awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }'
		done | grep -v "^$stage/" | sort -u | while read -r lib; do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
	# No library may be left out.
	lib=$(find "$stage/usr/lib/ipsec" "$stage/usr/sbin/swanctl" -type f \
		-exec env LD_LIBRARY_PATH="$path" ldd {} + \
		2>/dev/null | grep 'not found' || true)
	[ -z "$lib" ] || die "strongSwan lacks: $lib"
	# glibc's pthread_cancel() dlopen()s libgcc_s (charon's and swanctl's
	# threads at exit: "libgcc_s.so.1 must be installed").
	lib=$(gcc -print-file-name=libgcc_s.so.1)
	[ "$lib" != libgcc_s.so.1 ] || die "no libgcc_s.so.1"
	cp -L "$lib" "$stage/lib/x86_64-linux-gnu/"
	cat >"$stage/etc/strongswan.conf" <<-'EOF'
	# run.sh --ike: only what an IKEv2 PSK tunnel with ChaCha20-Poly1305
	# needs; charon is started by hand, its log in /tmp/charon.log.
	swanctl {
		load = random openssl
	}
	charon {
		load = random nonce openssl sha2 hmac kdf kernel-netlink socket-default vici
		install_routes = no
		install_virtual_ip = no
		# Rekey with the new SAs in before the old go: without, a
		# packet in the gap finds no outbound SA (XfrmOutNoStates, and
		# a larval acquire state left behind; once in a 7.3 run).
		make_before_break = yes
		plugins {
			openssl {
				load_legacy = no
			}
		}
		filelog {
			charon {
				path = /tmp/charon.log
				time_format = %s
				default = 1
				knl = 1
				flush_line = yes
			}
		}
	}
	EOF
}
[ -z "$ike" ] || stage_strongswan

# run.sh --load: the vector register checker (x86-64 only) and the
# guests' loops.
if [ -n "$load" ]; then
	stage_tool "$stage" "$KARCH" ymm-check "$here" ||
		die "ymm-check does not build"
	stage_tool "$stage" "$KARCH" ping-sweep "$here" ||
		die "ping-sweep does not build"
	cp "$here/guest-load.sh" "$stage/bin/guest-load.sh"
	chmod 755 "$stage/bin/guest-load.sh"
fi

cp "$here/guest-init.sh" "$stage/init"
cp "$top_dir/tools/lib-posix.sh" "$stage/bin/"
chmod 755 "$stage/init"

pack_initramfs "$stage" "$cache/ipsec-initramfs" "$KVER-$role$ike$load" 3
