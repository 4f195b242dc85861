#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-check.sh [DEB]  (default: ./chacha20-simd-dkms_<version>_all.deb, from
# make deb)
#
# The Debian package installed the way a user installs it, in a throwaway
# Debian 12 root (chroot) that has DKMS and the headers of Debian's 6.1 and
# of the 6.12 from bookworm-backports:
#   apt install ./DEB   DKMS builds and installs the module for both kernels,
#                       and /etc/modules-load.d/chacha20-simd.conf names it
#   dkms status         lists both, installed
#   modinfo             each built .ko: the package's version, the crypto
#                       aliases, the kernel's vermagic; depmod indexed it
#   apt remove          the modules and DKMS's record of them are gone
#   apt purge           nothing of the package is left under /usr/src or
#                       /var/lib/dkms (compared with before the install),
#                       and the modules-load.d file is gone
# Then Debian's 6.1 boots under QEMU with the .ko that DKMS built there
# (tools/vm/run.sh --ko): check 1 asks the kernel for chacha20 and the
# module must load by its alias crypto-chacha20; then the ciphers and the
# AEADs against the kernel's and a clean dmesg (compare, aead, dmesg).
# The 6.1-max row runs the other checks on the same source and kernel.
# CHACHA_DEB_VM=0 skips the VM.
#
# The root is a copy of the bare Debian 12 root (tools/deb-root.sh:
# debootstrap minbase, made once) plus dkms and the headers packages (from
# the cache, tools/debfetch.sh), kept in $CHACHA_CACHE/deb-root-<hash of
# what went in>; each run works in an overlay on it (or a copy), which is
# thrown away at the end.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=deb-root.sh
. "$(dirname "$0")/deb-root.sh"

deb=${1:-$top_dir/chacha20-simd-dkms_$(sh "$top_dir/tools/version.sh")_all.deb}
[ -f "$deb" ] || die "no $deb (make deb builds it)"
deb=$(realpath "$deb")
ver=$(dpkg-deb -f "$deb" Version)
name=chacha20-simd
t0=$(now)

fails=0 passes=0
pass() { echo "PASS $*"; passes=$((passes + 1)); }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# The .deb files of a package from the project's apt cache (debfetch get
# downloads it if needed; it prints <cache>/x/<pkg>_<version>).
deb_of() {
	local d v
	d=$("$debfetch" get "$1") || die "cannot fetch $1"
	v=${d##*/"$1"_}
	v=${v//%/:}
	ls "$cache/apt-amd64/debs/$1_${v#*:}_"*.deb
}

# The kernels: headers (+ common, kbuild); 6.12's headers also depend on
# its image.
load_kernel 6.1
k61=$KVER
load_kernel 6.12
k612=$KVER
kernels="$k61 $k612"
debs=()
for k in $kernels; do
	abi=${k%-amd64}
	debs+=("$(deb_of "linux-headers-$k")" "$(deb_of "linux-headers-$abi-common")")
done
debs+=("$(deb_of linux-kbuild-6.1)" "$(deb_of "linux-kbuild-${k612%-amd64}")"
	"$(deb_of "linux-image-$k612-unsigned")")

# The base root, made once for this recipe and these packages.
deb_root_min
recipe="deb-check root 3: ${deb_min##*/}, dkms openssl, $(printf '%s ' "${debs[@]##*/}")"
base=$cache/deb-root-$(printf '%s' "$recipe" | sha256sum | cut -c1-12)
run=$cache/deb-check-run
logs=$cache/runs/deb-check	# apt's output of each step, kept
trap deb_root_cleanup EXIT

if [ ! -e "$base/.done" ]; then
	log "making the Debian 12 root $base (once; from ${deb_min##*/})"
	deb_root_trash+=("$base.new")
	deb_root_copy "$deb_min" "$base.new"
	mkdir -p "$base.new/tmp/debs"
	cp "${debs[@]}" "$base.new/tmp/debs/"
	cp /etc/resolv.conf "$base.new/etc/resolv.conf"
	chroot_mounts "$base.new"
	# dkms, gcc and make, openssl (DKMS signs modules with it, as on
	# most machines); the kernel packages from the cache, their
	# other dependencies (gcc-12, pahole, initramfs-tools, ...) from
	# bookworm.
	if ! chroot "$base.new" sh -ec 'export DEBIAN_FRONTEND=noninteractive
		apt-get update -q
		apt-get install -y -q --no-install-recommends dkms gcc make kmod \
			openssl /tmp/debs/*.deb
		apt-get clean
		rm -rf /tmp/debs /var/lib/apt/lists/*_Packages' \
		>"$cache/deb-root.log" 2>&1; then
		tail -n 20 "$cache/deb-root.log" >&2
		die "setting up the root failed (log: $cache/deb-root.log)"
	fi
	umount_all
	for d in "$cache"/deb-root-*; do	# roots of older recipes
		[ "$d" = "$base.new" ] || rm -rf --one-file-system "$d"
	done
	mv "$base.new" "$base"
	touch "$base/.done"
	log "root ready ($(du -sh "$base" | cut -f1), $(($(now) - t0)) s)"
fi

# This run's root: an overlay on the base (a copy where overlays fail).
deb_root_overlay "$base" "$run"
chroot_mounts "$root"
in_root() { chroot "$root" "$@"; }
cp "$deb" "$root/tmp/"
chmod 644 "$root/tmp/${deb##*/}"

# What /usr/src and /var/lib/dkms hold before the package (DKMS's own
# signing key is made at the first signed build, and stays).
snapshot() {
	(cd "$root" && find usr/src var/lib/dkms -maxdepth 3 | sort)
}
rm -rf "$logs"
mkdir -p "$logs"
snapshot >"$logs/before"

echo "deb-check: apt install ./${deb##*/} (kernels: $kernels)"
if in_root sh -c "cd /tmp && DEBIAN_FRONTEND=noninteractive apt install -y ./${deb##*/}" \
	>"$logs/install.log" 2>&1; then
	pass "apt install ./${deb##*/}"
else
	fail "apt install ./${deb##*/}"
fi
grep -E "^(Setting up|Loading new|Building |Running module|Installing|Done|Error|.*FAIL)" \
	"$logs/install.log" | sed 's/^/  /' || true

conf=etc/modules-load.d/chacha20-simd.conf
if grep -qx chacha20_simd "$root/$conf" 2>/dev/null; then
	pass "/$conf installed: the module loads at boot"
else
	fail "no /$conf naming chacha20_simd"
fi

echo "deb-check: dkms status"
status=$(in_root dkms status 2>"$logs/status.err")
sed 's/^/  /' <<<"$status"
for k in $kernels; do
	if grep -q "^$name/$ver, $k, x86_64: installed" <<<"$status"; then
		pass "dkms status: $name/$ver, $k: installed"
	else
		fail "dkms status: $name/$ver not installed for $k"
	fi
done

# modinfo of each built module; the 6.1 one (uncompressed) kept for the VM.
ko61=$run/chacha20_simd-$k61.ko
for k in $kernels; do
	ko=$(cd "$root" && ls lib/modules/"$k"/updates/dkms/chacha20_simd.ko* 2>/dev/null | head -n 1)
	if [ -z "$ko" ]; then
		fail "$k: no chacha20_simd.ko* in /lib/modules/$k/updates/dkms"
		continue
	fi
	info=$(in_root modinfo "/$ko" 2>&1)
	echo "deb-check: modinfo /$ko"
	grep -E '^(filename|version|vermagic|signer):|^alias: +crypto-x?chacha(20|12)$' \
		<<<"$info" | sed 's/^/  /' || true
	missing=''
	grep -qx "version: *$ver" <<<"$info" || missing+=" version=$ver"
	for a in chacha20 xchacha20 xchacha12; do
		grep -qx "alias: *crypto-$a" <<<"$info" || missing+=" crypto-$a"
	done
	grep -q "^vermagic: *$k " <<<"$info" || missing+=" vermagic=$k"
	grep -q '^alias crypto-chacha20 chacha20_simd$' \
		"$root/lib/modules/$k/modules.alias" 2>/dev/null ||
		missing+=" modules.alias"
	if [ -z "$missing" ]; then
		pass "$k: /$ko, version $ver, aliases crypto-{chacha20,xchacha20,xchacha12}, in modules.alias"
	else
		fail "$k: /$ko lacks$missing"
	fi
	if [ "$k" = "$k61" ]; then
		case $ko in
		*.xz) xz -dc "$root/$ko" >"$ko61" ;;
		*.zst) zstd -qdc "$root/$ko" >"$ko61" ;;
		*) cp "$root/$ko" "$ko61" ;;
		esac
	fi
done

echo "deb-check: apt remove $name-dkms"
if in_root env DEBIAN_FRONTEND=noninteractive apt remove -y "$name-dkms" \
	>"$logs/remove.log" 2>&1; then
	pass "apt remove $name-dkms"
else
	fail "apt remove $name-dkms"
fi
grep -E "^(Removing|Deleting|Module |Running depmod|Error)" "$logs/remove.log" |
	sed 's/^/  /' || true
left=$(cd "$root" && ls lib/modules/*/updates/dkms/chacha20_simd.ko* 2>/dev/null || true)
left+=$(grep -l chacha20_simd "$root"/lib/modules/*/modules.alias 2>/dev/null || true)
left+=$(in_root dkms status -m "$name" 2>&1)
if [ -z "$left" ]; then
	pass "apt remove: no module under /lib/modules/*/updates/dkms, none in modules.alias, none in dkms status"
else
	fail "apt remove left: $left"
fi

# apt remove leaves the conffile /etc/modules-load.d/chacha20-simd.conf
# (dpkg's state "rc"); install the package again and purge it this time.
pkg=$(in_root dpkg-query -W -f='${db:Status-Abbrev}' "$name-dkms" 2>/dev/null || true)
known="nothing of $name-dkms"
[ -z "${pkg// /}" ] || known="$name-dkms as '${pkg%% *}' (its conffile kept)"
echo "deb-check: after apt remove, dpkg knows $known;" \
	"apt install ./${deb##*/} again, then apt purge"
if in_root sh -c "cd /tmp && DEBIAN_FRONTEND=noninteractive apt install -y ./${deb##*/}" \
	>"$logs/install2.log" 2>&1 &&
	[ "$(in_root dkms status -m "$name" 2>/dev/null | grep -c ': installed$')" -eq 2 ]; then
	pass "apt install ./${deb##*/} again: installed for both kernels"
else
	fail "apt install ./${deb##*/} again"
fi
echo "deb-check: apt purge $name-dkms"
if in_root env DEBIAN_FRONTEND=noninteractive apt purge -y "$name-dkms" \
	>"$logs/purge.log" 2>&1; then
	pass "apt purge $name-dkms"
else
	fail "apt purge $name-dkms"
fi
grep -E "^(Purging|Removing|Deleting|Module )" "$logs/purge.log" | sed 's/^/  /' || true
snapshot >"$logs/after"
# DKMS's own signing key, made at its first signed build, stays: it
# belongs to dkms, which signs every later module with it.
new=$(comm -13 "$logs/before" "$logs/after" | grep -Ev '^var/lib/dkms/mok\.(key|pub)$' || true)
gone=$(comm -23 "$logs/before" "$logs/after")
pkg=$(in_root dpkg-query -W -f='${db:Status-Abbrev}' "$name-dkms" 2>/dev/null || true)
if [ -z "$new$gone" ] && [ -z "$(find "$root/usr/src" "$root/var/lib/dkms" -name "$name*")" ] &&
	[ -z "${pkg// /}" ] && [ ! -e "$root/$conf" ]; then
	kept=$(comm -13 "$logs/before" "$logs/after" | tr '\n' ' ')
	pass "apt purge: /usr/src and /var/lib/dkms as before the install," \
		"/$conf gone" \
		"${kept:+(new: ${kept% }, the signing key of DKMS)}"
	echo "  /usr/src: $(ls "$root/usr/src" | tr '\n' ' ')"
	echo "  /var/lib/dkms: $(ls "$root/var/lib/dkms" | tr '\n' ' ')"
else
	fail "apt purge left: ${new:-} ${gone:+(and removed: $gone)} ${pkg:+dpkg: $pkg}" \
		"$([ ! -e "$root/$conf" ] || echo "/$conf")"
fi
t1=$(now)
umount_all

# The module DKMS built, booted in Debian's 6.1: loads on request by alias.
deb_checks=$(check_numbers load,compare,aead,dmesg)
if [ "${CHACHA_DEB_VM:-1}" != 0 ]; then
	if [ -f "$ko61" ]; then
		echo "deb-check: booting $k61 under QEMU with the package's module"
		if bash "$vm_dir/run.sh" --kernel 6.1 --cpu max --expect avx2 \
			--checks "$deb_checks" --ko "$ko61" &&
			grep -q 'loaded on request_module(crypto-chacha20)' \
				"$cache/runs/6.1-max-avx2-ko/console.log"; then
			echo "  guest, check 1: $(tr -d '\r' <"$cache/runs/6.1-max-avx2-ko/console.log" |
				grep -m 1 'loaded on request_module(crypto-chacha20)' | sed 's/^ *//')"
			pass "VM $k61: the package's module loaded by alias crypto-chacha20, checks $deb_checks passed"
		else
			fail "VM $k61 with the package's module (log: $cache/runs/6.1-max-avx2-ko/)"
		fi
	else
		fail "VM: no module from the package to boot with"
	fi
fi

echo "deb-check: $passes passed, $fails failed (chroot $((t1 - t0)) s," \
	"VM $(($(now) - t1)) s)"
[ $fails -eq 0 ] && echo "deb-check: PASS ($name-dkms $ver)"
[ $fails -eq 0 ]
