#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --kernel K --cpu MODEL --expect avx2|ssse3|sse2|neon [options]
#
# Build the module and the initramfs for that Debian kernel (K: 6.1, 6.12,
# 6.1-arm64, 6.12-arm64, PREEMPT_RT 6.1-rt, 6.12-rt, 6.1-rt-arm64; or 7.3, built here from Debian's linux-source-7.3), boot it under QEMU (TCG; arm64: -M virt) on the
# given CPU model and print the guest's CHECK verdicts.  7.3[-arm64]: 7.3
# built here with clang-19 as a kCFI kernel (tools/kernel/build.sh -k 7.3).
# Exits non-zero if any check failed or reported nothing, or if the console
# shows a kCFI report ("CFI failure").
#   --modparams a=b,c=d	module options (e.g. impl=sse2; adjust --expect)
#   --prio N		the module's expected default priority (check 1; the
#			other checks then load it with priority=400)
#   --stress SECONDS	length of the stress check (default 15)
#   --checks "N ..."	only these of guest-check.sh's checks (default: $vm_checks)
#   --timeout SECONDS	limit for the VM (default 600; 900 with --consumers)
#   --append ARGS	more kernel parameters, e.g. cryptomgr.noslowtests=1
#			(7.x: the crypto manager's vectors without its fuzzing)
#   --demo		run guest-demo.sh instead and show its console
#   --ko FILE		boot with this chacha20_simd.ko (e.g. the one DKMS built
#			from the Debian package) instead of building one
#   --consumers		also checks 12 (fscrypt Adiantum on ext4) and 13
#			(LUKS2 chacha20-poly1305 on dm-integrity); x86-64
#			7.x: check 12 in three boots (tools/vm/README.md)
# Logs: $CHACHA_CACHE/runs/<kernel>-<cpu>-<expect>[-<CHACHA_BUILD_TAG>]/
#	{build,console,results}.log; check 12's boots 2, 3 in fscrypt2, 3/
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n '4,/^[^#]/s/^# \{0,1\}//p' "$0"
	exit 2
}

kernel='' cpu='' expect='' modparams='' prio='' stress=15 timeout='' mode=check ko=''
extra='' checks=''
consumers=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--cpu) cpu=$2 ;;
	--expect) expect=$2 ;;
	--modparams) modparams=$2 ;;
	--prio) prio=$2 ;;
	--stress) stress=$2 ;;
	--checks) checks=$2 ;;
	--timeout) timeout=$2 ;;
	--ko) ko=$(realpath "$2") ;;
	--append) extra=$2 ;;
	--demo) mode=demo; shift; continue ;;
	--consumers) consumers=1; shift; continue ;;
	*) usage ;;
	esac
	shift 2
done
[ -n "$kernel" ] && [ -n "$cpu" ] && [ -n "$expect" ] || usage

# The build tag keeps runs from different worktrees apart.
tag=${CHACHA_BUILD_TAG:+-$CHACHA_BUILD_TAG}
out=$cache/runs/$kernel-$cpu-$expect${modparams:+-$modparams}${ko:+-ko}$tag
[ $mode = demo ] && out=$cache/runs/demo-$kernel-$cpu$tag
rm -rf "$out"
mkdir -p "$out"

t0=$(now)
load_kernel "$kernel"
if ! initrd=$(CHACHA_KO=$ko "$vm_dir/mkinitramfs.sh" "$kernel" 2>"$out/build.log"); then
	tail -n 30 "$out/build.log" >&2
	die "build failed (log: $out/build.log)"
fi
# Show compiler diagnostics (the module is built with W=1).
grep -E 'warning:|error:' "$out/build.log" >&2 || true
t1=$(now)

append="$(boot_cmdline "$KARCH") quiet log_buf_len=1M"
[ -z "$extra" ] || append+=" $extra"
append+=" chk_mode=$mode chk_expect=$expect chk_stress=$stress"
[ -n "$modparams" ] && append+=" chk_modparams=$modparams"
[ -n "$prio" ] && append+=" chk_prio=$prio"
[ -z "$checks" ] || append+=" chk_checks=${checks// /,}"
[ -z "$checks" ] || vm_checks=$checks
if [ "$KARCH" = arm64 ]; then
	# virt has one UART: the verdicts come from the console instead.
	append+=" chk_results=/dev/null chk_intree=chacha-neon"
fi
# Check 12's later boots on 7.x: the same settings, without the row's
# checks, and without the crypto manager's fuzzing: boot 2 loads no module,
# and boot 3's instance on the module was fuzzed in boot 1.
append_fs="$append $noslowtests"
fsboots=''
if [ -n "$consumers" ]; then
	append+=" chk_consumers=1"
	# 12 and 13 once, whether --checks named them or not
	for n in 12 13; do
		[[ " $vm_checks " = *" $n "* ]] || vm_checks+=" $n"
	done
	timeout=${timeout:-900}
	# 7.x's fscrypt encrypts contents through blk-crypto-fallback, whose
	# transforms, once allocated, keep their driver for the whole boot:
	# check 12 then takes three boots (fs_boots below), its filesystem on
	# a virtio disk that each boot gets.  x86-64 only: the keys and lists
	# go to the host over the second serial port.
	if [ "$KARCH" = amd64 ] && [ "${KVER%%.*}" -ge 7 ]; then
		fsboots=1
		append+=" chk_fsboot=1 chk_fsdisk=/dev/vda"
		append_fs+=" chk_fsdisk=/dev/vda"
	fi
fi
# The limits only stop a hung guest: they are not assertions.  7.3's rows
# ran past 480 and 300 s on a 2-core Rocket Lake with the other lane and a
# kernel build beside them (check 10 alone: 139 s, 13 s on 6.1).
timeout=${timeout:-600}
qemu_cmd "$KARCH" "$cpu" 2 1G
[ "$KARCH" = amd64 ] || qemu+=(-nic none)
qemu+=(-nographic -monitor none -kernel "$VMLINUZ")
if [ -n "$fsboots" ]; then
	truncate -s 16M "$out/fsdisk.img"
	qemu+=(-drive "file=$out/fsdisk.img,format=raw,if=virtio")
fi

# boot DIR INITRD APPEND LIMIT: one VM, its serial ports into
# DIR/console.log and DIR/results.log (arm64: the console only); shows
# the verdicts (or the demo) as they come; sets rc to QEMU's exit status.
boot() {
	local dir=$1 vm res=()

	if [ "$KARCH" = amd64 ]; then
		res=(-serial "file:$dir/results.log")
	fi
	: >"$dir/console.log"
	: >"$dir/results.log"
	timeout "$4" "${qemu[@]}" -initrd "$2" -append "$3" \
		-serial "file:$dir/console.log" "${res[@]}" \
		</dev/null >"$dir/qemu.log" 2>&1 &
	vm=$!
	[ "$KARCH" = amd64 ] || ln -sf console.log "$dir/results.log"
	# Live view: the verdicts, or the demo's part of the console.
	if [ $mode = demo ]; then
		tail -n +1 -s 0.5 --pid=$vm -f "$dir/console.log" | tr -d '\r' |
			sed -u -n '/^===== /,/^===== end of demo/p'
	else
		tail -n +1 -s 0.5 --pid=$vm -f "$dir/results.log" | tr -d '\r' |
			grep --line-buffered '^CHECK ' || true
	fi
	rc=0
	wait $vm || rc=$?
	[ $rc -ne 124 ] || log "timeout: the VM ran for $4 s"
	[ $rc -eq 0 ] || log "qemu exited with $rc"
}

# fs_image DIR: the pack DIR's boot sent (guest-check.sh's fs_send, base64
# between FSIMG lines: the keys, the sets' names and sums) into
# DIR/fsimg.tgz; fails unless it is there whole (its sha256)
fs_image() {
	local sum

	tr -d '\r' <"$1/results.log" |
		sed -n '/^FSIMG BEGIN$/,/^FSIMG END /p' >"$1/fsimg.b64"
	sum=$(sed -n 's/^FSIMG END //p' "$1/fsimg.b64")
	[ -n "$sum" ] || return 1
	grep -v '^FSIMG ' "$1/fsimg.b64" | base64 -d >"$1/fsimg.tgz" ||
		return 1
	rm -f "$1/fsimg.b64"
	[ "$(sha256sum <"$1/fsimg.tgz" | cut -c1-64)" = "$sum" ]
}

# fs_boots: check 12 on 7.x.  Boot 1 was the row's; boots 2 and 3 run
# check 12 alone (chk_fsboot=2, 3), on the same disk, each with the pack
# the boot before sent, in DIR/fscrypt2, 3.  It reaches the guest as /fsimg.tgz in
# a second cpio archive after the row's initramfs (the kernel unpacks
# concatenated archives in turn).  Then the one verdict of check 12: PASS
# if each boot's part (CHECK 12.1, 12.2, 12.3) passed.
fs_boots() {
	local n prev=$out dir t line verdict=''

	for n in 1 2 3; do
		if [ $n != 1 ]; then
			dir=$out/fscrypt$n
			mkdir -p "$dir/stage"
			fs_image "$prev" ||
				{ verdict="FAIL no intact image from boot $((n - 1))"; break; }
			mv "$prev/fsimg.tgz" "$dir/stage/"
			(cd "$dir/stage" && echo fsimg.tgz |
				cpio -o -H newc -R 0:0 --quiet) | gzip -1 -n |
				cat "$initrd" - >"$dir/initrd.cpio.gz"
			t=$(now)
			boot "$dir" "$dir/initrd.cpio.gz" \
				"$append_fs chk_checks=12 chk_fsboot=$n" 600
			log "check 12, boot $n of 3: $(($(now) - t)) s"
			prev=$dir
		fi
		line=$(tr -d '\r' <"$prev/results.log" | grep -m1 "^CHECK 12\.$n ") ||
			{ verdict="FAIL no verdict from boot $n"; break; }
		case $line in
		*": PASS "*) ;;
		*) verdict="FAIL boot $n: ${line#*: FAIL }"; break ;;
		esac
	done
	[ -n "$verdict" ] || verdict="PASS ext4 Adiantum v2 through blk-crypto-fallback in 3 boots: $expect-oot wrote, in-tree read; in-tree wrote, $expect-oot read; no plaintext on the disk"
	echo "CHECK 12 fscrypt-adiantum: $verdict" | tee -a "$out/results.log"
}

log "booting $KVER on -cpu $cpu (TCG), expecting $expect"
boot "$out" "$initrd" "$append" "$timeout"
if [ $mode = demo ]; then
	log "VM ran $(($(now) - t1)) s (build $((t1 - t0)) s); log: $out/console.log"
	exit $rc
fi

[ -z "$fsboots" ] || fs_boots
judge_verdicts "$out"
# kCFI: an indirect call to a function of another type traps with "CFI
# failure at ..." (pr_err, so shown under quiet); the oops that follows
# fails the check that made the call, but say what it was.
grep -ah 'CFI failure' "$out"/console.log "$out"/results.log \
	"$out"/fscrypt*/console.log 2>/dev/null | tr -d '\r' |
	sort -u >"$out/cfi.txt" || true
if [ -s "$out/cfi.txt" ]; then
	sed 's/^/CFI: /' "$out/cfi.txt"
	fail=$((fail + 1))
fi
echo "RUN $KVER cpu=$cpu expect=$expect${modparams:+ $modparams}${consumers:+ consumers}:" \
	"$pass passed, $fail failed (build $((t1 - t0)) s, VM $(($(now) - t1)) s)"
[ $fail -eq 0 ]
