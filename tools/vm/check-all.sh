#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-all.sh [--kernels "K ..." | --job JOB | --rows "NAME ..."] [run.sh
# options]: run.sh for each vm row of tools/rows (the table says which
# kernels, CPU models, checks and options, and why), then a summary; the
# last line is "N passed, N failed" counting checks.  Exits non-zero if
# any check failed.  --kernels or CHACHA_VM_KERNELS picks rows by kernel
# (a list, with spaces or commas: 6.1 6.12 7.3 6.1-rt 6.12-rt 6.1-arm64
# 6.12-arm64 7.3-arm64 6.1-rt-arm64), --job by make check's job, --rows
# by name.  On 7.x, fscrypt encrypts contents through blk-crypto-fallback,
# which allocates a transform per keyslot (100) at first use and keeps
# them for good ("chacha20_simd 73728 100"), so run.sh does check 12 there
# in three boots of the same kernel (tools/vm/README.md).
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

sel=(runner=vm) kernels=${CHACHA_VM_KERNELS:-}
case ${1:-} in
--kernels) kernels=$2 && shift 2 ;;
--job) sel+=("job=$2") && shift 2 ;;
--rows) sel+=("name=$2") && shift 2 ;;
esac
[ -z "$kernels" ] || sel+=("kernel=$kernels")
picked=$(rows "${sel[@]}") || exit 1
mapfile -t picked <<<"$picked"
total_pass=0 total_fail=0 table=()
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t0=$(now)
for row in "${picked[@]}"; do
	row_args "$row"
	echo "=== $name: kernel $kernel, -cpu $cpu, expecting $expect, checks $checks${options[*]:+, ${options[*]}}"
	t=$(now)
	"$vm_dir/run.sh" --kernel "$kernel" --cpu "$cpu" --expect "$expect" \
		"${args[@]}" "$@" | tee "$out" || true
	pass=$(grep -o '^CHECK [0-9]* [^:]*: PASS' "$out" |
		cut -d' ' -f2 | sort -u | wc -l) || true
	kver=$(sed -n 's/^RUN \([^ ]*\) .*/\1/p' "$out")
	fail=$((nchecks - pass))
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	table+=("$(printf '%-24s %-19s %-6s %6s %6s %5ss' \
		"${kver:-$kernel}" "$cpu" \
		"$expect" "$pass" "$fail" "$(($(now) - t))")")
done

echo
printf '%-24s %-19s %-6s %6s %6s %6s\n' kernel cpu expect passed failed time
printf '%s\n' "${table[@]}"
echo "total time $(($(now) - t0)) s"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
