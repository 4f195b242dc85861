#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --arch x86_64|arm64 --cpu MODEL [options]
#
# Build the test kernel (tools/kernel/build.sh -k SERIES), chacha20_simd.ko
# and kunit/chacha20_simd_kunit.ko against it (W=1), boot it under QEMU
# (TCG), load the module forced to each implementation in turn, so that
# the crypto manager tests and fuzzes each, then the KUnit module; cut the KUnit
# module's KTAP out of the console and parse it with the kernel's own
# kunit.py.  The kernel's modules go into the initramfs, so that the crypto
# manager and the tests can load their references (7.x: chacha20-lib).
# Fails on a failed or missing test, fewer than --min cases, an `alg:`
# self-test failure, and any KASAN, lockdep, atomic-sleep, CFI, WARNING,
# BUG or Oops report, and, where the kernel has kmemleak (x86-64 on QEMU),
# any object left unreferenced.
#   --cpu bochs:MODEL	x86_64 under Bochs 3.0 (tools/bochs) with its CPU
#			MODEL, e.g. corei3_cnl (AVX-512), instead of QEMU
#   --expect LIST	implementations the CPU must run, comma-separated
#   --impls LIST	implementations loaded one by one for the crypto
#			manager (default: every one of the architecture)
#   --modparams a=b,..	options of the module the KUnit suites run on
#			(default: none; arm64: priority=400, see below)
#   --fuzz N		cryptomgr.fuzz_iterations (default 100, the kernel's:
#			the suites compare every implementation with the
#			generic drivers; 1000 took half of the run)
#   --min N		fewest test cases kunit.py must count (default 20)
#   --timeout S		limit for the VM (default 2400: on a Zen 5 beside
#			other lanes, x86-64 ran past 1200 s in cp_sections)
#   --append ARGS	more kernel parameters (e.g. cryptomgr.notests=1)
#   -k SERIES		7.3 (default: clang-19, kCFI), 7.3-gcc (gcc),
#			7.3-rt (gcc, PREEMPT_RT) or 6.12:
#			tools/kernel/build.sh -k
# CHACHA_SRC=DIR tests the sources in DIR instead of this tree;
# CHACHA_BUILD_TAG=name gives the run log and build directories of its own.
# Logs: $CHACHA_CACHE/runs/kunit-<series>-<arch>-<cpu>/{build,console}.log, ktap.txt
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
top=$top_dir
usage() { sed -n '4,34s/^# \{0,1\}//p' "$0" >&2; exit 2; }

arch='' cpu='' expect='' extra='' impls='' modparams=- fuzz=100 min=20 timeout=2400 series=7.3
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2 ;;
	--cpu) cpu=$2 ;;
	--expect) expect=$2 ;;
	--impls) impls=$2 ;;
	--modparams) modparams=$2 ;;
	--fuzz) fuzz=$2 ;;
	--append) extra=$2 ;;
	--min) min=$2 ;;
	--timeout) timeout=$2 ;;
	-k) series=$2 ;;
	*) usage ;;
	esac
	shift 2
done
[ -n "$arch" ] && [ -n "$cpu" ] || usage

# CHACHA_BUILD_TAG keeps a run (a planted fault, another worktree) apart
# from the others: its log and build directories get the tag.
tag=${CHACHA_BUILD_TAG:+-$CHACHA_BUILD_TAG}
out=$cache/runs/kunit-$series-$arch-${cpu//:/-}$tag
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)

# The kernel (cached by config) and its environment.
kdir=$("$top/tools/kernel/build.sh" -k "$series" "$arch" 2>"$out/build.log") || {
	tail -n 30 "$out/build.log" >&2
	die "kernel build failed (log: $out/build.log)"
}
# shellcheck source=/dev/null
. "$kdir/kernel.env"

# The modules, from a copy of the sources (git ls-files of the tree, or
# every file of $CHACHA_SRC, e.g. a scratch copy with a bug planted), one
# build directory per kernel.
src=${CHACHA_SRC:-$top}
bdir=$cache/kunit-build/$(basename "$kdir")$tag
mkdir -p "$bdir"
exec 9>"$bdir.lock"
flock 9
copy_sources "$src" "$bdir"
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
export CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime
# A clang kernel's kernel.env names its LLVM= (clang-19, lld-19).
llvm=()
[ -z "${KLLVM:-}" ] || llvm=(LLVM="$KLLVM")
if ! make -C "$KBUILD" M="$bdir" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" \
	CC="$KCC" "${llvm[@]}" W=1 CHACHA_TEST_HOOKS=1 -j2 modules >>"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "module build failed (log: $out/build.log)"
fi
if grep -E 'warning:|error:' "$out/build.log" >&2; then
	die "warnings building the modules (W=1)"
fi

# The initramfs: static busybox of the guest's architecture, /init, the
# two modules, the kernel's own modules (busybox modprobe reads the
# modules.dep and modules.alias that modules_install leaves).
case $arch in
x86_64) debarch=amd64 ;;
arm64) debarch=arm64 ;;
esac
bb=$("$top/tools/debfetch.sh" -a "$debarch" get busybox-static)/bin/busybox
stage=$out/stage
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev"
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$here/guest-init.sh" "$stage/init"
cp "$top/tools/lib-posix.sh" "$stage/bin/"
cp "$bdir/chacha20_simd.ko" "$bdir/kunit/chacha20_simd_kunit.ko" "$stage/"
# afalg-check's bind: /init instantiates the kernel's template on the
# generic drivers before the module loads (see guest-init.sh).
stage_tool "$stage" "$debarch" afalg-check || die "afalg-check does not build"
# The build directory is done with: another run on this kernel (make
# check's KUnit under QEMU and under Bochs) may build there while this
# one boots.
exec 9>&-
make -s -C "$KSRC" O="$KBUILD" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" \
	"${llvm[@]}" INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 modules_install \
	>>"$out/build.log" 2>&1 || die "modules_install failed (log: $out/build.log)"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 -n >"$out/initramfs.cpio.gz"
t1=$(date +%s)

case $arch in
x86_64)
	impls=${impls:-scalar,sse2,ssse3,avx2,avx512vl,avx512}
	[ "$modparams" != - ] || modparams=
	karch=amd64
	;;
arm64)
	impls=${impls:-scalar,neon,neon4}
	# ct_names checks that plain names reach the module, above the
	# kernel's own drivers.  By its policy the module's default on
	# QEMU's max is 250, below chacha20-lib (300): tools/vm's check 1
	# asserts that policy; the suites run on the module at 400.
	[ "$modparams" != - ] || modparams=priority=400
	karch=arm64
	;;
esac
append="$(boot_cmdline $karch) oops=panic cryptomgr.fuzz_iterations=$fuzz"
append+=" kt_impls=$impls${expect:+ kt_expect=$expect}"
append+="${modparams:+ kt_modparams=$modparams}${extra:+ $extra}"
# kmemleak, where the kernel has it (the 7.x test kernels, off unless
# asked): the guest scans after the modules are gone, and any object left
# unreferenced fails the run.  On QEMU's x86-64 only: Bochs's KUnit run
# is the longest job already, and arm64's goes through the same C, whose
# allocations have no arm64 branch, at about 200 core-seconds more.
leakcheck=''
case $cpu in bochs:*) ;; *)
	if [ $karch = amd64 ] &&
		grep -q '^CONFIG_DEBUG_KMEMLEAK=y' "$KBUILD/.config"; then
		leakcheck=1
		append+=" kmemleak=on kt_kmemleak=1"
	fi ;;
esac
qemu_cmd $karch "$cpu" 2 1G
[ $karch = amd64 ] || qemu+=(-nic none)
qemu+=(-nographic -monitor none -serial "file:$out/console.log"
	-kernel "$KIMAGE" -initrd "$out/initramfs.cpio.gz" -append "$append")
rc=0
case $cpu in
bochs:*)
	[ "$arch" = x86_64 ] || die "Bochs runs x86_64 kernels only"
	log "booting $KRELEASE ($arch) on Bochs' ${cpu#bochs:}"
	bochs_boot "$out" "${cpu#bochs:}" "$KIMAGE" "$out/initramfs.cpio.gz" \
		"$append loglevel=1 kt_dump=1" "$timeout" '^KT DONE' || rc=$?
	;;
*)
	log "booting $KRELEASE ($arch) on -cpu $cpu under TCG"
	timeout "$timeout" "${qemu[@]}" </dev/null >"$out/qemu.log" 2>&1 || rc=$?
	;;
esac
t2=$(date +%s)
tr -d '\r' <"$out/console.log" >"$out/console.txt"
[ $rc -eq 0 ] || log "the VM exited with $rc (QEMU's timeout: 124)"

status=0
fail() { log "FAIL: $*"; status=1; }
grep -q '^KT DONE' "$out/console.txt" || fail "the guest did not finish"
grep -E '^KT (impl|generic|chacha20_simd: using)' "$out/console.txt" >&2 || true
grep -q '^KT selftest default ' "$out/console.txt" ||
	fail "chacha20_simd did not load"
# Each of our drivers, every time it was registered, passed the crypto
# manager's tests: the guest waits until no test larval ("unknown") of
# ours is left, so every row must say passed.
grep '^KT waited' "$out/console.txt" >&2 || true
# (No selftest line at all, e.g. after an oops at load, must not end the
# script here under pipefail: the reports below say why.)
bad=$(grep '^KT selftest ' "$out/console.txt" | awk '
	$5 != "passed" { print $3, $4, $5 }') || true
[ -z "$bad" ] || fail "crypto manager self-tests not passed: $bad"
# Kernel reports (tools/lib-posix.sh): crypto manager failures, KASAN,
# lockdep, atomic sleep, kCFI (an indirect call whose target has another
# type: "CFI failure at"), UBSAN, warnings, oopses.
if kernel_reports <"$out/console.txt" >"$out/reports.txt"; then
	head -n 40 "$out/reports.txt" >&2
	fail "kernel reports (see $out/console.txt)"
fi

if [ -n "$leakcheck" ]; then
	leaks=$(sed -n 's/^KT kmemleak: \([0-9]*\) unreferenced.*/\1/p' "$out/console.txt")
	if [ -z "$leaks" ]; then
		fail "kmemleak did not scan"
	elif [ "$leaks" -gt 0 ]; then
		grep '^KT kmemleak' "$out/console.txt" | head -n 40 >&2
		fail "kmemleak: $leaks unreferenced objects"
	else
		log "kmemleak: no unreferenced object after the tests"
	fi
fi

# The KUnit module's KTAP, between the markers (the kernel printed an
# empty KTAP header of its own at boot).
sed -n '/^KT kunit start/,/^KT kunit end/p' "$out/console.txt" |
	sed '1d;$d' >"$out/ktap.txt"
python3 "$KSRC/tools/testing/kunit/kunit.py" parse "$out/ktap.txt" \
	>"$out/kunit.txt" 2>&1 || fail "kunit.py parse: failures"
summary=$(sed -n 's/^\[[0-9:]*\] \(Testing complete\.\)/\1/p' "$out/kunit.txt")
grep -E 'FAILED|CRASHED|\[(FAILED|CRASHED)\]|# (ct_|chacha)' "$out/kunit.txt" >&2 || true
[ -n "$summary" ] || fail "kunit.py printed no summary"
ran=$(echo "$summary" | sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p')
passed=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
if [ -z "$ran" ] || [ "$ran" -lt "$min" ]; then
	fail "fewer than $min test cases"
fi
[ "${passed:-x}" = "$ran" ] || fail "not every test passed"
echo "KUNIT $KRELEASE $arch cpu=$cpu: $summary (build $((t1 - t0)) s, VM $((t2 - t1)) s)"
exit $status
