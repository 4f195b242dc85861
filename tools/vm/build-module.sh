#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh 6.1|6.12|7.3|7.3-gcc|6.1-rt|6.12-rt[-arm64]
#
# Build chacha20_simd.ko with W=1 against that Debian kernel's headers and
# print the path of the .ko; fail on any compiler or objtool warning.
# arm64 kernels: cross-built with ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-.
# Clang kernels (7.3): built with the kernel's LLVM= (clang-19, lld-19).
# 7.3-gcc is a tree prepared for module builds only, without the kernel's
# Module.symvers: modpost cannot resolve the module's imports there and
# is told to warn (KBUILD_MODPOST_WARN); the compiler's and objtool's
# warnings still fail the build, and the clang 7.3 build resolves them.
# CHACHA_CLEAN=1 rebuilds from scratch, so that every warning shows.
# CHACHA_KCFLAGS=... is passed as KCFLAGS (after the kernel's own flags),
# in a build directory of its own named by CHACHA_BUILD_TAG.  The sources (git ls-files of the tree, or of
# $CHACHA_SRC) are copied to a per-kernel build directory in the cache so
# that builds for different kernels never share objects.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

load_kernel "${1:?usage: $0 6.1|6.12|7.3|7.3-gcc|6.1-rt|6.12-rt[-arm64]}"
kmake=(make -C "$HEADERS")
# noise: what a prepared tree's modpost prints about Module.symvers and
# every import.
noise='^$'
if [ ! -e "$HEADERS/Module.symvers" ]; then
	kmake+=(KBUILD_MODPOST_WARN=1)
	noise='^WARNING: (modpost: .*(undefined!|unresolved symbol warnings)|.*/Module.symvers is missing)|^ +You (may|can) '
fi
[ -z "$KLLVM" ] || kmake+=(LLVM="$KLLVM")
[ "$KARCH" = amd64 ] ||
	kmake+=(ARCH="$KARCH" CROSS_COMPILE="${CHACHA_CROSS:-aarch64-linux-gnu-}")
src=${CHACHA_SRC:-$top_dir}
[ -z "${CHACHA_KCFLAGS:-}" ] || kmake+=(KCFLAGS="$CHACHA_KCFLAGS")
# 7.3's release (7.3.4) names no architecture: keep its x86-64 and arm64
# builds apart.
case $KVER in
*-"$KARCH") bdir=$cache/build-$KVER ;;
*) bdir=$cache/build-$KVER-$KARCH ;;
esac
bdir+=${CHACHA_BUILD_TAG:+-$CHACHA_BUILD_TAG}
mkdir -p "$bdir"
exec 9>"$bdir.lock"
flock 9		# one build per kernel at a time

copy_sources "$src" "$bdir"

log "building against $KVER in $bdir"
[ -z "${CHACHA_CLEAN:-}" ] || "${kmake[@]}" M="$bdir" clean >/dev/null
rc=0
"${kmake[@]}" M="$bdir" W=1 modules >"$bdir/build.log" 2>&1 || rc=$?
grep -Ev "$noise" "$bdir/build.log" >&2 || true
[ $rc -eq 0 ] || die "the build against $KVER failed"
if grep -q 'warning:' "$bdir/build.log"; then
	die "warnings building against $KVER (W=1): see above"
fi
ko=$bdir/chacha20_simd.ko
[ -f "$ko" ] || die "no $ko after the build"
echo "$ko"
