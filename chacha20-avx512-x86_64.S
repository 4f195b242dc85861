/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ChaCha cores for x86-64 with AVX-512 (F, VL and BW):
 *
 *   chacha20_24block_xor_avx512	24 blocks: 16 in zmm, 8 in ymm
 *   chacha20_16block_xor_avx512	16 blocks, vertical in zmm
 *   chacha20_16block_xor_avx512vl	16 blocks, two 8-block groups in ymm
 *   chacha20_12block_xor_avx512vl	12 blocks: 8 in ymm, 4 in the row layout
 *   chacha20_8block_xor_avx512vl	8 blocks, one group in ymm
 *   chacha20_4block_xor_avx512vl	4 blocks in the row layout (ymm)
 *   chacha20_2block_xor_avx512vl	2 blocks in the row layout (ymm)
 *
 * and for each a "_part" entry that takes a length: it XORs only the first
 * @len (<= the stride) bytes and touches no byte of @dst or @src past them,
 * using byte masks (vmovdqu8 with a k register) for the piece the data
 * ends in, so a tail needs no bounce buffer.  All only read the state;
 * block j uses the counter state[12] + j, wrapping modulo 2^32 with no
 * carry into state[13].  The cores of 8 to 24 blocks also have a
 * "_strides" entry, many strides in one call, and a "_key" entry, the
 * AEAD's block 0 and its text in one call (see STRIDE_ENTRIES).
 *
 * Vertical layout: register i holds state word i of every block, one block
 * per 32-bit lane, so a quarter-round works on all blocks at once.  With 32
 * vector registers the sixteen words of a group never leave registers and
 * vprold rotates in place, so no temporaries are needed in the rounds:
 * two 8-block ymm groups fill all 32 registers, one zmm group half of them.
 *
 * Why 16 blocks and more: vprold has a latency of 2 on Zen 4, so one
 * quarter-round step (add, xor, rotate) takes 4 cycles and a column or
 * diagonal round 16.  One 8-block group offers 48 ymm operations per
 * round, which four vector pipes would finish in 12 cycles: it waits on
 * latency.  Two interleaved groups (or one zmm group, whose operations run
 * as two 256-bit halves on Zen 4) offer twice the work per round and keep
 * the pipes busy; 16 blocks in zmm plus 8 in ymm use all 32 registers and
 * also cover requests of 17-24 blocks in one call.
 *
 * At the end the input state is added back (embedded broadcasts, so no
 * register is needed for it), the matrix of words is transposed back into
 * blocks and XORed into the source.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

/*
 * Both tables are read at offsets into them, so they are not in mergeable
 * (.rodata.cstN, "aM") sections: a linker may deduplicate and move each
 * N-byte entry of those on its own, and ld.lld does (LLVM=1 kernels link
 * modules with it).  The first entries of chacha20_avx512_ctrrows equal
 * the AVX2 core's ctr01 and ctr23 constants; merged with them, a load at
 * chacha20_avx512_ctrrows + 32 read whatever followed the survivor, and
 * the row-layout cores' blocks 2 and up came out wrong.
 */
.section	.rodata.chacha20_avx512, "a", @progbits
.align 64
/*
 * Lane j of the counter row adds j; the group of blocks 8k.. reads from
 * byte 32k on.
 */
chacha20_avx512_ctrinc:
	.long	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.long	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
/*
 * What the counter row of blocks k and k + 1 adds in the row layout, k
 * even: entry k / 2, at byte 16k (see LOAD_ROWS).
 */
chacha20_avx512_ctrrows:
	.long	0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0
	.long	4, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0
	.long	8, 0, 0, 0, 9, 0, 0, 0, 10, 0, 0, 0, 11, 0, 0, 0

/*
 * Arguments (SysV); STATE is only read but by the _strides entries, LEN
 * only by the _part entries.  The bodies keep the strides still to do in
 * STRIDES and the round count in NROUNDS.
 */
#define STATE	%rdi
#define DST	%rsi
#define SRC	%rdx
#define ROUNDS	%ecx
#define LEN	%r8d
#define STRIDES	%r9d
#define NROUNDS	%r10d
/* Where block 0's key stream goes, from the _key entries; else 0. */
#define KEYP	%r11

/* The entry point without a length: the _part one, for a whole stride. */
#define FULL_ENTRY(n, sfx)					\
	SYM_TYPED_FUNC_START(chacha20_##n##block_xor_##sfx);	\
	mov	$(n * 64), LEN;					\
	jmp	chacha20_##n##block_xor_part_##sfx;		\
	SYM_FUNC_END(chacha20_##n##block_xor_##sfx)

/*
 * The three entry points of a stride core, around its body
 * chacha20_<n>block_body_<sfx>, which takes LEN and STRIDES: 0 for one
 * call that only reads the state, else that many whole strides, each
 * advancing state[12] by n (see NEXT_STRIDE).
 *
 * void chacha20_<n>block_xor_strides_<sfx>(u32 *state, u8 *dst,
 *					    const u8 *src,
 *					    unsigned int nrounds,
 *					    unsigned int nstrides);
 *
 * runs @nstrides (at least 1) whole strides in one call, @dst and @src
 * moving on by a stride each time, and leaves state[12] advanced by n
 * times @nstrides.  With the kernel's return thunks each return costs, so
 * a request's strides are one call.
 *
 * void chacha20_<n>block_xor_key_<sfx>(const u32 *state, u8 *dst,
 *					const u8 *src,
 *					unsigned int nrounds,
 *					unsigned int len, u8 *key);
 *
 * stores block 0's 64 bytes of key stream at @key, XORed with nothing,
 * and XORs the @len (<= (n - 1) * 64) bytes from @src into @dst with
 * blocks 1 and on, as the _part entry does: the AEAD's block 0 and its
 * text in one call.  It moves DST and SRC back by a block and LEN on by
 * one; KEYP tells XOR_PIECE to store the pieces of block 0 at @key.
 * Only reads the state.
 */
#define STRIDE_ENTRIES(n, sfx)					\
	SYM_TYPED_FUNC_START(chacha20_##n##block_xor_##sfx);	\
	mov	$(n * 64), LEN;					\
	xor	STRIDES, STRIDES;				\
	xor	%r11d, %r11d;					\
	jmp	chacha20_##n##block_body_##sfx;			\
	SYM_FUNC_END(chacha20_##n##block_xor_##sfx);		\
	SYM_TYPED_FUNC_START(chacha20_##n##block_xor_part_##sfx);	\
	xor	STRIDES, STRIDES;				\
	xor	%r11d, %r11d;					\
	jmp	chacha20_##n##block_body_##sfx;			\
	SYM_FUNC_END(chacha20_##n##block_xor_part_##sfx);	\
	SYM_TYPED_FUNC_START(chacha20_##n##block_xor_strides_##sfx);	\
	mov	LEN, STRIDES;					\
	mov	$(n * 64), LEN;					\
	xor	%r11d, %r11d;					\
	jmp	chacha20_##n##block_body_##sfx;			\
	SYM_FUNC_END(chacha20_##n##block_xor_strides_##sfx);	\
	SYM_TYPED_FUNC_START(chacha20_##n##block_xor_key_##sfx);	\
	mov	%r9, KEYP;					\
	add	$64, LEN;					\
	sub	$64, DST;					\
	sub	$64, SRC;					\
	xor	STRIDES, STRIDES;				\
	jmp	chacha20_##n##block_body_##sfx;			\
	SYM_FUNC_END(chacha20_##n##block_xor_key_##sfx)

/* Word i of the first (A) and the second (B) group of eight blocks. */
#define A0	%ymm0
#define A1	%ymm1
#define A2	%ymm2
#define A3	%ymm3
#define A4	%ymm4
#define A5	%ymm5
#define A6	%ymm6
#define A7	%ymm7
#define A8	%ymm8
#define A9	%ymm9
#define A10	%ymm10
#define A11	%ymm11
#define A12	%ymm12
#define A13	%ymm13
#define A14	%ymm14
#define A15	%ymm15
#define B0	%ymm16
#define B1	%ymm17
#define B2	%ymm18
#define B3	%ymm19
#define B4	%ymm20
#define B5	%ymm21
#define B6	%ymm22
#define B7	%ymm23
#define B8	%ymm24
#define B9	%ymm25
#define B10	%ymm26
#define B11	%ymm27
#define B12	%ymm28
#define B13	%ymm29
#define B14	%ymm30
#define B15	%ymm31
/* Word i of sixteen blocks. */
#define Z0	%zmm0
#define Z1	%zmm1
#define Z2	%zmm2
#define Z3	%zmm3
#define Z4	%zmm4
#define Z5	%zmm5
#define Z6	%zmm6
#define Z7	%zmm7
#define Z8	%zmm8
#define Z9	%zmm9
#define Z10	%zmm10
#define Z11	%zmm11
#define Z12	%zmm12
#define Z13	%zmm13
#define Z14	%zmm14
#define Z15	%zmm15

/* The quarter-rounds (a, b, c, d) of a column and of a diagonal round. */
#define COLUMNS(x)	x##0, x##4, x##8, x##12,  x##1, x##5, x##9, x##13, \
			x##2, x##6, x##10, x##14, x##3, x##7, x##11, x##15
#define DIAGONALS(x)	x##0, x##5, x##10, x##15, x##1, x##6, x##11, x##12, \
			x##2, x##7, x##8, x##13,  x##3, x##4, x##9, x##14
/* All sixteen words in order. */
#define WORDS(x)	x##0, x##1, x##2, x##3, x##4, x##5, x##6, x##7, \
			x##8, x##9, x##10, x##11, x##12, x##13, x##14, x##15

.text

/*
 * The three instructions of one quarter-round step, each over a list of
 * quarter-rounds (a, b, c, d, a, b, c, d, ...): half 0 is "a += b; d ^= a;
 * d <<<= r", half 1 is "c += d; b ^= c; b <<<= r".  Each instruction runs
 * over the whole list before the next starts, so the quarter-rounds
 * interleave.
 */
.macro QR_ADD half, a, b, c, d, more:vararg
.if \half
	vpaddd		\d, \c, \c
.else
	vpaddd		\b, \a, \a
.endif
.ifnb \more
	QR_ADD		\half, \more
.endif
.endm

.macro QR_XOR half, a, b, c, d, more:vararg
.if \half
	vpxord		\c, \b, \b
.else
	vpxord		\a, \d, \d
.endif
.ifnb \more
	QR_XOR		\half, \more
.endif
.endm

.macro QR_ROT half, r, a, b, c, d, more:vararg
.if \half
	vprold		$\r, \b, \b
.else
	vprold		$\r, \d, \d
.endif
.ifnb \more
	QR_ROT		\half, \r, \more
.endif
.endm

.macro QR_STEP half, r, q:vararg
	QR_ADD		\half, \q
	QR_XOR		\half, \q
	QR_ROT		\half, \r, \q
.endm

/* Every quarter-round of the list, interleaved. */
.macro QUARTERROUNDS q:vararg
	QR_STEP		0, 16, \q
	QR_STEP		1, 12, \q
	QR_STEP		0, 8, \q
	QR_STEP		1, 7, \q
.endm

/* Word i of the state into every lane of register i; counter lanes + j. */
.macro LOAD_STATE ctroff, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, \
		  w11, w12, w13, w14, w15
	vpbroadcastd	(4 * 0)(STATE), \w0
	vpbroadcastd	(4 * 1)(STATE), \w1
	vpbroadcastd	(4 * 2)(STATE), \w2
	vpbroadcastd	(4 * 3)(STATE), \w3
	vpbroadcastd	(4 * 4)(STATE), \w4
	vpbroadcastd	(4 * 5)(STATE), \w5
	vpbroadcastd	(4 * 6)(STATE), \w6
	vpbroadcastd	(4 * 7)(STATE), \w7
	vpbroadcastd	(4 * 8)(STATE), \w8
	vpbroadcastd	(4 * 9)(STATE), \w9
	vpbroadcastd	(4 * 10)(STATE), \w10
	vpbroadcastd	(4 * 11)(STATE), \w11
	vpbroadcastd	(4 * 12)(STATE), \w12
	vpaddd		(chacha20_avx512_ctrinc + \ctroff)(%rip), \w12, \w12
	vpbroadcastd	(4 * 13)(STATE), \w13
	vpbroadcastd	(4 * 14)(STATE), \w14
	vpbroadcastd	(4 * 15)(STATE), \w15
.endm

/*
 * The feed-forward: register i += state word i (broadcast from memory,
 * "1to8" or "1to16" lanes), and the counter lanes + j again.
 */
.macro ADD_STATE bc, ctroff, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, \
		 w11, w12, w13, w14, w15
	vpaddd		(4 * 0)(STATE){\bc}, \w0, \w0
	vpaddd		(4 * 1)(STATE){\bc}, \w1, \w1
	vpaddd		(4 * 2)(STATE){\bc}, \w2, \w2
	vpaddd		(4 * 3)(STATE){\bc}, \w3, \w3
	vpaddd		(4 * 4)(STATE){\bc}, \w4, \w4
	vpaddd		(4 * 5)(STATE){\bc}, \w5, \w5
	vpaddd		(4 * 6)(STATE){\bc}, \w6, \w6
	vpaddd		(4 * 7)(STATE){\bc}, \w7, \w7
	vpaddd		(4 * 8)(STATE){\bc}, \w8, \w8
	vpaddd		(4 * 9)(STATE){\bc}, \w9, \w9
	vpaddd		(4 * 10)(STATE){\bc}, \w10, \w10
	vpaddd		(4 * 11)(STATE){\bc}, \w11, \w11
	vpaddd		(4 * 12)(STATE){\bc}, \w12, \w12
	vpaddd		(chacha20_avx512_ctrinc + \ctroff)(%rip), \w12, \w12
	vpaddd		(4 * 13)(STATE){\bc}, \w13, \w13
	vpaddd		(4 * 14)(STATE){\bc}, \w14, \w14
	vpaddd		(4 * 15)(STATE){\bc}, \w15, \w15
.endm

/*
 * Transpose the 4x4 matrices of words in each 128-bit lane of rows
 * r0..r3, in place: afterwards r_k holds word k of the four rows.
 */
.macro TRANSPOSE4 r0, r1, r2, r3, t
	vpunpckldq	\r1, \r0, \t		/* 00 10 01 11 */
	vpunpckhdq	\r1, \r0, \r1		/* 02 12 03 13 */
	vpunpckldq	\r3, \r2, \r0		/* 20 30 21 31 */
	vpunpckhdq	\r3, \r2, \r3		/* 22 32 23 33 */
	vpunpcklqdq	\r3, \r1, \r2		/* 02 12 22 32 */
	vpunpckhqdq	\r3, \r1, \r3		/* 03 13 23 33 */
	vpunpckhqdq	\r0, \t, \r1		/* 01 11 21 31 */
	vpunpcklqdq	\r0, \t, \r0		/* 00 10 20 30 */
.endm

/*
 * XOR the @width-byte piece @v of key stream into the data at byte
 * offset @off: all of it if the data goes on past the piece, its first
 * LEN - @off bytes through a byte mask if the data ends inside it, nothing
 * if the data ends before.  @v and @t are clobbered, and %rax, %ecx, %k1.
 * The masked load never faults on the bytes it leaves out.  A piece of
 * block 0 goes to KEYP + @off instead where KEYP is not 0 (a _key entry).
 */
.macro XOR_PIECE v, off, width, t
.if (\off) < 64
	test		KEYP, KEYP
	jz		.Lxor\@
	vmovdqu32	\v, \off(KEYP)
	jmp		.Ldone\@
.Lxor\@:
.endif
	cmp		$(\off + \width), LEN
	jb		.Lpart\@
	vpxord		\off(SRC), \v, \v
	vmovdqu32	\v, \off(DST)
	jmp		.Ldone\@
.Lpart\@:
	cmp		$(\off), LEN
	jbe		.Ldone\@
	mov		LEN, %ecx
	sub		$(\off), %ecx
	mov		$1, %eax
	shl		%cl, %rax
	dec		%rax
	kmovq		%rax, %k1
	vmovdqu8	\off(SRC), \t{%k1}{z}
	vpxord		\t, \v, \v
	vmovdqu8	\v, \off(DST){%k1}
.Ldone\@:
.endm

/*
 * The end of a stride of @n blocks in a body.  With STRIDES 0 (one call),
 * nothing.  Else advance state[12] by @n and, unless that was the last
 * stride, move DST and SRC on and go to @top with the round count again.
 * A load of state[12] at @top is as wide as this store, so it is
 * forwarded from it.
 */
.macro NEXT_STRIDE n, top
	test		STRIDES, STRIDES
	jz		.Lend\@
	addl		$\n, (4 * 12)(STATE)
	add		$(\n * 64), DST
	add		$(\n * 64), SRC
	mov		NROUNDS, ROUNDS
	dec		STRIDES
	jnz		\top
.Lend\@:
.endm

/*
 * Two ymm registers @r0/@r1 hold four words each of two blocks, of one in
 * their low and of the other in their high 128 bits: join the low halves
 * into the 32-byte piece at @off, the high halves into the one at @off +
 * @hi, and XOR those in.  In an 8-block group after TRANSPOSE4 of each row
 * group, @r0/@r1 are words 0-3/4-7 (or 8-11/12-15) of blocks k and k + 4
 * (@hi 256); in the row layout, rows 0/1 (or 2/3) of two blocks (@hi 64).
 */
.macro XOR_HALVES r0, r1, off, hi, t0, t1
	vshufi32x4	$0x0, \r1, \r0, \t0
	XOR_PIECE	\t0, \off, 32, \t1
	vshufi32x4	$0x3, \r1, \r0, \r0
	XOR_PIECE	\r0, (\off + \hi), 32, \t1
.endm

/*
 * An 8-block ymm group whose rounds are done: feed-forward, transpose and
 * XOR into the 512 bytes at @off.  @t0 and @t1 are free registers.
 */
.macro FINISH8 off, t0, t1, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, \
	       w11, w12, w13, w14, w15
	ADD_STATE	1to8, (\off / 16), \w0, \w1, \w2, \w3, \w4, \w5, \w6, \
			\w7, \w8, \w9, \w10, \w11, \w12, \w13, \w14, \w15
	TRANSPOSE4	\w0, \w1, \w2, \w3, \t0
	TRANSPOSE4	\w4, \w5, \w6, \w7, \t0
	TRANSPOSE4	\w8, \w9, \w10, \w11, \t0
	TRANSPOSE4	\w12, \w13, \w14, \w15, \t0
	XOR_HALVES	\w0, \w4, (\off + 64 * 0), 256, \t0, \t1
	XOR_HALVES	\w8, \w12, (\off + 64 * 0 + 32), 256, \t0, \t1
	XOR_HALVES	\w1, \w5, (\off + 64 * 1), 256, \t0, \t1
	XOR_HALVES	\w9, \w13, (\off + 64 * 1 + 32), 256, \t0, \t1
	XOR_HALVES	\w2, \w6, (\off + 64 * 2), 256, \t0, \t1
	XOR_HALVES	\w10, \w14, (\off + 64 * 2 + 32), 256, \t0, \t1
	XOR_HALVES	\w3, \w7, (\off + 64 * 3), 256, \t0, \t1
	XOR_HALVES	\w11, \w15, (\off + 64 * 3 + 32), 256, \t0, \t1
.endm

/*
 * The four zmm registers @r0..@r3 hold, after TRANSPOSE4, words 0-3, 4-7,
 * 8-11 and 12-15 of blocks k, k + 4, k + 8, k + 12 in their four 128-bit
 * lanes: transpose the lanes, giving each block whole, and XOR the blocks
 * in.  @t0..@t4 are free registers.
 */
.macro XOR_LANES k, r0, r1, r2, r3, t0, t1, t2, t3, t4
	vshufi32x4	$0x44, \r1, \r0, \t0	/* r0.0 r0.1 r1.0 r1.1 */
	vshufi32x4	$0xee, \r1, \r0, \t1	/* r0.2 r0.3 r1.2 r1.3 */
	vshufi32x4	$0x44, \r3, \r2, \t2	/* r2.0 r2.1 r3.0 r3.1 */
	vshufi32x4	$0xee, \r3, \r2, \t3	/* r2.2 r2.3 r3.2 r3.3 */
	vshufi32x4	$0x88, \t2, \t0, \r0	/* r0.0 r1.0 r2.0 r3.0 */
	vshufi32x4	$0xdd, \t2, \t0, \r1	/* r0.1 r1.1 r2.1 r3.1 */
	vshufi32x4	$0x88, \t3, \t1, \r2	/* r0.2 r1.2 r2.2 r3.2 */
	vshufi32x4	$0xdd, \t3, \t1, \r3	/* r0.3 r1.3 r2.3 r3.3 */
	XOR_PIECE	\r0, (64 * (\k + 0)), 64, \t4
	XOR_PIECE	\r1, (64 * (\k + 4)), 64, \t4
	XOR_PIECE	\r2, (64 * (\k + 8)), 64, \t4
	XOR_PIECE	\r3, (64 * (\k + 12)), 64, \t4
.endm

/*
 * void chacha20_16block_xor_avx512(const u32 *state, u8 *dst,
 *				    const u8 *src, unsigned int nrounds);
 * void chacha20_16block_xor_part_avx512(const u32 *state, u8 *dst,
 *					 const u8 *src, unsigned int nrounds,
 *					 unsigned int len);
 */
STRIDE_ENTRIES(16, avx512)

SYM_FUNC_START_LOCAL(chacha20_16block_body_avx512)
	mov		ROUNDS, NROUNDS
.Lstride16z:
	LOAD_STATE	0, WORDS(Z)

.Lrounds16z:
	QUARTERROUNDS	COLUMNS(Z)
	QUARTERROUNDS	DIAGONALS(Z)
	sub		$2, ROUNDS
	ja		.Lrounds16z

	ADD_STATE	1to16, 0, WORDS(Z)
	TRANSPOSE4	Z0, Z1, Z2, Z3, %zmm16
	TRANSPOSE4	Z4, Z5, Z6, Z7, %zmm16
	TRANSPOSE4	Z8, Z9, Z10, Z11, %zmm16
	TRANSPOSE4	Z12, Z13, Z14, Z15, %zmm16
	XOR_LANES	0, Z0, Z4, Z8, Z12, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20
	XOR_LANES	1, Z1, Z5, Z9, Z13, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20
	XOR_LANES	2, Z2, Z6, Z10, Z14, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20
	XOR_LANES	3, Z3, Z7, Z11, Z15, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20
	NEXT_STRIDE	16, .Lstride16z
	vzeroupper
	RET
SYM_FUNC_END(chacha20_16block_body_avx512)

/*
 * void chacha20_24block_xor_avx512(const u32 *state, u8 *dst,
 *				    const u8 *src, unsigned int nrounds);
 * void chacha20_24block_xor_part_avx512(const u32 *state, u8 *dst,
 *					 const u8 *src, unsigned int nrounds,
 *					 unsigned int len);
 *
 * Blocks 0-15 in zmm0-15, 16-23 in ymm16-31.  While the ymm group
 * finishes, zmm14 and zmm15 wait in a 64-byte aligned stack frame, which
 * is wiped afterwards.
 */
STRIDE_ENTRIES(24, avx512)

SYM_FUNC_START_LOCAL(chacha20_24block_body_avx512)
	push		%rbp
	mov		%rsp, %rbp
	and		$-64, %rsp
	sub		$128, %rsp
	mov		ROUNDS, NROUNDS

.Lstride24:
	LOAD_STATE	0, WORDS(Z)
	LOAD_STATE	64, WORDS(B)

.Lrounds24:
	QUARTERROUNDS	COLUMNS(Z), COLUMNS(B)
	QUARTERROUNDS	DIAGONALS(Z), DIAGONALS(B)
	sub		$2, ROUNDS
	ja		.Lrounds24

	vmovdqa64	Z14, (%rsp)
	vmovdqa64	Z15, 64(%rsp)
	FINISH8		1024, A14, A15, WORDS(B)
	vmovdqa64	(%rsp), Z14
	vmovdqa64	64(%rsp), Z15
	ADD_STATE	1to16, 0, WORDS(Z)
	TRANSPOSE4	Z0, Z1, Z2, Z3, %zmm16
	TRANSPOSE4	Z4, Z5, Z6, Z7, %zmm16
	TRANSPOSE4	Z8, Z9, Z10, Z11, %zmm16
	TRANSPOSE4	Z12, Z13, Z14, Z15, %zmm16
	XOR_LANES	0, Z0, Z4, Z8, Z12, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20
	XOR_LANES	1, Z1, Z5, Z9, Z13, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20
	XOR_LANES	2, Z2, Z6, Z10, Z14, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20
	XOR_LANES	3, Z3, Z7, Z11, Z15, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20
	NEXT_STRIDE	24, .Lstride24

	/* The slots held permuted state words: wipe them. */
	vpxord		%zmm16, %zmm16, %zmm16
	vmovdqa64	%zmm16, (%rsp)
	vmovdqa64	%zmm16, 64(%rsp)
	vzeroupper
	leave
	RET
SYM_FUNC_END(chacha20_24block_body_avx512)

/*
 * void chacha20_16block_xor_avx512vl(const u32 *state, u8 *dst,
 *				      const u8 *src, unsigned int nrounds);
 * void chacha20_16block_xor_part_avx512vl(const u32 *state, u8 *dst,
 *					   const u8 *src,
 *					   unsigned int nrounds,
 *					   unsigned int len);
 *
 * Blocks 0-7 in group A (ymm0-15), 8-15 in group B (ymm16-31).  For the
 * final steps of group A, two registers of group B wait in a 32-byte
 * aligned stack frame, which is wiped afterwards.
 */
STRIDE_ENTRIES(16, avx512vl)

SYM_FUNC_START_LOCAL(chacha20_16block_body_avx512vl)
	push		%rbp
	mov		%rsp, %rbp
	and		$-32, %rsp
	sub		$64, %rsp
	mov		ROUNDS, NROUNDS

.Lstride16y:
	LOAD_STATE	0, WORDS(A)
	LOAD_STATE	32, WORDS(B)

.Lrounds16y:
	QUARTERROUNDS	COLUMNS(A), COLUMNS(B)
	QUARTERROUNDS	DIAGONALS(A), DIAGONALS(B)
	sub		$2, ROUNDS
	ja		.Lrounds16y

	vmovdqa64	B14, (%rsp)
	vmovdqa64	B15, 32(%rsp)
	FINISH8		0, B14, B15, WORDS(A)
	vmovdqa64	(%rsp), B14
	vmovdqa64	32(%rsp), B15
	FINISH8		512, A0, A1, WORDS(B)
	NEXT_STRIDE	16, .Lstride16y

	/* The slots held permuted state words: wipe them. */
	vpxord		A0, A0, A0
	vmovdqa64	A0, (%rsp)
	vmovdqa64	A0, 32(%rsp)
	vzeroupper
	leave
	RET
SYM_FUNC_END(chacha20_16block_body_avx512vl)

/*
 * The row layout: a ymm register holds one row (four words) of a block in
 * its low and of the next block in its high 128 bits, so four registers
 * hold two blocks, and a quarter-round on whole rows is a column round.
 * For the diagonal round rows a, c and d turn by -1, +1 and +2 words
 * against b, making the diagonals columns, and back after: a quarter-round
 * ends by updating b, while a, c and d are final a few steps earlier, so
 * leaving b alone keeps the shuffles off the critical path.
 */
#define R0	%ymm16
#define R1	%ymm17
#define R2	%ymm18
#define R3	%ymm19
#define R4	%ymm20
#define R5	%ymm21
#define R6	%ymm22
#define R7	%ymm23

.macro DIAGONALIZE a, c, d
	vpshufd		$0x93, \a, \a
	vpshufd		$0x4e, \d, \d
	vpshufd		$0x39, \c, \c
.endm

.macro UNDIAGONALIZE a, c, d
	vpshufd		$0x39, \a, \a
	vpshufd		$0x4e, \d, \d
	vpshufd		$0x93, \c, \c
.endm

/*
 * Rows 0-3 of the state into both halves of a, b, c, d, and the counters
 * of blocks @k and @k + 1.  Row 3 is read word by word, none of its loads
 * wider than the caller's last store to state[12]: a load that only
 * overlaps a pending store is not forwarded from it but waits until the
 * store retires, and the caller has just advanced the counter.  %eax and
 * %k2 are clobbered.
 */
.macro LOAD_ROWS k, a, b, c, d
	mov		$0x11, %eax
	kmovw		%eax, %k2
	vbroadcasti32x4	(16 * 0)(STATE), \a
	vbroadcasti32x4	(16 * 1)(STATE), \b
	vbroadcasti32x4	(16 * 2)(STATE), \c
	vpbroadcastq	(4 * 14)(STATE), \d		/* 14 15 14 15 */
	vpbroadcastd	(4 * 12)(STATE), \d{%k2}	/* 12 15 14 15 */
	kshiftlw	$1, %k2, %k2
	vpbroadcastd	(4 * 13)(STATE), \d{%k2}	/* 12 13 14 15 */
	vpaddd		(chacha20_avx512_ctrrows + 16 * \k)(%rip), \d, \d
.endm

/*
 * Feed-forward of the rows of blocks @k and @k + 1 and XOR into the data;
 * t0..t3 are free registers.
 */
.macro FINISH_ROWS k, a, b, c, d, t0, t1, t2, t3
	LOAD_ROWS	\k, \t0, \t1, \t2, \t3
	vpaddd		\t0, \a, \a
	vpaddd		\t1, \b, \b
	vpaddd		\t2, \c, \c
	vpaddd		\t3, \d, \d
	XOR_HALVES	\a, \b, (64 * \k), 64, \t0, \t1
	XOR_HALVES	\c, \d, (64 * \k + 32), 64, \t0, \t1
.endm

/* (UN)DIAGONALIZE each group of rows (a, b, c, d, a, b, c, d, ...). */
.macro DIAGONALIZE_ROWS a, b, c, d, more:vararg
	DIAGONALIZE	\a, \c, \d
.ifnb \more
	DIAGONALIZE_ROWS \more
.endif
.endm

.macro UNDIAGONALIZE_ROWS a, b, c, d, more:vararg
	UNDIAGONALIZE	\a, \c, \d
.ifnb \more
	UNDIAGONALIZE_ROWS \more
.endif
.endm

/* LOAD_ROWS, then FINISH_ROWS, for groups of rows from block @k on. */
.macro LOAD_ROW_GROUPS k, a, b, c, d, more:vararg
	LOAD_ROWS	\k, \a, \b, \c, \d
.ifnb \more
	LOAD_ROW_GROUPS	(\k + 2), \more
.endif
.endm

.macro FINISH_ROW_GROUPS k, a, b, c, d, more:vararg
	FINISH_ROWS	\k, \a, \b, \c, \d, %ymm24, %ymm25, %ymm26, %ymm27
.ifnb \more
	FINISH_ROW_GROUPS (\k + 2), \more
.endif
.endm

/*
 * A core in the row layout alone, blocks 0.. in groups of rows: load,
 * rounds, feed-forward and XOR (LEN bytes).  %ymm24-27 are temporaries.
 */
.macro ROWS_CORE q:vararg
	LOAD_ROW_GROUPS	0, \q
.Lrounds_rows\@:
	QUARTERROUNDS	\q
	DIAGONALIZE_ROWS \q
	QUARTERROUNDS	\q
	UNDIAGONALIZE_ROWS \q
	sub		$2, ROUNDS
	ja		.Lrounds_rows\@
	FINISH_ROW_GROUPS 0, \q
.endm

/*
 * void chacha20_12block_xor_avx512vl(const u32 *state, u8 *dst,
 *				      const u8 *src, unsigned int nrounds);
 * void chacha20_12block_xor_part_avx512vl(const u32 *state, u8 *dst,
 *					   const u8 *src,
 *					   unsigned int nrounds,
 *					   unsigned int len);
 *
 * Blocks 0-7 as group A; blocks 8-11 in the row layout, made to ride
 * along: the 8-block group leaves the pipes idle part of the time while it
 * waits on latency, and the rows fill them.  R0-R3 hold blocks 8 and 9,
 * R4-R7 blocks 10 and 11.
 */
STRIDE_ENTRIES(12, avx512vl)

SYM_FUNC_START_LOCAL(chacha20_12block_body_avx512vl)
	mov		ROUNDS, NROUNDS
.Lstride12y:
	LOAD_STATE	0, WORDS(A)
	LOAD_ROW_GROUPS	8, R0, R1, R2, R3, R4, R5, R6, R7

.Lrounds12y:
	QUARTERROUNDS	COLUMNS(A), R0, R1, R2, R3, R4, R5, R6, R7
	DIAGONALIZE_ROWS R0, R1, R2, R3, R4, R5, R6, R7
	QUARTERROUNDS	DIAGONALS(A), R0, R1, R2, R3, R4, R5, R6, R7
	UNDIAGONALIZE_ROWS R0, R1, R2, R3, R4, R5, R6, R7
	sub		$2, ROUNDS
	ja		.Lrounds12y

	FINISH_ROW_GROUPS 8, R0, R1, R2, R3, R4, R5, R6, R7
	FINISH8		0, %ymm24, %ymm25, WORDS(A)
	NEXT_STRIDE	12, .Lstride12y
	vzeroupper
	RET
SYM_FUNC_END(chacha20_12block_body_avx512vl)

/*
 * void chacha20_8block_xor_avx512vl(const u32 *state, u8 *dst,
 *				     const u8 *src, unsigned int nrounds);
 * void chacha20_8block_xor_part_avx512vl(const u32 *state, u8 *dst,
 *					  const u8 *src, unsigned int nrounds,
 *					  unsigned int len);
 *
 * One group: latency-bound (see the top), but the shortest path through
 * 512 bytes or a tail of up to eight blocks.
 */
STRIDE_ENTRIES(8, avx512vl)

SYM_FUNC_START_LOCAL(chacha20_8block_body_avx512vl)
	mov		ROUNDS, NROUNDS
.Lstride8y:
	LOAD_STATE	0, WORDS(A)

.Lrounds8y:
	QUARTERROUNDS	COLUMNS(A)
	QUARTERROUNDS	DIAGONALS(A)
	sub		$2, ROUNDS
	ja		.Lrounds8y

	FINISH8		0, B0, B1, WORDS(A)
	NEXT_STRIDE	8, .Lstride8y
	vzeroupper
	RET
SYM_FUNC_END(chacha20_8block_body_avx512vl)

/*
 * void chacha20_4block_xor_avx512vl(const u32 *state, u8 *dst,
 *				     const u8 *src, unsigned int nrounds);
 * void chacha20_4block_xor_part_avx512vl(const u32 *state, u8 *dst,
 *					  const u8 *src, unsigned int nrounds,
 *					  unsigned int len);
 * void chacha20_2block_xor_avx512vl(const u32 *state, u8 *dst,
 *				     const u8 *src, unsigned int nrounds);
 * void chacha20_2block_xor_part_avx512vl(const u32 *state, u8 *dst,
 *					  const u8 *src, unsigned int nrounds,
 *					  unsigned int len);
 *
 * Requests of one to four blocks, in the row layout: blocks 0 and 1 in
 * R0-R3, blocks 2 and 3 in R4-R7.  A call's cost here is the latency of
 * the rounds, whatever the width, so the narrow cores are what keeps a
 * short request short.
 */
FULL_ENTRY(4, avx512vl)

SYM_TYPED_FUNC_START(chacha20_4block_xor_part_avx512vl)
	xor		%r11d, %r11d		/* KEYP: no _key entry */
	ROWS_CORE	R0, R1, R2, R3, R4, R5, R6, R7
	vzeroupper
	RET
SYM_FUNC_END(chacha20_4block_xor_part_avx512vl)

FULL_ENTRY(2, avx512vl)

SYM_TYPED_FUNC_START(chacha20_2block_xor_part_avx512vl)
	xor		%r11d, %r11d		/* KEYP: no _key entry */
	ROWS_CORE	R0, R1, R2, R3
	vzeroupper
	RET
SYM_FUNC_END(chacha20_2block_xor_part_avx512vl)

/*
 * ChaCha20-Poly1305 of a short request in one call: the AEAD's block 0
 * and the text's key stream in the row layout, then Poly1305 and the tag
 * on the general-purpose registers, with the one-time key handed over in
 * registers.  A short request's cost is latency, and every call returns
 * through the kernel's return thunk, so one call with nothing between its
 * parts is what keeps it short.
 */
#define POLY1305_MULX_MACROS_ONLY
#include "poly1305-x86_64.S"

/* More rows for the longer texts: blocks 4-9 in three groups. */
#define S0	%ymm0
#define S1	%ymm1
#define S2	%ymm2
#define S3	%ymm3
#define S4	%ymm4
#define S5	%ymm5
#define S6	%ymm6
#define S7	%ymm7
#define S8	%ymm8
#define S9	%ymm9
#define S10	%ymm10
#define S11	%ymm11
/* Block 0's first 32 bytes: r in the low, s in the high 128 bits. */
#define KEY	%ymm12

/*
 * Blocks 0.. in groups of rows: rounds, then the feed-forward.  Block 0's
 * first half goes to KEY and is not XORed anywhere; block 1 and the rest
 * go over the text at DST + 64, SRC + 64 (the caller moved both back by a
 * block and LEN on by one).
 */
.macro SMALL_ROWS a, b, c, d, more:vararg
	LOAD_ROW_GROUPS	0, \a, \b, \c, \d, \more
.Lsmall_rounds\@:
	QUARTERROUNDS	\a, \b, \c, \d, \more
	DIAGONALIZE_ROWS \a, \b, \c, \d, \more
	QUARTERROUNDS	\a, \b, \c, \d, \more
	UNDIAGONALIZE_ROWS \a, \b, \c, \d, \more
	sub		$2, ROUNDS
	ja		.Lsmall_rounds\@

	LOAD_ROWS	0, %ymm24, %ymm25, %ymm26, %ymm27
	vpaddd		%ymm24, \a, \a
	vpaddd		%ymm25, \b, \b
	vpaddd		%ymm26, \c, \c
	vpaddd		%ymm27, \d, \d
	vshufi32x4	$0x0, \b, \a, KEY
	vshufi32x4	$0x3, \b, \a, \a
	XOR_PIECE	\a, 64, 32, %ymm25
	vshufi32x4	$0x3, \d, \c, \c
	XOR_PIECE	\c, 96, 32, %ymm25
.ifnb \more
	FINISH_ROW_GROUPS 2, \more
.endif
	jmp		chachapoly_small_avx512vl_mac
.endm

/*
 * void chachapoly_small_avx512vl(const u32 *state, u8 *dst, const u8 *src,
 *				  unsigned int len, const u8 *mac,
 *				  unsigned int macblocks, u8 *tag);
 *
 * A ChaCha20-Poly1305 request of 1 to CHACHAPOLY_SMALL_MAX (576) bytes of
 * text whose Poly1305 input the caller has laid out whole: @state with the
 * counter at block 0, whose first 32 bytes are the one-time key; the
 * text's @len bytes from block 1 on, XORed from @src into @dst (no byte
 * past them read or written); then the @macblocks (at least 1) 16-byte
 * blocks at @mac absorbed with hibit 1, and the tag into @tag.  The MAC
 * reads @mac after the last store to @dst: encrypting, @mac may cover
 * @dst; decrypting, @dst must not overlap it.  Only reads @state; the
 * caller checks for AVX-512 (F, VL, BW), BMI2 and ADX and owns the FPU
 * section.  Called directly, never through a pointer.
 *
 *	%rdi = state, %rsi = dst, %rdx = src, %ecx = len, %r8 = mac,
 *	%r9d = macblocks, 8(%rsp) = tag
 *
 * ChaCha20: mac in %r10 while LEN is %r8d.  Poly1305: h in %r8, %r9,
 * %r10; r0 in %r11, r1 in %rdi, rr1 in %r12; @mac in %rsi, the block
 * count in %eax; scratch %rbx, %r13, %r14, %r15; s stays in %xmm12.
 */
SYM_FUNC_START(chachapoly_small_avx512vl)
	mov		%r8, %r10
	mov		%ecx, LEN
	add		$64, LEN
	sub		$64, DST
	sub		$64, SRC
	mov		$20, ROUNDS
	cmp		$128, LEN
	jbe		.Lsmall_g1
	cmp		$256, LEN
	jbe		.Lsmall_g2
	cmp		$384, LEN
	jbe		.Lsmall_g3
	cmp		$512, LEN
	jbe		.Lsmall_g4
	SMALL_ROWS	R0, R1, R2, R3, R4, R5, R6, R7, S0, S1, S2, S3, \
			S4, S5, S6, S7, S8, S9, S10, S11
.Lsmall_g4:
	SMALL_ROWS	R0, R1, R2, R3, R4, R5, R6, R7, S0, S1, S2, S3, \
			S4, S5, S6, S7
.Lsmall_g3:
	SMALL_ROWS	R0, R1, R2, R3, R4, R5, R6, R7, S0, S1, S2, S3
.Lsmall_g2:
	SMALL_ROWS	R0, R1, R2, R3, R4, R5, R6, R7
.Lsmall_g1:
	SMALL_ROWS	R0, R1, R2, R3

	/*
	 * From here on the one-time key, h and the tag are on the general-
	 * purpose registers, as in oot_poly1305_blocks_x86_64_mulx(): a
	 * label of its own, so that tests/ct-static.sh knows where its rule
	 * (no secret in a general-purpose register) stops.
	 */
SYM_INNER_LABEL(chachapoly_small_avx512vl_mac, SYM_L_LOCAL)
	POLY1305_MULX_SMALL_MAC	%ymm12, %xmm12
SYM_FUNC_END(chachapoly_small_avx512vl)
