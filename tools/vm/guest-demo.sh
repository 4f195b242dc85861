#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# guest-demo.sh - run inside the VM by /init for tools/vm/demo.sh: show the
# module, its /proc/crypto entries, what it encrypts (AF_ALG, dm-crypt, a
# LUKS2 volume made by cryptsetup), and tcrypt.

# crypto_table, crypto_refcnt: the /proc/crypto reader
# shellcheck source=../lib-posix.sh
. /bin/lib-posix.sh

# Busybox's sh runs its own applets first: use kmod's module tools instead.
for t in modprobe modinfo insmod rmmod lsmod; do
	eval "$t() { /sbin/$t \"\$@\"; }"
done

SFX=${chk_expect:-avx2}-oot
DRV=chacha20-$SFX

title() {
	printf '\n===== %s\n' "$*"
}

# RFC 8439 section 2.4.2: key, nonce (kernel IV: counter 1 first), message
KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=01000000000000000000004a00000000
MSG="Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."

title "CPU flags (QEMU -cpu): $(grep -m1 '^flags' /proc/cpuinfo |
	grep -o -w -E 'sse2|ssse3|avx2' | tr '\n' ' ')"
title "modinfo chacha20_simd (aliases: crypto-NAME and NAME for each)"
modinfo chacha20_simd | grep -v '^alias:'
modprobe chacha20_simd
modprobe chacha_generic
modprobe chacha-x86_64 2>/dev/null
dmesg | grep chacha20_simd

title "/proc/crypto entries of module chacha20_simd"
awk -v RS= '/\nmodule *: chacha20_simd\n/ { print $0 "\n" }' /proc/crypto

title "chacha20 drivers by priority (the crypto API picks the highest)"
crypto_table | awk '$1 == "chacha20" { print $4, $2 }' | sort -rn

title "RFC 8439 2.4.2 message encrypted by $DRV through AF_ALG"
echo "$MSG"
if echo | afalg-check encrypt "$DRV" "$KEY" "$IV" >/dev/null 2>&1; then
	printf '%s' "$MSG" | afalg-check encrypt "$DRV" "$KEY" "$IV" >/tmp/ct
	xxd /tmp/ct
	echo "(RFC 8439 2.4.2 expects 6e 2e 35 9a 25 68 f9 80 41 ba 07 28 ...)"
	echo "decrypted by chacha20-generic:"
	afalg-check encrypt chacha20-generic "$KEY" "$IV" </tmp/ct
	echo
else
	echo "(afalg-check has no 'encrypt' subcommand yet)"
fi

title "RFC 8439 A.1 test vector 1 through dm-crypt (capi:chacha20-plain64)"
# All-zero key; sector 0 gives an all-zero IV: zeros in, key stream out.
modprobe brd rd_nr=2 rd_size=32768	# ram1: LUKS2 below
modprobe dm-crypt
DM_DISABLE_UDEV=1 dmsetup create demo --table \
	"0 2048 crypt capi:chacha20-plain64 $(printf '%064d' 0) 0 /dev/ram0 0"
dd if=/dev/zero of=/dev/mapper/demo bs=512 count=1 conv=fsync 2>/dev/null
echo "dm-crypt holds $DRV (refcnt $(crypto_refcnt "$DRV"))"
echo "sector 0 on the RAM disk:"
dd if=/dev/ram0 bs=64 count=1 2>/dev/null | xxd
echo "(RFC 8439 A.1 #1 key stream: 76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 ...)"
DM_DISABLE_UDEV=1 dmsetup remove demo

title "LUKS2 volume with cryptsetup: xchacha12,aes-adiantum-plain64 (Adiantum)"
# What dm-crypt users run; PBKDF2 at its minimum cost, as Argon2 takes
# minutes under QEMU's emulation.
cs() {
	DM_DISABLE_UDEV=1 /sbin/cryptsetup "$@"
}
adiantum_drivers() {
	crypto_table |
		awk '$2 ~ /^adiantum\(/ { print "    " $2 " refcnt " $6 }'
}
mkdir -p /run/cryptsetup
head -c 64 /dev/urandom >/tmp/luks.key
SECRET="Attack at dawn. (Written by xchacha12-$SFX, read back by xchacha12-generic.)"
echo "$ cryptsetup luksFormat --type luks2 -c xchacha12,aes-adiantum-plain64 -s 256 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 /dev/ram1"
cs luksFormat --type luks2 -c xchacha12,aes-adiantum-plain64 -s 256 \
	--pbkdf pbkdf2 --pbkdf-force-iterations 1000 --batch-mode \
	--key-file /tmp/luks.key /dev/ram1
cs open --key-file /tmp/luks.key /dev/ram1 secret
echo "$ dmsetup table secret"
DM_DISABLE_UDEV=1 dmsetup table secret | sed 's/:32:logon:[^ ]*/<key in keyring>/'
echo "Adiantum instances in /proc/crypto (the open volume holds a reference):"
adiantum_drivers
printf '%s\n' "$SECRET" | dd of=/dev/mapper/secret bs=4096 conv=sync,fsync 2>/dev/null
cs close secret
echo "on the RAM disk, after LUKS2's 16 MiB header: ciphertext"
dd if=/dev/ram1 bs=4096 skip=4096 count=1 2>/dev/null | xxd | head -n 2
echo "$ modprobe -r chacha20_simd chacha-x86_64; cryptsetup open ..."
modprobe -r chacha20_simd
modprobe -r chacha-x86_64 2>/dev/null
cs open --key-file /tmp/luks.key /dev/ram1 secret
echo "read back through xchacha12-generic:"
head -n 1 /dev/mapper/secret
adiantum_drivers
cs close secret
modprobe chacha20_simd
modprobe chacha-x86_64 2>/dev/null
echo "$ cryptsetup benchmark -c xchacha12,aes-adiantum-plain64 -s 256  (emulated CPU: not a speed test)"
cs benchmark -c xchacha12,aes-adiantum-plain64 -s 256 | tail -n 1
adiantum_drivers | grep -- "-$SFX"

title "tcrypt mode=214 sec=1 -- emulated CPU (QEMU TCG): NOT a speed test"
n=$(dmesg | wc -l)
modprobe tcrypt mode=214 sec=1 2>/dev/null
dmesg | tail -n +$((n + 1)) | sed 's/^\[[ 0-9.]*\] //'
echo "(tcrypt exits with EAGAIN by design after printing its table)"
title "end of demo"
