#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/mca.sh [OUT.md]
#
#   MCA_SRC=dir   take our .S files from dir (default: the repository)
#
# A static, noise-free second opinion on the benchmark: llvm-mca's model of
# the round loop of every ChaCha core, ours and the kernel's, on CPUs no
# machine here has.  For each core in the table below: assemble its file,
# take the round loop out of the object code (objdump, from the target of
# the function's widest backward branch to that branch), and let llvm-mca
# run it on each CPU model.  It prints, and writes to OUT.md (default
# build/mca.md), cycles per 64-byte block (and which LLVM scheduling model
# each CPU name uses: several share one):
#
#	loop cycles per iteration x iterations per 20 rounds / blocks
#
# That counts the rounds only: loading the state, the feed-forward, the
# transposes and the XOR with the data come on top (the benchmark measures
# them; add roughly 10-15% at 20 rounds).
#
# The kernel's files come from Debian's linux-source-6.12 (fetched by
# tools/debfetch.sh, extracted at run time into
# ${CHACHA_CACHE:-~/.cache/chacha20-simd}/mca-kernel/, never into the
# repository).  Needs llvm-mca-19 (Debian 12: llvm-19) and, for arm64,
# aarch64-linux-gnu-gcc/objdump; installs them with apt-get when missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${CHACHA_CACHE:-$HOME/.cache/chacha20-simd}
kcache=$cache/mca-kernel
out=${1:-$here/build/mca.md}
work=$here/build/mca
rounds=20

X86_CPUS="znver3 znver4 skylake skylake-avx512 icelake-server"
# The models of CPUs without AVX-512, for the x86-avx512 rows.
NO_AVX512_CPUS="znver3 skylake"
# arm64: the CPUs users rent and carry (Graviton 2-4, Axion, Grace, Cobalt
# 100, Raspberry Pi 4 and 5, phones).  Several names share one scheduling
# model in LLVM 19; the table's second line says which model each uses.
ARM64_CPUS="neoverse-n1 neoverse-v1 neoverse-v2 neoverse-n2 cortex-a55
cortex-a510 cortex-a72 cortex-a76 cortex-a78 cortex-x1 cortex-a710"

# One line per core: whose, arch (x86, x86-avx512 or arm64), file,
# function, blocks per call, rounds per loop iteration.  Ours are in the
# repository's top directory, the kernel's in arch/<arch>/crypto of
# linux-source-6.12.  The kernel's 1-block cores loop in chacha_permute;
# its arm64 "4block" core runs a fifth block on the scalar ALUs, our
# 6-block NEON core two.  Where a core's entry jumps to a _part_ entry
# (the 4-block SSE2 and SSSE3, the 8-block AVX2), the loop is there.
CORES="
ours	x86	chacha20-sse2-x86_64.S		chacha20_1block_xor_sse2		1	2
ours	x86	chacha20-sse2-x86_64.S		chacha20_2block_xor_sse2		2	2
ours	x86	chacha20-sse2-x86_64.S		chacha20_4block_xor_part_sse2		4	2
ours	x86	chacha20-ssse3-x86_64.S		chacha20_1block_xor_ssse3		1	2
ours	x86	chacha20-ssse3-x86_64.S		chacha20_2block_xor_ssse3		2	2
ours	x86	chacha20-ssse3-x86_64.S		chacha20_4block_xor_part_ssse3		4	2
ours	x86	chacha20-avx2-x86_64.S		chacha20_2block_xor_avx2		2	2
ours	x86	chacha20-avx2-x86_64.S		chacha20_4block_xor_avx2		4	2
ours	x86	chacha20-avx2-x86_64.S		chacha20_8block_xor_part_avx2		8	2
ours	x86-avx512	chacha20-avx512-x86_64.S	chacha20_8block_xor_part_avx512vl	8	2
ours	x86-avx512	chacha20-avx512-x86_64.S	chacha20_12block_xor_part_avx512vl	12	2
ours	x86-avx512	chacha20-avx512-x86_64.S	chacha20_16block_xor_part_avx512vl	16	2
ours	x86-avx512	chacha20-avx512-x86_64.S	chacha20_16block_xor_part_avx512	16	2
ours	x86-avx512	chacha20-avx512-x86_64.S	chacha20_24block_xor_part_avx512	24	2
ours	x86-avx512	chacha20-avx512-x86_64.S	chacha20_4block_xor_part_avx512vl	4	2
ours	x86-avx512	chacha20-avx512-x86_64.S	chacha20_2block_xor_part_avx512vl	2	2
kernel	x86	chacha-ssse3-x86_64.S		chacha_permute				1	2
kernel	x86	chacha-ssse3-x86_64.S		chacha_4block_xor_ssse3			4	2
kernel	x86	chacha-avx2-x86_64.S		chacha_4block_xor_avx2			4	2
kernel	x86	chacha-avx2-x86_64.S		chacha_8block_xor_avx2			8	2
kernel	x86-avx512	chacha-avx512vl-x86_64.S	chacha_4block_xor_avx512vl		4	2
kernel	x86-avx512	chacha-avx512vl-x86_64.S	chacha_8block_xor_avx512vl		8	2
ours	arm64	chacha20-neon-arm64.S		chacha20_4block_xor_neon		4	2
ours	arm64	chacha20-neon-arm64.S		chacha20_6block_xor_neon		6	2
kernel	arm64	chacha-neon-core.S		chacha_permute				1	2
kernel	arm64	chacha-neon-core.S		chacha_4block_xor_neon			5	2
"

KERNEL_FILES="arch/x86/crypto/chacha-ssse3-x86_64.S
arch/x86/crypto/chacha-avx2-x86_64.S
arch/x86/crypto/chacha-avx512vl-x86_64.S
arch/arm64/crypto/chacha-neon-core.S"

need_tools() {
	local pkgs=""

	command -v llvm-mca-19 >/dev/null || pkgs="$pkgs llvm-19"
	command -v aarch64-linux-gnu-gcc >/dev/null ||
		pkgs="$pkgs gcc-aarch64-linux-gnu"
	command -v aarch64-linux-gnu-objdump >/dev/null ||
		pkgs="$pkgs binutils-aarch64-linux-gnu"
	[ -z "$pkgs" ] && return
	echo "mca: installing$pkgs" >&2
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $pkgs >&2
}

# The kernel's files, once, into the cache.
fetch_kernel() {
	local src tmp f

	[ -f "$kcache/.done" ] && return
	src=$("$top/tools/debfetch.sh" get linux-source-6.12)
	tmp=$kcache.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	echo "mca: extracting the kernel's ChaCha assembly from $src" >&2
	# shellcheck disable=SC2046
	tar -xf "$src"/usr/src/linux-source-6.12.tar.* -C "$tmp" \
		--strip-components=1 --wildcards \
		$(for f in $KERNEL_FILES; do echo "*/$f"; done)
	basename "$src" >"$tmp/VERSION"
	touch "$tmp/.done"
	rm -rf "$kcache"
	mv "$tmp" "$kcache"
}

# Stand-ins for the two arm64 kernel headers that chacha-neon-core.S
# includes besides <linux/linkage.h> (which comes from tests/shim).  Only
# the round loop is modelled, so the frame macros need only assemble.
arm64_shim() {
	mkdir -p "$work/shim/asm"
	cat >"$work/shim/asm/assembler.h" <<-'EOF'
	/* mca.sh: what chacha-neon-core.S uses of <asm/assembler.h> */
	#define CPU_BE(...)
	#define CPU_LE(...)	__VA_ARGS__
	.macro	adr_l, dst, sym
	adrp	\dst, \sym
	add	\dst, \dst, :lo12:\sym
	.endm
	.macro	frame_push, regs, extra=0
	stp	x29, x30, [sp, #-16]!
	.endm
	.macro	frame_pop
	ldp	x29, x30, [sp], #16
	.endm
	EOF
	echo '#define L1_CACHE_SHIFT 6' >"$work/shim/asm/cache.h"
}

# assemble WHOSE ARCH FILE OBJ: 0 if assembled, 1 if the file is absent.
assemble() {
	local whose=$1 arch=$2 file=$3 obj=$4 path cc inc

	if [ "$whose" = ours ]; then
		path=${MCA_SRC:-$top}/$file
	else
		path=$kcache/arch/${arch%-*}/crypto/$file
	fi
	[ -f "$path" ] || return 1
	case $arch in
	x86*)	cc=gcc
		inc="-I$here/kshim" ;;
	arm64)	cc=aarch64-linux-gnu-gcc
		inc="-I$work/shim" ;;
	esac
	# shellcheck disable=SC2086
	$cc $inc -I"$top/tests/shim" -I"$top" -D__ASSEMBLY__ \
		-c -o "$obj" "$path"
}

# loop ARCH OBJ FUNC: print the round loop of FUNC as assembler source:
# the instructions from the target of the widest backward branch to that
# branch, which is made to jump to a label at the top (llvm-mca models
# the instructions, not where branches go).
loop() {
	local arch=$1 obj=$2 func=$3 objdump=objdump comment=#

	if [ "$arch" = arm64 ]; then
		objdump=aarch64-linux-gnu-objdump
		comment=//
	fi
	$objdump -d --no-show-raw-insn "--disassemble=$func" "$obj" |
	awk -v comment="$comment" '
		function hex(s,    i, v) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef",
						   substr(s, i, 1)) - 1
			return v
		}
		/^ +[0-9a-f]+:\t/ {
			split($0, f, "\t")
			gsub(/[ :]/, "", f[1])
			addr = hex(f[1])
			sub(/^[^\t]*\t/, "")
			c = index($0, comment)
			if (c)
				$0 = substr($0, 1, c - 1)
			sub(/[ \t]+$/, "")
			n++; a[n] = addr; ins[n] = $0
			# A conditional branch (x86 jcc, arm64 b.cond, cbz,
			# tbz) backwards.
			if ($1 ~ /^(j[a-z]+|b\.[a-z]+|cbn?z|tbn?z)$/ &&
			    $1 != "jmp" &&
			    $(NF - 1) ~ /^[0-9a-f]+$/ && $NF ~ /^</) {
				t = hex($(NF - 1))
				if (t < addr && addr - t > best) {
					best = addr - t; from = t; to = n
				}
			}
		}
		END {
			if (!best)
				exit 1
			print "L0:"
			for (i = 1; i <= to; i++) {
				if (a[i] < from)
					continue
				l = ins[i]
				# Other branches (out of the loop) go to L1.
				sub(/[ \t][0-9a-f]+ <[^>]*>$/,
				    i == to ? " L0" : " L1", l)
				print "\t" l
			}
			print "L1:"
		}'
}

# sched_model ARCH CPU: the scheduling model llvm-mca uses for CPU, by the
# prefix of the resource names it reports for an integer add (each model
# names its units: N1UnitB, A57UnitB, CortexA55UnitALU, SKLDivider, ...),
# printed as the CPU that model was written for; "?" if unknown.
sched_model() {
	local triple=x86_64-linux-gnu insn='add %rax, %rbx' unit

	if [ "$1" = arm64 ]; then
		triple=aarch64-linux-gnu insn='add x0, x1, x2'
	fi
	unit=$(echo "$insn" |
		llvm-mca-19 -mtriple=$triple -mcpu="$2" -resource-pressure 2>/dev/null |
		awk '/^Resources:/ { getline; print $3; exit }')
	case $unit in
	N1Unit*) echo neoverse-n1 ;;
	N2Unit*) echo neoverse-n2 ;;
	V1Unit*) echo neoverse-v1 ;;
	V2Unit*) echo neoverse-v2 ;;
	A57Unit*) echo cortex-a57 ;;
	CortexA510Unit*) echo cortex-a510 ;;
	CortexA55Unit*) echo cortex-a55 ;;
	CortexA53Unit*) echo cortex-a53 ;;
	Zn3*) echo znver3 ;;
	Zn4*) echo znver4 ;;
	SKX*) echo skylake-avx512 ;;
	SKL*) echo skylake ;;
	ICX*) echo icelake-server ;;
	*) echo "?${unit:+ ($unit)}" ;;
	esac
}

# cycles ARCH CPU FILE.s: llvm-mca's cycles per loop iteration.
cycles() {
	local triple=x86_64-linux-gnu

	[ "$1" = arm64 ] && triple=aarch64-linux-gnu
	case " $NO_AVX512_CPUS " in
	*" $2 "*) [ "$1" = x86-avx512 ] && return 2 ;;
	esac
	llvm-mca-19 -mtriple=$triple -mcpu="$2" -iterations=200 "$3" 2>/dev/null |
		awk '/^Iterations:/ { it = $2 } /^Total Cycles:/ { c = $3 }
		     END { if (it && c) printf "%.2f", c / it; else exit 1 }'
}

need_tools
fetch_kernel
mkdir -p "$work" "$(dirname "$out")"
arm64_shim
rm -f "$work/noloop"

{
echo "llvm-mca $(llvm-mca-19 --version | sed -n 's/.*LLVM version //p'),"
echo "kernel files from $(cat "$kcache/VERSION"), ours from" \
     "${MCA_SRC:-commit $(git -C "$top" describe --always --dirty 2>/dev/null)}."
echo "Cycles per 64-byte block in the round loop, $rounds rounds" \
     "(loop cycles per iteration x iterations / blocks).  The line" \
     "'scheduling model' says whether a CPU name has a model of its own" \
     "in LLVM 19 or runs on another CPU's: only the first are modelled."
for arch in x86 arm64; do
	if [ $arch = x86 ]; then cpus=$X86_CPUS; else cpus=$ARM64_CPUS; fi
	echo
	printf "| %s core | blocks | loop insns |" "$arch"
	for c in $cpus; do printf " %s |" "$c"; done
	echo
	printf "| --- | ---: | ---: |"
	for c in $cpus; do printf " ---: |"; done
	echo
	# The model each CPU name runs on: "own", or whose it borrows.
	printf "| scheduling model | | |"
	for c in $cpus; do
		m=$(sched_model $arch "$c")
		if [ "$m" = "$c" ]; then printf " own |"; else printf " %s's |" "$m"; fi
	done
	echo
	echo "$CORES" | while read -r whose a file func blocks rpi; do
		[ "${a%-*}" = "$arch" ] || continue
		name="$func"
		[ "$whose" = kernel ] && name="kernel ${file%.S}: $func"
		obj=$work/$whose-$file.o
		if ! assemble "$whose" "$a" "$file" "$obj"; then
			echo "| $name | $blocks | absent: no $file |"
			continue
		fi
		s=$work/$func.s
		if ! loop "$a" "$obj" "$func" >"$s"; then
			echo "| $name | $blocks | absent: no loop in $func |"
			echo "$func" >>"$work/noloop"
			continue
		fi
		printf "| %s | %s | %s |" "$name" "$blocks" \
			"$(grep -c '^	' "$s")"
		for c in $cpus; do
			if cyc=$(cycles "$a" "$c" "$s"); then
				awk -v c="$cyc" -v r="$rounds" -v p="$rpi" \
				    -v b="$blocks" \
				    'BEGIN { printf " %.1f |", c * r / p / b }'
			elif [ $? = 2 ]; then
				printf " — |"
			else
				printf " ? |"
			fi
		done
		echo
	done
done
} | tee "$out.new"
mv "$out.new" "$out"
echo "mca: wrote $out" >&2
# A renamed core must not leave its row empty unseen.
if [ -s "$work/noloop" ]; then
	echo "mca: FAIL: no round loop found in $(tr '\n' ' ' <"$work/noloop")" >&2
	exit 1
fi
