/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Poly1305 block function for x86-64 with AVX-512 F, VL and IFMA:
 *
 *   void oot_poly1305_blocks_avx512ifma(struct poly1305_core_state *st,
 *				     const u8 *src, unsigned int nblocks,
 *				     u32 hibit);
 *
 * The contract of oot_poly1305_blocks() (poly1305_core.h): any nblocks,
 * h in the state's 64-bit limbs on entry and on exit with h[2] <= 4, so
 * that the C oot_poly1305_emit() makes the tag and either function may
 * absorb the next blocks.  The caller owns kernel_fpu_begin()/end().
 *
 * Radix 2^44: a number below 2^131 or so is x0 + x1 2^44 + x2 2^88 with
 * x0, x1 of 44 bits and x2 of 42, nominally; lazily the limbs run a few
 * bits over.  vpmadd52luq/vpmadd52huq multiply the low 52 bits of two
 * limbs and add the low or the high 52 bits of the 104-bit product to a
 * 64-bit accumulator.  Modulo p = 2^130 - 5, 2^132 = 4 * 2^130 = 20, so
 * h * b is, with s1 = 20 b1 and s2 = 20 b2:
 *
 *   d0 = h0 b0 + h1 s2 + h2 s1	(h1 b2 and h2 b1 are at 2^132)
 *   d1 = h0 b1 + h1 b0 + h2 s2	(h2 b2 is at 2^176 = 2^132 2^44)
 *   d2 = h0 b2 + h1 b1 + h2 b0
 *
 * each d_i kept as a sum of low halves dNl and a sum of high halves dNh,
 * d_i = dNl + dNh 2^52.  The carry: dNl >> 44 and dNh << 8 go into the
 * next limb (2^52 = 2^44 2^8); from d2, (d2l >> 42) + (d2h << 10) is the
 * part at 2^130 and goes into h0 times 5; then one more carry h0 -> h1.
 *
 * Bounds (MUL below), for inputs h_i < 2^46 and b0, b1 < 2^45, b2 < 2^43
 * (so s1 < 2^50, s2 < 2^48): every multiplier input is below 2^52, so
 * vpmadd52 truncates nothing; each product is below 2^96, its high half
 * below 2^44 and its low half below 2^52, so dNl < 3 2^52 and dNh < 3 2^44,
 * far from 2^64.  After the carries d1l, d2l < 2^55 and the part at 2^130
 * is below 2^13 + 2^51 (d2h < 2^41), times 5 below 2^54: h0 before its
 * last carry is below 2^55, no overflow.  The result: h0 < 2^44,
 * h1 < 2^44 + 2^11, h2 < 2^42 (h2 = d2l mod 2^42).  That is within the
 * bounds for the next product as b (the powers of r) and, after adding a
 * block (m0, m1 < 2^44, m2 < 2^41 with 2^128 = 2^40 2^88 set), as h:
 * h0 < 2^45, h1 < 2^45 + 2^11, h2 < 2^43.  h from the state, below
 * 5 2^128 (h[2] <= 4), has h0, h1 < 2^44 and h2 < 5 2^40; plus a block
 * still h2 < 2^44.  r is clamped, r0, r1 < 2^44 and r2 < 2^36.
 *
 * Eight lanes (nblocks >= 8): lane j takes blocks j, j + 8, j + 16, ...
 * (the first eight with h added in lane 0); each group of eight but the
 * last is followed by h_j = h_j r^8, and the last by h_j = h_j r^(8 - j),
 * so block i of n = 8k meets r^(n - i) as Horner's rule has it.  The
 * horizontal combine is then the plain sum of the lanes' limbs: each below
 * 2^44 + 2^11, the sums below 2^48, and the carry chain above (without
 * products) brings them back to h0 < 2^44, h1 < 2^44 + 2^11, h2 < 2^42.
 * The last k = nblocks mod 8 blocks (all of them if nblocks is 4-7) are
 * the last k of a group of eight whose first 8 - k are zero (masked out
 * of the loads, no 2^128): h in the lane of the first real one, the same
 * final powers, sum and carry.  Fewer than four blocks in all go one at
 * a time through the same MUL on lane 0 (xmm), with r.
 *
 * Sixteen blocks a turn, from 40 blocks on: after the first group, while
 * two turns of eight or more are left, h_j = h_j r^16 + m r^8 + m' with m
 * and m' the lane's blocks of the next two groups, as two turns of eight
 * make it.  m r^8 goes into the sums before h's products, so the chain
 * through h takes one MUL for sixteen blocks, not two.  r^16, one more
 * MUL, goes where r was (26-30).  With six products a sum, dNl < 6 2^52
 * and dNh < 6 2^44; after the carries the part at 2^130 is below
 * 2^57 + 2^15, times 5 below 2^60, and h1 < 2^44 + 2^17: still within
 * the bounds above for the next product and for the store below.  On a
 * Rocket Lake 256 blocks in one call took 642 TSC ticks, against 944
 * eight at a time.
 *
 * Loading: the eight blocks are two zmm of 64-bit words, lo hi lo hi...;
 * vpunpcklqdq/vpunpckhqdq of the two give the low and the high words of
 * blocks 0 4 1 5 2 6 3 7 in lanes 0-7, so the lanes take blocks in that
 * order, and the final powers are permuted alike (r^8 r^4 r^7 r^3 ...).
 *
 * The powers r^1..r^8 are computed here on every call, three MULs on the
 * critical path: roughly 55 of the about 95 TSC ticks that 128 bytes
 * take (one group; each further group adds about 19, and 16 bytes, one
 * MUL and the conversions, take about 29), as measured.  A version
 * that kept them with the key (in a context of the AEAD's request) would
 * save those and the r conversion on every call after the first.
 *
 * Constant time: no branch and no address depends on data; h, r and the
 * message stay in vector registers (the 64 <-> 44-bit conversions of h
 * and r too), the general-purpose registers hold only the pointers,
 * nblocks and hibit, so tests/ct-static.sh applies.  No stack is used and
 * no callee-saved register.  The one exception is the tag of
 * oot_poly1305_blocks_emit_avx512ifma(), from the label
 * poly1305_blocks_ifma_mac on: h in general-purpose registers, as in the
 * mulx code, through its macro POLY1305_MULX_FINAL, which valgrind checks
 * there; ct-static.sh counts that part apart.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

/*
 * Test only: tests/Makefile's poly1305-mutate assembles a copy with
 * -DPOLY1305_PLANT_FAULT=POLY1305_FAULT_IFMA_COMBINE, whose horizontal
 * combine leaves lanes 4-7 of limb 1 out, and checks that the harness
 * fails (poly1305_core.c has the faults of the C code).
 */
#define POLY1305_FAULT_IFMA_COMBINE	101
/* oot_poly1305_blocks_emit_avx512ifma()'s tag never subtracts p */
#define POLY1305_FAULT_IFMA_SELECT	102
/* the sixteen-block loop takes M's limbs 1 and 2 swapped */
#define POLY1305_FAULT_IFMA_ORDER	103

#ifdef POLY1305_PLANT_FAULT
#ifdef __KERNEL__
#error "POLY1305_PLANT_FAULT is for the user-space tests only"
#endif
#if POLY1305_PLANT_FAULT == POLY1305_FAULT_IFMA_SELECT
#define POLY1305_MULX_NO_SELECT
#endif
#endif

/* The tag's macro, POLY1305_MULX_FINAL, from the mulx code. */
#define POLY1305_MULX_MACROS_ONLY
#include "poly1305-x86_64.S"

/*
 * Not in a mergeable section ("aM"), as in chacha20-avx512-x86_64.S, so
 * that no linker moves or merges it.  Lane j of the final powers takes
 * lane perm[j] of r^8 r^7 ... r^1: the power for the block that LOAD8
 * puts in lane j (blocks 0 4 1 5 2 6 3 7).
 */
.section	.rodata.poly1305_avx512ifma, "a", @progbits
.align 8
poly1305_ifma_perm:
	.byte	0, 4, 1, 5, 2, 6, 3, 7

.text

/* Arguments (SysV) */
#define STATE	%rdi
#define SRC	%rsi
#define NBLOCKS	%edx
#define HIBIT	%ecx

/*
 * Vector registers, by number (the macros take a width, x or z):
 * 0-2 h (the lanes' accumulators), 3-5 a block's limbs, 6-11 the sums
 * dNl, dNh, 12 a temporary, 13 and 14 the masks 2^44 - 1 and 2^42 - 1,
 * 15 the block's 2^128 (hibit 2^40 in limb 2), 16-20 r^8 in every lane
 * (b0 b1 b2 s1 s2), 21-25 the final powers (lane j: its block's),
 * 26-30 r in every lane.
 */

/* s = 20 b = 16 b + 4 b (no vpmullq: that is AVX512DQ) */
.macro TIMES20 w, b, s
	vpsllq		$2, %\w\()mm\b, %\w\()mm12
	vpsllq		$4, %\w\()mm\b, %\w\()mm\s
	vpaddq		%\w\()mm12, %\w\()mm\s, %\w\()mm\s
.endm

/*
 * The carry chain (see the top): from dNl/dNh in 6-11 to h in \h0-\h2,
 * h0 < 2^44, h1 < 2^44 + 2^11 (2^44 + 2^17 after six products), h2 < 2^42.
 */
.macro CARRY w, h0, h1, h2
	vpsrlq		$44, %\w\()mm6, %\w\()mm12
	vpandq		%\w\()mm13, %\w\()mm6, %\w\()mm\h0
	vpsllq		$8, %\w\()mm7, %\w\()mm7
	vpaddq		%\w\()mm12, %\w\()mm8, %\w\()mm8
	vpaddq		%\w\()mm7, %\w\()mm8, %\w\()mm8
	vpsrlq		$44, %\w\()mm8, %\w\()mm12
	vpandq		%\w\()mm13, %\w\()mm8, %\w\()mm\h1
	vpsllq		$8, %\w\()mm9, %\w\()mm9
	vpaddq		%\w\()mm12, %\w\()mm10, %\w\()mm10
	vpaddq		%\w\()mm9, %\w\()mm10, %\w\()mm10
	/* the part at 2^130, times 5, into h0 */
	vpsrlq		$42, %\w\()mm10, %\w\()mm12
	vpandq		%\w\()mm14, %\w\()mm10, %\w\()mm\h2
	vpsllq		$10, %\w\()mm11, %\w\()mm11
	vpaddq		%\w\()mm11, %\w\()mm12, %\w\()mm12
	vpaddq		%\w\()mm12, %\w\()mm\h0, %\w\()mm\h0
	vpsllq		$2, %\w\()mm12, %\w\()mm12
	vpaddq		%\w\()mm12, %\w\()mm\h0, %\w\()mm\h0
	vpsrlq		$44, %\w\()mm\h0, %\w\()mm12
	vpandq		%\w\()mm13, %\w\()mm\h0, %\w\()mm\h0
	vpaddq		%\w\()mm12, %\w\()mm\h1, %\w\()mm\h1
.endm

/* The sums dNl, dNh in 6-11 to zero. */
.macro ZERO_D w
	vpxorq		%\w\()mm6, %\w\()mm6, %\w\()mm6
	vpxorq		%\w\()mm7, %\w\()mm7, %\w\()mm7
	vpxorq		%\w\()mm8, %\w\()mm8, %\w\()mm8
	vpxorq		%\w\()mm9, %\w\()mm9, %\w\()mm9
	vpxorq		%\w\()mm10, %\w\()mm10, %\w\()mm10
	vpxorq		%\w\()mm11, %\w\()mm11, %\w\()mm11
.endm

/* dNl, dNh in 6-11 += h * b, h in \h0-\h2, b in \b0 \b1 \b2 \s1 \s2 */
.macro PRODUCTS w, h0, h1, h2, b0, b1, b2, s1, s2
	/* d0 = h0 b0 + h1 s2 + h2 s1 */
	vpmadd52luq	%\w\()mm\b0, %\w\()mm\h0, %\w\()mm6
	vpmadd52huq	%\w\()mm\b0, %\w\()mm\h0, %\w\()mm7
	/* d1 = h0 b1 + h1 b0 + h2 s2 */
	vpmadd52luq	%\w\()mm\b1, %\w\()mm\h0, %\w\()mm8
	vpmadd52huq	%\w\()mm\b1, %\w\()mm\h0, %\w\()mm9
	/* d2 = h0 b2 + h1 b1 + h2 b0 */
	vpmadd52luq	%\w\()mm\b2, %\w\()mm\h0, %\w\()mm10
	vpmadd52huq	%\w\()mm\b2, %\w\()mm\h0, %\w\()mm11
	vpmadd52luq	%\w\()mm\s2, %\w\()mm\h1, %\w\()mm6
	vpmadd52huq	%\w\()mm\s2, %\w\()mm\h1, %\w\()mm7
	vpmadd52luq	%\w\()mm\b0, %\w\()mm\h1, %\w\()mm8
	vpmadd52huq	%\w\()mm\b0, %\w\()mm\h1, %\w\()mm9
	vpmadd52luq	%\w\()mm\b1, %\w\()mm\h1, %\w\()mm10
	vpmadd52huq	%\w\()mm\b1, %\w\()mm\h1, %\w\()mm11
	vpmadd52luq	%\w\()mm\s1, %\w\()mm\h2, %\w\()mm6
	vpmadd52huq	%\w\()mm\s1, %\w\()mm\h2, %\w\()mm7
	vpmadd52luq	%\w\()mm\s2, %\w\()mm\h2, %\w\()mm8
	vpmadd52huq	%\w\()mm\s2, %\w\()mm\h2, %\w\()mm9
	vpmadd52luq	%\w\()mm\b0, %\w\()mm\h2, %\w\()mm10
	vpmadd52huq	%\w\()mm\b0, %\w\()mm\h2, %\w\()mm11
.endm

/* h = h * b mod p, lane by lane, h in \h0-\h2, b in \b0 \b1 \b2 \s1 \s2 */
.macro MUL w, h0, h1, h2, b0, b1, b2, s1, s2
	ZERO_D		\w
	PRODUCTS	\w, \h0, \h1, \h2, \b0, \b1, \b2, \s1, \s2
	CARRY		\w, \h0, \h1, \h2
.endm

/*
 * Two 64-bit halves (\lo, \hi) to limbs: \lo bits 0-43, \l1 bits 44-87,
 * \hi bits 88-127 (limb 2 before 2^128 is added).
 */
.macro TO44 w, lo, hi, l1
	vpsrlq		$44, %\w\()mm\lo, %\w\()mm\l1
	vpsllq		$20, %\w\()mm\hi, %\w\()mm12
	vporq		%\w\()mm12, %\w\()mm\l1, %\w\()mm\l1
	vpandq		%\w\()mm13, %\w\()mm\l1, %\w\()mm\l1
	vpandq		%\w\()mm13, %\w\()mm\lo, %\w\()mm\lo
	vpsrlq		$24, %\w\()mm\hi, %\w\()mm\hi
.endm

/* Limbs 3-5, 2^128 included, of the block in the low qwords of 3 and 4. */
.macro BLOCK_LIMBS w
	TO44		\w, 3, 4, 5
	vporq		%\w\()mm15, %\w\()mm4, %\w\()mm4
.endm

/* h += the block in 3 (limb 0), 5 (limb 1), 4 (limb 2) */
.macro ADD_BLOCK w
	vpaddq		%\w\()mm3, %\w\()mm0, %\w\()mm0
	vpaddq		%\w\()mm5, %\w\()mm1, %\w\()mm1
	vpaddq		%\w\()mm4, %\w\()mm2, %\w\()mm2
.endm

/* Eight blocks at SRC into 3 (limb 0), 5 (limb 1), 4 (limb 2). */
.macro LOAD8
	vmovdqu64	(SRC), %zmm5
	vmovdqu64	64(SRC), %zmm4
	vpunpcklqdq	%zmm4, %zmm5, %zmm3
	vpunpckhqdq	%zmm4, %zmm5, %zmm4
	BLOCK_LIMBS	z
	add		$128, SRC
.endm

/* lane 0 of zmm\x += lanes 1-7 (lanes 1-7 left with partial sums) */
.macro HSUM x
	vextracti64x4	$1, %zmm\x, %ymm12
	vpaddq		%ymm12, %ymm\x, %ymm\x
	vextracti128	$1, %ymm\x, %xmm12
	vpaddq		%xmm12, %xmm\x, %xmm\x
	vpsrldq		$8, %xmm\x, %xmm12
	vpaddq		%xmm12, %xmm\x, %xmm\x
.endm

/* The combine's carry: as CARRY's chain, from h in 0-2 (no products). */
.macro CARRY_H
	vpsrlq		$44, %xmm0, %xmm12
	vpandq		%xmm13, %xmm0, %xmm0
	vpaddq		%xmm12, %xmm1, %xmm1
	vpsrlq		$44, %xmm1, %xmm12
	vpandq		%xmm13, %xmm1, %xmm1
	vpaddq		%xmm12, %xmm2, %xmm2
	vpsrlq		$42, %xmm2, %xmm12
	vpandq		%xmm14, %xmm2, %xmm2
	vpaddq		%xmm12, %xmm0, %xmm0
	vpsllq		$2, %xmm12, %xmm12
	vpaddq		%xmm12, %xmm0, %xmm0
	vpsrlq		$44, %xmm0, %xmm12
	vpandq		%xmm13, %xmm0, %xmm0
	vpaddq		%xmm12, %xmm1, %xmm1
.endm

/* The block function alone: the body below with no tag to write. */
SYM_TYPED_FUNC_START(oot_poly1305_blocks_avx512ifma)
	xor		%r9d, %r9d
	jmp		poly1305_blocks_ifma
SYM_FUNC_END(oot_poly1305_blocks_avx512ifma)

/*
 * void oot_poly1305_blocks_emit_avx512ifma(struct poly1305_core_state *st,
 *					const u8 *src,
 *					unsigned int nblocks, u8 *mac);
 *
 * oot_poly1305_blocks_emit()'s contract, with the IFMA block function:
 * hibit 1, st->h updated, then the tag into @mac.  Called directly, never
 * through a pointer; AVX512F, AVX512VL and AVX512IFMA, inside
 * kernel_fpu_begin()/end().
 */
SYM_FUNC_START(oot_poly1305_blocks_emit_avx512ifma)
	mov		%rcx, %r9
	mov		$1, HIBIT
	jmp		poly1305_blocks_ifma
SYM_FUNC_END(oot_poly1305_blocks_emit_avx512ifma)

/*
 * Both: the blocks, then the tag into %r9 unless it is NULL.  A local
 * function that the two entries jump to, not a third entry point.
 */
SYM_FUNC_START_LOCAL(poly1305_blocks_ifma)
	test		NBLOCKS, NBLOCKS
	jz		.Ldone

	/* the masks, and 2^128 of each block (hibit: 0 or 1) */
	mov		$0xfffffffffff, %rax
	vpbroadcastq	%rax, %zmm13
	shr		$2, %rax
	vpbroadcastq	%rax, %zmm14
	mov		HIBIT, %eax
	and		$1, %eax
	shl		$40, %rax
	vpbroadcastq	%rax, %zmm15

	/*
	 * h to radix 2^44 in lane 0 of 0-2, zero in the others (every
	 * xmm write clears the register above it): h0 = h[0] bits 0-43,
	 * h1 = bits 44-107, h2 = bits 108- of h[1] and h[2] 2^40.
	 */
	vmovq		(STATE), %xmm0
	vmovq		8(STATE), %xmm2
	vmovq		16(STATE), %xmm3
	TO44		x, 0, 2, 1
	vpsllq		$40, %xmm3, %xmm3
	vporq		%xmm3, %xmm2, %xmm2

	/* r in every lane of 26-28, s1 and s2 in 29 and 30 */
	vmovq		24(STATE), %xmm26
	vmovq		32(STATE), %xmm28
	TO44		x, 26, 28, 27
	vpbroadcastq	%xmm26, %zmm26
	vpbroadcastq	%xmm27, %zmm27
	vpbroadcastq	%xmm28, %zmm28
	TIMES20		z, 27, 29
	TIMES20		z, 28, 30

	cmp		$4, NBLOCKS
	jb		.Ltail

	/*
	 * The powers, in 21-23 as lane j = r^(8 - j) first:
	 * r^2 in every lane (3-5); then r^2 r r^2 r ... (even lanes);
	 * times r^2 in lanes 0-5: r^4 r^3 r^4 r^3 r^4 r^3 r^2 r; lanes 4-7
	 * copied to 0-3, times r^4 there: r^8 r^7 ... r^1.
	 */
	vmovdqa64	%zmm26, %zmm3
	vmovdqa64	%zmm27, %zmm4
	vmovdqa64	%zmm28, %zmm5
	MUL		z, 3, 4, 5, 26, 27, 28, 29, 30
	vmovdqa64	%zmm26, %zmm21
	vmovdqa64	%zmm27, %zmm22
	vmovdqa64	%zmm28, %zmm23
	mov		$0x55, %eax
	kmovw		%eax, %k1
	vmovdqa64	%zmm3, %zmm21{%k1}
	vmovdqa64	%zmm4, %zmm22{%k1}
	vmovdqa64	%zmm5, %zmm23{%k1}
	/* b = r^2 (16-20) */
	vmovdqa64	%zmm3, %zmm16
	vmovdqa64	%zmm4, %zmm17
	vmovdqa64	%zmm5, %zmm18
	TIMES20		z, 17, 19
	TIMES20		z, 18, 20
	vmovdqa64	%zmm21, %zmm3
	vmovdqa64	%zmm22, %zmm4
	vmovdqa64	%zmm23, %zmm5
	MUL		z, 3, 4, 5, 16, 17, 18, 19, 20
	mov		$0x3f, %eax
	kmovw		%eax, %k1
	vmovdqa64	%zmm3, %zmm21{%k1}
	vmovdqa64	%zmm4, %zmm22{%k1}
	vmovdqa64	%zmm5, %zmm23{%k1}
	/* lanes 4-7 (r^4 r^3 r^2 r) to 0-3 and 4-7; b = r^4 */
	vshufi64x2	$0xee, %zmm21, %zmm21, %zmm3
	vshufi64x2	$0xee, %zmm22, %zmm22, %zmm4
	vshufi64x2	$0xee, %zmm23, %zmm23, %zmm5
	vpbroadcastq	%xmm3, %zmm16
	vpbroadcastq	%xmm4, %zmm17
	vpbroadcastq	%xmm5, %zmm18
	TIMES20		z, 17, 19
	TIMES20		z, 18, 20
	MUL		z, 3, 4, 5, 16, 17, 18, 19, 20
	mov		$0x0f, %eax
	kmovw		%eax, %k1
	vmovdqa64	%zmm3, %zmm21{%k1}
	vmovdqa64	%zmm4, %zmm22{%k1}
	vmovdqa64	%zmm5, %zmm23{%k1}
	/* b = r^8 (16-20); the final powers in the lanes' block order */
	vpbroadcastq	%xmm21, %zmm16
	vpbroadcastq	%xmm22, %zmm17
	vpbroadcastq	%xmm23, %zmm18
	TIMES20		z, 17, 19
	TIMES20		z, 18, 20
	vpmovzxbq	poly1305_ifma_perm(%rip), %zmm31
	vpermq		%zmm21, %zmm31, %zmm21
	vpermq		%zmm22, %zmm31, %zmm22
	vpermq		%zmm23, %zmm31, %zmm23
	TIMES20		z, 22, 24
	TIMES20		z, 23, 25

	cmp		$8, NBLOCKS
	jb		.Lpart

	/* the first eight blocks, h added in lane 0 */
	LOAD8
	ADD_BLOCK	z
	sub		$8, NBLOCKS

	/*
	 * Sixteen at a time while there are two such turns or more: h =
	 * h r^16 + M r^8 + M', M and M' the next two groups of eight, as
	 * two turns of the loop below make it.  M r^8 does not wait for h,
	 * so its products go into the sums first and h's chain takes one
	 * MUL for sixteen blocks.  r^16 (26-30; r is not needed again)
	 * costs a MUL once.
	 */
	cmp		$32, NBLOCKS
	jb		.Lloop8
	vmovdqa64	%zmm16, %zmm26
	vmovdqa64	%zmm17, %zmm27
	vmovdqa64	%zmm18, %zmm28
	MUL		z, 26, 27, 28, 16, 17, 18, 19, 20
	TIMES20		z, 27, 29
	TIMES20		z, 28, 30
.Lloop16:
	LOAD8
	ZERO_D		z
#if defined(POLY1305_PLANT_FAULT) && \
	POLY1305_PLANT_FAULT == POLY1305_FAULT_IFMA_ORDER
	PRODUCTS	z, 3, 4, 5, 16, 17, 18, 19, 20
#else
	PRODUCTS	z, 3, 5, 4, 16, 17, 18, 19, 20
#endif
	PRODUCTS	z, 0, 1, 2, 26, 27, 28, 29, 30
	CARRY		z, 0, 1, 2
	LOAD8
	ADD_BLOCK	z
	sub		$16, NBLOCKS
	cmp		$16, NBLOCKS
	jae		.Lloop16

.Lloop8:
	cmp		$8, NBLOCKS
	jb		.Llast8
	MUL		z, 0, 1, 2, 16, 17, 18, 19, 20
	LOAD8
	ADD_BLOCK	z
	sub		$8, NBLOCKS
	jmp		.Lloop8

.Llast8:
	MUL		z, 0, 1, 2, 21, 22, 23, 24, 25
	/*
	 * The combine: h = the sum of the lanes, each already times its
	 * power; limbs below 8 (2^44 + 2^11) < 2^48, then carried.
	 */
	HSUM		0
#if defined(POLY1305_PLANT_FAULT) && \
	POLY1305_PLANT_FAULT == POLY1305_FAULT_IFMA_COMBINE
	vextracti128	$1, %ymm1, %xmm12
	vpaddq		%xmm12, %xmm1, %xmm1
	vpsrldq		$8, %xmm1, %xmm12
	vpaddq		%xmm12, %xmm1, %xmm1
#else
	HSUM		1
#endif
	HSUM		2
	CARRY_H

.Lpart:
	/*
	 * The last k = nblocks mod 8 blocks (all of 4-7), k > 0, as the
	 * last blocks of a group of eight whose first e = 8 - k are zero:
	 * block e + i meets r^(8 - e - i) = r^(k - i) in the final MUL.
	 * The zero blocks are masked out of the loads (masked-out elements
	 * are not read, so SRC - 16 e is never touched) and get no 2^128;
	 * h goes into the lane of block e; zero lanes stay zero.
	 */
	test		NBLOCKS, NBLOCKS
	jz		.Lstore
	mov		$8, %eax
	sub		NBLOCKS, %eax
	vpbroadcastq	%rax, %zmm12
	/* lanes of blocks >= e (2^128 and the loads), of block e (h) */
	vpcmpuq		$5, %zmm12, %zmm31, %k2
	vpcmpuq		$0, %zmm12, %zmm31, %k3
	/* qwords 2e..15 of the 16 from SRC - 16 e */
	mov		%eax, %ecx
	add		%ecx, %ecx
	mov		$0xffff, %r8d
	shl		%cl, %r8d
	kmovw		%r8d, %k4
	kshiftrw	$8, %k4, %k5
	shl		$4, %eax
	mov		SRC, %r8
	sub		%rax, %r8
	vmovdqu64	(%r8), %zmm5{%k4}{z}
	vmovdqu64	64(%r8), %zmm4{%k5}{z}
	vpunpcklqdq	%zmm4, %zmm5, %zmm3
	vpunpckhqdq	%zmm4, %zmm5, %zmm4
	TO44		z, 3, 4, 5
	vporq		%zmm15, %zmm4, %zmm4{%k2}
	vpbroadcastq	%xmm0, %zmm0
	vpbroadcastq	%xmm1, %zmm1
	vpbroadcastq	%xmm2, %zmm2
	vmovdqa64	%zmm0, %zmm0{%k3}{z}
	vmovdqa64	%zmm1, %zmm1{%k3}{z}
	vmovdqa64	%zmm2, %zmm2{%k3}{z}
	ADD_BLOCK	z
	MUL		z, 0, 1, 2, 21, 22, 23, 24, 25
	HSUM		0
	HSUM		1
	HSUM		2
	CARRY_H
	jmp		.Lstore

.Ltail:
	/* fewer than four blocks: one at a time, with r */
.Lloop1:
	vmovq		(SRC), %xmm3
	vmovq		8(SRC), %xmm4
	BLOCK_LIMBS	x
	ADD_BLOCK	x
	MUL		x, 0, 1, 2, 26, 27, 28, 29, 30
	add		$16, SRC
	dec		NBLOCKS
	jnz		.Lloop1

.Lstore:
	/*
	 * Back to 64-bit limbs.  After MUL or CARRY_H (nblocks >= 1 runs
	 * one of them last) h0 < 2^44, h1 < 2^44 + 2^11 and h2 < 2^42: one
	 * more carry h1 -> h2 leaves h1 < 2^44 and adds at most 1 to h2, so
	 * the limbs do not overlap, h2 <= 2^42 and h[2] = h2 >> 40 <= 4.
	 */
	vpsrlq		$44, %xmm1, %xmm12
	vpandq		%xmm13, %xmm1, %xmm1
	vpaddq		%xmm12, %xmm2, %xmm2
	vpsllq		$44, %xmm1, %xmm3
	vporq		%xmm3, %xmm0, %xmm0
	vpsrlq		$20, %xmm1, %xmm1
	vpsllq		$24, %xmm2, %xmm3
	vporq		%xmm3, %xmm1, %xmm1
	vpsrlq		$40, %xmm2, %xmm2
	vmovq		%xmm0, (STATE)
	vmovq		%xmm1, 8(STATE)
	vmovq		%xmm2, 16(STATE)
.Ldone:
	vzeroupper
	test		%r9, %r9
	jnz		poly1305_blocks_ifma_mac
	RET

	/*
	 * The tag from st->h as stored above, as oot_poly1305_emit(): h mod
	 * p, + s modulo 2^128.  General-purpose registers from here on.
	 */
SYM_INNER_LABEL(poly1305_blocks_ifma_mac, SYM_L_LOCAL)
	mov		(STATE), %rax
	mov		8(STATE), %r8
	mov		16(STATE), %r10
	POLY1305_MULX_FINAL	%rax, %r8, %r10, %r11, %rcx, %rdx
	add		40(STATE), %rax
	adc		48(STATE), %r8
	mov		%rax, (%r9)
	mov		%r8, 8(%r9)
	RET
SYM_FUNC_END(poly1305_blocks_ifma)
