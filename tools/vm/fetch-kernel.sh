#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh 6.1|6.12|7.3|7.3-net|7.3-gcc|6.1-rt|6.12-rt[-arm64]|6.12-be-arm64
#
# Download Debian's newest kernel of that series (image, headers, kbuild),
# unpack it into one root under the cache, point the packages' absolute
# symlinks into that root, and print the directory.  Its kernel.env sets
# KVER, VMLINUZ, HEADERS (for make -C) and KROOT (holds lib/modules/KVER).
#   6.1  -> bookworm's linux-image-6.1.0-N-amd64-unsigned
#   6.12 -> bookworm-backports' linux-image-6.12.X+deb12-amd64-unsigned
#   -rt: the PREEMPT_RT flavour of the same series
#   (linux-image-6.1.0-N-rt-amd64-unsigned, ...), whose headers need
#   linux-headers-*-common-rt instead of -common
#   -arm64: the same for arm64, with the amd64 linux-kbuild of the same
#   version (its scripts run on this host; the module is cross-built)
#   7.3  -> built here from trixie-backports' linux-source-7.3 with
#           clang-19 as a kCFI kernel (tools/kernel/build.sh -k 7.3:
#           test7*.config, the kernel the KUnit runs and the Bochs rows
#           use too; Debian 13's own kernel packages need a newer glibc
#           for their kbuild tools), its modules installed into a root
#           beside the build; its kernel.env adds KLLVM (LLVM=-19), which
#           build-module.sh passes on; 7.3-arm64 likewise
#   7.3-net -> 7.3 with the consumer tests' options (build.sh -k 7.3-net,
#           release 7.3.4-cfi-net): IPsec on 7.3, on request
#   7.3-gcc -> the same configuration with gcc, configured and prepared
#           for module builds only (build.sh -m: no image, no
#           Module.symvers): the gcc W=1 build against 7.3
#   6.12-be-arm64 -> linux-source-6.12 with gcc as a big-endian arm64
#           kernel (tools/kernel/be-arm64.config), prepared for module
#           builds only, likewise: Debian has no big-endian arm64 kernel
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

series=${1:-}
arch=$(kernel_arch "$series")
base=${series%-arm64}
# -rt: Debian's PREEMPT_RT featureset; its flavour is rt-ARCH, and its
# headers share linux-headers-ABI-common-rt rather than -common.
rt=
[ "${base%-rt}" = "$base" ] || { rt=-rt; base=${base%-rt}; }
flavour=${rt:+rt-}$arch
# The one table of Debian's series: the release (KVER) as a regular
# expression, the image being linux-image-KVER-unsigned; and the package of
# the kbuild scripts (empty: linux-kbuild-ABI, ABI being KVER without its
# flavour).
case $base in
6.12-be)
	[ "$arch" = arm64 ] || die "6.12-be is arm64's only"
	kb=$("$top_dir/tools/kernel/build.sh" -m -k 6.12 \
		-f "$top_dir/tools/kernel/be-arm64.config" arm64) ||
		die "cannot build linux-source-6.12 big-endian"
	# shellcheck source=/dev/null
	. "$kb/kernel.env"
	mkdir -p "$kb/headers"
	cat >"$kb/headers/kernel.env" <<EOT
KVER=$KRELEASE
HEADERS=$KBUILD
KLLVM=
EOT
	echo "$kb/headers"
	exit 0
	;;
6.1) kpat="6\.1\.0-[0-9]+-$flavour" kbuild=linux-kbuild-6.1 ;;
6.12) kpat="6\.12\.[0-9]+\+deb12-$flavour" kbuild= ;;
7.*)
	[ -z "$rt" ] || die "no $series: 7.x is built here without PREEMPT_RT"
	karch=x86_64
	[ "$arch" = amd64 ] || karch=arm64
	prep=
	[ "${base%-gcc}" = "$base" ] || prep=-m
	kb=$("$top_dir/tools/kernel/build.sh" $prep -k "$base" \
		"$karch") || die "cannot build linux-source-$base"
	# shellcheck source=/dev/null
	. "$kb/kernel.env"
	if [ -n "$prep" ]; then
		# Headers only: what build-module.sh needs.
		mkdir -p "$kb/headers"
		cat >"$kb/headers/kernel.env" <<EOT
KVER=$KRELEASE
HEADERS=$KBUILD
KLLVM=${KLLVM:-}
EOT
		echo "$kb/headers"
		exit 0
	fi
	dir=$kb/vm
	if [ ! -e "$dir/.done" ]; then
		rm -rf "$dir"
		mkdir -p "$dir/root"
		make -s -C "$KSRC" O="$KBUILD" ARCH="$KARCH" \
			CROSS_COMPILE="$KCROSS" ${KLLVM:+LLVM="$KLLVM"} \
			INSTALL_MOD_PATH="$dir/root" modules_install >&2
		cat >"$dir/kernel.env" <<EOT
KVER=$KRELEASE
KROOT=$dir/root
VMLINUZ=$KIMAGE
HEADERS=$KBUILD
KLLVM=${KLLVM:-}
EOT
		touch "$dir/.done"
	fi
	echo "$dir"
	exit 0
	;;
*) die "usage: $0 6.1|6.12|7.3|7.3-net|7.3-gcc[-arm64], 6.1-rt|6.12-rt[-arm64], 6.12-be-arm64" ;;
esac

image=$("$debfetch" -a "$arch" newest "linux-image-$kpat-unsigned") ||
	image=
if [ -z "$image" ]; then
	# Offline: fall back to the newest kernel already set up.
	kver=$(find "$cache" -maxdepth 2 -path "$cache/kernel-*/.done" |
		sed 's|.*/kernel-\(.*\)/\.done$|\1|' | grep -E "^$kpat\$" |
		sort -V | tail -n 1) || true
	[ -n "$kver" ] || die "no $series kernel found"
	echo "$cache/kernel-$kver"
	exit 0
fi
kver=${image#linux-image-}
kver=${kver%-unsigned}
abi=${kver%-"$flavour"}
kbuild=${kbuild:-linux-kbuild-$abi}

dir=$cache/kernel-$kver
root=$dir/root
if [ ! -e "$dir/.done" ]; then
	log "setting up $kver"
	pkgs=$("$debfetch" -a "$arch" get "$image" "linux-headers-$kver" \
		"linux-headers-$abi-common$rt")
	pkgs+=" $("$debfetch" get "$kbuild")"	# host (amd64) scripts
	rm -rf "$dir"
	mkdir -p "$root"
	for p in $pkgs; do
		cp -al "$p/." "$root/"	# hard links: cheap
	done
	rm -f "$root/.done"

	# Absolute symlinks (lib/modules/KVER/build, ...) -> into the root.
	find "$root" -type l -lname '/*' | while read -r l; do
		t=$(readlink "$l")
		ln -sfn "$(realpath -ms --relative-to="$(dirname "$l")" \
			"$root$t")" "$l"
	done
	# The arch headers' Makefile includes the common one by absolute path
	# (sed -i writes a new file, so the hard-linked original is kept).
	sed -i "s|^include /usr/src/|include $root/usr/src/|" \
		"$root/usr/src/linux-headers-$kver/Makefile"
	# The modules index lets mkinitramfs.sh resolve dependencies.
	depmod -b "$root" "$kver"

	cat >"$dir/kernel.env" <<EOT
KVER=$kver
KROOT=$root
VMLINUZ=$root/boot/vmlinuz-$kver
HEADERS=$root/usr/src/linux-headers-$kver
EOT
	touch "$dir/.done"
fi
echo "$dir"
