#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A noise-free second opinion: llvm-mca's model of each core's round loop,
# ours and the kernel's, for CPUs that no machine here may have.  Prints
# TSC-free model cycles per 64-byte block at 20 rounds: (cycles per loop
# iteration, i.e. one double round) x 10 / blocks per call.  Only the
# round loop: not the set-up, the final additions, transposes and XOR.
#
#   make -C tools/bench mca     (after building build/)
#
# The loop is the longest backward branch of the function, taken from the
# assembled object with objdump.  Needs llvm-mca (Debian: llvm-15; znver4
# needs LLVM 16 or later, so the newest llvm-mca-N installed is used).
set -eu
cd "$(dirname "$0")"

cpus=(znver3 znver4 skylake icelake-server)
# object:function:blocks (kernel-chacha-ssse3's 1-block code calls its
# chacha_permute; its loop is the one measured)
cores=(
	chacha20-sse2-x86_64:chacha20_4block_xor_sse2:4
	chacha20-sse2-x86_64:chacha20_2block_xor_sse2:2
	chacha20-sse2-x86_64:chacha20_1block_xor_sse2:1
	chacha20-ssse3-x86_64:chacha20_4block_xor_ssse3:4
	chacha20-ssse3-x86_64:chacha20_2block_xor_ssse3:2
	chacha20-ssse3-x86_64:chacha20_1block_xor_ssse3:1
	chacha20-avx2-x86_64:chacha20_8block_xor_avx2:8
	chacha20-avx2-x86_64:chacha20_4block_xor_avx2:4
	chacha20-avx2-x86_64:chacha20_2block_xor_avx2:2
	kernel-chacha-ssse3-x86_64:chacha_4block_xor_ssse3:4
	kernel-chacha-ssse3-x86_64:chacha_permute:1
	kernel-chacha-avx2-x86_64:chacha_8block_xor_avx2:8
	kernel-chacha-avx2-x86_64:chacha_4block_xor_avx2:4
	kernel-chacha-avx2-x86_64:chacha_2block_xor_avx2:2
	kernel-chacha-avx512vl-x86_64:chacha_8block_xor_avx512vl:8
	kernel-chacha-avx512vl-x86_64:chacha_4block_xor_avx512vl:4
	kernel-chacha-avx512vl-x86_64:chacha_2block_xor_avx512vl:2
)
# More objects (e.g. an AVX-512 core of ours) may be given as arguments.
cores+=("$@")

mca=
for v in 19 18 17 16 15; do
	if command -v "llvm-mca-$v" >/dev/null; then
		mca=llvm-mca-$v
		break
	fi
done
[ -n "$mca" ] || { echo "mca: no llvm-mca-N (apt-get install llvm-15)" >&2; exit 1; }

# The round loop of $2 in object $1, as assembly llvm-mca reads.
loop() {
	objdump -d --no-show-raw-insn "build/$1.o" | awk -v fn="$2" '
		function hex(s,  i, v) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef",
						  substr(s, i, 1)) - 1
			return v
		}
		$0 ~ "^[0-9a-f]+ <" fn ">:$" { on = 1; next }
		on && /^$/ { exit }
		on && /^ *[0-9a-f]+:/ {
			a = $1; sub(/:$/, "", a); addr = hex(a)
			line[++n] = $0; at[n] = addr
			if ($2 ~ /^j/ && $3 ~ /^[0-9a-f]+$/) {
				t = hex($3)
				if (t < addr && addr - t > best) {
					best = addr - t; from = t; to = addr
				}
			}
		}
		END {
			for (i = 1; i <= n; i++) {
				if (at[i] < from || at[i] > to)
					continue
				s = line[i]
				sub(/^ *[0-9a-f]+:[ \t]*/, "", s)
				sub(/[ \t]*#.*$/, "", s)
				if (at[i] == to)
					s = "jne 0b"
				if (at[i] == from)
					print "0:"
				print s
			}
		}'
}

for noalias in true false; do
if [ "$noalias" = true ]; then
	echo "loads never wait for stores (a spill and its reload cost nothing):"
else
	echo "loads wait for every older store (spills serialise the loop):"
fi
printf '%-52s' "model cycles per 64-byte block, 20 rounds"
for c in "${cpus[@]}"; do printf '%15s' "$c"; done
printf '\n'
for spec in "${cores[@]}"; do
	IFS=: read -r obj fn blocks <<<"$spec"
	printf '%-52s' "$obj:$fn"
	for c in "${cpus[@]}"; do
		cyc=$(loop "$obj" "$fn" | "$mca" -mtriple=x86_64 -mcpu="$c" \
			-iterations=200 -noalias="$noalias" 2>/dev/null |
			awk '/^Total Cycles:/ { t = $3 } /^Iterations:/ { i = $2 }
			     END { if (i) printf "%.1f", t / i }' || true)
		if [ -n "$cyc" ]; then
			printf '%15.1f' "$(echo "$cyc * 10 / $blocks" | bc -l)"
		else
			printf '%15s' "-"
		fi
	done
	printf '\n'
done
done
echo "($mca; loop = the longest backward branch of each function)"
