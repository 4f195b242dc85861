#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-all.sh: the module's AVX-512 code inside kernels, under Bochs 3.0
# (issue 16).  Both sides of the zmm policy:
#   corei3_cnl        Cannon Lake, family 6 model 0x66: not on the kernel's
#                     zmm exclusion list, so the default must be avx512;
#   corei7_skylake_x  Skylake-X, model 0x55: on the list (7.x: the kernel
#                     sets X86_FEATURE_PREFER_YMM), so the default must be
#                     avx512vl.
# On Cannon Lake, the ten checks of tools/vm/guest-check.sh with the
# default and check 11 (a task's zmm16-31 and k1-k7 across requests); on
# Skylake-X, the data path's checks (load, dmesg, compare, rfc7539,
# dm-crypt, unload) and check 11 (the other four, bad input, stress,
# tcrypt and LUKS2, run on Cannon Lake and every QEMU row: they test the
# glue and the consumers, which are the same whichever implementation);
# then the data path's checks with the other implementation forced by
# impl=; and KUnit in the 7.3 test kernel
# (KASAN, lockdep, the crypto manager's fuzzing of impl=avx512vl and
# impl=avx512) on Cannon Lake.  The 7.3 rows boot with
# cryptomgr.noslowtests=1 (the crypto manager's vectors, not its fuzzing):
# under Bochs, the fuzzing of both implementations is KUnit's part; the
# instances built on the module are fuzzed on QEMU's 7.3 max and arm64
# rows.  --rows "7.3 7.3-impl 6.1 6.1-impl kunit" (the default:
# all; spaces or commas) picks rows by name, and the KUnit run.  make check
# runs all but 7.3-impl (tools/emulated-check.sh): its avx512vl on 7.3 is
# fuzzed by KUnit under Bochs and its data path is 6.1's default row's.
# Prints a summary; the last line is "N passed, N failed" counting checks.
# Exits non-zero if any failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

# name, kernel, Bochs CPU model, the implementation the module must use,
# its parameters (- for none), the checks (all, or the data path's), the
# requests of check 11 (- for none)
rows=(
	"7.3 7.3 corei3_cnl avx512 - all 300"
	"7.3-impl 7.3 corei3_cnl avx512vl impl=avx512vl data -"
	"6.1 6.1 corei7_skylake_x avx512vl - data 300"
	"6.1-impl 6.1 corei7_skylake_x avx512 impl=avx512 data -"
)
pick="7.3 7.3-impl 6.1 6.1-impl kunit"
if [ "${1:-}" = --rows ]; then
	pick=${2//,/ }
fi
# picked NAME: --rows names it
picked() {
	[[ " $pick " = *" $1 "* ]]
}
total_pass=0 total_fail=0 lines=()
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t0=$(now)
for r in "${rows[@]}"; do
	read -r name kernel model expect params which keep <<<"$r"
	picked "$name" || continue
	args=(--kernel "$kernel" --model "$model" --expect "$expect")
	checks=$vm_checks
	[ "$params" = - ] || args+=(--modparams "$params")
	case $kernel in 7.*) args+=(--append "$noslowtests") ;; esac
	[ "$which" = all ] || checks="1 2 3 7 8 9"
	[ "$which" = all ] || args+=(--checks "$checks")
	[ "$keep" = - ] || args+=(--keepregs "$keep")
	[ "$keep" = - ] || checks+=" 11"
	shown=$checks
	[ "$params" = - ] || shown+=", $params"
	echo "=== kernel $kernel, Bochs $model, expecting $expect, checks $shown"
	t=$(now)
	"$here/run.sh" "${args[@]}" | tee "$out"
	pass=$(grep -c '^CHECK [0-9]* [^:]*: PASS' "$out")
	fail=$(($(wc -w <<<"$checks") - pass))
	kver=$(sed -n 's/^RUN \([^ ]*\) .*/\1/p' "$out")
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	lines+=("$(printf '%-24s %-18s %-9s %-16s %6s %6s %5ss' \
		"${kver:-$kernel}" "$model" "$expect" "${params/#-/default}" \
		"$pass" "$fail" "$(($(now) - t))")")
done

if picked kunit; then
	echo "=== KUnit, 7.3 test kernel, Bochs corei3_cnl"
	t=$(now)
	if "$top_dir/tools/kunit/run.sh" --arch x86_64 --cpu bochs:corei3_cnl \
		--expect scalar,sse2,ssse3,avx2,avx512vl,avx512 \
		--impls avx512vl,avx512 --timeout 3000 | tee "$out"; then
		pass=1 fail=0
	else
		pass=0 fail=1
	fi
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	lines+=("$(printf '%-24s %-18s %-9s %-16s %6s %6s %5ss' "KUnit 7.3" \
		corei3_cnl avx512* "avx512vl,avx512" "$pass" "$fail" \
		"$(($(now) - t))")")
fi

echo
printf '%-24s %-18s %-9s %-16s %6s %6s %6s\n' kernel "Bochs CPU" expect \
	impl= passed failed time
printf '%s\n' "${lines[@]}"
echo "total time $(($(now) - t0)) s"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
