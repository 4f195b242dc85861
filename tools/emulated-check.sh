#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# emulated-check.sh: the last step of make check, the tests that boot
# kernels, on the machine's two cores:
#   QEMU lane: KUnit under QEMU (tools/kunit/check-all.sh, make kunit), then
#	the VM rows (tools/vm/check-all.sh), printed as they run;
#   other lane, beside it: the AVX-512 rows under Bochs
#	(tools/bochs/check-all.sh, make bochs), then cryptsetup's own tests,
#	their ChaCha lines, on 6.1 and 6.12 (tools/peer-tests/run.sh
#	--chacha); printed when the QEMU lane ends;
#   then, on both cores, the IPsec rows (tools/ipsec/check-all.sh, make
#	ipsec: two guests each).
# The last line, "N passed, N failed", counts the checks of the VM, Bochs,
# peer-test and IPsec rows; the exit status is non-zero if anything failed,
# KUnit included.  CHACHA_BOCHS=0 leaves the Bochs rows out, CHACHA_PEER=0
# the peer tests, CHACHA_IPSEC=0 the IPsec rows.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
status=0 pass=0 fail=0
# tally FILE: add the "N passed, N failed" of FILE's last line to the
# totals; a file without one fails.
tally() {
	local p f
	read -r p _ f _ < <(tail -n 1 "$1")
	if [[ "$p$f" =~ ^[0-9]+$ ]]; then
		pass=$((pass + p)) fail=$((fail + f))
	else
		echo "no summary in $2"
		status=1
	fi
}

# The other lane: each step's output in a file of its own, its exit
# status in FILE.rc.
other_lane() {
	local k
	if [ "${CHACHA_BOCHS:-1}" = 1 ]; then
		bash "$top/tools/bochs/check-all.sh" >"$tmp/bochs" 2>&1
		echo $? >"$tmp/bochs.rc"
	fi
	if [ "${CHACHA_PEER:-1}" = 1 ]; then
		for k in 6.1 6.12; do
			bash "$top/tools/peer-tests/run.sh" --kernel $k \
				--chacha >"$tmp/peer-$k" 2>&1
			echo $? >"$tmp/peer-$k.rc"
		done
	fi
}
other_lane &
other_pid=$!

bash "$top/tools/kunit/check-all.sh" || status=1
bash "$top/tools/vm/check-all.sh" 2>&1 | tee "$tmp/vm"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
tally "$tmp/vm" "the VM rows"

wait "$other_pid"
for s in bochs:"AVX-512 under Bochs (tools/bochs/check-all.sh)" \
	peer-6.1:"cryptsetup's tests on 6.1 (tools/peer-tests/run.sh --chacha)" \
	peer-6.12:"cryptsetup's tests on 6.12 (tools/peer-tests/run.sh --chacha)"; do
	f=$tmp/${s%%:*}
	[ -e "$f.rc" ] || continue
	echo
	echo "=== ${s#*:}"
	cat "$f"
	[ "$(cat "$f.rc")" = 0 ] || status=1
	tally "$f" "${s#*:}"
done

if [ "${CHACHA_IPSEC:-1}" = 1 ]; then
	echo
	echo "=== IPsec between two kernels (tools/ipsec/check-all.sh)"
	bash "$top/tools/ipsec/check-all.sh" 2>&1 | tee "$tmp/ipsec"
	[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
	tally "$tmp/ipsec" "the IPsec rows"
fi
echo "kernel tests took $(($(date +%s) - t0)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || status=1
exit $status
