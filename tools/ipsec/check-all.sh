#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-all.sh [--rows "ROW ..." | --job JOB] [run.sh options]
#
# run.sh for each ipsec row of tools/rows, one after the other, then a
# table (rows, A's CPU, checks passed and failed, time) and a last line
# "N passed, N failed" counting checks; exits non-zero if any failed.  A
# row's kernel is KERNEL (both guests on it) or A_KERNEL:B_KERNEL;
# --rows or CHACHA_IPSEC_ROWS picks rows by it, --job by make check's
# job.  The rows:
#   6.1 6.12 7.3	both guests x86-64 on that kernel (7.3: the
#			clang test kernel built here, which on x86-64 has
#			the consumer options, tools/kernel/build.sh)
#   6.1-arm64:6.1	A on arm64 (NEON, chacha20-neon-oot) against B on
#			x86-64 (chacha20-simd): two architectures' ChaCha
#			on one wire
# A row's options are run.sh's: ike for --ike (strongSwan's SAs, 16
# checks), load for --load (4 vCPUs under load, 14), mib=N for --mib N.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

sel=(runner=ipsec) kernels=${CHACHA_IPSEC_ROWS:-}
case ${1:-} in
--rows) kernels=$2 && shift 2 ;;
--job) sel+=("job=$2") && shift 2 ;;
esac
[ -z "$kernels" ] || sel+=("kernel=$kernels")
picked=$(rows "${sel[@]}") || exit 1
mapfile -t picked <<<"$picked"
total_pass=0 total_fail=0 table=()
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t0=$(now)
for line in "${picked[@]}"; do
	row_args "$line"
	ka=${kernel%%:*} kb=''
	[ "$kernel" = "$ka" ] || kb=${kernel#*:}
	# run.sh's checks: 1-13 and kTLS's 14, 15; with --ike, 16 of its
	# own; with --load, 14.
	nchecks=15
	[[ " ${options[*]} " != *" ike "* ]] || nchecks=16
	[[ " ${options[*]} " != *" load "* ]] || nchecks=14
	echo "=== IPsec: A $ka (module), B ${kb:-$ka} (in-tree)${options[*]:+, ${options[*]}}"
	t=$(now)
	"$here/run.sh" --kernel-a "$ka" ${kb:+--kernel-b "$kb"} "${args[@]}" \
		"$@" 2>&1 | tee "$out" || true
	# Count what run.sh printed, not its exit status: a run that dies
	# half-way has its missing checks counted as failed.
	pass=$(grep -o '^CHECK [0-9]* [^:]*: PASS' "$out" |
		cut -d' ' -f2 | sort -u | wc -l) || true
	fail=$((nchecks - pass))
	cpu=$(sed -n 's/^IPSEC [a-z ]*A=[^ ]* -cpu \([^ ]*\) .*/\1/p' "$out")
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	table+=("$(printf '%-22s %-22s %6s %6s %5ss' "$name" \
		"${cpu:-?}" "$pass" "$fail" "$(($(now) - t))")")
done

echo
printf '%-22s %-22s %6s %6s %6s\n' row "A cpu" passed failed \
	time
printf '%s\n' "${table[@]}"
echo "total time $(($(now) - t0)) s"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
