#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-all.sh [--kernels "K ..."] [run.sh options]: run.sh for Debian 12's
# 6.1, the 6.12 from bookworm-backports and 7.3 built from trixie-backports'
# linux-source-7.3 (tools/vm/fetch-kernel.sh), each on three CPU models
# (AVX2, SSSE3 without AVX2, SSE2 only); Debian's PREEMPT_RT 6.1-rt and
# 6.12-rt on the AVX2 model only; and arm64 (Debian's 6.1, 6.12 and
# 6.1-rt, and 7.3 built here) on -M virt -cpu max (NEON), then a summary;
# the last line is "N passed, N failed" counting checks.  Exits non-zero if
# any check failed.  --kernels or CHACHA_VM_KERNELS picks kernels (a list,
# with spaces or commas; default
# "6.1 6.12 7.3 6.1-rt 6.12-rt 6.1-arm64 6.12-arm64 7.3-arm64 6.1-rt-arm64").
# The consumer checks 12 and 13 (run.sh --consumers) run on the first x86
# CPU model (max) of 6.1, 6.12 and 7.3, and on the arm64 6.1 and 6.12; not
# on the PREEMPT_RT rows, nor on arm64 7.3 (its kernel has no consumer
# options).  On 7.x, fscrypt encrypts contents through blk-crypto-fallback,
# which allocates a transform per keyslot (100) at first use and keeps
# them for good ("chacha20_simd 73728 100"), so run.sh does check 12 there
# in three boots of the same kernel (tools/vm/README.md).  On 7.x the
# crypto manager fuzzes the module's algorithms, and the instances built on
# them, against the kernel's own at each registration (SELFTESTS_FULL): on
# the first row.  7.x's other rows check what differs by CPU, the module's
# choice and priority against 7.x's own drivers: checks 1-3 (load and the
# crypto manager's tests, dmesg, AF_ALG against the kernel's driver), with
# cryptomgr.noslowtests=1 (its vectors, without the fuzzing); KUnit forces
# each implementation through its suites and the fuzzing in the same
# kernel, and the first row runs the data path's other checks.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

kernels=${CHACHA_VM_KERNELS:-6.1 6.12 7.3 6.1-rt 6.12-rt 6.1-arm64 6.12-arm64 7.3-arm64 6.1-rt-arm64}
if [ "${1:-}" = --kernels ]; then
	kernels=$2
	shift 2
fi
kernels=${kernels//,/ }
configs=(
	"max avx2"		# TCG's max CPU has AVX2
	"max,-avx2 ssse3"
	"qemu64 sse2"		# x86-64 baseline: no SSSE3
)
# PREEMPT_RT kernels: the same module code as above; one CPU model keeps
# make check short.
configs_rt=("${configs[0]}")
# pauth-impdef: QEMU's cheap pointer authentication, boots twice as fast.
# The third word, the module's default priority there: QEMU's max is no
# CPU a core of ours is modelled faster on, so 250, below the in-tree NEON.
configs_arm64=("max,pauth-impdef=on neon 250")
total_pass=0 total_fail=0 rows=()
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t0=$(now)
for kernel in $kernels; do
	cfgs=("${configs[@]}")
	[ "${kernel%-rt}" = "$kernel" ] || cfgs=("${configs_rt[@]}")
	[ "$(kernel_arch "$kernel")" = amd64 ] || cfgs=("${configs_arm64[@]}")
	# --consumers on the first row of 6.1, 6.12 and 7.3 (above).
	consumers=--consumers later=() checks=$vm_checks
	case $kernel in *-rt | *-rt-arm64 | 7.*-arm64) consumers= ;; esac
	for c in "${cfgs[@]}"; do
		read -r cpu expect prio <<<"$c"
		nchecks=$(wc -w <<<"$checks${consumers:+ 12 13}")
		echo "=== kernel $kernel, -cpu $cpu, expecting $expect${prio:+, default priority $prio}${consumers:+, consumer checks}${later[*]:+, checks $checks, $noslowtests}"
		t=$(now)
		"$vm_dir/run.sh" --kernel "$kernel" --cpu "$cpu" \
			--expect "$expect" ${prio:+--prio "$prio"} $consumers \
			"${later[@]}" "$@" | tee "$out" || true
		consumers=
		case $kernel in
		7.*)
			checks="1 2 3"
			later=(--append "$noslowtests" --checks "$checks")
			;;
		esac
		pass=$(grep -o '^CHECK [0-9]* [^:]*: PASS' "$out" |
			cut -d' ' -f2 | sort -u | wc -l) || true
		kver=$(sed -n 's/^RUN \([^ ]*\) .*/\1/p' "$out")
		fail=$((nchecks - pass))
		total_pass=$((total_pass + pass))
		total_fail=$((total_fail + fail))
		rows+=("$(printf '%-24s %-19s %-6s %6s %6s %5ss' \
			"${kver:-$kernel}" "$cpu" \
			"$expect" "$pass" "$fail" "$(($(now) - t))")")
	done
done

echo
printf '%-24s %-19s %-6s %6s %6s %6s\n' kernel cpu expect passed failed time
printf '%s\n' "${rows[@]}"
echo "total time $(($(now) - t0)) s"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
