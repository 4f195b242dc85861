#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kunit`: kunit/ compiles against Debian's 6.1 and 6.12 headers, and
# the KUnit suites run on the 7.3 test kernels (tools/kernel/build.sh; the
# VM checks boot the same ones), x86-64 with AVX2 (-cpu max) and with SSE2
# only (-cpu qemu64), and arm64 (-cpu max).  Prints kunit.py's summary for
# each; fails if anything fails.  CHACHA_KUNIT_KERNELS="7.3 6.12" adds the
# 6.12 debug kernels (two more kernel builds, so not in make check).
# --only "debian x86_64 qemu64 arm64" (the default: all; spaces or commas)
# picks the parts: the compiles against Debian's headers, the x86-64 run on
# -cpu max, the one on qemu64, the arm64 run.  make check leaves qemu64
# out: its VM rows on qemu64 check that the module picks sse2 there, and
# the run on max forces sse2 and scalar through the same suites.  The last
# line is "N passed, N failed", one a compile or a run.
set -uo pipefail

only="debian x86_64 qemu64 arm64"
if [ "${1:-}" = --only ]; then
	only=${2//,/ }
fi
# has PART: PART is one of --only's
has() {
	[[ " $only " = *" $1 "* ]]
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2054 # a CPU list
pin=(taskset -c 0,1 nice -n 10)
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
	has x86_64 &&
		run -k "$k" --arch x86_64 --cpu max --expect scalar,sse2,ssse3,avx2
	has qemu64 && run -k "$k" --arch x86_64 --cpu qemu64 --expect scalar,sse2
	has arm64 && run -k "$k" --arch arm64 --cpu max,pauth-impdef=on
done
echo "KUnit checks: $pass passed, $fail failed ($(($(date +%s) - t0)) s)"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
