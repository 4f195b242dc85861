#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh [options] x86_64|arm64
#
# Build a minimal kernel from a Debian linux-source-X.Y package: tinyconfig
# plus config fragments, cached.  Prints the build directory (usable as
# KDIR for M= module builds); its kernel.env names the image, the source,
# ARCH, CROSS_COMPILE and CC to build modules with.
#   -k 7.3|7.3-net|7.3-gcc|7.3-rt|6.12	the test kernel of that series
#		(default 7.3):
#		7.3: linux-source-7.3 (trixie-backports), test7.config +
#		test7-ARCH.config + test7-cfi.config + test7-cfi-ARCH.config,
#		built with clang-19 and lld-19 (LLVM=-19) as a kCFI kernel
#		(IBT and FineIBT on x86-64; PAC, BTI and the shadow call
#		stack on arm64), release 7.3.4-cfi: make check's VM checks,
#		KUnit and Bochs rows;
#		on x86-64 also test7-consumers.config (IPv4 with ESP, a
#		virtio NIC, ext4 with fscrypt, dm-integrity: make check's
#		IPsec rows and consumer checks);
#		7.3-net: on x86-64 the same kernel as 7.3; on arm64 7.3 +
#		test7-consumers.config + test7-consumers-arm64.config,
#		release 7.3.4-cfi-net, for IPsec on arm64's 7.3 on request;
#		7.3-gcc: test7.config + test7-ARCH.config with gcc, release
#		7.3.4 (make check: -m, for the gcc W=1 module build);
#		7.3-rt: 7.3-gcc + test7-rt.config (PREEMPT_RT), for KUnit
#		on request (not in make check);
#		6.12: linux-source-6.12 (bookworm-backports), debug.config +
#		debug-ARCH.config, for KUnit on 6.12 (not in make check)
#   -m		configure and make modules_prepare only: a tree to build
#		modules against (no Module.symvers, no image), in minutes
#   -p PKG	another source package
#   -s SUITES	Debian suites to look PKG up in (passed to debfetch.sh -s)
#   -S DIR	use this unpacked kernel tree instead of a package
#   -f FILE	config fragment (replaces the preset's; repeatable)
#
# The build directory is keyed by a hash of (source version, arch,
# fragments, compiler), so a rerun with nothing changed skips the build,
# and objects go through ccache in $CHACHA_CACHE/ccache.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${CHACHA_CACHE:-$HOME/.cache/chacha20-simd}
series=7.3 pkg='' suites='' srcdir='' frags=() prepare='' localversion=''
while getopts "k:p:s:S:f:m" o; do
	case $o in
	k) series=$OPTARG ;;
	m) prepare=1 ;;
	p) pkg=$OPTARG ;;
	s) suites=$OPTARG ;;
	S) srcdir=$OPTARG ;;
	f) frags+=("$OPTARG") ;;
	*) sed -n '4,/^[^#]/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
arch=${1:?usage: $0 [-k 7.3|7.3-net|7.3-gcc|7.3-rt|6.12] [-m] [-p PKG] [-s SUITES] [-S DIR] [-f FRAG] x86_64|arm64}
log() { echo "${0##*/}: $*" >&2; }

case $arch in
x86_64) cross='' image=arch/x86/boot/bzImage ;;
arm64) cross=aarch64-linux-gnu- image=arch/arm64/boot/Image ;;
*) log "unknown arch $arch"; exit 2 ;;
esac
# llvm: the LLVM= of the build (a clang kernel), empty for gcc.
llvm=''
case $series in
7.*)
	base=${series%-rt}
	base=${base%-gcc}
	base=${base%-net}
	: "${pkg:=linux-source-$base}" "${suites:=trixie trixie-backports}"
	preset=("$here/test7.config" "$here/test7-$arch.config")
	case $series in
	*-rt) preset+=("$here/test7-rt.config") ;;
	*-gcc) ;;
	*)
		preset+=("$here/test7-cfi.config" "$here/test7-cfi-$arch.config")
		llvm=${CHACHA_LLVM:--19}
		;;
	esac
	# The consumer options: always in x86-64's clang kernel, where make
	# check runs IPsec and checks 12 and 13 on 7.3 (7.3-net is then the
	# same build, release 7.3.4-cfi); on arm64 only in 7.3-net, a kernel
	# of its own (release 7.3.4-cfi-net).
	case $arch-$series in
	x86_64-"$base" | x86_64-"$base"-net)
		preset+=("$here/test7-consumers.config")
		;;
	*-"$base"-net)
		preset+=("$here/test7-consumers.config")
		[ ! -e "$here/test7-consumers-$arch.config" ] ||
			preset+=("$here/test7-consumers-$arch.config")
		localversion=-net
		;;
	esac
	;;
6.12)
	: "${pkg:=linux-source-6.12}"
	preset=("$here/debug.config" "$here/debug-$arch.config")
	;;
*) log "unknown series $series"; exit 2 ;;
esac
[ ${#frags[@]} -gt 0 ] || frags=("${preset[@]}")

# The source tree: the package's tarball, unpacked once per version.
if [ -z "$srcdir" ]; then
	deb=$("$here/../debfetch.sh" ${suites:+-s "$suites"} get "$pkg")
	version=$(basename "$deb")
	srcdir=$cache/kernel-src/$version
	if [ ! -e "$srcdir/.done" ]; then
		log "unpacking $version"
		rm -rf "$srcdir"
		mkdir -p "$srcdir"
		tar -xf "$deb"/usr/src/linux-source-*.tar.* -C "$srcdir" \
			--strip-components=1
		touch "$srcdir/.done"
	fi
else
	srcdir=$(cd "$srcdir" && pwd)
	version=$(make -s -C "$srcdir" kernelversion)
fi

cc=${cross}gcc
if [ -n "$llvm" ]; then
	# LLVM=-19 names clang-19, ld.lld-19, llvm-ar-19...; clang finds the
	# target from ARCH, CROSS_COMPILE is not needed.
	cc=clang$llvm
	command -v "ld.lld$llvm" >/dev/null ||
		{ log "ld.lld$llvm missing (apt-get install lld${llvm#-})"; exit 1; }
fi
command -v "$cc" >/dev/null || { log "$cc missing"; exit 1; }
key=$({ echo "$version $arch${prepare:+ modules_prepare}$localversion"; cat "${frags[@]}"; "$cc" --version | head -n 1; } |
	sha256sum | cut -c1-12)
out=$cache/kbuild/$version-$arch-$key
mkdir -p "$out"
exec 9>"$out.lock"
flock 9

export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
export CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime
export CCACHE_BASEDIR=$cache
# Depend mode: a miss runs the compiler once and keys the result by the
# headers its -MMD file names, where the default runs the preprocessor
# first as well (7-22 % more per object of a cold kernel build here).
export CCACHE_DEPEND=1
kmake=(make -C "$srcdir" O="$out" ARCH="$arch" CROSS_COMPILE="$cross"
	CC="ccache $cc" -j"${KBUILD_JOBS:-2}")
[ -z "$llvm" ] || kmake+=(LLVM="$llvm")
# A release of its own (7.3.4-cfi-net): modules, initramfs stages and the
# module's build directories are keyed by it.
[ -z "$localversion" ] || kmake+=(LOCALVERSION="$localversion")

if [ ! -e "$out/.done" ]; then
	t0=$(date +%s)
	log "configuring $version for $arch in $out"
	"${kmake[@]}" tinyconfig >"$out/config.log" 2>&1
	"$srcdir/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "${frags[@]}" >>"$out/config.log" 2>&1
	"${kmake[@]}" olddefconfig >>"$out/config.log" 2>&1
	# Every line of the fragments must have survived.
	missing=$(cat "${frags[@]}" | grep -E '^(CONFIG_|# CONFIG_)' |
		while read -r l; do grep -qxF "$l" "$out/.config" || echo "$l"; done)
	if [ -n "$missing" ]; then
		log "not in the resulting .config (dependencies?):"
		echo "$missing" >&2
		exit 1
	fi
	log "building (log: $out/build.log)"
	if ! "${kmake[@]}" ${prepare:+modules_prepare} >"$out/build.log" 2>&1; then
		tail -n 30 "$out/build.log" >&2
		exit 1
	fi
	{
		echo "KSRC=$srcdir"
		echo "KBUILD=$out"
		[ -n "$prepare" ] || echo "KIMAGE=$out/$image"
		echo "KARCH=$arch"
		echo "KCROSS=$cross"
		echo "KCC=\"ccache $cc\""
		echo "KLLVM=$llvm"
		echo "KVERSION=$version"
		echo "KRELEASE=$(cat "$out/include/config/kernel.release")"
	} >"$out/kernel.env"
	touch "$out/.done"
	log "built in $(($(date +%s) - t0)) s"
fi
echo "$out"
