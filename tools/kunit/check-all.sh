#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kunit`: kunit/ compiles against Debian's 6.1 and 6.12 headers, and
# the KUnit suites run on the 7.3 test kernels (tools/kernel/build.sh; the
# VM checks boot the same ones): tools/rows' kunit rows on QEMU, x86-64
# with AVX2 (-cpu max) and with SSE2 only (-cpu qemu64), and arm64 (-cpu
# max); the row on Bochs is tools/bochs/check-all.sh's.  Prints kunit.py's
# summary for each; fails if anything fails.  CHACHA_KUNIT_KERNELS="7.3
# 6.12" runs the rows on the 6.12 debug kernels too (two more kernel
# builds, so not in make check).  --only "debian x86_64 qemu64 arm64" (the
# default: all; spaces or commas) picks the parts: the compiles against
# Debian's headers, and the rows kunit-x86_64, kunit-qemu64, kunit-arm64;
# --job JOB picks make check's job.  make check leaves qemu64 out: its VM
# rows on qemu64 check that the module picks sse2 there, and the run on
# max forces sse2 and scalar through the same suites.  The last line is
# "N passed, N failed", one a compile or a run.
set -uo pipefail

only="debian x86_64 qemu64 arm64" sel=()
case ${1:-} in
--only) only=${2//,/ } ;;
--job) only='' sel=("job=$2") ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# has PART: PART is one of --only's
has() {
	[[ " $only " = *" $1 "* ]]
}
names=()
for p in $only; do
	[ "$p" = debian ] || names+=("kunit-$p")
done
[ ${#names[@]} -eq 0 ] || sel+=("name=${names[*]}")
picked=''
if [ ${#sel[@]} -gt 0 ]; then
	picked=$(rows runner=kunit "${sel[@]}" | awk '$5 !~ /^bochs:/') ||
		exit 1
	[ -n "$picked" ] || die "no KUnit row on QEMU has ${sel[*]}"
fi

# Not niced: in make check the x86-64 run is the longest job, and
# beside two other emulators and a build it became the last to end.
# shellcheck disable=SC2054 # a CPU list
pin=(taskset -c 0,1)
t0=$(date +%s)
pass=0 fail=0
run() {
	echo "=== KUnit: $*"
	if "${pin[@]}" "$here/run.sh" "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
}
has debian && for k in 6.1 6.12; do
	if "${pin[@]}" bash "$here/compile-debian.sh" $k; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
for k in ${CHACHA_KUNIT_KERNELS:-7.3}; do
	while read -r row; do
		[ -n "$row" ] || continue
		row_args "$row"
		[ "$expect" = - ] || args+=(--expect "$expect")
		run -k "$k" --arch "$(kernel_arch "$kernel" |
			sed s/amd64/x86_64/)" --cpu "$cpu" "${args[@]}" </dev/null
	done <<<"$picked"
done
echo "KUnit checks: $pass passed, $fail failed ($(($(date +%s) - t0)) s)"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
