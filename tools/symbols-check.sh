#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# symbols-check.sh [KERNEL...]   (default: 7.3 7.3-arm64)
#
# The production build against a kernel with CONFIG_KUNIT (the 7.3 test
# kernels built here have it; Fedora's and others' are built with
# CONFIG_KUNIT=m) must carry none of the KUnit test interface: no
# chacha_test_* symbol and nothing exported, and the implementation
# chosen at load and the stride chosen for each (chacha_impl,
# chacha_stride_core), and on x86-64 the AEADs' Poly1305 (chachapoly_pi),
# must be in .data..ro_after_init.  Prints the module's
# symbol table (its defined functions and data) and fails otherwise.
# The test build (make CHACHA_TEST_HOOKS=1) is tools/kunit's.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fail=0
for k in "${@:-7.3 7.3-arm64}"; do
	for kk in $k; do
		load_kernel "$kk"
		nm=nm objdump=objdump
		if [ "$KARCH" = arm64 ]; then
			nm=aarch64-linux-gnu-nm objdump=aarch64-linux-gnu-objdump
		fi
		grep -q '^CONFIG_KUNIT=[ym]' "$HEADERS/.config" ||
			die "$KVER has no CONFIG_KUNIT: the check would prove nothing"
		ko=$(bash "$vm_dir/build-module.sh" "$kk" 2>"$cache/symbols-check-$kk.log") || {
			cat "$cache/symbols-check-$kk.log"
			die "the module does not build against $kk"
		}
		echo "symbols-check: $KVER (CONFIG_KUNIT=$(sed -n 's/^CONFIG_KUNIT=//p' "$HEADERS/.config")), $ko"
		"$nm" --defined-only "$ko" | grep -E ' [TtDdRrBb] ' |
			grep -v -E ' (__pfx_|\.L|__UNIQUE_ID|__initcall|__exitcall|__mod_|__param|__already)' |
			sed 's/^/    /'
		bad=$("$nm" "$ko" | grep -E 'chacha_test_|__ksymtab|__kstrtab' || true)
		if [ -n "$bad" ]; then
			echo "  FAIL: test interface or exports in the production build:"
			echo "$bad" | sed 's/^/    /'
			fail=1
		else
			echo "  PASS: no chacha_test_* symbol, nothing exported"
		fi
		# The choices made at load: the implementation, each one's
		# stride, and on x86-64 (the AEADs) the Poly1305.
		syms="chacha_impl chacha_stride_core"
		[ "$KARCH" = arm64 ] || syms+=" chachapoly_pi"
		for sym in $syms; do
			sect=$("$objdump" -t "$ko" | awk -v s="$sym" '$NF == s { print $(NF - 2) }')
			if [ "$sect" = ".data..ro_after_init" ]; then
				echo "  PASS: $sym is in $sect"
			else
				echo "  FAIL: $sym is in '${sect:-nowhere}', not .data..ro_after_init"
				fail=1
			fi
		done
	done
done
[ "$fail" = 0 ] || die "FAIL"
echo "symbols-check: PASS"
