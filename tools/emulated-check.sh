#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# emulated-check.sh: the last step of make check, the tests that boot
# kernels.  On one core, KUnit under QEMU (tools/kunit/check-all.sh, make
# kunit), then the VM rows under QEMU (tools/vm/check-all.sh); beside them,
# on the other core, the AVX-512 rows under Bochs (tools/bochs/check-all.sh,
# make bochs), whose output follows theirs.  The last line, "N passed, N
# failed", counts the checks of the VM and Bochs rows; the exit status is
# non-zero if anything failed, KUnit included.  CHACHA_BOCHS=0 leaves the
# Bochs rows out.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bochs_out=$(mktemp) vm_out=$(mktemp)
trap 'rm -f "$bochs_out" "$vm_out"' EXIT
t0=$(date +%s)

if [ "${CHACHA_BOCHS:-1}" = 1 ]; then
	bash "$top/tools/bochs/check-all.sh" >"$bochs_out" 2>&1 &
	bochs_pid=$!
fi
status=0
bash "$top/tools/kunit/check-all.sh" || status=1
bash "$top/tools/vm/check-all.sh" 2>&1 | tee "$vm_out"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
read -r pass _ fail _ < <(tail -n 1 "$vm_out")
if [ "${CHACHA_BOCHS:-1}" = 1 ]; then
	wait "$bochs_pid" || status=1
	echo
	echo "=== AVX-512 under Bochs (tools/bochs/check-all.sh)"
	cat "$bochs_out"
	read -r p _ f _ < <(tail -n 1 "$bochs_out")
	pass=$((${pass:-0} + ${p:-0}))
	fail=$((${fail:-0} + ${f:-0}))
fi
echo "kernel tests took $(($(date +%s) - t0)) s"
[[ "$pass$fail" =~ ^[0-9]+$ ]] || { echo "no summary"; status=1; }
echo "${pass:-0} passed, ${fail:-0} failed"
exit $status
