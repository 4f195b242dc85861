/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ChaCha cores for arm64 with Advanced SIMD (NEON), little-endian.
 *
 * void fn(const u32 *state, u8 *dst, const u8 *src, unsigned int nrounds)
 *	x0 = state (16 words, RFC 8439 layout; only read)
 *	x1 = dst, x2 = src (any alignment, may be equal)
 *	w3 = nrounds: 12 or 20 (any multiple of 4; the 4-block core takes
 *	     any even number; any other count still ends, with output that
 *	     means nothing, rather than loop for 2^32 double rounds)
 *
 * Block i uses the counter state[12] + i, wrapping modulo 2^32 with no
 * carry into state[13].
 *
 * chacha20_4block_xor_neon: four blocks "vertically", one 32-bit word of
 * all four blocks per vector register, so that a round needs no shuffles;
 * a 4x4 transpose per group of four words at the end.
 *
 * chacha20_6block_xor_neon: the same four vector blocks plus two blocks on
 * the general-purpose registers, one after the other: each iteration of
 * the loop is one vector double round and two scalar double rounds, their
 * instructions woven together.  Two vector pipes bound a vector block at
 * 14 cycles per double round on Neoverse-N1 (28 instructions); the three
 * integer pipes, idle otherwise, take the two extra blocks.  llvm-mca
 * (-mcpu=neoverse-n1) puts the loop at 10.7 cycles per block and double
 * round, the kernel's 4+1-block loop at 12.8.
 *
 * chachapoly_4block_xor_neon, chachapoly_5block_xor_neon: the 4-block
 * core, and the 6-block core's first five blocks, with Poly1305 (mul and
 * umulh, poly1305-arm64.S) woven into their rounds: the one-pass
 * ChaCha20-Poly1305 of neon4 and neon (at the end of the file).
 *
 * Rotations: by 16 with rev32, by 8 with tbl, by 12 and 7 with shl + sri
 * (shifts run on one of the N1's two vector pipes only, tbl on either).
 * Only v0-v7 and v16-v31 are used, so no callee-saved vector register
 * (v8-v15) is touched; x19-x22 are saved.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

/* Poly1305's parts, for the one-pass ChaCha20-Poly1305 core at the end. */
#define POLY1305_ARM64_MACROS_ONLY
#include "poly1305-arm64.S"

/* Counter lanes of the vector blocks: state[12] + {0, 1, 2, 3}. */
	.section	.rodata
	.p2align	4
.Lctrinc:
	.word		0, 1, 2, 3
/* tbl indices rotating each 32-bit lane left by 8 bits. */
.Lrot8:
	.byte		3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14

	.text

/* Word i of the four vector blocks; v8-v15 (callee-saved) are avoided. */
vw0	.req	v0
vw1	.req	v1
vw2	.req	v2
vw3	.req	v3
vw4	.req	v4
vw5	.req	v5
vw6	.req	v6
vw7	.req	v7
vw8	.req	v16
vw9	.req	v17
vw10	.req	v18
vw11	.req	v19
vw12	.req	v20
vw13	.req	v21
vw14	.req	v22
vw15	.req	v23
/* Temporaries v24-v27; counter lanes v28, tbl indices v29. */
vt0	.req	v24
vt1	.req	v25
vt2	.req	v26
vt3	.req	v27
vinc	.req	v28
vrot8	.req	v29

/* Word i of the scalar block. */
sw0	.req	w4
sw1	.req	w5
sw2	.req	w6
sw3	.req	w7
sw4	.req	w8
sw5	.req	w9
sw6	.req	w10
sw7	.req	w11
sw8	.req	w12
sw9	.req	w13
sw10	.req	w14
sw11	.req	w15
sw12	.req	w16
sw13	.req	w17
sw14	.req	w19
sw15	.req	w20

/* The same registers as 64-bit ones, for the final stores. */
sx0	.req	x4
sx1	.req	x5
sx2	.req	x6
sx3	.req	x7
sx4	.req	x8
sx5	.req	x9
sx6	.req	x10
sx7	.req	x11
sx8	.req	x12
sx9	.req	x13
sx10	.req	x14
sx11	.req	x15
sx12	.req	x16
sx13	.req	x17
sx14	.req	x19
sx15	.req	x20

/*
 * One step of the quarter-round on four vector columns:
 *	x += y; z ^= x; z = rol32(z, r)
 * for (x0, y0, z0) .. (x3, y3, z3) (word numbers).
 */
.macro vstep_add x, y
	add		vw\x\().4s, vw\x\().4s, vw\y\().4s
.endm

/* z ^= x, then z = rol32(z, r): in place for r = 16, via vt* otherwise. */
.macro vstep_xor r, x, z, t
.if \r == 16 || \r == 8
	eor		vw\z\().16b, vw\z\().16b, vw\x\().16b
.else
	eor		\t\().16b, vw\z\().16b, vw\x\().16b
.endif
.endm

.macro vstep_rot1 r, z, t
.if \r == 16
	rev32		vw\z\().8h, vw\z\().8h
.elseif \r == 8
	tbl		vw\z\().16b, {vw\z\().16b}, vrot8.16b
.else
	shl		vw\z\().4s, \t\().4s, #\r
.endif
.endm

.macro vstep_rot2 r, z, t
.if \r != 16 && \r != 8
	sri		vw\z\().4s, \t\().4s, #(32 - \r)
.endif
.endm

/* The same step on one column of the scalar block; nothing if blank. */
.macro sstep_add x, y
.ifnb \x
	add		sw\x, sw\x, sw\y
.endif
.endm

.macro sstep_xor x, z
.ifnb \x
	eor		sw\z, sw\z, sw\x
.endif
.endm

.macro sstep_rot r, z
.ifnb \r
	ror		sw\z, sw\z, #(32 - \r)
.endif
.endm

/*
 * One step on the vector columns (r; x0..z3), interleaved with two steps
 * of the scalar block (p; a0..c3 and q; d0..f3) when those are given.
 */
.macro step r, x0, y0, z0, x1, y1, z1, x2, y2, z2, x3, y3, z3, \
	    p, a0, b0, c0, a1, b1, c1, a2, b2, c2, a3, b3, c3, \
	    q, d0, e0, f0, d1, e1, f1, d2, e2, f2, d3, e3, f3
	vstep_add	\x0, \y0
	sstep_add	\a0, \b0
	vstep_add	\x1, \y1
	sstep_add	\a1, \b1
	vstep_add	\x2, \y2
	sstep_add	\a2, \b2
	vstep_add	\x3, \y3
	sstep_add	\a3, \b3
	vstep_xor	\r, \x0, \z0, vt0
	sstep_xor	\a0, \c0
	vstep_xor	\r, \x1, \z1, vt1
	sstep_xor	\a1, \c1
	vstep_xor	\r, \x2, \z2, vt2
	sstep_xor	\a2, \c2
	vstep_xor	\r, \x3, \z3, vt3
	sstep_xor	\a3, \c3
	vstep_rot1	\r, \z0, vt0
	sstep_rot	\p, \c0
	vstep_rot1	\r, \z1, vt1
	sstep_rot	\p, \c1
	vstep_rot1	\r, \z2, vt2
	sstep_rot	\p, \c2
	vstep_rot1	\r, \z3, vt3
	sstep_rot	\p, \c3
	sstep_add	\d0, \e0
	vstep_rot2	\r, \z0, vt0
	sstep_add	\d1, \e1
	vstep_rot2	\r, \z1, vt1
	sstep_add	\d2, \e2
	vstep_rot2	\r, \z2, vt2
	sstep_add	\d3, \e3
	vstep_rot2	\r, \z3, vt3
	sstep_xor	\d0, \f0
	sstep_xor	\d1, \f1
	sstep_xor	\d2, \f2
	sstep_xor	\d3, \f3
	sstep_rot	\q, \f0
	sstep_rot	\q, \f1
	sstep_rot	\q, \f2
	sstep_rot	\q, \f3
.endm

/*
 * Steps of a double round: (x, y, z) per column for the column round's
 * a/b/d and c/d/b steps, then the diagonal round's.
 */
#define COL_ABD		0, 4, 12, 1, 5, 13, 2, 6, 14, 3, 7, 15
#define COL_CDB		8, 12, 4, 9, 13, 5, 10, 14, 6, 11, 15, 7
#define DIAG_ABD	0, 5, 15, 1, 6, 12, 2, 7, 13, 3, 4, 14
#define DIAG_CDB	10, 15, 5, 11, 12, 6, 8, 13, 7, 9, 14, 4

/* One vector double round. */
.macro vdouble
	step	16, COL_ABD
	step	12, COL_CDB
	step	8, COL_ABD
	step	7, COL_CDB
	step	16, DIAG_ABD
	step	12, DIAG_CDB
	step	8, DIAG_ABD
	step	7, DIAG_CDB
.endm

/* One vector double round with two scalar double rounds woven in. */
.macro vdouble_s2
	step	16, COL_ABD, 16, COL_ABD, 12, COL_CDB
	step	12, COL_CDB, 8, COL_ABD, 7, COL_CDB
	step	8, COL_ABD, 16, DIAG_ABD, 12, DIAG_CDB
	step	7, COL_CDB, 8, DIAG_ABD, 7, DIAG_CDB
	step	16, DIAG_ABD, 16, COL_ABD, 12, COL_CDB
	step	12, DIAG_CDB, 8, COL_ABD, 7, COL_CDB
	step	8, DIAG_ABD, 16, DIAG_ABD, 12, DIAG_CDB
	step	7, DIAG_CDB, 8, DIAG_ABD, 7, DIAG_CDB
.endm

/*
 * The one-pass ChaCha20-Poly1305 cores' step: the vector step of \r on
 * its columns, with four parts of a Poly1305 block (poly1305-arm64.S's
 * numbers \pa .. \pd; those past the last part are nothing) between its
 * groups of instructions and, where PSCALAR is 1, the same step on the
 * scalar block's columns woven in.
 */
.macro pscalar op, a, b
.if PSCALAR
	sstep_\op	\a, \b
.endif
.endm

.macro pstep r, x0, y0, z0, x1, y1, z1, x2, y2, z2, x3, y3, z3, \
	     pa, pb, pc, pd
	vstep_add	\x0, \y0
	pscalar		add, \x0, \y0
	vstep_add	\x1, \y1
	pscalar		add, \x1, \y1
	ppart		\pa
	vstep_add	\x2, \y2
	pscalar		add, \x2, \y2
	vstep_add	\x3, \y3
	pscalar		add, \x3, \y3
	vstep_xor	\r, \x0, \z0, vt0
	pscalar		xor, \x0, \z0
	vstep_xor	\r, \x1, \z1, vt1
	pscalar		xor, \x1, \z1
	ppart		\pb
	vstep_xor	\r, \x2, \z2, vt2
	pscalar		xor, \x2, \z2
	vstep_xor	\r, \x3, \z3, vt3
	pscalar		xor, \x3, \z3
	vstep_rot1	\r, \z0, vt0
	pscalar		rot, \r, \z0
	vstep_rot1	\r, \z1, vt1
	pscalar		rot, \r, \z1
	ppart		\pc
	vstep_rot1	\r, \z2, vt2
	pscalar		rot, \r, \z2
	vstep_rot1	\r, \z3, vt3
	pscalar		rot, \r, \z3
	vstep_rot2	\r, \z0, vt0
	vstep_rot2	\r, \z1, vt1
	ppart		\pd
	vstep_rot2	\r, \z2, vt2
	vstep_rot2	\r, \z3, vt3
.endm

/*
 * One vector double round with two Poly1305 blocks woven in and, where
 * PSCALAR is 1, one double round of the scalar block.
 */
.macro vdouble_p
	pstep	16, COL_ABD, 0, 1, 2, 3
	pstep	12, COL_CDB, 4, 5, 6, 7
	pstep	8, COL_ABD, 8, 9, 10, 11
	pstep	7, COL_CDB, 12, 13, 14, 15
	pstep	16, DIAG_ABD, 0, 1, 2, 3
	pstep	12, DIAG_CDB, 4, 5, 6, 7
	pstep	8, DIAG_ABD, 8, 9, 10, 11
	pstep	7, DIAG_CDB, 12, 13, 14, 15
.endm

/* vw0-vw15 = words 0-15 of the state, vw12 plus {0, 1, 2, 3}; uses x8. */
.macro vload_state
	adrp		x8, .Lctrinc
	add		x8, x8, :lo12:.Lctrinc
	ld1		{v28.4s, v29.4s}, [x8]
	mov		x8, x0
	ld4r		{v0.4s - v3.4s}, [x8], #16
	ld4r		{v4.4s - v7.4s}, [x8], #16
	ld4r		{v16.4s - v19.4s}, [x8], #16
	ld4r		{v20.4s - v23.4s}, [x8]
	add		vw12.4s, vw12.4s, vinc.4s
.endm

/*
 * Registers v\a..v\d hold four consecutive words of the four vector
 * blocks, vt0-vt3 the matching input words: add them, transpose so that
 * each register holds 16 bytes of one block, XOR with the source and store
 * at byte \off of each block.
 */
.macro vfinish a, b, c, d, off
	add		v\a\().4s, v\a\().4s, vt0.4s
	add		v\b\().4s, v\b\().4s, vt1.4s
	add		v\c\().4s, v\c\().4s, vt2.4s
	add		v\d\().4s, v\d\().4s, vt3.4s
	zip1		vt0.4s, v\a\().4s, v\b\().4s
	zip2		vt1.4s, v\a\().4s, v\b\().4s
	zip1		vt2.4s, v\c\().4s, v\d\().4s
	zip2		vt3.4s, v\c\().4s, v\d\().4s
	zip1		v\a\().2d, vt0.2d, vt2.2d
	zip2		v\b\().2d, vt0.2d, vt2.2d
	zip1		v\c\().2d, vt1.2d, vt3.2d
	zip2		v\d\().2d, vt1.2d, vt3.2d
	ldr		q24, [x2, #\off]
	ldr		q25, [x2, #(\off + 64)]
	ldr		q26, [x2, #(\off + 128)]
	ldr		q27, [x2, #(\off + 192)]
	eor		v\a\().16b, v\a\().16b, vt0.16b
	eor		v\b\().16b, v\b\().16b, vt1.16b
	eor		v\c\().16b, v\c\().16b, vt2.16b
	eor		v\d\().16b, v\d\().16b, vt3.16b
	str		q\a, [x1, #\off]
	str		q\b, [x1, #(\off + 64)]
	str		q\c, [x1, #(\off + 128)]
	str		q\d, [x1, #(\off + 192)]
.endm

/* The four vector blocks: feed-forward, XOR, store bytes 0-255; uses x8. */
.macro vstore_blocks
	mov		x8, x0
	ld4r		{v24.4s - v27.4s}, [x8], #16
	vfinish		0, 1, 2, 3, 0
	ld4r		{v24.4s - v27.4s}, [x8], #16
	vfinish		4, 5, 6, 7, 16
	ld4r		{v24.4s - v27.4s}, [x8], #16
	vfinish		16, 17, 18, 19, 32
	ld4r		{v24.4s - v27.4s}, [x8]
	add		vt0.4s, vt0.4s, vinc.4s
	vfinish		20, 21, 22, 23, 48
.endm

/* sw0-sw15 = state, sw12 plus \ctr. */
.macro sload_state ctr
	ldp		sw0, sw1, [x0]
	ldp		sw2, sw3, [x0, #8]
	ldp		sw4, sw5, [x0, #16]
	ldp		sw6, sw7, [x0, #24]
	ldp		sw8, sw9, [x0, #32]
	ldp		sw10, sw11, [x0, #40]
	ldp		sw12, sw13, [x0, #48]
	ldp		sw14, sw15, [x0, #56]
	add		sw12, sw12, #\ctr
.endm

/*
 * Words \i..\i+3 of the scalar block: feed-forward, then XOR and store as
 * two 64-bit words (little-endian); uses x21, x22.
 */
.macro sfinish4 i, j, k, l, off, ctr
	ldp		w21, w22, [x0, #(4 * \i)]
.if \i == 12
	add		w21, w21, #\ctr
.endif
	add		sw\i, sw\i, w21
	add		sw\j, sw\j, w22
	ldp		w21, w22, [x0, #(4 * \k)]
	add		sw\k, sw\k, w21
	add		sw\l, sw\l, w22
	add		sx\i, sx\i, sx\j, lsl #32
	add		sx\k, sx\k, sx\l, lsl #32
	ldp		x21, x22, [x2, #(\off + 4 * \i)]
	eor		sx\i, sx\i, x21
	eor		sx\k, sx\k, x22
	stp		sx\i, sx\k, [x1, #(\off + 4 * \i)]
.endm

/* The scalar block with counter state[12] + \ctr, at byte \off. */
.macro sstore_block off, ctr
	sfinish4	0, 1, 2, 3, \off, \ctr
	sfinish4	4, 5, 6, 7, \off, \ctr
	sfinish4	8, 9, 10, 11, \off, \ctr
	sfinish4	12, 13, 14, 15, \off, \ctr
.endm

/* Four blocks, all in vector registers. */
SYM_TYPED_FUNC_START(chacha20_4block_xor_neon)
	vload_state
	lsr		w9, w3, #1		/* double rounds */
.Lround4:
	vdouble
	subs		w9, w9, #1
	b.hi		.Lround4
	vstore_blocks
	ret
SYM_FUNC_END(chacha20_4block_xor_neon)

/*
 * Six blocks: four in vector registers (counters +0..+3, bytes 0-255) and
 * two in general-purpose registers, the first (+4, bytes 256-319) during
 * the first half of the vector rounds, the second (+5, bytes 320-383)
 * during the second half.
 */
SYM_TYPED_FUNC_START(chacha20_6block_xor_neon)
	stp		x29, x30, [sp, #-48]!
	mov		x29, sp
	stp		x19, x20, [sp, #16]
	stp		x21, x22, [sp, #32]

	vload_state
	sload_state	4
	lsr		w22, w3, #2		/* double rounds left when */
	lsr		w3, w3, #1		/* ... the first block is done */
.Lround6:
	vdouble_s2
	sub		w3, w3, #1
	cmp		w3, w22
	b.eq		.Lnext6
	cmp		w3, #0
	b.gt		.Lround6

	sstore_block	320, 5
	vstore_blocks
	ldp		x19, x20, [sp, #16]
	ldp		x21, x22, [sp, #32]
	ldp		x29, x30, [sp], #48
	ret

.Lnext6:
	sstore_block	256, 4
	sload_state	5
	mov		w22, #-1		/* no second switch */
	b		.Lround6
SYM_FUNC_END(chacha20_6block_xor_neon)

/*
 * void chachapoly_4block_xor_neon(const u32 *state, u8 *dst, const u8 *src,
 *				   struct poly1305_core_state *st,
 *				   const u8 *mac)
 *
 * chacha20_4block_xor_neon(state, dst, src, 20) over one 256-byte stride,
 * with oot_poly1305_blocks_arm64(st, mac, 16, 1) spread between its rounds:
 * two blocks in each of the first eight double rounds, on the integer
 * pipes, which the vector rounds leave idle.  @mac is @src or 256 bytes
 * the call does not write (the stride before's output); it is read
 * before @dst is written.  20 rounds only.
 *
 *	x0 = state, x1 = dst, x2 = src, x3 = st, x4 = mac
 *
 * Poly1305: h in x5-x7, r0, r1, rr1 in x9-x11, scratch x12-x16, hibit
 * (1) in x17; the double round count in w8.  Caller-saved registers and
 * v0-v7, v16-v31 only, no stack.  Called directly, never through a
 * pointer.
 *
 * chachapoly_5block_xor_neon(): the same over a 320-byte stride and 20
 * Poly1305 blocks: chacha20_6block_xor_neon's first five blocks, the fifth
 * (+4, bytes 256-319) on the general-purpose registers, one of its double
 * rounds and two Poly1305 blocks in each vector double round.  With the
 * scalar block in w4-w17, w19, w20, Poly1305 takes h in x21-x23, r0, r1,
 * rr1 in x24-x26, scratch x0-x3 and x27, hibit in x28; the arguments,
 * @mac and the double round count wait on the stack.  Each block loads
 * @mac into x1, free then, and stores it back advanced: x30 keeps the
 * return address, as unwinders expect of an interrupted frame.
 */
.macro ppart n
.if \n < POLY1305_ARM64_PARTS
.if PSCALAR && \n == 0
	ldr		x1, [sp, #PMAC]
	POLY1305_ARM64_PART \n, x1, x28, x21, x22, x23, x24, x25, x26, \
			    x0, x1, x2, x3, x27
	str		x1, [sp, #PMAC]
.elseif PSCALAR
	POLY1305_ARM64_PART \n, x1, x28, x21, x22, x23, x24, x25, x26, \
			    x0, x1, x2, x3, x27
.else
	POLY1305_ARM64_PART \n, x4, x17, x5, x6, x7, x9, x10, x11, \
			    x12, x13, x14, x15, x16
.endif
.endif
.endm

.set	PSCALAR, 0
SYM_FUNC_START(chachapoly_4block_xor_neon)
	vload_state
	POLY1305_ARM64_LOAD	x3, x5, x6, x7, x9, x10, x11
	mov		x17, #1
	mov		w8, #8			/* 8 x 2 blocks = 256 bytes */
.Lpoly_round4:
	vdouble_p
	subs		w8, w8, #1
	b.ne		.Lpoly_round4
	mov		w8, #2			/* the last two double rounds */
.Lplain_round4:
	vdouble
	subs		w8, w8, #1
	b.ne		.Lplain_round4
	POLY1305_ARM64_STORE	x3, x5, x6, x7
	vstore_blocks
	ret
SYM_FUNC_END(chachapoly_4block_xor_neon)

.set	PSCALAR, 1
.set	PMAC, 136		/* @mac's slot in the frame */
SYM_FUNC_START(chachapoly_5block_xor_neon)
	stp		x29, x30, [sp, #-144]!
	mov		x29, sp
	stp		x19, x20, [sp, #16]
	stp		x21, x22, [sp, #32]
	stp		x23, x24, [sp, #48]
	stp		x25, x26, [sp, #64]
	stp		x27, x28, [sp, #80]
	stp		x0, x1, [sp, #96]
	stp		x2, x3, [sp, #112]

	str		x4, [sp, #PMAC]
	vload_state
	POLY1305_ARM64_LOAD	x3, x21, x22, x23, x24, x25, x26
	sload_state	4
	mov		x28, #1
	mov		w0, #10			/* 10 x 2 blocks = 320 bytes */
	str		w0, [sp, #128]
.Lpoly_round5:
	vdouble_p
	ldr		w0, [sp, #128]
	subs		w0, w0, #1
	str		w0, [sp, #128]
	b.ne		.Lpoly_round5

	ldp		x0, x1, [sp, #96]
	ldp		x2, x3, [sp, #112]
	POLY1305_ARM64_STORE	x3, x21, x22, x23
	sstore_block	256, 4
	vstore_blocks
	ldp		x19, x20, [sp, #16]
	ldp		x21, x22, [sp, #32]
	ldp		x23, x24, [sp, #48]
	ldp		x25, x26, [sp, #64]
	ldp		x27, x28, [sp, #80]
	ldp		x29, x30, [sp], #144
	ret
SYM_FUNC_END(chachapoly_5block_xor_neon)
