#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh: print the path of a bochs binary that emulates AVX-512 well
# enough for Linux: Bochs 3.0 built from Debian trixie's source package
# (tools/debfetch.sh -s trixie source bochs; its .dsc is missing on the
# mirror, so debfetch unpacks the tarballs).  Debian 12's bochs 2.7 will
# not do: its AVX-512 models report an all-zero CPUID 0xD sub-leaf for
# PKRU, and Linux turns XSAVE off.  Built once (about ten minutes on two
# cores) into ${CHACHA_CACHE:-~/.cache/chacha20-simd}/bochs-<hash>/, keyed
# by the source version and the configure options below.
#
# The BIOS images come from Debian 12's bochsbios and vgabios packages,
# copied beside the binary (share/BIOS-bochs-latest,
# share/VGABIOS-lgpl-latest).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib.sh
. "$top/tools/lib.sh"

# No GUI, no debugger, no plugins: one static binary.  --enable-idle-hack
# refuses nogui.  AMX is built in: the Sapphire Rapids model needs it.
opts=(--enable-x86-64 --enable-cpu-level=6 --enable-avx --enable-evex
      --enable-amx --enable-cet --enable-protection-keys
      --enable-all-optimizations --enable-repeat-speedups --with-nogui
      --without-x11 --without-sdl2 --without-term --enable-pci
      --disable-debugger --disable-plugins --enable-cdrom)

# One build at a time: make check's lanes may ask for it together.
exec 9>"$cache/bochs.lock"
flock 9
src=$("$debfetch" -s trixie source bochs | tail -n 1)
[ -f "$src/configure" ] || die "no bochs source in $src"
key=$(printf '%s\n' "$(basename "$src")" "${opts[@]}" | sha256sum | cut -c1-12)
out=$cache/bochs-$key
if [ ! -e "$out/.done" ]; then
	log "building $(basename "$src") into $out (about ten minutes)"
	rm -rf "$out"
	mkdir -p "$out/share"
	cp -a "$src" "$out/build"
	(cd "$out/build" && ./configure "${opts[@]}" >"$out/configure.log" 2>&1) || {
		tail -n 20 "$out/configure.log" >&2
		die "bochs: configure failed ($out/configure.log)"
	}
	make -C "$out/build" -j"$(nproc)" bochs >"$out/build.log" 2>&1 || {
		tail -n 20 "$out/build.log" >&2
		die "bochs: build failed ($out/build.log)"
	}
	d=$("$debfetch" get bochsbios)
	cp "$d/usr/share/bochs/BIOS-bochs-latest" "$out/share/"
	# Debian's bochs links VGABIOS-lgpl-latest to vgabios's vgabios.bin.
	d=$("$debfetch" get vgabios)
	cp "$d/usr/share/vgabios/vgabios.bin" "$out/share/VGABIOS-lgpl-latest"
	touch "$out/.done"
fi
echo "$out/build/bochs"
