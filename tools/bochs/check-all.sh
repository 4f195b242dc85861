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
# rows.  The rows are tools/rows' bochs rows and its KUnit rows on a Bochs
# CPU; --rows "bochs-7.3 bochs-7.3-impl bochs-6.1 bochs-6.1-impl
# kunit-bochs" (the default: all; spaces or commas) picks them by name,
# --job JOB by make check's job.  make check runs all but bochs-7.3-impl
# (tools/emulated-check.sh): its avx512vl on 7.3 is fuzzed by KUnit under
# Bochs and its data path is 6.1's default row's.  Prints a summary; the
# last line is "N passed, N failed" counting checks.  Exits non-zero if
# any failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

sel=()
case ${1:-} in
--rows) sel=("name=$2") ;;
--job) sel=("job=$2") ;;
esac
picked=$(rows "${sel[@]}" | awk '$3 == "bochs" || $5 ~ /^bochs:/') ||
	exit 1
[ -n "$picked" ] || die "no Bochs row of tools/rows has ${sel[*]}"
mapfile -t picked <<<"$picked"
total_pass=0 total_fail=0 lines=()
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t0=$(now)
for row in "${picked[@]}"; do
	row_args "$row"
	model=$cpu
	t=$(now)
	if [ "$runner" = kunit ]; then
		echo "=== $name: KUnit, $kernel test kernel, Bochs ${model#bochs:}"
		if "$top_dir/tools/kunit/run.sh" -k "$kernel" --arch x86_64 \
			--cpu "$model" --expect "$expect" "${args[@]}" |
			tee "$out"; then
			pass=1 fail=0
		else
			pass=0 fail=1
		fi
		impls=$(row_value impls)
		lines+=("$(printf '%-24s %-18s %-9s %-16s %6s %6s %5ss' \
			"KUnit $kernel" "${model#bochs:}" avx512* \
			"$impls" "$pass" "$fail" "$(($(now) - t))")")
	else
		echo "=== $name: kernel $kernel, Bochs $model, expecting $expect, checks $checks${options[*]:+, ${options[*]}}"
		"$here/run.sh" --kernel "$kernel" --model "$model" \
			--expect "$expect" "${args[@]}" | tee "$out"
		pass=$(grep -c '^CHECK [0-9]* [^:]*: PASS' "$out")
		fail=$((nchecks - pass))
		kver=$(sed -n 's/^RUN \([^ ]*\) .*/\1/p' "$out")
		params=$(row_value modparams)
		lines+=("$(printf '%-24s %-18s %-9s %-16s %6s %6s %5ss' \
			"${kver:-$kernel}" "$model" "$expect" \
			"${params:-default}" "$pass" "$fail" "$(($(now) - t))")")
	fi
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
done

echo
printf '%-24s %-18s %-9s %-16s %6s %6s %6s\n' kernel "Bochs CPU" expect \
	impl= passed failed time
printf '%s\n' "${lines[@]}"
echo "total time $(($(now) - t0)) s"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
