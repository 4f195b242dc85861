#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# emulated-check.sh: the tests that boot kernels (make check's, which
# tools/check.sh starts), as jobs that two lanes, one per core, take in turn:
#   on Debian's kernels: the VM rows of 6.1, 6.12 and their PREEMPT_RT
#	flavours, x86-64 and arm64 (tools/vm/check-all.sh --job); the
#	Bochs rows on 6.1 (tools/bochs/check-all.sh --job); kunit/'s
#	compiles against Debian's headers; cryptsetup's own tests, their
#	ChaCha lines, on 6.1 (tools/peer-tests/run.sh --chacha); the IPsec
#	rows 6.1 (strongSwan, load) and arm64 6.1 against x86-64 6.1
#	(tools/ipsec/check-all.sh --job);
#   on the 7.3 kernels built here: the VM rows (x86-64, arm64), KUnit
#	(tools/kunit/check-all.sh --job: x86-64 on -cpu max; qemu64 and
#	arm64 are make kunit's only), the Bochs row with the default
#	implementation (not 7.3-impl: make bochs) and KUnit under Bochs, the
#	IPsec row with ip xfrm.
# Rows whose job in tools/rows is - repeat a check of make check's on
# another kernel or CPU; their make target (make vm, make bochs, make
# ipsec) runs them.
# A lane takes the first job in that queue (7.3's first, the longest
# first) that may run.  Each job's output is printed whole when it ends;
# then a table of the jobs, each failing job's FAIL lines, "kernel tests
# took N s" and "N passed, N failed", the checks of every job (a KUnit
# compile or run is one).  The exit status is non-zero if anything failed.
#
# CHACHA_GATES=DIR (tools/check.sh, make check): the lanes run beside the
# static checks.  Lane 1 starts when DIR/source and DIR/debian exist (the
# static source lane has ended; the W=1 builds against Debian's headers,
# which rebuild from scratch in the directories the rows use, are done),
# lane 2 when DIR/kernels exists (the static kernel lane has built the 7.3
# kernels and the module on them); a job on a 7.3 kernel waits for
# DIR/kernels too.
# Without it, both lanes start at once.
# CHACHA_BOCHS=0 leaves the Bochs rows out, CHACHA_PEER=0 the peer tests,
# CHACHA_IPSEC=0 the IPsec rows.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)

# The jobs, four words each: name, the gate it waits for (- for none),
# title, script under tools/ and its arguments (one word each: lists with
# commas).  Each writes its output to
# $tmp/NAME, its exit status to NAME.rc, its lane and seconds to NAME.t.
jobs=()
job() {
	jobs+=("$@")
}
bochs=${CHACHA_BOCHS:-1} peer=${CHACHA_PEER:-1} ipsec=${CHACHA_IPSEC:-1}
# 7.3's, the longest first: alone on a Zen 5 in session 20, KUnit under
# Bochs took 362 s of VM, Bochs's row 288 s, KUnit on x86-64 207 s, the
# arm64 row 178 s in session 19's warm make check; 7.3-max the longest.
job vm-7.3 kernels "VM rows, 7.3 x86-64" "vm/check-all.sh --job vm-7.3"
[ "$bochs" != 1 ] || job bochs-kunit kernels "KUnit under Bochs, 7.3" \
	"bochs/check-all.sh --job bochs-kunit"
[ "$bochs" != 1 ] || job bochs-7.3 kernels "AVX-512 under Bochs, 7.3" \
	"bochs/check-all.sh --job bochs-7.3"
job kunit-x86_64 kernels "KUnit, 7.3 x86-64" \
	"kunit/check-all.sh --job kunit-x86_64"
job vm-7.3-arm64 kernels "VM rows, 7.3 arm64" \
	"vm/check-all.sh --job vm-7.3-arm64"
[ "$ipsec" != 1 ] || job ipsec-7.3 kernels \
	"IPsec, 7.3, ip xfrm and kTLS" "ipsec/check-all.sh --job ipsec-7.3"
[ "$bochs" != 1 ] || job bochs-6.1 - "AVX-512 under Bochs, 6.1" \
	"bochs/check-all.sh --job bochs-6.1"
job vm-debian - "VM rows, Debian's x86-64 kernels" \
	"vm/check-all.sh --job vm-debian"
job vm-debian-arm64 - "VM rows, Debian's arm64 kernels" \
	"vm/check-all.sh --job vm-debian-arm64"
if [ "$ipsec" = 1 ]; then
	job ipsec-6.1-arm64 - "IPsec, A arm64 6.1, B x86-64 6.1" \
		"ipsec/check-all.sh --job ipsec-6.1-arm64"
	job ipsec-6.1 - "IPsec, 6.1, strongSwan, 4 vCPUs under load" \
		"ipsec/check-all.sh --job ipsec-6.1"
fi
if [ "$peer" = 1 ]; then
	job peer-6.1 - "cryptsetup's tests on 6.1" \
		"peer-tests/run.sh --kernel 6.1 --chacha"
fi
job kunit-debian - "KUnit's compiles against Debian's headers" \
	"kunit/check-all.sh --only debian"

# Every row of tools/rows with a job is in a job here (or in one that
# CHACHA_BOCHS=0 or CHACHA_IPSEC=0 leaves out): a row added to the table
# with a misspelt job would otherwise never run.
# shellcheck source=lib.sh
. "$top/tools/lib.sh"
# shellcheck disable=SC2119 # no selection: every row
all_rows=$(rows) || exit 1
while read -r j; do
	for ((i = 0; i < ${#jobs[@]}; i += 4)); do
		[ "${jobs[i]}" != "$j" ] || continue 2
	done
	case $j in
	bochs-*) [ "$bochs" = 1 ] || continue ;;
	ipsec-*) [ "$ipsec" = 1 ] || continue ;;
	esac
	echo "tools/rows: job $j is not one of make check's" >&2
	exit 1
done < <(awk '$2 != "-" { print $2 }' <<<"$all_rows" | sort -u)

# The queue: one job a line, "name gate".
for ((i = 0; i < ${#jobs[@]}; i += 4)); do
	echo "${jobs[i]} ${jobs[i + 1]}"
done >"$tmp/queue"

# open GATE: that gate is open (always, without CHACHA_GATES)
open() {
	[ -z "${CHACHA_GATES:-}" ] || [ "$1" = - ] || [ -e "$CHACHA_GATES/$1" ]
}
# take: print the first job of the queue whose gate is open and take it
# off; print "wait" if there are jobs but none may run yet, nothing if
# the queue is empty
take() {
	local name gate q

	exec 8<>"$tmp/queue.lock"
	flock 8
	q=$(cat "$tmp/queue")
	while read -r name gate; do
		open "$gate" || continue
		grep -vxF "$name $gate" <<<"$q" >"$tmp/queue"
		echo "$name"
		return
	done <<<"$q"
	[ -z "$q" ] || echo wait
}
# run_job NAME LANE: run it into its files, then print its output whole
run_job() {
	local i cmd t end

	for ((i = 0; i < ${#jobs[@]}; i += 4)); do
		[ "${jobs[i]}" = "$1" ] || continue
		read -ra cmd <<<"${jobs[i + 3]}"
		t=$(date +%s)
		bash "$top/tools/${cmd[0]}" "${cmd[@]:1}" >"$tmp/$1" 2>&1
		echo $? >"$tmp/$1.rc"
		end=$(date +%s)
		echo "$2 $((end - t))" >"$tmp/$1.t"
		{
			flock 8
			echo
			echo "=== ${jobs[i + 2]} (tools/${jobs[i + 3]}; lane $2," \
				"$((end - t)) s, ended at $((end - t0)) s)"
			cat "$tmp/$1"
		} 8>"$tmp/print.lock"
	done
}
# lane N GATE...: when the gates are open, take jobs until none is left
lane() {
	local n=$1 g name

	shift
	for g; do
		until open "$g"; do sleep 5; done
	done
	while :; do
		name=$(take)
		case $name in
		'') return 0 ;;
		wait) sleep 5 ;;
		*) run_job "$name" "$n" ;;
		esac
	done
}

lane 1 source debian &
l1=$!
lane 2 kernels
wait "$l1"

status=0 pass=0 fail=0
echo
printf '%-16s %-44s %6s %6s %4s %6s\n' job title passed failed lane time
for ((i = 0; i < ${#jobs[@]}; i += 4)); do
	f=$tmp/${jobs[i]}
	p='' x=''
	read -r p _ x _ < <(tail -n 1 "$f" 2>/dev/null)
	if ! [[ "$p$x" =~ ^[0-9]+$ ]]; then
		echo "no summary from ${jobs[i]}"
		p=0 x=1
	fi
	[ "$(cat "$f.rc" 2>/dev/null)" = 0 ] || status=1
	pass=$((pass + p)) fail=$((fail + x))
	read -r ln secs 2>/dev/null <"$f.t" || ln=- secs=-
	printf '%-16s %-44s %6s %6s %4s %5ss\n' "${jobs[i]}" \
		"${jobs[i + 2]}" "$p" "$x" "$ln" "$secs"
done
# What failed, where the end of a long log (CI's) still shows it: each
# failing job's FAIL lines, the first 8, cut to 200 characters.
for ((i = 0; i < ${#jobs[@]}; i += 4)); do
	f=$tmp/${jobs[i]}
	[ "$(cat "$f.rc" 2>/dev/null)" != 0 ] || continue
	echo "${jobs[i]} failed:"
	{ grep -E 'FAIL|not ok|CRASHED' "$f" || echo "(no FAIL line)"; } |
		head -n 8 | cut -c1-200 | sed 's/^/    /'
done
echo "kernel tests took $(($(date +%s) - t0)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || status=1
exit $status
