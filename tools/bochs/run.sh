#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --kernel K --model MODEL --expect IMPL [--modparams P] [--stress S]
#	 [--checks "N ..."] [--keepregs R] [--timeout T] [--append ARGS]
#
# The VM checks of tools/vm (guest-check.sh, the same initramfs) on an
# emulated CPU with AVX-512: Bochs 3.0 (build.sh) booting an isolinux CD
# with the kernel and the initramfs.  MODEL is a Bochs CPU model, e.g.
# corei7_skylake_x (family 6 model 0x55: the kernel prefers ymm there, so
# the module's default is avx512vl); IMPL the driver suffix the module must
# choose (avx512vl, avx512), P module parameters (impl=avx512).  Bochs runs
# about 100 million instructions a second: S, the stress check's seconds
# of guest time, defaults to 2.  --checks: only these of guest-check.sh's
# checks; --keepregs R adds check 11, R requests that must keep the
# calling task's zmm16-31 and k1-k7; --append ARGS, more kernel
# parameters.  Logs: $CHACHA_CACHE/runs/bochs-<...>/.
# x86-64 kernels only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

usage() {
	sed -n '4,18s/^# \{0,1\}//p' "$0"
	exit 2
}

kernel='' model='' expect='' modparams='' stress=2 timeout=1800 checks='' extra=''
keepregs=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--model) model=$2 ;;
	--expect) expect=$2 ;;
	--modparams) modparams=$2 ;;
	--stress) stress=$2 ;;
	--checks) checks=$2 ;;
	--keepregs) keepregs=$2 ;;
	--timeout) timeout=$2 ;;
	--append) extra=$2 ;;
	*) usage ;;
	esac
	shift 2
done
[ -n "$kernel" ] && [ -n "$model" ] && [ -n "$expect" ] || usage
out=$cache/runs/bochs-$kernel-$model-$expect${modparams:+-$modparams}${CHACHA_BUILD_TAG:+-$CHACHA_BUILD_TAG}
rm -rf "$out"
mkdir -p "$out"

t0=$(now)
load_kernel "$kernel"
[ "$KARCH" = amd64 ] || die "Bochs runs x86-64 kernels only"
if ! initrd=$("$vm_dir/mkinitramfs.sh" "$kernel" 2>"$out/build.log"); then
	tail -n 30 "$out/build.log" >&2
	die "build failed (log: $out/build.log)"
fi
"$here/build.sh" >/dev/null

# As tools/vm/run.sh's.
append="$(boot_cmdline amd64) quiet log_buf_len=1M"
append+=" chk_mode=check chk_expect=$expect chk_stress=$stress"
[ -n "$modparams" ] && append+=" chk_modparams=$modparams"
[ -n "$checks" ] && append+=" chk_checks=${checks// /,}"
[ -n "$keepregs" ] && append+=" chk_keepregs=$keepregs"
[ -z "$extra" ] || append+=" $extra"
t1=$(now)
log "booting $KVER on Bochs' $model, expecting $expect"
bochs_boot "$out" "$model" "$VMLINUZ" "$initrd" "$append" "$timeout" \
	'^=== end of dmesg' || true
tr -d '\r' <"$out/results.log" | grep '^CHECK ' || true
[ -z "$checks" ] || vm_checks=$checks
[ -z "$keepregs" ] || vm_checks+=" 11"
judge_verdicts "$out"
echo "RUN $KVER bochs=$model expect=$expect${modparams:+ $modparams}:" \
	"$pass passed, $fail failed (build $((t1 - t0)) s, VM $(($(now) - t1)) s)"
[ $fail -eq 0 ]
