/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Poly1305 blocks (RFC 8439 section 2.5) in arm64 scalar assembly, mul and
 * umulh: the same arithmetic as oot_poly1305_blocks() in poly1305_core.c
 * and oot_poly1305_blocks_x86_64_mulx(), as numbered parts that the one-pass
 * ChaCha20-Poly1305 cores (chachapoly_4block_xor_neon and _5block_)
 * spread between the instructions of their rounds, and a function that
 * runs them in turn.
 *
 * The numbers, as in poly1305-x86_64.S: h = h0 + h1 2^64 + h2 2^128, below
 * 2^130 + 2^64 between blocks (h2 <= 4); r = r0 + r1 2^64 clamped, so
 * r0 < 2^60 and r1 < 2^60 is a multiple of 4; rr1 = r1 + (r1 >> 2) =
 * 5 (r1 / 4).  Per block m:
 *
 *   h += m + hibit 2^128			(h2 <= 6)
 *   d0 = h0 r0 + h1 rr1			(< 2^125)
 *   d1 = h0 r1 + h1 r0 + h2 rr1		(< 2^126; h2 rr1 < 2^64)
 *   d2 = h2 r0					(< 2^63)
 *   t = d0 + d1 2^64 + d2 2^128 = t0 + t1 2^64 + t2 2^128
 *   h = t0 + t1 2^64 + (t2 & 3) 2^128 + 5 (t2 >> 2)
 *
 * Constant time: no branch and no address depends on h, r or the message;
 * mul, umulh, adds and adc take the same time whatever the values on the
 * cores this targets (the loop counts blocks, which are public).  No
 * vector register is touched, so the function alone needs no
 * kernel_neon_begin().
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

/*
 * Test only: tests/Makefile assembles copies with
 * -DPOLY1305_PLANT_FAULT=POLY1305_FAULT_ARM64_..., each with one of these
 * mistakes in the reduction, and checks that the harness fails (the
 * function's checks, and the AEAD's through the stitched core, which
 * includes these parts).  The numbers go on from poly1305-x86_64.S's.
 */
#define POLY1305_FAULT_ARM64_CARRY	11	/* drops the carry out of h0 */
#define POLY1305_FAULT_ARM64_FOLD	12	/* drops the one out of h1 */

#ifdef POLY1305_PLANT_FAULT
#ifdef __KERNEL__
#error "POLY1305_PLANT_FAULT is for the user-space tests only"
#endif
#if POLY1305_PLANT_FAULT == POLY1305_FAULT_ARM64_CARRY
#define POLY1305_ARM64_DROP_CARRY
#elif POLY1305_PLANT_FAULT == POLY1305_FAULT_ARM64_FOLD
#define POLY1305_ARM64_DROP_FOLD
#endif
#endif

/*
 * The block as parts 0 .. POLY1305_ARM64_PARTS - 1, to run in that order.
 * Each part touches only the flags and the general-purpose registers named
 * in the arguments; the flags carry values inside a part, never from one
 * part to the next, so any instruction that leaves the flags alone (every
 * NEON one) may go between two parts, and one that writes them (a loop
 * counter's subs) too.
 *
 * \src: the message pointer, advanced by 16 (any alignment).
 * \hibit: a register holding 1 or 0 (2^128 added to the block or not).
 * \h0, \h1, \h2: the accumulator, updated in place.
 * \r0, \r1, \rr1: the key, only read.
 * \t0 .. \t4: scratch, clobbered (\t0 and \t4 hold the message words
 *	between parts 0 and 1).
 * All 64-bit x registers, all distinct.
 */
#define POLY1305_ARM64_PARTS	13

.macro POLY1305_ARM64_PART n, src, hibit, h0, h1, h2, r0, r1, rr1, \
			   t0, t1, t2, t3, t4
.if \n == 0
	ldp		\t0, \t4, [\src], #16
.elseif \n == 1
	adds		\h0, \h0, \t0		/* h += m + hibit 2^128 */
	adcs		\h1, \h1, \t4
	adc		\h2, \h2, \hibit
.elseif \n == 2
	mul		\t2, \h0, \r1
	umulh		\t3, \h0, \r1		/* t3:t2 = h0 r1 */
.elseif \n == 3
	umulh		\t1, \h0, \r0
	mul		\h0, \h0, \r0		/* t1:h0 = h0 r0 */
.elseif \n == 4
	mul		\t0, \h1, \rr1
	umulh		\t4, \h1, \rr1		/* t4:t0 = h1 rr1 */
.elseif \n == 5
	adds		\h0, \h0, \t0
	adc		\t1, \t1, \t4		/* t1:h0 = d0 */
.elseif \n == 6
	mul		\t0, \h1, \r0
	umulh		\t4, \h1, \r0		/* t4:t0 = h1 r0 */
.elseif \n == 7
	adds		\t2, \t2, \t0
	adc		\t3, \t3, \t4		/* t3:t2 = h0 r1 + h1 r0 */
.elseif \n == 8
	mul		\t0, \h2, \rr1		/* h2 rr1 < 2^64 */
	mul		\h2, \h2, \r0		/* d2 = h2 r0 */
.elseif \n == 9
	adds		\t2, \t2, \t0
	adc		\t3, \t3, xzr		/* t3:t2 = d1 */
.elseif \n == 10
	adds		\h1, \t2, \t1		/* t1 = d1 + d0 >> 64, mod 2^64 */
	adc		\h2, \h2, \t3		/* t2 = d2 + the rest of d1 */
.elseif \n == 11
	and		\t0, \h2, #~3		/* 4 (t2 >> 2) */
	add		\t0, \t0, \h2, lsr #2	/* 5 (t2 >> 2) < 2^64 */
	and		\h2, \h2, #3
.elseif \n == 12
	adds		\h0, \h0, \t0
#ifndef POLY1305_ARM64_DROP_CARRY
	adcs		\h1, \h1, xzr
#ifndef POLY1305_ARM64_DROP_FOLD
	adc		\h2, \h2, xzr		/* h2 <= 4 */
#endif
#endif
.endif
.endm

/* The whole block: every part in turn. */
.macro POLY1305_ARM64_BLOCK src, hibit, h0, h1, h2, r0, r1, rr1, \
			    t0, t1, t2, t3, t4
	.irp		n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
	POLY1305_ARM64_PART \n, \src, \hibit, \h0, \h1, \h2, \r0, \r1, \
			    \rr1, \t0, \t1, \t2, \t3, \t4
	.endr
.endm

/*
 * A Poly1305 routine's entry and exit: st->h and r in and out of
 * registers (struct poly1305_core_state: h[3] at 0, r[2] at 24), with
 * \rr1 = r1 + (r1 >> 2).
 */
.macro POLY1305_ARM64_LOAD st, h0, h1, h2, r0, r1, rr1
	ldp		\h0, \h1, [\st]
	ldr		\h2, [\st, #16]
	ldp		\r0, \r1, [\st, #24]
	add		\rr1, \r1, \r1, lsr #2
.endm

.macro POLY1305_ARM64_STORE st, h0, h1, h2
	stp		\h0, \h1, [\st]
	str		\h2, [\st, #16]
.endm

/*
 * Another .S may include this file for the macros alone.
 */
#ifndef POLY1305_ARM64_MACROS_ONLY

	.text

/*
 * void oot_poly1305_blocks_arm64(struct poly1305_core_state *st,
 *			      const u8 *src, unsigned int nblocks, u32 hibit)
 *
 * oot_poly1305_blocks()'s contract: absorb @nblocks (0 too) whole
 * 16-byte blocks of @src (any alignment), each with @hibit 2^128 added,
 * into st->h, which is left with h[2] <= 4.
 *
 *	x0 = st, x1 = src, w2 = nblocks, w3 = hibit
 *
 * h in x4-x6, r0, r1, rr1 in x7-x9, scratch x10-x14: caller-saved only,
 * no stack.  Typed for kCFI: the module calls it through poly1305_impls[].
 */
SYM_TYPED_FUNC_START(oot_poly1305_blocks_arm64)
	cbz		w2, .Lpoly_none
	mov		w3, w3			/* hibit, zero-extended */
	POLY1305_ARM64_LOAD	x0, x4, x5, x6, x7, x8, x9
.Lpoly_loop:
	POLY1305_ARM64_BLOCK	x1, x3, x4, x5, x6, x7, x8, x9, \
				x10, x11, x12, x13, x14
	subs		w2, w2, #1
	b.ne		.Lpoly_loop
	POLY1305_ARM64_STORE	x0, x4, x5, x6
.Lpoly_none:
	ret
SYM_FUNC_END(oot_poly1305_blocks_arm64)

#endif /* POLY1305_ARM64_MACROS_ONLY */
