#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# disasm-check.sh [KERNEL...]   (default: 6.1 6.12)
#
# What the module costs per request in the build users run, read from the
# module itself: built against Debian's headers (tools/vm/build-module.sh)
# with the kernel's own flags (retpolines, return thunks,
# CONFIG_INIT_STACK_ALL_ZERO's -ftrivial-auto-var-init=zero), then
# disassembled.  For every function on the request path of the skciphers
# and of the AEADs (rfc7539 and rfc7539esp, encrypt and decrypt), listed
# in tools/disasm-budget, it fails on
#
#   - an indirect call or jump: a call of __x86_indirect_thunk_* (a
#     retpoline, where the CPU needs one) or a plain "call *"/"jmp *";
#   - a zero-fill of the stack that the compiler added: the function's
#     "rep stos" and memset calls are counted in this build and in a second
#     one with -ftrivial-auto-var-init=uninitialized (KCFLAGS, after the
#     kernel's flags); every one more in the kernel's build is an
#     automatic zero-fill of a local that the code writes before reading.
#     The ones allowed: the struct skcipher_walk in chacha_stream_xor() and
#     chachapoly_walk(), which skcipher_walk_virt() and
#     skcipher_walk_aead_*() read before they have written all of it
#     (walk->flags on 6.1), so it must stay zeroed;
#   - more calls than its budget in tools/disasm-budget (the most either
#     build had when it was set; lowering one is a one-line change).  A
#     call is a "call" instruction, or a jump to another function's entry
#     (a tail call), to anything: the module's functions, memcpy, the
#     kernel's helpers (scatterwalk_*, skcipher_walk_*, kernel_fpu_*,
#     irq_fpu_usable, the Poly1305 library).  Not counted: __fentry__
#     (ftrace's, a NOP until traced), __sanitizer_* (instrumentation, not
#     the code's), and the calls no good request makes: __stack_chk_fail,
#     fortify_panic, __warn_printk, __ubsan_handle_*; a jump to
#     __x86_return_thunk is a return, and one to the function itself or
#     its .cold part a branch.  Each is a static count, a call site, not
#     how often it runs: a new call on the path, a memcpy the compiler no
#     longer inlines, or a helper that stops being inlined shows here.
#   - a function of the list missing from the build;
#   - a call from a function of the list to one of the module's own that
#     is not listed, but for the hand-written ChaCha cores: a helper that
#     stopped being inlined, or a new one, whose calls nothing checks;
#   - arm64: an instruction of the module's assembly that writes x30,
#     the return address, but to restore it.
#
# It prints a table per kernel (the calls and the budget of each function)
# and the AEAD path's total.  CHACHA_SRC=<tree> checks another tree (e.g.
# an older commit's) against this tree's list and budgets.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The list and the budgets: function, path (skcipher, aead, both),
# calls; see the file.
budget_file=$top_dir/tools/disasm-budget
funcs=()
declare -A budget=() path=()
while read -r fn p b extra; do
	case $fn in '' | '#'*) continue ;; esac
	[[ $p =~ ^(skcipher|aead|both)$ && $b =~ ^[0-9]+$ && -z $extra &&
	   -z ${budget[$fn]:-} ]] ||
		die "$budget_file: bad line: $fn $p $b $extra"
	funcs+=("$fn")
	path[$fn]=$p
	budget[$fn]=$b
done <"$budget_file"
[ ${#funcs[@]} -gt 0 ] || die "$budget_file: no function"
# The skcipher walks, which must start zeroed (see above).
declare -A allowed=([chacha_stream_xor]=1 [chachapoly_walk]=1)
# The hand-written ChaCha cores, which the list leaves out.
cores='^chacha20_[0-9]+block_'

# dump KO: "function indirect fills calls callees" for each function of
# the list, callees the counted calls' targets, comma-separated (- for
# none).  A call's or a jump's target is its relocation's symbol where it
# has one (an import, or code in another section), else the symbol
# objdump names; a jump to a section (.text.unlikely, a .cold part) or to
# an offset inside a function is a branch, not a call, and so is a jump
# from fn to its inner label fn_mac (listed as a function of its own).
dump() {
	objdump -dr --no-show-raw-insn "$1" | awk -v list="${funcs[*]}" '
		# The function a symbol belongs to: without a .cold part'"'"'s or a
		# clone'"'"'s suffix.
		function base(s) {
			while (sub(/\.(cold|constprop|isra|part)(\.[0-9]+)?$/, "", s))
				;
			return s
		}
		# The pending call or jump of fn, to t (a symbol and its addend).
		function settle(t,   name) {
			pend = 0
			name = t
			sub(/[-+]0x[0-9a-f]+$/, "", name)
			if (name == "__x86_return_thunk" || name ~ /^__x86_indirect_/)
				return		# a return; an indirect call (below)
			if (pjmp && (name ~ /^\./ || base(name) == fn ||
				     name == fn "_mac" || t ~ /\+0x/))
				return		# a branch, to an inner label of fn too
			if (name ~ uncounted)
				return
			calls[fn]++
			callees[fn] = callees[fn] "," name
		}
		BEGIN {
			n = split(list, f, " ")
			for (i = 1; i <= n; i++)
				want[f[i]] = 1
			uncounted = "^(__fentry__|__sanitizer_.*|__stack_chk_fail|" \
				"_?_?fortify_panic|__warn_printk|__ubsan_handle_.*)$"
		}
		pend && /^\t+[0-9a-f]+: R_X86_64_/ {
			t = $0
			sub(/.*R_X86_64_[A-Z0-9_]+[ \t]+/, "", t)
			settle(t)
		}
		pend { settle(target) }
		/^[0-9a-f]+ <[^>]+>:$/ {
			fn = $2; gsub(/[<>:]/, "", fn); fn = base(fn)
			if (fn in want) {
				seen[fn] = 1; ind[fn] += 0; fill[fn] += 0; calls[fn] += 0
			}
			next
		}
		!(fn in want) { next }
		/R_X86_64_.*__x86_indirect_(thunk|call_thunk|its_thunk)/ { ind[fn]++ }
		/\t(cs )?(call|jmp) +\*/ { ind[fn]++ }
		/\trep stos/ { fill[fn]++ }
		/R_X86_64_.*[ \t](__)?memset-/ { fill[fn]++ }
		# A direct call or jump: settled on the next line, which may be
		# its relocation.
		/^ *[0-9a-f]+:\t((cs|ds|bnd|notrack) )*(call|j[a-z]+) +[0-9a-f]+ <[^>]+>$/ {
			pjmp = $0 !~ /:\t((cs|ds|bnd|notrack) )*call/
			target = $0
			sub(/.*</, "", target)
			sub(/>$/, "", target)
			pend = 1
		}
		END {
			if (pend)
				settle(target)
			for (fn in seen)
				print fn, ind[fn], fill[fn], calls[fn],
				      calls[fn] ? substr(callees[fn], 2) : "-"
		}' | sort
}

fail=0
declare -A most=()	# function: its most calls in the builds checked
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
		declare -A ind=() fills=() ncalls=() callees=() fills0=()
		while read -r fn i f c cl; do
			ind[$fn]=$i fills[$fn]=$f ncalls[$fn]=$c callees[$fn]=$cl
		done <"$ko.disasm-check"
		while read -r fn _ f _ _; do
			fills0[$fn]=$f
		done <"$ko0.disasm-check"
		# The module's own functions, clones and .cold parts as theirs.
		declare -A own=()
		while read -r sym; do
			own[$sym]=1
		done < <(nm "$ko" | awk '$2 ~ /^[tT]$/ { s = $3
			while (sub(/\.(cold|constprop|isra|part)(\.[0-9]+)?$/, "", s))
				;
			print s }')
		printf '  %-28s %-8s %8s %5s %5s %6s  %s\n' function path \
			indirect fills calls budget verdict
		total=0 total_budget=0
		problems=()
		for fn in "${funcs[@]}"; do
			b=${budget[$fn]}
			if [ "${path[$fn]}" != skcipher ]; then
				total_budget=$((total_budget + b))
			fi
			if [ -z "${ncalls[$fn]:-}" ]; then
				printf '  %-28s %-8s %8s %5s %5s %6s  %s\n' "$fn" \
					"${path[$fn]}" - - - "$b" FAIL
				problems+=("$fn is not a function of this build (renamed, removed or inlined: update tools/disasm-budget)")
				continue
			fi
			c=${ncalls[$fn]}
			extra=$((fills[$fn] - ${fills0[$fn]:-0}))
			[ "${path[$fn]}" = skcipher ] || total=$((total + c))
			if [ -z "${most[$fn]:-}" ] || [ "$c" -gt "${most[$fn]}" ]; then
				most[$fn]=$c
			fi
			verdict=PASS
			if [ "${ind[$fn]}" -gt 0 ]; then
				problems+=("$fn: ${ind[$fn]} indirect call(s) or jump(s)")
			fi
			if [ "$extra" -gt "${allowed[$fn]:-0}" ]; then
				problems+=("$fn: $extra zero-fill(s) the compiler added")
			fi
			if [ "$c" -gt "$b" ]; then
				problems+=("$fn: $c calls, over its budget of $b (${callees[$fn]//,/ })")
			fi
			# A callee of the module's own must be listed too, but
			# for the hand-written ChaCha cores (see the list).
			unlisted=0
			declare -A told=()
			for t in ${callees[$fn]//,/ }; do
				if [ -n "${own[$t]:-}" ] && [ -z "${budget[$t]:-}" ] &&
				   [ -z "${told[$t]:-}" ] && ! [[ $t =~ $cores ]]; then
					told[$t]=1
					problems+=("$fn calls $t, a function of the module not in tools/disasm-budget: its calls go unchecked")
					unlisted=1
				fi
			done
			unset told
			if [ "${ind[$fn]}" -gt 0 ] || [ "$unlisted" != 0 ] ||
			   [ "$extra" -gt "${allowed[$fn]:-0}" ] || [ "$c" -gt "$b" ]; then
				verdict=FAIL
			fi
			printf '  %-28s %-8s %8s %5s %5s %6s  %s\n' "$fn" \
				"${path[$fn]}" "${ind[$fn]}" "$extra" "$c" "$b" "$verdict"
		done
		printf '  %-28s %-8s %8s %5s %5s %6s\n' "AEAD path total" \
			"aead+both" "" "" "$total" "$total_budget"
		for p in "${problems[@]}"; do
			echo "  FAIL: $p"
			fail=1
		done
		unset ind fills ncalls callees fills0 own
	done
done
# A budget above every build's count can come down (deliberately: the
# builds checked may not be all that matter).
for fn in "${funcs[@]}"; do
	if [ -n "${most[$fn]:-}" ] && [ "${most[$fn]}" -lt "${budget[$fn]}" ]; then
		echo "disasm-check: note: $fn has at most ${most[$fn]} calls here, its budget ${budget[$fn]}: lower it in tools/disasm-budget?"
	fi
done
# arm64: x30 holds the return address in all of the module's assembly, so
# that an unwinder that takes an interrupted frame's LR from x30 finds
# one.  No instruction may write x30 or w30 but the epilogue's
# "ldp x29, x30" (its first operand x29).  Assembled here as the harness
# does.
x30_dir=$(mktemp -d)
for s in chacha20-neon-arm64 poly1305-arm64; do
	aarch64-linux-gnu-gcc -I"$top_dir/tests/shim" -I"${CHACHA_SRC:-$top_dir}" \
		-D__ASSEMBLY__ -c -o "$x30_dir/$s.o" "${CHACHA_SRC:-$top_dir}/$s.S"
	writes=$(aarch64-linux-gnu-objdump -d --no-show-raw-insn "$x30_dir/$s.o" |
		 grep -E ':[[:space:]]+[a-z0-9.]+[[:space:]]+[xw]30\b' || true)
	if [ -n "$writes" ]; then
		echo "  FAIL: $s.S writes x30, the return address:"
		echo "$writes" | sed 's/^/    /'
		fail=1
	else
		echo "  $s.S: x30 only saved and restored"
	fi
done
rm -rf "$x30_dir"
if [ "$fail" != 0 ]; then
	echo "disasm-check: FAIL (a listed function missing, an unlisted one called, an indirect call, a zero-fill the compiler added, or calls over a budget, on the request path; or x30 written in arm64 assembly)"
	exit 1
fi
echo "disasm-check: PASS (${*:-6.1 6.12}: no indirect call, no added zero-fill and no function over its call budget on the request path)"
