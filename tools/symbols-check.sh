#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# symbols-check.sh [KERNEL...]   (default: 6.1 6.12 7.3 and their -arm64)
#
# Two checks of the production build against each KERNEL.
#
# Names: no global symbol of the module may have a name the kernel has
# too, in its Module.symvers (exported), its System.map (vmlinux) or the
# symbol tables of its crypto modules (kernel/crypto, kernel/arch/*/crypto,
# kernel/lib/crypto).  The compiler's and Kbuild's own names are left
# out: __pfx_ and __cfi_ (a function's padding and kCFI preamble),
# __kcfi_typeid_ (the type of a function whose address is taken, the
# kernel's memset too), init_module and cleanup_module, section bounds.  Nothing misbinds then, since the module imports
# only what it names; but kallsyms, ftrace and kprobes would show two
# functions of one name, and an include of the kernel's header for the
# other one would not build.
#
# Test interface: against a kernel with CONFIG_KUNIT (the 7.3 test
# kernels built here have it; Fedora's and others' are built with
# CONFIG_KUNIT=m) the build must carry none of the KUnit test interface:
# no chacha_test_* symbol and nothing exported, and the implementation
# chosen at load and the stride chosen for each (chacha_impl,
# chacha_stride_core), and on x86-64 the AEADs' Poly1305 (chachapoly_pi),
# must be in .data..ro_after_init.  At least one KERNEL must have
# CONFIG_KUNIT, else this part would prove nothing.
#
# Prints the module's symbol table (its defined functions and data) and
# fails on either.  The test build (make CHACHA_TEST_HOOKS=1) is
# tools/kunit's.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fail=0 kunit=0

# kernel_names: every symbol name the kernel KVER (KROOT, HEADERS) has in
# Module.symvers, System.map and its crypto modules, one a line, sorted.
kernel_names() {
	local map=$KROOT/boot/System.map-$KVER ko tmp

	[ -f "$map" ] || map=$HEADERS/System.map
	[ -f "$map" ] || die "$KVER: no System.map"
	[ -f "$HEADERS/Module.symvers" ] || die "$KVER: no Module.symvers"
	tmp=$(mktemp)
	{
		awk '{ print $2 }' "$HEADERS/Module.symvers"
		awk '{ print $3 }' "$map"
		find "$KROOT/lib/modules/$KVER/kernel/crypto" \
			"$KROOT/lib/modules/$KVER/kernel/lib/crypto" \
			"$KROOT"/lib/modules/"$KVER"/kernel/arch/*/crypto \
			-name '*.ko*' 2>/dev/null | while read -r ko; do
			case $ko in
			*.xz) xz -dc "$ko" >"$tmp" ;;
			*.zst) zstd -qdc "$ko" >"$tmp" ;;
			*.gz) gzip -dc "$ko" >"$tmp" ;;
			*) cp "$ko" "$tmp" ;;
			esac
			"$nm" --defined-only "$tmp" | awk '{ print $3 }'
		done
	} | sort -u
	rm -f "$tmp"
}

for k in "${@:-6.1 6.12 7.3 6.1-arm64 6.12-arm64 7.3-arm64}"; do
	for kk in $k; do
		load_kernel "$kk"
		nm=nm objdump=objdump
		if [ "$KARCH" = arm64 ]; then
			nm=aarch64-linux-gnu-nm objdump=aarch64-linux-gnu-objdump
		fi
		ko=$(bash "$vm_dir/build-module.sh" "$kk" 2>"$cache/symbols-check-$kk.log") || {
			cat "$cache/symbols-check-$kk.log"
			die "the module does not build against $kk"
		}
		kconf=$(sed -n 's/^CONFIG_KUNIT=//p' "$HEADERS/.config")
		echo "symbols-check: $KVER (CONFIG_KUNIT=${kconf:-n}), $ko"

		# The module's global names against the kernel's.
		ours=$("$nm" -g --defined-only "$ko" | awk '{ print $3 }' |
			grep -v -E '^(__pfx_|__cfi_|__kcfi_typeid_|__start_|__stop_|__UNIQUE_ID|__this_module$|init_module$|cleanup_module$)' |
			sort -u)
		clash=$(comm -12 <(echo "$ours") <(kernel_names))
		if [ -n "$clash" ]; then
			echo "  FAIL: global names the kernel has too:"
			echo "$clash" | sed 's/^/    /'
			fail=1
		else
			echo "  PASS: none of $(echo "$ours" | wc -l) global names is the kernel's"
		fi

		[ -n "$kconf" ] || continue
		kunit=1
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
[ "$kunit" = 1 ] || die "no kernel with CONFIG_KUNIT: the test-interface check would prove nothing"
[ "$fail" = 0 ] || die "FAIL"
echo "symbols-check: PASS"
