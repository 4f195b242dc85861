#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/ct-static.sh OBJ...
#
# A static constant-time check for x86-64 cores that valgrind cannot run
# (Debian 12's valgrind 3.19 has no AVX-512).  In these cores the key,
# nonce and data live in memory and vector registers only; the general-
# purpose registers hold the pointer arguments, the length and the round
# count, which are public.  So every branch and every address is public
# if no instruction moves anything from memory, a vector register or a
# mask register into a general-purpose register or into the flags.  This
# script checks exactly that over the disassembly, and fails naming the
# instruction otherwise.  (Moves from a general-purpose into a mask
# register, as for the tail's byte mask, are fine.)
#
# Two parts are held to another rule: from the label
# chachapoly_small_avx512vl_mac on, the AEAD's one-call core runs
# Poly1305 on the general-purpose registers, with the mulx macros that
# valgrind checks in oot_poly1305_blocks_x86_64_mulx() (ct --mulx), and
# writes the tag with cmov; from poly1305_blocks_ifma_mac on, the IFMA
# code writes the tag with the same macro.  Their instructions are
# counted, not checked.
set -euo pipefail

[ $# -gt 0 ] || { echo "usage: $0 OBJ..." >&2; exit 2; }
status=0
for obj in "$@"; do
	objdump -d --no-show-raw-insn "$obj" | awk -v obj="$obj" '
		/^[0-9a-f]+ <.*>:$/ {
			fn = $2
			gpr = fn == "<chachapoly_small_avx512vl_mac>:" ||
			      fn == "<poly1305_blocks_ifma_mac>:"
		}
		/^ +[0-9a-f]+:\t/ && gpr { ngpr++; next }
		/^ +[0-9a-f]+:\t/ {
			split($0, f, "\t")
			insn = f[2]
			sub(/[ \t]*#.*$/, "", insn)
			n++
			op = insn; sub(/[ \t].*$/, "", op)
			args = insn; sub(/^[^ \t]+[ \t]*/, "", args)
			if (op ~ /^(nop|data16|cs)/)
				next
			# Operands, split at commas outside parentheses.
			k = 0; depth = 0; cur = ""
			for (i = 1; i <= length(args); i++) {
				c = substr(args, i, 1)
				if (c == "(") depth++
				if (c == ")") depth--
				if (c == "," && depth == 0) { a[++k] = cur; cur = "" }
				else cur = cur c
			}
			if (cur != "") a[++k] = cur
			dst = k ? a[k] : ""
			secret_src = 0
			for (i = 1; i < k; i++)
				if (a[i] ~ /\(/ || a[i] ~ /%([xyz]mm[0-9]+|k[0-7])/)
					secret_src = 1
			gpr_dst = dst ~ /^%[re]?[a-z0-9]+[dwb]?$/ &&
				  dst !~ /%([xyz]mm|k[0-7])/
			# Flags: compares and tests of memory or vector operands.
			flags = op ~ /^(cmp|test|kortest|ktest|vptest|v?u?comis|bt)/
			bad = ""
			if (gpr_dst && secret_src)
				bad = "into a general-purpose register"
			else if (gpr_dst && k == 1 && dst ~ /\(/)
				bad = "from memory"
			else if (flags && (secret_src || dst ~ /\(|%([xyz]mm|k[0-7])/))
				bad = "into the flags"
			if (op ~ /^(pop)/)
				bad = ""
			if (bad != "") {
				printf "ct-static: %s: %s: \"%s\" moves memory or vector data %s\n", obj, fn, insn, bad
				fails++
			}
		}
		END {
			if (ngpr)
				printf "ct-static: %s: %d instructions of Poly1305 on general-purpose registers, not checked here (see the top)\n", obj, ngpr
			printf "ct-static: %s: %d instructions, %d moving secret-capable data into general-purpose registers or flags\n", obj, n, fails
			exit fails ? 1 : 0
		}' || status=1
done
exit $status
