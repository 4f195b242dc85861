/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ChaCha cores for x86-64 with AVX2: chacha20_8block_xor_avx2 XORs eight
 * 64-byte blocks of key stream into the data, chacha20_4block_xor_avx2
 * four and chacha20_2block_xor_avx2 two (row layout, see there).  All only
 * read the state; block j uses the counter state[12] + j.  Each has a
 * "_part" entry that XORs only the first @len bytes.
 *
 * Eight blocks, vertical layout: ymm i holds state word i of all blocks,
 * one block per 32-bit lane, so every quarter-round works on eight blocks
 * at once and no lanes move between rounds.  Lane j of the counter word
 * is state[12] + j (32-bit wraparound, no carry into state[13]).
 *
 * Sixteen state vectors and a rotate temporary do not fit in sixteen
 * registers, so one "c" row, word 11, lives in a 32-byte aligned stack
 * frame: every update of it is an add from the slot into the temporary,
 * a store back, and the XOR into its "b" row from the temporary.  The
 * four quarter-rounds of a round run step by step interleaved, the one
 * on word 11 last:
 *
 *	columns:   (0,4,8,12)  (1,5,9,13)  (2,6,10,14) (3,7,11,15)
 *	diagonals: (0,5,10,15) (2,7,8,13)  (3,4,9,14)  (1,6,11,12)
 *
 * One temporary serves all four: each use of it is a short sequence, and
 * register renaming keeps the sequences apart.  It also takes the byte
 * shuffle mask, loaded once for the four shuffles of a step.  In round 1
 * only column 0 differs between the blocks (the counter): columns 1-3
 * are done once, for all blocks, in xmm.
 *
 * Rotations by 16 and 8 are byte shuffles; by 12 and 7, shift/shift/or.
 * At the end the input state is added back, the 8x8 matrix of words is
 * transposed back into blocks (4x4 within each 128-bit half, then 128-bit
 * halves are exchanged) and XORed into the source.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

.section	.rodata.cst32.chacha20_avx2_rot16, "aM", @progbits, 32
.align 32
chacha20_avx2_rot16:
	.byte	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
	.byte	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13

.section	.rodata.cst32.chacha20_avx2_rot8, "aM", @progbits, 32
.align 32
chacha20_avx2_rot8:
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14

.section	.rodata.cst32.chacha20_avx2_ctrinc, "aM", @progbits, 32
.align 32
chacha20_avx2_ctrinc:
	.long	0, 1, 2, 3, 4, 5, 6, 7

.section	.rodata.cst32.chacha20_avx2_ctr01, "aM", @progbits, 32
.align 32
chacha20_avx2_ctr01:
	.long	0, 0, 0, 0, 1, 0, 0, 0

.section	.rodata.cst32.chacha20_avx2_ctr23, "aM", @progbits, 32
.align 32
chacha20_avx2_ctr23:
	.long	2, 0, 0, 0, 3, 0, 0, 0

/* Arguments (SysV); STATE is only read. */
#define STATE	%rdi
#define DST	%rsi
#define SRC	%rdx
#define ROUNDS	%ecx

/* The 8-block core: words 0-10 and 12-15 in registers, word 11 in SLOT. */
#define X0	%ymm0
#define X1	%ymm1
#define X2	%ymm2
#define X3	%ymm3
#define X4	%ymm4
#define X5	%ymm5
#define X6	%ymm6
#define X7	%ymm7
#define X8	%ymm8
#define X9	%ymm9
#define X10	%ymm10
#define X12	%ymm12
#define X13	%ymm13
#define X14	%ymm14
#define X15	%ymm15
/* The 8-block core's temporary. */
#define T	%ymm11
/* Rotate temporaries of the row-layout cores. */
#define T0	%ymm10
#define T1	%ymm11
#define T0X	%xmm10
#define T1X	%xmm11

/* The stack slot of word 11. */
#define SLOT	(%rsp)
/* Round 1's state rows (xmm), after the slot. */
#define ROW(i)	(32 + (i) * 16)(%rsp)
/* The part entry's key stream, 512 bytes, 32-byte aligned: byte @r on. */
#define KS(r)	96(%rsp, r)
#define FRAME	(96 + 512)
/* The part entry's fifth argument: bytes to XOR, 1 to 512. */
#define LEN	%r8d
/* The 8-block body's strides to do (see there) and round count. */
#define STRIDES	%r9d
#define NROUNDS	%r10d

.text

/* x <<<= bits, by shifts; t is clobbered. */
.macro ROTL bits, x, t
	vpslld		$\bits, \x, \t
	vpsrld		$(32 - \bits), \x, \x
	vpor		\t, \x, \x
.endm

/* x <<<= 16 or 8: a byte shuffle within each 32-bit lane. */
.macro ROTL_BYTES mask, x
	vpshufb		\mask(%rip), \x, \x
.endm

/*
 * Two independent quarter-rounds (a0,b0,c0,d0) and (a1,b1,c1,d1), step by
 * step interleaved, on whole registers: in the row layout each argument
 * is a row of two blocks (four quarter-rounds each).
 */
.macro QUARTERROUND_x2 a0, b0, c0, d0, a1, b1, c1, d1
	vpaddd		\b0, \a0, \a0
	vpaddd		\b1, \a1, \a1
	vpxor		\a0, \d0, \d0
	vpxor		\a1, \d1, \d1
	ROTL_BYTES	chacha20_avx2_rot16, \d0
	ROTL_BYTES	chacha20_avx2_rot16, \d1

	vpaddd		\d0, \c0, \c0
	vpaddd		\d1, \c1, \c1
	vpxor		\c0, \b0, \b0
	vpxor		\c1, \b1, \b1
	ROTL		12, \b0, T0
	ROTL		12, \b1, T1

	vpaddd		\b0, \a0, \a0
	vpaddd		\b1, \a1, \a1
	vpxor		\a0, \d0, \d0
	vpxor		\a1, \d1, \d1
	ROTL_BYTES	chacha20_avx2_rot8, \d0
	ROTL_BYTES	chacha20_avx2_rot8, \d1

	vpaddd		\d0, \c0, \c0
	vpaddd		\d1, \c1, \c1
	vpxor		\c0, \b0, \b0
	vpxor		\c1, \b1, \b1
	ROTL		7, \b0, T0
	ROTL		7, \b1, T1
.endm

/*
 * One quarter-round on whole registers (the row layout's single group, and
 * round 1 of the 8-block core); t is clobbered.
 */
.macro QUARTERROUND a, b, c, d, t=T0
	vpaddd		\b, \a, \a
	vpxor		\a, \d, \d
	ROTL_BYTES	chacha20_avx2_rot16, \d
	vpaddd		\d, \c, \c
	vpxor		\c, \b, \b
	ROTL		12, \b, \t
	vpaddd		\b, \a, \a
	vpxor		\a, \d, \d
	ROTL_BYTES	chacha20_avx2_rot8, \d
	vpaddd		\d, \c, \c
	vpxor		\c, \b, \b
	ROTL		7, \b, \t
.endm

/*
 * Half of four independent quarter-rounds of the 8-block core, step by
 * step interleaved: a += b, d ^= a, d <<<= (byte shuffle @mask), c += d,
 * b ^= c, b <<<= @rot.  The fourth one's c row is the stack slot.  T is
 * the only temporary; it takes the shuffle mask once for four shuffles.
 */
.macro QUARTERROUND_x4_HALF mask, rot, a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, d3
	vpaddd		\b0, \a0, \a0
	vpaddd		\b1, \a1, \a1
	vpaddd		\b2, \a2, \a2
	vpaddd		\b3, \a3, \a3
	vpxor		\a0, \d0, \d0
	vpxor		\a1, \d1, \d1
	vpxor		\a2, \d2, \d2
	vpxor		\a3, \d3, \d3
	vmovdqa		\mask(%rip), T
	vpshufb		T, \d0, \d0
	vpshufb		T, \d1, \d1
	vpshufb		T, \d2, \d2
	vpshufb		T, \d3, \d3

	vpaddd		\d0, \c0, \c0
	vpaddd		\d1, \c1, \c1
	vpaddd		\d2, \c2, \c2
	vpaddd		SLOT, \d3, T
	vmovdqa		T, SLOT
	vpxor		\c0, \b0, \b0
	vpxor		\c1, \b1, \b1
	vpxor		\c2, \b2, \b2
	vpxor		T, \b3, \b3
	ROTL		\rot, \b0, T
	ROTL		\rot, \b1, T
	ROTL		\rot, \b2, T
	ROTL		\rot, \b3, T
.endm

/* Four independent quarter-rounds of the 8-block core (see above). */
.macro QUARTERROUND_x4 a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, d3
	QUARTERROUND_x4_HALF chacha20_avx2_rot16, 12, \a0, \b0, \c0, \d0, \
		\a1, \b1, \c1, \d1, \a2, \b2, \c2, \d2, \a3, \b3, \d3
	QUARTERROUND_x4_HALF chacha20_avx2_rot8, 7, \a0, \b0, \c0, \d0, \
		\a1, \b1, \c1, \d1, \a2, \b2, \c2, \d2, \a3, \b3, \d3
.endm

/* x += state word @i in every lane; t is clobbered. */
.macro ADD_STATE i, x, t
	vpbroadcastd	(4 * \i)(STATE), \t
	vpaddd		\t, \x, \x
.endm

/* The counter row: x = state[12] + {0, ..., 7}. */
.macro LOAD_COUNTER x
	vpbroadcastd	(4 * 12)(STATE), \x
	vpaddd		chacha20_avx2_ctrinc(%rip), \x, \x
.endm

/*
 * Transpose the 4x4 matrices of words in each 128-bit half of rows
 * r0..r3.  Word k of the four rows ends up in (k = 0..3) r2, t, r0, r3,
 * in that order; r1 is left free.
 */
.macro TRANSPOSE4x4 r0, r1, r2, r3, t
	vpunpckldq	\r1, \r0, \t		/* 00 10 01 11 */
	vpunpckhdq	\r1, \r0, \r1		/* 02 12 03 13 */
	vpunpckldq	\r3, \r2, \r0		/* 20 30 21 31 */
	vpunpckhdq	\r3, \r2, \r3		/* 22 32 23 33 */
	vpunpcklqdq	\r0, \t, \r2		/* 00 10 20 30 */
	vpunpckhqdq	\r0, \t, \t		/* 01 11 21 31 */
	vpunpcklqdq	\r3, \r1, \r0		/* 02 12 22 32 */
	vpunpckhqdq	\r3, \r1, \r3		/* 03 13 23 33 */
.endm

/*
 * The low halves of lo and hi are 32 consecutive bytes of key stream for
 * byte offset @off0 of the data, their high halves those for @off1:
 * join the halves and XOR them in.  lo and t are clobbered.
 */
.macro XOR_STORE lo, hi, off0, off1, t
	vperm2i128	$0x20, \hi, \lo, \t
	vpxor		\off0(SRC), \t, \t
	vmovdqu		\t, \off0(DST)
	vperm2i128	$0x31, \hi, \lo, \lo
	vpxor		\off1(SRC), \lo, \lo
	vmovdqu		\lo, \off1(DST)
.endm

/*
 * The end of the 8-block core: add the state back, transpose into blocks
 * and hand each pair of 32-byte pieces to @store (XOR_STORE: into @dst;
 * KS_STORE: into the frame).
 */
.macro FINISH8 store
	/* Words 0-7: bytes 0-31 of each block.  Free: T. */
	ADD_STATE	0, X0, T
	ADD_STATE	1, X1, T
	ADD_STATE	2, X2, T
	ADD_STATE	3, X3, T
	ADD_STATE	4, X4, T
	ADD_STATE	5, X5, T
	ADD_STATE	6, X6, T
	ADD_STATE	7, X7, T
	TRANSPOSE4x4	X0, X1, X2, X3, T
	TRANSPOSE4x4	X4, X5, X6, X7, X1
	\store	X2, X6, (64 * 0), (64 * 4), X5
	\store	T, X1, (64 * 1), (64 * 5), X5
	\store	X0, X4, (64 * 2), (64 * 6), X5
	\store	X3, X7, (64 * 3), (64 * 7), X5

	/* Words 8-15 (x8..x15 in ymm8..ymm15): bytes 32-63.  Free: ymm0-7. */
	vmovdqa		SLOT, %ymm11
	ADD_STATE	8, %ymm8, %ymm0
	ADD_STATE	9, %ymm9, %ymm1
	ADD_STATE	10, %ymm10, %ymm2
	ADD_STATE	11, %ymm11, %ymm3
	LOAD_COUNTER	%ymm4
	vpaddd		%ymm4, %ymm12, %ymm12
	ADD_STATE	13, %ymm13, %ymm5
	ADD_STATE	14, %ymm14, %ymm6
	ADD_STATE	15, %ymm15, %ymm7
	TRANSPOSE4x4	%ymm8, %ymm9, %ymm10, %ymm11, %ymm0
	TRANSPOSE4x4	%ymm12, %ymm13, %ymm14, %ymm15, %ymm1
	\store	%ymm10, %ymm14, (64 * 0 + 32), (64 * 4 + 32), %ymm2
	\store	%ymm0, %ymm1, (64 * 1 + 32), (64 * 5 + 32), %ymm3
	\store	%ymm8, %ymm12, (64 * 2 + 32), (64 * 6 + 32), %ymm4
	\store	%ymm11, %ymm15, (64 * 3 + 32), (64 * 7 + 32), %ymm5
.endm

/* As XOR_STORE, into the frame's key stream instead of XORed into @dst. */
.macro KS_STORE lo, hi, off0, off1, t
	vperm2i128	$0x20, \hi, \lo, \t
	vmovdqa		\t, \off0 + 96(%rsp)
	vperm2i128	$0x31, \hi, \lo, \lo
	vmovdqa		\lo, \off1 + 96(%rsp)
.endm

/*
 * Round 1 of the 8-block core and its set-up, after which the diagonal
 * round of round 2 follows.  Uses the frame's SLOT and ROW(0..3).
 */
.macro ROUND1_8
	/*
	 * Round 1, columns 1-3: every word they read is the same in all
	 * blocks, so one quarter-round on lanes 1-3 of the state's rows
	 * does them for all eight, in xmm; lane 0 is not used.  Row 3 is
	 * read word by word (see LOAD_ROW3), as lanes x14, x13, x14, x15.
	 * The results go through the frame to be broadcast.
	 */
	vmovdqu		(16 * 0)(STATE), %xmm1
	vmovdqu		(16 * 1)(STATE), %xmm5
	vmovdqu		(16 * 2)(STATE), %xmm9
	vpbroadcastq	(4 * 14)(STATE), %xmm13
	vpbroadcastd	(4 * 13)(STATE), %xmm11
	vpblendd	$0x2, %xmm11, %xmm13, %xmm13
	QUARTERROUND	%xmm1, %xmm5, %xmm9, %xmm13, %xmm11
	vmovdqa		%xmm1, ROW(0)
	vmovdqa		%xmm5, ROW(1)
	vmovdqa		%xmm9, ROW(2)
	vmovdqa		%xmm13, ROW(3)

	/* Round 1, column 0, which holds the counter. */
	vpbroadcastd	(4 * 0)(STATE), X0
	vpbroadcastd	(4 * 4)(STATE), X4
	vpbroadcastd	(4 * 8)(STATE), X8
	LOAD_COUNTER	X12
	QUARTERROUND	X0, X4, X8, X12, T

	vpbroadcastd	4 + ROW(0), X1
	vpbroadcastd	8 + ROW(0), X2
	vpbroadcastd	12 + ROW(0), X3
	vpbroadcastd	4 + ROW(1), X5
	vpbroadcastd	8 + ROW(1), X6
	vpbroadcastd	12 + ROW(1), X7
	vpbroadcastd	4 + ROW(2), X9
	vpbroadcastd	8 + ROW(2), X10
	vpbroadcastd	12 + ROW(2), T
	vmovdqa		T, SLOT
	vpbroadcastd	4 + ROW(3), X13
	vpbroadcastd	8 + ROW(3), X14
	vpbroadcastd	12 + ROW(3), X15
.endm

/* The 8-block core's column and diagonal half-rounds (@mask, @rot). */
.macro COLUMNS8_HALF mask, rot
	QUARTERROUND_x4_HALF \mask, \rot, X0, X4, X8, X12,  X1, X5, X9, X13, \
		X2, X6, X10, X14,  X3, X7, X15
.endm

.macro DIAGONALS8_HALF mask, rot
	QUARTERROUND_x4_HALF \mask, \rot, X0, X5, X10, X15,  X2, X7, X8, X13, \
		X3, X4, X9, X14,  X1, X6, X12
.endm

/* Wipe the frame's permuted words, which with the key stream give key words away. */
.macro WIPE8_FRAME
	vpxor		%ymm0, %ymm0, %ymm0
	vmovdqa		%ymm0, SLOT
	vmovdqa		%ymm0, ROW(0)
	vmovdqa		%ymm0, ROW(2)
.endm

/*
 * After FINISH8 KS_STORE: XOR @len (1 to 512) bytes from SRC with the
 * frame's key stream into DST, 32 at a time, then one at a time, and
 * zeros over the key stream.  @i (@i32) and @t (@t32, @t8) are scratch.
 */
.macro XOR_KS len, i, i32, t, t32, t8
	xor		\i32, \i32
.Lxor32\@:
	lea		32(\i), \t32
	cmp		\len, \t32
	ja		.Lxor1\@
	vmovdqu		(SRC, \i), %ymm0
	vpxor		KS(\i), %ymm0, %ymm0
	vmovdqu		%ymm0, (DST, \i)
	mov		\t32, \i32
	jmp		.Lxor32\@
.Lxor1\@:
	cmp		\len, \i32
	jae		.Lwipe_ks\@
	movzbl		(SRC, \i), \t32
	xorb		KS(\i), \t8
	mov		\t8, (DST, \i)
	inc		\i32
	jmp		.Lxor1\@
.Lwipe_ks\@:
	vpxor		%ymm0, %ymm0, %ymm0
	xor		\t32, \t32
	xor		\i32, \i32
.Lwipe_loop\@:
	vmovdqa		%ymm0, KS(\i)
	add		$32, \i32
	cmp		$512, \i32
	jb		.Lwipe_loop\@
.endm

/*
 * void chacha20_8block_xor_avx2(const u32 *state, u8 *dst, const u8 *src,
 *				 unsigned int nrounds);
 * void chacha20_8block_xor_part_avx2(const u32 *state, u8 *dst,
 *				      const u8 *src, unsigned int nrounds,
 *				      unsigned int len);
 *
 * void chacha20_8block_xor_strides_avx2(u32 *state, u8 *dst,
 *					 const u8 *src, unsigned int nrounds,
 *					 unsigned int nstrides);
 *
 * The part entry XORs only the first @len (1 to 512) bytes, reading and
 * writing nothing past them: the key stream goes to the frame, and a loop
 * XORs it in, 32 bytes at a time, then byte by byte.  The full entry is
 * the part entry for 512 bytes, which stores straight into @dst.  Both
 * only read the state.  The strides entry runs @nstrides (at least 1)
 * times 512 bytes in one call, as many full calls would, and leaves
 * state[12] advanced by 8 times @nstrides: with the kernel's return
 * thunks each return costs.  All three go to the body, which takes LEN
 * and STRIDES, 0 for one call that only reads the state.
 */
SYM_TYPED_FUNC_START(chacha20_8block_xor_avx2)
	mov		$512, LEN
	xor		STRIDES, STRIDES
	jmp		chacha20_8block_body_avx2
SYM_FUNC_END(chacha20_8block_xor_avx2)

SYM_TYPED_FUNC_START(chacha20_8block_xor_part_avx2)
	xor		STRIDES, STRIDES
	jmp		chacha20_8block_body_avx2
SYM_FUNC_END(chacha20_8block_xor_part_avx2)

SYM_TYPED_FUNC_START(chacha20_8block_xor_strides_avx2)
	mov		LEN, STRIDES
	mov		$512, LEN
	jmp		chacha20_8block_body_avx2
SYM_FUNC_END(chacha20_8block_xor_strides_avx2)

SYM_FUNC_START_LOCAL(chacha20_8block_body_avx2)
	push		%rbp
	mov		%rsp, %rbp
	and		$-32, %rsp
	sub		$FRAME, %rsp
	mov		ROUNDS, NROUNDS

.Lstride8:
	ROUND1_8
	jmp		.Ldiagonals8

.Ldoubleround8:
	QUARTERROUND_x4	X0, X4, X8, X12,  X1, X5, X9, X13,  X2, X6, X10, X14,  X3, X7, X15
.Ldiagonals8:
	QUARTERROUND_x4	X0, X5, X10, X15,  X2, X7, X8, X13,  X3, X4, X9, X14,  X1, X6, X12
	sub		$2, ROUNDS
	ja		.Ldoubleround8

	cmp		$512, LEN
	jne		.Lpart8
	FINISH8		XOR_STORE
	/*
	 * The next stride, if any: state[12] as wide as ROUND1_8's loads
	 * of it, so they are forwarded from this store.
	 */
	test		STRIDES, STRIDES
	jz		.Lwipe8
	addl		$8, (4 * 12)(STATE)
	add		$512, DST
	add		$512, SRC
	mov		NROUNDS, ROUNDS
	dec		STRIDES
	jnz		.Lstride8
	jmp		.Lwipe8

.Lpart8:
	FINISH8		KS_STORE
	XOR_KS		LEN, %rax, %eax, %r9, %r9d, %r9b

.Lwipe8:
	WIPE8_FRAME
	vzeroupper
	leave
	RET
SYM_FUNC_END(chacha20_8block_body_avx2)

/*
 * Four blocks in the row layout: each register holds one row (four words)
 * of two blocks, blocks 0 and 1 in A0-A3, blocks 2 and 3 in B0-B3; the
 * counter row of block j carries state[12] + j.  A column round is one
 * quarter-round on whole rows.  For the diagonal round rows a, c and d
 * are rotated by -1, +1 and +2 words against b, making the diagonals
 * columns, and rotated back afterwards.  Leaving b alone keeps these
 * shuffles off the critical path: a quarter-round ends by updating b, but
 * a, c and d are final a few instructions earlier.  No spills: ymm0-7
 * and T0/T1.
 */
#define A0	%ymm0
#define A1	%ymm1
#define A2	%ymm2
#define A3	%ymm3
#define B0	%ymm4
#define B1	%ymm5
#define B2	%ymm6
#define B3	%ymm7

/* Lane i of a, b, c, d then holds a[i - 1], b[i], c[i + 1], d[i + 2] mod 4. */
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

.macro DOUBLEROUND4
	QUARTERROUND_x2	A0, A1, A2, A3,  B0, B1, B2, B3
	DIAGONALIZE	A0, A2, A3
	DIAGONALIZE	B0, B2, B3
	QUARTERROUND_x2	A0, A1, A2, A3,  B0, B1, B2, B3
	UNDIAGONALIZE	A0, A2, A3
	UNDIAGONALIZE	B0, B2, B3
.endm

/* x += row @i of the state, y likewise; t is clobbered. */
.macro ADD_ROWS i, x, y, t
	vbroadcasti128	(16 * \i)(STATE), \t
	vpaddd		\t, \x, \x
	vpaddd		\t, \y, \y
.endm

/*
 * The counter row of the state in both halves of x, read word by word: the
 * caller has just stored state[12], and a 16-byte load over a 4-byte store
 * is not forwarded from it but waits until the store retires.  xt is the
 * low half of t, which is clobbered.
 */
.macro LOAD_ROW3 x, xx, xt
	vmovd		(4 * 12)(STATE), \xx
	vpinsrd		$1, (4 * 13)(STATE), \xx, \xx
	vmovq		(4 * 14)(STATE), \xt
	vpunpcklqdq	\xt, \xx, \xx
	vinserti128	$1, \xx, \x, \x
.endm

/*
 * The part entries of the row-layout cores.  The 32 bytes of key stream
 * at @off are the low (@sel 0x20) or high (0x31) halves of lo and hi, as
 * in XOR_STORE: XOR them in if the data covers them, else go to @tail
 * with @off in %eax and the piece in T0.
 */
.macro PART_PIECE lo, hi, sel, off, tail
	vperm2i128	$\sel, \hi, \lo, T0
	mov		$(\off), %eax
	cmp		$(\off + 32), LEN
	jb		\tail
	vpxor		\off(SRC), T0, T0
	vmovdqu		T0, \off(DST)
.endm

/*
 * The four pieces of two blocks in rows a0-a3, the first at @base.  If
 * @last, the data ends in them, so the last piece is the tail's: no test.
 */
.macro PART_PAIR a0, a1, a2, a3, base, tail, last
	PART_PIECE	\a0, \a1, 0x20, (\base), \tail
	PART_PIECE	\a2, \a3, 0x20, (\base + 32), \tail
	PART_PIECE	\a0, \a1, 0x31, (\base + 64), \tail
.if \last
	vperm2i128	$0x31, \a3, \a2, T0
	mov		$(\base + 96), %eax
.else
	PART_PIECE	\a2, \a3, 0x31, (\base + 96), \tail
.endif
.endm

/*
 * The data's last LEN - %eax bytes, 0 to 31, from byte %eax on: XOR them
 * with the first bytes of T0, by 16, 8 and then 1, reading and writing
 * nothing past them; then clear the registers that held key stream and
 * return, or with @done, clear %rax and %r9 and go on there.
 */
.macro PART_TAIL done
	add		%rax, SRC
	add		%rax, DST
	sub		%eax, LEN
	test		$16, LEN
	jz		.Ltail8\@
	vpxor		(SRC), T0X, T1X
	vmovdqu		T1X, (DST)
	vextracti128	$1, T0, T0X
	add		$16, SRC
	add		$16, DST
.Ltail8\@:
	vmovq		T0X, %rax
	vpextrq		$1, T0X, %r9
	test		$8, LEN
	jz		.Ltail1\@
	xor		(SRC), %rax
	mov		%rax, (DST)
	mov		%r9, %rax
	add		$8, SRC
	add		$8, DST
.Ltail1\@:
	and		$7, LEN
	jz		.Ltail_done\@
.Ltail1_loop\@:
	xor		(SRC), %al
	mov		%al, (DST)
	shr		$8, %rax
	inc		SRC
	inc		DST
	dec		LEN
	jnz		.Ltail1_loop\@
.Ltail_done\@:
	xor		%eax, %eax
	xor		%r9d, %r9d
.ifb \done
	vzeroall
	RET
.else
	jmp		\done
.endif
.endm

/* Rows 0-3 of blocks 0 and 1 into A0-A3, as every row core starts. */
.macro LOAD_ROWS2
	vbroadcasti128	(16 * 0)(STATE), A0
	vbroadcasti128	(16 * 1)(STATE), A1
	vbroadcasti128	(16 * 2)(STATE), A2
	LOAD_ROW3	A3, %xmm3, %xmm10
.endm

/*
 * After LOAD_ROWS2: ROUNDS rounds of blocks 0 and 1 in A0-A3, and the
 * feed-forward (B0-B3 keep the input).
 */
.macro ROWS2
	vpaddd		chacha20_avx2_ctr01(%rip), A3, A3
	vmovdqa		A0, B0
	vmovdqa		A1, B1
	vmovdqa		A2, B2
	vmovdqa		A3, B3
.Lrows2\@:
	QUARTERROUND	A0, A1, A2, A3
	DIAGONALIZE	A0, A2, A3
	QUARTERROUND	A0, A1, A2, A3
	UNDIAGONALIZE	A0, A2, A3
	sub		$2, ROUNDS
	ja		.Lrows2\@
	vpaddd		B0, A0, A0
	vpaddd		B1, A1, A1
	vpaddd		B2, A2, A2
	vpaddd		B3, A3, A3
.endm

/*
 * After LOAD_ROWS2: ROUNDS rounds of blocks 0-3 in A0-A3 and B0-B3, and
 * the feed-forward; blocks 2 and 3 take their counters from \ctr23.
 */
.macro ROWS4 ctr23
	vmovdqa		A0, B0
	vmovdqa		A1, B1
	vmovdqa		A2, B2
	vpaddd		\ctr23(%rip), A3, B3
	vpaddd		chacha20_avx2_ctr01(%rip), A3, A3
.Lrows4\@:
	DOUBLEROUND4
	sub		$2, ROUNDS
	ja		.Lrows4\@
	ADD_ROWS	0, A0, B0, T0
	ADD_ROWS	1, A1, B1, T1
	ADD_ROWS	2, A2, B2, T0
	vbroadcasti128	(16 * 3)(STATE), T1
	vpaddd		chacha20_avx2_ctr01(%rip), T1, T0
	vpaddd		T0, A3, A3
	vpaddd		\ctr23(%rip), T1, T1
	vpaddd		T1, B3, B3
.endm

/*
 * void chacha20_4block_xor_avx2(const u32 *state, u8 *dst, const u8 *src,
 *				 unsigned int nrounds);
 * void chacha20_4block_xor_part_avx2(const u32 *state, u8 *dst,
 *				      const u8 *src, unsigned int nrounds,
 *				      unsigned int len);
 *
 * The part entry XORs only the first @len (1 to 256) bytes, reading and
 * writing nothing past them: whole 32-byte pieces of key stream from the
 * registers, then the last piece's first bytes.  The full entry is the
 * part entry for 256 bytes.
 */
SYM_TYPED_FUNC_START(chacha20_4block_xor_avx2)
	mov		$256, LEN
	jmp		chacha20_4block_xor_part_avx2
SYM_FUNC_END(chacha20_4block_xor_avx2)

SYM_TYPED_FUNC_START(chacha20_4block_xor_part_avx2)
	LOAD_ROWS2
	ROWS4		chacha20_avx2_ctr23
	cmp		$256, LEN
	jne		.Lpart4
	XOR_STORE	A0, A1, (64 * 0), (64 * 1), T0
	XOR_STORE	A2, A3, (64 * 0 + 32), (64 * 1 + 32), T0
	XOR_STORE	B0, B1, (64 * 2), (64 * 3), T0
	XOR_STORE	B2, B3, (64 * 2 + 32), (64 * 3 + 32), T0

	vzeroupper
	RET

.Lpart4:
	PART_PAIR	A0, A1, A2, A3, (64 * 0), .Ltail4, 0
	PART_PAIR	B0, B1, B2, B3, (64 * 2), .Ltail4, 1
.Ltail4:
	PART_TAIL
SYM_FUNC_END(chacha20_4block_xor_part_avx2)

/*
 * Two blocks in the row layout: one group of the 4-block core, A0-A3.
 *
 * void chacha20_2block_xor_avx2(const u32 *state, u8 *dst, const u8 *src,
 *				 unsigned int nrounds);
 * void chacha20_2block_xor_part_avx2(const u32 *state, u8 *dst,
 *				      const u8 *src, unsigned int nrounds,
 *				      unsigned int len);
 *
 * The part entry as the 4-block core's, for 1 to 128 bytes.
 */
SYM_TYPED_FUNC_START(chacha20_2block_xor_avx2)
	mov		$128, LEN
	jmp		chacha20_2block_xor_part_avx2
SYM_FUNC_END(chacha20_2block_xor_avx2)

SYM_TYPED_FUNC_START(chacha20_2block_xor_part_avx2)
	LOAD_ROWS2
	ROWS2
	cmp		$128, LEN
	jne		.Lpart2
	XOR_STORE	A0, A1, (64 * 0), (64 * 1), T0
	XOR_STORE	A2, A3, (64 * 0 + 32), (64 * 1 + 32), T0

	vzeroupper
	RET

.Lpart2:
	PART_PAIR	A0, A1, A2, A3, (64 * 0), .Ltail2, 1
.Ltail2:
	PART_TAIL
SYM_FUNC_END(chacha20_2block_xor_part_avx2)

/*
 * ChaCha20-Poly1305's one pass: the 8-block core with Poly1305 blocks
 * spread between its vector rounds.  The scalar multiplies, adds and
 * carries of poly1305-x86_64.S's macros use the integer ports and the
 * multiplier, which the rounds leave partly idle, and the rounds' long
 * dependency chains leave room for them in the out-of-order window.
 */
#define POLY1305_MULX_MACROS_ONLY
#include "poly1305-x86_64.S"

/*
 * Test only: tests/Makefile assembles a copy with
 * -DPOLY1305_PLANT_FAULT=POLY1305_FAULT_MULX_STRIDES, where each stride
 * after the first MACs 16 bytes behind its own, and checks that the
 * harness fails.  The number goes on from poly1305-x86_64.S's.
 */
#define POLY1305_FAULT_MULX_STRIDES	11
#if defined(POLY1305_PLANT_FAULT) && \
	POLY1305_PLANT_FAULT == POLY1305_FAULT_MULX_STRIDES
#define PM_NEXT_STRIDE	32
#else
#define PM_NEXT_STRIDE	48
#endif

/*
 * Test only, likewise: chachapoly_small_avx2() gives blocks 2 and 3 the
 * counters of blocks 0 and 1.
 */
#define POLY1305_FAULT_SMALL_CTR	15
#if defined(POLY1305_PLANT_FAULT) && \
	POLY1305_PLANT_FAULT == POLY1305_FAULT_SMALL_CTR
#define SMALL_CTR23	chacha20_avx2_ctr01
#else
#define SMALL_CTR23	chacha20_avx2_ctr23
#endif

/*
 * The stitched core's frame: SLOT and ROW(0..3), the key stream of a
 * part stride (KS), then rr1, the round count, the strides left and the
 * bytes of the stride to XOR.
 */
#define RR1	(FRAME + 0)(%rsp)
#define RCOUNT	(FRAME + 8)(%rsp)
#define NSTRIDES	(FRAME + 12)(%rsp)
#define PMLEN	(FRAME + 16)(%rsp)
#define FRAME_PM	(FRAME + 32)

/* One Poly1305 block at \off(%r8), hibit 1, into h = %r9, %r11, %rbx. */
.macro PM_BLOCK off
	POLY1305_BLOCK_MULX	%r8, \off, $1, %r9, %r11, %rbx, %r12, \
				32(%rcx), RR1, %r13, %r14, %r15, %rax
.endm

/*
 * void chachapoly_8block_xor_avx2(u32 *state, u8 *dst, const u8 *src,
 *				   struct poly1305_core_state *st,
 *				   const u8 *mac, unsigned int nstrides);
 *
 * @nstrides (at least 1) times in turn: chacha20_8block_xor_avx2(state,
 * dst, src, 20) over one 512-byte stride and, spread between its rounds,
 * oot_poly1305_blocks_x86_64_mulx(st, mac, 32, 1): the 32 whole Poly1305
 * blocks at @mac (any alignment) absorbed into st->h; then @dst, @src and
 * @mac move on by 512 bytes and state[12] by 8.  In each stride every
 * load from @mac comes before the first store to @dst, so @mac may be
 * @src (decryption, in place too) or bytes the call wrote one stride
 * before or not at all (encryption: the stride before, enciphered
 * already).  One call and one return for all the strides: with the
 * kernel's return thunks each return costs.  Writes only state[12] of
 * @state; the caller checks for AVX2, BMI2 and ADX and owns the FPU
 * section.
 *
 *	%rdi = state, %rsi = dst, %rdx = src (kept in %r10 while %rdx is
 *	mulx's), %rcx = st, %r8 = mac, %r9d = nstrides (then in the frame)
 *
 * h in %r9, %r11, %rbx, across the strides; r0 in %r12, r1 read from st,
 * rr1 in the frame; scratch %r13, %r14, %r15, %rax; the round count and
 * the strides left in the frame.
 */
SYM_FUNC_START(chachapoly_8block_xor_avx2)
	mov		%r9d, %r11d
	mov		$512, %eax
	jmp		chachapoly_8block_body_avx2
SYM_FUNC_END(chachapoly_8block_xor_avx2)

/*
 * void chachapoly_8block_xor_last_avx2(u32 *state, u8 *dst, const u8 *src,
 *					struct poly1305_core_state *st,
 *					const u8 *mac, unsigned int len);
 *
 * One stride of chachapoly_8block_xor_avx2() that XORs only the first
 * @len (1 to 512) bytes, reading and writing nothing past them, and still
 * absorbs all 32 blocks at @mac: encrypting, the text's tail while the
 * stride before it is MACed.  Only reads the state: the caller advances
 * state[12].  As above otherwise.
 */
SYM_FUNC_START(chachapoly_8block_xor_last_avx2)
	mov		$1, %r11d
	mov		%r9d, %eax
	jmp		chachapoly_8block_body_avx2
SYM_FUNC_END(chachapoly_8block_xor_last_avx2)

/*
 * Both: the strides in %r11d, the bytes of each to XOR in %eax (512,
 * or fewer for one stride that leaves state[12] alone).
 */
SYM_FUNC_START_LOCAL(chachapoly_8block_body_avx2)
	POLY1305_MULX_SAVE
	push		%rbp
	mov		%rsp, %rbp
	and		$-32, %rsp
	sub		$FRAME_PM, %rsp

	mov		%rdx, %r10
	movl		%r11d, NSTRIDES
	movl		%eax, PMLEN
	POLY1305_MULX_LOAD	%rcx, %r9, %r11, %rbx, %r12, %r13, %r14
	mov		%r13, RR1

.Lpm_stride:
	movl		$20, RCOUNT
	ROUND1_8
	jmp		.Lpm_diagonals

	/* 9 column and 10 diagonal passes: 29 blocks, 3 more below. */
.Lpm_doubleround:
	COLUMNS8_HALF	chacha20_avx2_rot16, 12
	PM_BLOCK	0
	COLUMNS8_HALF	chacha20_avx2_rot8, 7
	add		$16, %r8
.Lpm_diagonals:
	DIAGONALS8_HALF	chacha20_avx2_rot16, 12
	PM_BLOCK	0
	DIAGONALS8_HALF	chacha20_avx2_rot8, 7
	PM_BLOCK	16
	add		$32, %r8
	subl		$2, RCOUNT
	ja		.Lpm_doubleround

	PM_BLOCK	0
	PM_BLOCK	16
	PM_BLOCK	32
	add		$PM_NEXT_STRIDE, %r8	/* the next stride's @mac */

	mov		%r10, %rdx		/* SRC again, for FINISH8 */
	cmpl		$512, PMLEN
	jne		.Lpm_part
	FINISH8		XOR_STORE
	addl		$8, (4 * 12)(STATE)
	add		$512, DST
	add		$512, %r10
	decl		NSTRIDES
	jnz		.Lpm_stride
	jmp		.Lpm_end

.Lpm_part:
	/* h stays in %r9, %r11, %rbx: the XOR takes %rax and %r13. */
	FINISH8		KS_STORE
	XOR_KS		PMLEN, %rax, %eax, %r13, %r13d, %r13b

.Lpm_end:
	POLY1305_MULX_STORE	%rcx, %r9, %r11, %rbx
	WIPE8_FRAME
	movq		$0, RR1
	vzeroupper
	leave
	POLY1305_MULX_RESTORE
	RET
SYM_FUNC_END(chachapoly_8block_body_avx2)

/*
 * void chachapoly_small_avx2(const u32 *state, u8 *dst, const u8 *src,
 *			      unsigned int len, const u8 *mac,
 *			      unsigned int macblocks, u8 *tag);
 *
 * A ChaCha20-Poly1305 request of 1 to CHACHAPOLY_SMALL_AVX2_MAX (192)
 * bytes of text in one call, as chachapoly_small_avx512vl() makes one
 * (chacha20-avx512-x86_64.S, whose contract this is), for CPUs with AVX2,
 * BMI2 and ADX: block 0 and the text's key stream in the row layout of
 * the 2- and 4-block cores above, block 0's first 32 bytes kept in ymm12
 * and XORed nowhere; the text from block 1 on, XORed piece by piece;
 * then POLY1305_MULX_SMALL_MAC.  The part entries' short requests, which
 * the AEAD otherwise makes in three calls with C between them, cost
 * their rounds' latency, so one call is what keeps them short.
 *
 *	%rdi = state, %rsi = dst, %rdx = src, %ecx = len, %r8 = mac,
 *	%r9d = macblocks, 8(%rsp) = tag
 *
 * ChaCha20: mac in %r10 and macblocks in %r11d while LEN is %r8d and
 * PART_TAIL takes %r9; DST and SRC moved back by a block, LEN on by one.
 */
SYM_FUNC_START(chachapoly_small_avx2)
	mov		%r8, %r10
	mov		%r9d, %r11d
	lea		64(%rcx), LEN
	sub		$64, DST
	sub		$64, SRC
	mov		$20, ROUNDS
	LOAD_ROWS2
	cmp		$128, LEN
	ja		.Lsmall4_avx2

	/* Blocks 0 and 1. */
	ROWS2
	jmp		.Lsmall_pieces

.Lsmall4_avx2:
	/* Blocks 0 to 3. */
	ROWS4		SMALL_CTR23

.Lsmall_pieces:
	/* Block 0's first half is the key; the text from block 1. */
	vperm2i128	$0x20, A1, A0, %ymm12
	PART_PIECE	A0, A1, 0x31, 64, .Lsmall_tail
	PART_PIECE	A2, A3, 0x31, 96, .Lsmall_tail
	cmp		$128, LEN
	je		.Lsmall_mac_avx2	/* two blocks, the last whole */
	PART_PIECE	B0, B1, 0x20, 128, .Lsmall_tail
	PART_PIECE	B2, B3, 0x20, 160, .Lsmall_tail
	PART_PIECE	B0, B1, 0x31, 192, .Lsmall_tail
	PART_PIECE	B2, B3, 0x31, 224, .Lsmall_tail
	jmp		.Lsmall_mac_avx2
.Lsmall_tail:
	PART_TAIL	.Lsmall_mac_avx2

.Lsmall_mac_avx2:
	mov		%r11d, %r9d
	POLY1305_MULX_SMALL_MAC	%ymm12, %xmm12
SYM_FUNC_END(chachapoly_small_avx2)
