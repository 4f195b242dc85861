/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ChaCha 4-, 2- and 1-block cores for x86-64 with SSE2, or with SSSE3 when
 * CHACHA_SSSE3 is defined (chacha20-ssse3-x86_64.S does that and includes
 * this file).
 * The two flavours differ only in the 16- and 8-bit rotations: SSSE3 uses
 * one pshufb, SSE2 uses pshuflw/pshufhw and shifts.
 *
 * void fn(const u32 *state, u8 *dst, const u8 *src, unsigned int nrounds)
 *	%rdi = state (16 words, RFC 8439 layout; only read)
 *	%rsi = dst, %rdx = src (any alignment, may be equal)
 *	%ecx = nrounds (20 or 12); the loop runs "sub $2; ja", so an odd
 *	       count rounds up instead of looping forever
 *
 * Block i uses the counter state[12] + i, wrapping modulo 2^32.
 *
 * Whether the 1-block core or scalar C serves single blocks is decided per
 * CPU at load time (chacha_calibrate()): scalar C is about as fast on a
 * Zen 4 and half as fast on a Zen 3.
 *
 * The counter row is loaded word by word: the caller has just stored
 * state[12], and a 16-byte load over a 4-byte store cannot be forwarded
 * from it, which stalls the load until the store retires.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

#ifdef CHACHA_SSSE3
#define CHACHA_4BLOCK	chacha20_4block_xor_ssse3
#define CHACHA_4BLOCK_PART chacha20_4block_xor_part_ssse3
#define CHACHA_4BLOCK_STRIDES chacha20_4block_xor_strides_ssse3
#define CHACHA_4BLOCK_BODY chacha20_4block_body_ssse3
#define CHACHA_1BLOCK	chacha20_1block_xor_ssse3
#define CHACHA_2BLOCK	chacha20_2block_xor_ssse3
#define CHACHA_1BLOCK_PART chacha20_1block_xor_part_ssse3
#else
#define CHACHA_4BLOCK	chacha20_4block_xor_sse2
#define CHACHA_4BLOCK_PART chacha20_4block_xor_part_sse2
#define CHACHA_4BLOCK_STRIDES chacha20_4block_xor_strides_sse2
#define CHACHA_4BLOCK_BODY chacha20_4block_body_sse2
#define CHACHA_1BLOCK	chacha20_1block_xor_sse2
#define CHACHA_2BLOCK	chacha20_2block_xor_sse2
#define CHACHA_1BLOCK_PART chacha20_1block_xor_part_sse2
#endif

/* Counter lanes of the 4-block core: state[12] + {0, 1, 2, 3}. */
.section	.rodata.cst16.chacha_ctrinc, "aM", @progbits, 16
.align 16
chacha_ctrinc:
	.octa	0x00000003000000020000000100000000

/* The second block's counter row in the 2-block core: + {1, 0, 0, 0}. */
.section	.rodata.cst16.chacha_ctr1, "aM", @progbits, 16
.align 16
chacha_ctr1:
	.octa	0x00000000000000000000000000000001

#ifdef CHACHA_SSSE3
/* pshufb masks rotating each 32-bit lane left by 16 and by 8 bits. */
.section	.rodata.cst16.chacha_rot16, "aM", @progbits, 16
.align 16
chacha_rot16:
	.octa	0x0d0c0f0e09080b0a0504070601000302

.section	.rodata.cst16.chacha_rot8, "aM", @progbits, 16
.align 16
chacha_rot8:
	.octa	0x0e0d0c0f0a09080b0605040702010003
#endif

.text

/* \reg = \reg <<< \n in each 32-bit lane, clobbering \tmp. */
.macro ROTL reg, n, tmp
	movdqa		\reg, \tmp
	pslld		$\n, \reg
	psrld		$(32 - \n), \tmp
	por		\tmp, \reg
.endm

/* Rotations by 16 and 8: \mask is a pshufb mask (SSSE3 only). */
.macro ROTL16 reg, tmp, mask
#ifdef CHACHA_SSSE3
	pshufb		\mask, \reg
#else
	pshuflw		$0xb1, \reg, \reg
	pshufhw		$0xb1, \reg, \reg
#endif
.endm

.macro ROTL8 reg, tmp, mask
#ifdef CHACHA_SSSE3
	pshufb		\mask, \reg
#else
	ROTL		\reg, 8, \tmp
#endif
.endm

/*
 * The ChaCha quarter round on a, b, c, d, lane by lane: on word vectors,
 * one quarter round of four blocks.
 */
.macro QUARTERROUND a, b, c, d, tmp, m16, m8
	paddd		\b, \a
	pxor		\a, \d
	ROTL16		\d, \tmp, \m16
	paddd		\d, \c
	pxor		\c, \b
	ROTL		\b, 12, \tmp
	paddd		\b, \a
	pxor		\a, \d
	ROTL8		\d, \tmp, \m8
	paddd		\d, \c
	pxor		\c, \b
	ROTL		\b, 7, \tmp
.endm

/* dst[off..off+15] = src[off..off+15] ^ (\out + \orig); clobbers \tmp. */
.macro ADD_XOR_STORE out, orig, off, tmp
	paddd		\orig, \out
	movdqu		\off(%rdx), \tmp
	pxor		\tmp, \out
	movdqu		\out, \off(%rsi)
.endm

/*
 * Transpose the 4x4 matrix of 32-bit words whose rows are \r0..\r3: row j
 * of the result, i.e. lane j of every input, ends up in \t0, \r1, \r0, \r3
 * for j = 0, 1, 2, 3.  \r2 and \t1 are clobbered.
 */
.macro TRANSPOSE4x4 r0, r1, r2, r3, t0, t1
	movdqa		\r0, \t0
	punpckldq	\r1, \t0	/* r0[0] r1[0] r0[1] r1[1] */
	punpckhdq	\r1, \r0	/* r0[2] r1[2] r0[3] r1[3] */
	movdqa		\r2, \t1
	punpckldq	\r3, \t1	/* r2[0] r3[0] r2[1] r3[1] */
	punpckhdq	\r3, \r2	/* r2[2] r3[2] r2[3] r3[3] */
	movdqa		\t0, \r1
	punpcklqdq	\t1, \t0	/* lane 0 */
	punpckhqdq	\t1, \r1	/* lane 1 */
	movdqa		\r0, \r3
	punpcklqdq	\r2, \r0	/* lane 2 */
	punpckhqdq	\r2, \r3	/* lane 3 */
.endm

/*
 * The 4-block core's partial entry: key stream byte @off in its frame,
 * above the four slots (KS4: the same with an index register).
 */
#define KS4_BASE	(4 * 16)
#define KS4(r)		KS4_BASE(%rsp, r)

/* As ADD_XOR_STORE, into the frame's key stream instead of into dst. */
.macro ADD_KS_STORE out, orig, off, tmp
	paddd		\orig, \out
	movdqa		\out, (KS4_BASE + \off)(%rsp)
.endm

/*
 * \r0..\r3 hold state words 4*row..4*row+3 of four blocks: turn them into
 * row \row of each block, add the input row and XOR it into dst (@store
 * ADD_XOR_STORE) or put it in the frame (ADD_KS_STORE).  Clobbers all six
 * registers.
 */
.macro XOR_ROW4 r0, r1, r2, r3, t0, t1, row, store=ADD_XOR_STORE
	TRANSPOSE4x4	\r0, \r1, \r2, \r3, \t0, \t1
	movdqu		(\row*16)(%rdi), \t1
	\store		\t0, \t1, (0*64+\row*16), \r2
	\store		\r1, \t1, (1*64+\row*16), \r2
	\store		\r0, \t1, (2*64+\row*16), \r2
	\store		\r3, \t1, (3*64+\row*16), \r2
.endm


/*
 * Four blocks, one state word per register: lane i of X<n> is word n of
 * block i.  Words 8..11 do not all fit: two of them live in XC0/XC1 and
 * the other two in stack slots, and the pairs trade places twice per
 * double round.  Columns 0/1 and diagonals 2/3 use x8/x9; columns 2/3
 * and diagonals 0/1 use x10/x11.
 */
#define X0	%xmm0
#define X1	%xmm1
#define X2	%xmm2
#define X3	%xmm3
#define X4	%xmm4
#define X5	%xmm5
#define X6	%xmm6
#define X7	%xmm7
#define XC0	%xmm8
#define XC1	%xmm9
#define T0	%xmm10
#define T1	%xmm11
#define X12	%xmm12
#define X13	%xmm13
#define X14	%xmm14
#define X15	%xmm15
#define SLOT(n)	((n) * 16)(%rsp)

/* Broadcast state row \row into \w0..\w3, one word each; \w3 is scratch. */
.macro SPLAT_ROW row, w0, w1, w2, w3
	movdqu		(\row*16)(%rdi), \w3
	pshufd		$0x00, \w3, \w0
	pshufd		$0x55, \w3, \w1
	pshufd		$0xaa, \w3, \w2
	pshufd		$0xff, \w3, \w3
.endm

/* Park XC0/XC1 in slots \out, \out+1; load them from \in, \in+1. */
.macro SWAP_C out, in
	movdqa		XC0, SLOT(\out)
	movdqa		XC1, SLOT(\out + 1)
	movdqa		SLOT(\in), XC0
	movdqa		SLOT(\in + 1), XC1
.endm

/* The four XOR_ROW4 of the 4-block core's end, with @store. */
.macro FINISH4 store
	XOR_ROW4	X0, X1, X2, X3, T0, T1, 0, \store
	XOR_ROW4	X4, X5, X6, X7, X0, X1, 1, \store
	XOR_ROW4	X12, X13, X14, X15, X0, X1, 3, \store
	/* x8/x9 are in XC0/XC1; bring x10/x11 into T0/T1 */
	movdqa		SLOT(2), T0
	movdqa		SLOT(3), T1
	XOR_ROW4	XC0, XC1, T0, T1, X0, X1, 2, \store
.endm

/* pshufb masks as memory operands; SSE2 ignores the argument */
#define M16	chacha_rot16(%rip)
#define M8	chacha_rot8(%rip)

/*
 * void fn(const u32 *state, u8 *dst, const u8 *src, unsigned int nrounds);
 * and its partial entry, with unsigned int len (1 to 256) in %r8d: it
 * XORs only the first @len bytes, reading and writing nothing past them,
 * from the key stream put in its frame, 16 bytes at a time, then byte by
 * byte, and wipes the frame.  The full entry is the partial one for 256
 * bytes, which XORs straight into dst.  Both only read the state.
 *
 * void fn_strides(u32 *state, u8 *dst, const u8 *src,
 *		   unsigned int nrounds, unsigned int nstrides);
 *
 * runs @nstrides (at least 1) times 256 bytes in one call, as many full
 * calls would, and leaves state[12] advanced by 4 times @nstrides: with
 * the kernel's return thunks each return costs.
 *
 * All three go to the body, with the length in %r8d and in %r9d the
 * strides to do: 0 for one call that only reads the state.
 */
SYM_TYPED_FUNC_START(CHACHA_4BLOCK)
	mov		$256, %r8d
	xor		%r9d, %r9d
	jmp		CHACHA_4BLOCK_BODY
SYM_FUNC_END(CHACHA_4BLOCK)

SYM_TYPED_FUNC_START(CHACHA_4BLOCK_PART)
	xor		%r9d, %r9d
	jmp		CHACHA_4BLOCK_BODY
SYM_FUNC_END(CHACHA_4BLOCK_PART)

SYM_TYPED_FUNC_START(CHACHA_4BLOCK_STRIDES)
	mov		%r8d, %r9d
	mov		$256, %r8d
	jmp		CHACHA_4BLOCK_BODY
SYM_FUNC_END(CHACHA_4BLOCK_STRIDES)

SYM_FUNC_START_LOCAL(CHACHA_4BLOCK_BODY)
	push		%rbp
	mov		%rsp, %rbp
	and		$-16, %rsp
	sub		$(4 * 16 + 256), %rsp
	mov		%ecx, %r10d

.Lstride4:
	SPLAT_ROW	0, X0, X1, X2, X3
	SPLAT_ROW	1, X4, X5, X6, X7
	/* the counter row word by word (see the top of the file) */
	movd		(12*4)(%rdi), X12
	movd		(13*4)(%rdi), X13
	movd		(14*4)(%rdi), X14
	movd		(15*4)(%rdi), X15
	pshufd		$0x00, X12, X12
	pshufd		$0x00, X13, X13
	pshufd		$0x00, X14, X14
	pshufd		$0x00, X15, X15
	paddd		chacha_ctrinc(%rip), X12
	SPLAT_ROW	2, XC0, XC1, T0, T1
	movdqa		T0, SLOT(2)
	movdqa		T1, SLOT(3)

.Ldoubleround:
	/* columns 0 and 1, with x8/x9 */
	QUARTERROUND	X0, X4, XC0, X12, T0, M16, M8
	QUARTERROUND	X1, X5, XC1, X13, T1, M16, M8
	SWAP_C		0, 2
	/* columns 2 and 3, with x10/x11 */
	QUARTERROUND	X2, X6, XC0, X14, T0, M16, M8
	QUARTERROUND	X3, X7, XC1, X15, T1, M16, M8
	/* diagonals 0 (0, 5, 10, 15) and 1 (1, 6, 11, 12), with x10/x11 */
	QUARTERROUND	X0, X5, XC0, X15, T0, M16, M8
	QUARTERROUND	X1, X6, XC1, X12, T1, M16, M8
	SWAP_C		2, 0
	/* diagonals 2 (2, 7, 8, 13) and 3 (3, 4, 9, 14), with x8/x9 */
	QUARTERROUND	X2, X7, XC0, X13, T0, M16, M8
	QUARTERROUND	X3, X4, XC1, X14, T1, M16, M8
	sub		$2, %ecx
	ja		.Ldoubleround

	/* the input rows come from state, so redo the counter lanes here */
	paddd		chacha_ctrinc(%rip), X12
	cmp		$256, %r8d
	jne		.Lpart4
	FINISH4		ADD_XOR_STORE
	/*
	 * The next stride, if any: state[12] as wide as the loads of it
	 * above, so they are forwarded from this store.
	 */
	test		%r9d, %r9d
	jz		.Lwipe4
	addl		$4, (12*4)(%rdi)
	add		$256, %rsi
	add		$256, %rdx
	mov		%r10d, %ecx
	dec		%r9d
	jnz		.Lstride4
	jmp		.Lwipe4

.Lpart4:
	FINISH4		ADD_KS_STORE
	/* XOR %r8d bytes: 16 at a time, then one at a time */
	xor		%eax, %eax
.Lpart4_rows:
	lea		16(%rax), %r9d
	cmp		%r8d, %r9d
	ja		.Lpart4_bytes
	movdqu		(%rdx,%rax), X0
	movdqa		KS4(%rax), X1
	pxor		X1, X0
	movdqu		X0, (%rsi,%rax)
	mov		%r9d, %eax
	jmp		.Lpart4_rows
.Lpart4_bytes:
	cmp		%r8d, %eax
	jae		.Lpart4_wipe
	movzbl		(%rdx,%rax), %r9d
	xorb		KS4(%rax), %r9b
	movb		%r9b, (%rsi,%rax)
	inc		%eax
	jmp		.Lpart4_bytes
.Lpart4_wipe:
	pxor		X0, X0
	xor		%r9d, %r9d
	xor		%eax, %eax
.Lpart4_wipe16:
	movdqa		X0, KS4(%rax)
	add		$16, %eax
	cmp		$256, %eax
	jb		.Lpart4_wipe16

.Lwipe4:
	/* the slots hold key-dependent words: wipe them */
	pxor		X0, X0
	movdqa		X0, SLOT(0)
	movdqa		X0, SLOT(1)
	movdqa		X0, SLOT(2)
	movdqa		X0, SLOT(3)
	leave
	RET
SYM_FUNC_END(CHACHA_4BLOCK_BODY)

/*
 * One block in the row layout: X0..X3 hold rows a, b, c, d (words 0-3,
 * 4-7, 8-11, 12-15), so a quarter round on whole rows is the column
 * round.  For the diagonal round rows a, c and d turn by -1, +1 and +2
 * words against b, which makes the diagonals columns; b stays put, since
 * a quarter round ends by updating b and a shuffle of b would lengthen
 * the chain of dependent instructions.  X8..X11 keep the input rows.
 */
#define R_A	%xmm0
#define R_B	%xmm1
#define R_C	%xmm2
#define R_D	%xmm3
#define R_T	%xmm4
#define R_A0	%xmm8
#define R_B0	%xmm9
#define R_C0	%xmm10
#define R_D0	%xmm11
#define R_M16	%xmm12
#define R_M8	%xmm13

/* R_A..R_D = the key stream block for the state at %rdi; clobbers %ecx. */
.macro KEYSTREAM_1BLOCK
	movdqu		(0*16)(%rdi), R_A
	movdqu		(1*16)(%rdi), R_B
	movdqu		(2*16)(%rdi), R_C
	/* the counter row word by word (see the top of the file) */
	movd		(12*4)(%rdi), R_D
	movd		(13*4)(%rdi), R_T
	punpckldq	R_T, R_D
	movq		(14*4)(%rdi), R_T
	punpcklqdq	R_T, R_D
	movdqa		R_A, R_A0
	movdqa		R_B, R_B0
	movdqa		R_C, R_C0
	movdqa		R_D, R_D0
#ifdef CHACHA_SSSE3
	movdqa		chacha_rot16(%rip), R_M16
	movdqa		chacha_rot8(%rip), R_M8
#endif
.Ldoubleround1\@:
	QUARTERROUND	R_A, R_B, R_C, R_D, R_T, R_M16, R_M8
	pshufd		$0x93, R_A, R_A
	pshufd		$0x4e, R_D, R_D
	pshufd		$0x39, R_C, R_C
	QUARTERROUND	R_A, R_B, R_C, R_D, R_T, R_M16, R_M8
	pshufd		$0x39, R_A, R_A
	pshufd		$0x4e, R_D, R_D
	pshufd		$0x93, R_C, R_C
	sub		$2, %ecx
	ja		.Ldoubleround1\@
	paddd		R_A0, R_A
	paddd		R_B0, R_B
	paddd		R_C0, R_C
	paddd		R_D0, R_D
.endm

/* dst[off..off+15] = src[off..off+15] ^ \ks; clobbers R_T. */
.macro XOR_STORE16 ks, off
	movdqu		\off(%rdx), R_T
	pxor		\ks, R_T
	movdqu		R_T, \off(%rsi)
.endm

SYM_TYPED_FUNC_START(CHACHA_1BLOCK)
	KEYSTREAM_1BLOCK
	XOR_STORE16	R_A, 0
	XOR_STORE16	R_B, 16
	XOR_STORE16	R_C, 32
	XOR_STORE16	R_D, 48
	RET
SYM_FUNC_END(CHACHA_1BLOCK)

/*
 * The same for the first %r8d (1..63) bytes of a block, so that a partial
 * last block needs no bounce buffer and no second pass: whole 16-byte rows
 * straight, the rest byte by byte from the row put in an aligned stack
 * slot, which is wiped.  The loop counts the (public) length only.
 *
 * void fn(const u32 *state, u8 *dst, const u8 *src, unsigned int nrounds,
 *	   unsigned int len)
 */
SYM_TYPED_FUNC_START(CHACHA_1BLOCK_PART)
	KEYSTREAM_1BLOCK
.Lpart_rows:
	cmp		$16, %r8d
	jb		.Lpart_bytes
	XOR_STORE16	R_A, 0
	movdqa		R_B, R_A
	movdqa		R_C, R_B
	movdqa		R_D, R_C
	add		$16, %rdx
	add		$16, %rsi
	sub		$16, %r8d
	jmp		.Lpart_rows
.Lpart_bytes:
	test		%r8d, %r8d
	jz		.Lpart_done
	push		%rbp
	mov		%rsp, %rbp
	and		$-16, %rsp
	sub		$16, %rsp
	movdqa		R_A, (%rsp)
	xor		%eax, %eax
.Lpart_byte:
	movzbl		(%rdx,%rax), %ecx
	xorb		(%rsp,%rax), %cl
	movb		%cl, (%rsi,%rax)
	inc		%eax
	cmp		%r8d, %eax
	jb		.Lpart_byte
	pxor		R_T, R_T
	movdqa		R_T, (%rsp)
	leave
.Lpart_done:
	RET
SYM_FUNC_END(CHACHA_1BLOCK_PART)

/*
 * Two blocks in the row layout, as two 1-block groups whose quarter rounds
 * interleave: the same latency as one block, twice the work.  Rows of
 * block 0 in R_A..R_D, of block 1 in R_E..R_H; the input rows are read
 * from the state again at the end.
 */
#define R_E	%xmm4
#define R_F	%xmm5
#define R_G	%xmm6
#define R_H	%xmm7
#define R_T0	%xmm8
#define R_T1	%xmm9

/* dst[off..off+15] = src[off..off+15] ^ \ks; clobbers \t. */
.macro XOR_STORE16T ks, off, t
	movdqu		\off(%rdx), \t
	pxor		\ks, \t
	movdqu		\t, \off(%rsi)
.endm

SYM_TYPED_FUNC_START(CHACHA_2BLOCK)
	movdqu		(0*16)(%rdi), R_A
	movdqu		(1*16)(%rdi), R_B
	movdqu		(2*16)(%rdi), R_C
	/* the counter row word by word (see the top of the file) */
	movd		(12*4)(%rdi), R_D
	movd		(13*4)(%rdi), R_T0
	punpckldq	R_T0, R_D
	movq		(14*4)(%rdi), R_T0
	punpcklqdq	R_T0, R_D
	movdqa		R_A, R_E
	movdqa		R_B, R_F
	movdqa		R_C, R_G
	movdqa		R_D, R_H
	paddd		chacha_ctr1(%rip), R_H
#ifdef CHACHA_SSSE3
	movdqa		chacha_rot16(%rip), R_M16
	movdqa		chacha_rot8(%rip), R_M8
#endif

.Ldoubleround2:
	QUARTERROUND	R_A, R_B, R_C, R_D, R_T0, R_M16, R_M8
	QUARTERROUND	R_E, R_F, R_G, R_H, R_T1, R_M16, R_M8
	pshufd		$0x93, R_A, R_A
	pshufd		$0x93, R_E, R_E
	pshufd		$0x4e, R_D, R_D
	pshufd		$0x4e, R_H, R_H
	pshufd		$0x39, R_C, R_C
	pshufd		$0x39, R_G, R_G
	QUARTERROUND	R_A, R_B, R_C, R_D, R_T0, R_M16, R_M8
	QUARTERROUND	R_E, R_F, R_G, R_H, R_T1, R_M16, R_M8
	pshufd		$0x39, R_A, R_A
	pshufd		$0x39, R_E, R_E
	pshufd		$0x4e, R_D, R_D
	pshufd		$0x4e, R_H, R_H
	pshufd		$0x93, R_C, R_C
	pshufd		$0x93, R_G, R_G
	sub		$2, %ecx
	ja		.Ldoubleround2

	movdqu		(0*16)(%rdi), R_T0
	paddd		R_T0, R_A
	paddd		R_T0, R_E
	movdqu		(1*16)(%rdi), R_T0
	paddd		R_T0, R_B
	paddd		R_T0, R_F
	movdqu		(2*16)(%rdi), R_T0
	paddd		R_T0, R_C
	paddd		R_T0, R_G
	movdqu		(3*16)(%rdi), R_T0
	paddd		R_T0, R_D
	paddd		chacha_ctr1(%rip), R_T0
	paddd		R_T0, R_H
	XOR_STORE16T	R_A, 0, R_T0
	XOR_STORE16T	R_B, 16, R_T1
	XOR_STORE16T	R_C, 32, R_T0
	XOR_STORE16T	R_D, 48, R_T1
	XOR_STORE16T	R_E, 64, R_T0
	XOR_STORE16T	R_F, 80, R_T1
	XOR_STORE16T	R_G, 96, R_T0
	XOR_STORE16T	R_H, 112, R_T1
	RET
SYM_FUNC_END(CHACHA_2BLOCK)
