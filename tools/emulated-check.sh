#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# emulated-check.sh: the last step of make check, the tests that boot
# kernels, in two lanes, one per core:
#   the QEMU lane: KUnit under QEMU (tools/kunit/check-all.sh, make kunit),
#	then the VM rows (tools/vm/check-all.sh), printed as they run;
#   the Bochs lane, beside it: the AVX-512 rows under Bochs
#	(tools/bochs/check-all.sh, make bochs);
# then each lane, when its own part is done, takes the next of the shared
# jobs until none is left: cryptsetup's own tests, their ChaCha lines, on
# 6.1 and on 6.12 (tools/peer-tests/run.sh --chacha), and the IPsec rows
# (tools/ipsec/check-all.sh, make ipsec: two guests each, 6.1, 6.12, 7.3,
# arm64 6.1 against x86-64 6.1).  What did not run live is printed when
# both lanes have ended: the Bochs rows, the peer tests, the IPsec rows.
# The last line, "N passed, N failed", counts the checks of the VM,
# Bochs, peer-test and IPsec rows; the exit status is non-zero if anything
# failed, KUnit included.  CHACHA_BOCHS=0 leaves the Bochs rows out,
# CHACHA_PEER=0 the peer tests, CHACHA_IPSEC=0 the IPsec rows.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)

# The jobs printed at the end, in this order: NAME, title, script under
# tools/ and its arguments.  Each writes its output to $tmp/NAME and its
# exit status to $tmp/NAME.rc.
jobs=()
[ "${CHACHA_BOCHS:-1}" != 1 ] || jobs+=(bochs
	"AVX-512 under Bochs (tools/bochs/check-all.sh)"
	"bochs/check-all.sh")
if [ "${CHACHA_PEER:-1}" = 1 ]; then
	for k in 6.1 6.12; do
		jobs+=("peer-$k"
			"cryptsetup's tests on $k (tools/peer-tests/run.sh --chacha)"
			"peer-tests/run.sh --kernel $k --chacha")
	done
fi
[ "${CHACHA_IPSEC:-1}" != 1 ] || jobs+=(ipsec
	"IPsec between two kernels (tools/ipsec/check-all.sh)"
	"ipsec/check-all.sh")
# The shared queue: every job but the Bochs rows, one name a line.
for ((i = 0; i < ${#jobs[@]}; i += 3)); do
	[ "${jobs[i]}" = bochs ] || echo "${jobs[i]}"
done >"$tmp/queue"

# run_job NAME: run that job into its files.
run_job() {
	local i cmd
	for ((i = 0; i < ${#jobs[@]}; i += 3)); do
		[ "${jobs[i]}" = "$1" ] || continue
		read -ra cmd <<<"${jobs[i + 2]}"
		bash "$top/tools/${cmd[0]}" "${cmd[@]:1}" >"$tmp/$1" 2>&1
		echo $? >"$tmp/$1.rc"
	done
}
# drain_queue: take the queue's first job and run it, until it is empty.
drain_queue() {
	local name
	while :; do
		# shellcheck disable=SC2016 # $1 is sh's
		name=$(flock "$tmp/queue" sh -c \
			'head -n 1 "$1"; sed -i 1d "$1"' sh "$tmp/queue")
		[ -n "$name" ] || return 0
		run_job "$name"
	done
}

{
	[ "${CHACHA_BOCHS:-1}" != 1 ] || run_job bochs
	drain_queue
} &
other=$!

status=0 pass=0 fail=0
# tally FILE WHAT: add the "N passed, N failed" of FILE's last line to the
# totals; a file without one fails.
tally() {
	local p f
	read -r p _ f _ < <(tail -n 1 "$1")
	if [[ "$p$f" =~ ^[0-9]+$ ]]; then
		pass=$((pass + p)) fail=$((fail + f))
	else
		echo "no summary from $2"
		status=1
	fi
}

bash "$top/tools/kunit/check-all.sh" || status=1
bash "$top/tools/vm/check-all.sh" 2>&1 | tee "$tmp/vm"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
tally "$tmp/vm" "the VM rows"
drain_queue
wait "$other"

for ((i = 0; i < ${#jobs[@]}; i += 3)); do
	f=$tmp/${jobs[i]}
	echo
	echo "=== ${jobs[i + 1]}"
	cat "$f" 2>/dev/null
	[ "$(cat "$f.rc" 2>/dev/null)" = 0 ] || status=1
	tally "$f" "${jobs[i + 1]}"
done
echo "kernel tests took $(($(date +%s) - t0)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || status=1
exit $status
