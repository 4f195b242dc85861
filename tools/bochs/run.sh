#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --kernel K --model MODEL --expect IMPL [--modparams P] [--stress S]
#	 [--timeout T]
#
# The VM checks of tools/vm (guest-check.sh, the same initramfs) on an
# emulated CPU with AVX-512: Bochs 3.0 (build.sh) booting an isolinux CD
# with the kernel and the initramfs.  MODEL is a Bochs CPU model, e.g.
# corei7_skylake_x (family 6 model 0x55: the kernel prefers ymm there, so
# the module's default is avx512vl); IMPL the driver suffix the module must
# choose (avx512vl, avx512), P module parameters (impl=avx512).  Bochs runs
# about 100 million instructions a second: S, the stress check's seconds
# of guest time, defaults to 2.  Logs: $CHACHA_CACHE/runs/bochs-<...>/.
# x86-64 kernels only.  On request: not part of make check.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../vm/lib.sh
. "$here/../vm/lib.sh"

usage() {
	sed -n '4,16s/^# \{0,1\}//p' "$0"
	exit 2
}

kernel='' model='' expect='' modparams='' stress=2 timeout=1800
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--model) model=$2 ;;
	--expect) expect=$2 ;;
	--modparams) modparams=$2 ;;
	--stress) stress=$2 ;;
	--timeout) timeout=$2 ;;
	*) usage ;;
	esac
	shift 2
done
[ -n "$kernel" ] && [ -n "$model" ] && [ -n "$expect" ] || usage
for f in /usr/lib/ISOLINUX/isolinux.bin \
	 /usr/lib/syslinux/modules/bios/ldlinux.c32; do
	[ -f "$f" ] || die "$f missing (apt-get install isolinux syslinux-common)"
done
command -v genisoimage >/dev/null || die "genisoimage missing (apt-get install genisoimage)"

out=$cache/runs/bochs-$kernel-$model-$expect${modparams:+-$modparams}
rm -rf "$out"
mkdir -p "$out/iso/isolinux"

t0=$(now)
bochs=$("$here/build.sh")
load_kernel "$kernel"
[ "$KARCH" = amd64 ] || die "Bochs runs x86-64 kernels only"
if ! initrd=$("$vm_dir/mkinitramfs.sh" "$kernel" 2>"$out/build.log"); then
	tail -n 30 "$out/build.log" >&2
	die "build failed (log: $out/build.log)"
fi

# As tools/vm/run.sh; no5lvl: Bochs' Skylake-X has no LA57 anyway.
append="console=ttyS0 panic=-1 quiet log_buf_len=1M no5lvl"
append+=" chk_mode=check chk_expect=$expect chk_stress=$stress"
[ -n "$modparams" ] && append+=" chk_modparams=$modparams"
cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 \
	"$out/iso/isolinux/"
cp "$VMLINUZ" "$out/iso/vmlinuz"
cp "$initrd" "$out/iso/initrd"
cat >"$out/iso/isolinux/isolinux.cfg" <<EOT
DEFAULT linux
PROMPT 0
LABEL linux
  KERNEL /vmlinuz
  APPEND initrd=/initrd $append
EOT
genisoimage -quiet -o "$out/boot.iso" -b isolinux/isolinux.bin \
	-c isolinux/boot.cat -no-emul-boot -boot-load-size 4 -boot-info-table \
	-J -R "$out/iso"
share=$(dirname "$bochs")/../share
cat >"$out/bochsrc" <<EOT
cpu: model=$model, count=1, ips=400000000
megs: 1024
romimage: file=$share/BIOS-bochs-latest
vgaromimage: file=$share/VGABIOS-lgpl-latest
ata0-master: type=cdrom, path=$out/boot.iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=$out/console.log
com2: enabled=1, mode=file, dev=$out/results.log
display_library: nogui
clock: sync=none
log: $out/bochs.log
panic: action=fatal
error: action=report
info: action=ignore
EOT
t1=$(now)
log "booting $KVER on Bochs' $model, expecting $expect"
rc=0
timeout "$timeout" "$bochs" -q -f "$out/bochsrc" </dev/null \
	>"$out/bochs.out" 2>&1 || rc=$?
[ $rc -ne 124 ] || log "timeout: Bochs ran for $timeout s"
tr -d '\r' <"$out/results.log" | grep '^CHECK ' || true
judge_verdicts "$out"
echo "RUN $KVER bochs=$model expect=$expect${modparams:+ $modparams}:" \
	"$pass passed, $fail failed (build $((t1 - t0)) s, VM $(($(now) - t1)) s)"
[ $fail -eq 0 ]
