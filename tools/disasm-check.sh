#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# disasm-check.sh [KERNEL...]   (default: 6.1 6.12)
#
# What the module costs per request in the build users run, read from the
# module itself: built against Debian's headers (tools/vm/build-module.sh)
# with the kernel's own flags (retpolines, return thunks,
# CONFIG_INIT_STACK_ALL_ZERO's -ftrivial-auto-var-init=zero), then
# disassembled.  For every function on the request path it fails on
#
#   - an indirect call or jump: a call of __x86_indirect_thunk_* (a
#     retpoline, where the CPU needs one) or a plain "call *"/"jmp *";
#   - a zero-fill of the stack that the compiler added: the function's
#     "rep stos" and memset calls are counted in this build and in a second
#     one with -ftrivial-auto-var-init=uninitialized (KCFLAGS, after the
#     kernel's flags); every one more in the kernel's build is an
#     automatic zero-fill of a local that the code writes before reading.
#     The one allowed: struct skcipher_walk in chacha_stream_xor(), which
#     skcipher_walk_virt() reads before it has written all of it
#     (walk->flags on 6.1), so it must stay zeroed.
#
# CHACHA_SRC=<tree> checks another tree (e.g. an older commit's).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The request path: the glue's, then chacha20_core.c's, every function of
# it that is a symbol of its own in these builds.  The static ones the
# compiler inlines (chacha_simd_begin/end, chacha_crypt_scalar, the core
# walk) are checked as part of their callers, and a function's .cold part
# as part of it.  A listed function missing from a build fails the check,
# naming it: a rename or a new inlining must update this list, or the
# check would silently shrink.
# The AEADs' path likewise (rfc7539 and rfc7539esp, encrypt and decrypt):
# chacha20poly1305_glue.c's, then chacha20poly1305_core.c's and
# poly1305_core.c's (its load_le64/store_le64 are calls of their own in
# these builds), then the assembly the AEADs alone call: the stitched
# core and Poly1305 (a .constprop, .isra or .part clone is checked under
# its function's name).  Inlined, and so checked in their callers:
# chachapoly_hash_ad, chachapoly_text, chachapoly_xor,
# chachapoly_stitched, chachapoly_two_pass, chachapoly_ad_end.
funcs=(chacha_skcipher_crypt chacha_stream_xor xchacha_stream_xor
       hchacha_block_scalar
       chacha_init_state chacha_crypt_request chacha_crypt_impl
       chacha_crypt_bounce chacha_xor_block_scalar chacha_permute
       chachapoly_encrypt chachapoly_decrypt chachapoly_walk
       chachapoly_poly_for
       chachapoly_init chachapoly_ad chachapoly_crypt chachapoly_final
       chachapoly_step chachapoly_blocks chachapoly_pad
       poly1305_core_blocks poly1305_core_init poly1305_core_emit
       load_le64 store_le64
       chachapoly_8block_xor_avx2 poly1305_blocks_x86_64_mulx
       poly1305_blocks_avx512ifma)
# The skcipher walks, which must start zeroed (see above).
declare -A allowed=([chacha_stream_xor]=1 [chachapoly_walk]=1)

# dump KO: "function indirect fills" for each function of the list.
dump() {
	objdump -dr --no-show-raw-insn "$1" | awk -v list="${funcs[*]}" '
		BEGIN { n = split(list, f, " "); for (i = 1; i <= n; i++) want[f[i]] = 1 }
		/^[0-9a-f]+ <[^>]+>:$/ {
			fn = $2; gsub(/[<>:]/, "", fn); sub(/\.cold$/, "", fn)
			sub(/\.(constprop|isra|part)\.[0-9]+$/, "", fn)
			if (fn in want) { seen[fn] = 1; ind[fn] += 0; fill[fn] += 0 }
			next
		}
		!(fn in want) { next }
		/R_X86_64_.*__x86_indirect_(thunk|call_thunk|its_thunk)/ { ind[fn]++ }
		/\t(cs )?(call|jmp) +\*/ { ind[fn]++ }
		/\trep stos/ { fill[fn]++ }
		/R_X86_64_.*[ \t](__)?memset-/ { fill[fn]++ }
		END { for (fn in seen) print fn, ind[fn], fill[fn] }' | sort
}

fail=0
for k in "${@:-6.1 6.12}"; do
	for kk in $k; do
		log=$cache/disasm-check-$kk.log
		if ! ko=$(bash "$vm_dir/build-module.sh" "$kk" 2>"$log") ||
		   ! ko0=$(CHACHA_BUILD_TAG=noautoinit \
			   CHACHA_KCFLAGS=-ftrivial-auto-var-init=uninitialized \
			   bash "$vm_dir/build-module.sh" "$kk" 2>>"$log"); then
			cat "$log"
			die "the module does not build against $kk"
		fi
		dump "$ko" >"$ko.disasm-check"
		dump "$ko0" >"$ko0.disasm-check"
		echo "disasm-check: $kk ($ko)"
		for fn in "${funcs[@]}"; do
			if ! awk -v f="$fn" '$1 == f { found = 1 } END { exit !found }' \
				"$ko.disasm-check"; then
				echo "  FAIL: $fn is not a function of this build (renamed, removed or inlined: update the list)"
				fail=1
			fi
		done
		printf '  %-26s %9s %16s  %s\n' function indirect "auto-init fills" verdict
		while read -r fn ind fills; do
			fills0=$(awk -v f="$fn" '$1 == f { print $3 }' "$ko0.disasm-check")
			extra=$((fills - ${fills0:-0}))
			verdict=PASS
			if [ "$ind" -gt 0 ] || [ "$extra" -gt "${allowed[$fn]:-0}" ]; then
				verdict=FAIL
				fail=1
			fi
			printf '  %-26s %9s %16s  %s\n' "$fn" "$ind" "$extra" "$verdict"
		done <"$ko.disasm-check"
	done
done
if [ "$fail" != 0 ]; then
	echo "disasm-check: FAIL (a listed function missing, an indirect call, or a zero-fill the compiler added, on the request path)"
	exit 1
fi
echo "disasm-check: PASS (${*:-6.1 6.12}: no indirect call and no added zero-fill on the request path)"
