/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Poly1305 blocks (RFC 8439 section 2.5) in x86-64 scalar assembly, with
 * BMI2's mulx and ADX's adcx/adox: the same arithmetic as
 * oot_poly1305_blocks() in poly1305_core.c, as macros that the one-pass
 * ChaCha20-Poly1305 cores can later spread between the instructions of
 * their vector rounds, and a function that loops them.
 *
 * The numbers, as in poly1305_core.c: h = h0 + h1 2^64 + h2 2^128, below
 * 2^130 + 2^64 between blocks (h2 <= 4), only reduced in full by
 * oot_poly1305_emit(); r = r0 + r1 2^64 clamped, so r0 < 2^60 and
 * r1 < 2^60 is a multiple of 4; rr1 = r1 + (r1 >> 2) = 5 (r1 / 4), and
 * 2^128 r1 = 2^130 (r1 / 4) = rr1 modulo p = 2^130 - 5.  Per block m:
 *
 *   h += m + hibit 2^128			(h2 <= 4 + 1 + 1 = 6)
 *   d0 = h0 r0 + h1 rr1			(< 2^125)
 *   d1 = h0 r1 + h1 r0 + h2 rr1		(< 2^126)
 *   d2 = h2 r0					(< 2^63)
 *   t = d0 + d1 2^64 + d2 2^128 = t0 + t1 2^64 + t2 2^128
 *   h = t0 + t1 2^64 + (t2 & 3) 2^128 + 5 (t2 >> 2)
 *
 * since h1 r1 2^128 = h1 rr1 and h2 r1 2^192 = h2 rr1 2^64 modulo p.
 * Every sum fits where the comments say; t2 < 2^63 + 2^62 + 1, so
 * 5 (t2 >> 2) = (t2 & ~3) + (t2 >> 2) < 2^64, and the final carries
 * leave h2 <= 3 + 1 = 4 again.
 *
 * Constant time: no branch and no address depends on h, r or the message;
 * mulx, adcx, adox, imul, add and adc take the same time whatever the
 * values (the loop below counts blocks, which are public).
 *
 * The caller must check that the CPU has BMI2 and ADX (X86_FEATURE_BMI2
 * and X86_FEATURE_ADX in the kernel, both); there is no fallback in here,
 * the C core is it.  No vector register is touched, so no
 * kernel_fpu_begin() is needed for the function alone.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

/*
 * Test only: tests/Makefile assembles copies with
 * -DPOLY1305_PLANT_FAULT=POLY1305_FAULT_MULX_..., each with one of these
 * mistakes in the reduction, and checks that the harness fails.  The
 * numbers go on from those of poly1305_core.c.
 */
#define POLY1305_FAULT_MULX_CARRY	9	/* drops the carry out of h0 */
#define POLY1305_FAULT_MULX_FOLD	10	/* drops the one out of h1 */
#define POLY1305_FAULT_MULX_SELECT	12	/* emit: never subtracts p */
#define POLY1305_FAULT_MULX_POWER	13	/* two chains: k = r^4, not r^8 */
#define POLY1305_FAULT_MULX_SHRD	14	/* two chains: e loses d4's bits */

#ifdef POLY1305_PLANT_FAULT
#ifdef __KERNEL__
#error "POLY1305_PLANT_FAULT is for the user-space tests only"
#endif
#if POLY1305_PLANT_FAULT == POLY1305_FAULT_MULX_CARRY
#define POLY1305_MULX_DROP_CARRY
#elif POLY1305_PLANT_FAULT == POLY1305_FAULT_MULX_FOLD
#define POLY1305_MULX_DROP_FOLD
#elif POLY1305_PLANT_FAULT == POLY1305_FAULT_MULX_SELECT
#define POLY1305_MULX_NO_SELECT
#elif POLY1305_PLANT_FAULT == POLY1305_FAULT_MULX_POWER
#define POLY1305_MULX_SQUARINGS	1
#elif POLY1305_PLANT_FAULT == POLY1305_FAULT_MULX_SHRD
#define POLY1305_MULX_SHR_E1
#endif
#endif
#ifndef POLY1305_MULX_SQUARINGS
#define POLY1305_MULX_SQUARINGS	2	/* r^2 to r^8 */
#endif

/*
 * The block, in three macros.  Each touches only the flags, %rdx and the
 * general-purpose registers named in its arguments, never a vector
 * register and never the stack, so vector instructions (which leave the
 * flags alone) may go between any two of their instructions.  The flags
 * carry values inside a macro, never from one macro to the next: an
 * instruction that writes the flags (a loop counter's sub, cmp or test)
 * may go between the macros, not into one.  Inside a macro the lines
 * between blank lines are groups whose order matters least to spread.
 *
 * \h0, \h1, \h2: the accumulator, 64-bit registers, updated in place.
 * \r0, \r1, \rr1: the key, 64-bit registers or memory operands (mulx and
 *	imul take either), only read; \r1 is used once a block, so memory
 *	costs least there.
 * \t0 .. \t3: 64-bit scratch registers, clobbered.
 * %rdx: clobbered by POLY1305_MULX_MUL (mulx's implicit operand).
 * All registers distinct; none of them %rdx except where it is named.
 *
 * Roughly 3 + 18 + 8 instructions, 4 of them mulx, 2 imul.
 */

/*
 * h += the 16-byte little-endian block at \off(\src) (any alignment) +
 * \hibit 2^128.  \hibit: $1 or $0, or a register holding 1 or 0.
 */
.macro POLY1305_MULX_ADD src, off, hibit, h0, h1, h2
	add		\off(\src), \h0
	adc		\off+8(\src), \h1
	adc		\hibit, \h2
.endm

/*
 * h = d0 + d1 2^64 + d2 2^128 as three limbs t0, t1, t2 in \h0, \h1, \h2
 * (see the top of the file); \h2 <= 6 on entry, t2 < 2^63 + 2^62 + 1 on
 * return.  Clobbers %rdx, \t0 .. \t3 and the flags.
 *
 * The small products of h2 first, with imul, which writes the flags; then
 * d0 on adcx's carry chain (CF) and d1 on adox's (OF), which the
 * zeroing xor starts and which interleave because neither instruction
 * touches the other's flag; each two-limb sum ends with its carry 0
 * (d0 < 2^125, d1 < 2^126), so CF goes on into t1 and t2.
 */
.macro POLY1305_MULX_MUL h0, h1, h2, r0, r1, rr1, t0, t1, t2, t3
	mov		\h1, %rdx
	mulx		\r0, \t0, \t1		/* t1:t0 = h1 r0 */
	mulx		\rr1, \h1, \t2		/* t2:h1 = h1 rr1 */

	mov		\h2, %rdx
	imul		\rr1, %rdx		/* h2 rr1 < 6 2^61 */
	imul		\r0, \h2		/* d2 = h2 r0 */
	add		%rdx, \t0
	adc		$0, \t1			/* t1:t0 = h1 r0 + h2 rr1 */

	xor		%edx, %edx		/* CF = OF = 0 */
	mov		\h0, %rdx
	mulx		\r0, \h0, \t3		/* t3:h0 = h0 r0 */
	adcx		\h1, \h0
	adcx		\t2, \t3		/* t3:h0 = d0, CF = 0 */

	mulx		\r1, \h1, \t2		/* t2:h1 = h0 r1 */
	adox		\t0, \h1
	adox		\t1, \t2		/* t2:h1 = d1, OF = 0 */

	adcx		\t3, \h1		/* t1 = d0 >> 64 + d1 mod 2^64 */
	adcx		\t2, \h2		/* t2 = d2 + d1 >> 64 + carry */
.endm

/*
 * h = t0 + t1 2^64 + (t2 & 3) 2^128 + 5 (t2 >> 2), the same modulo p,
 * with \h2 <= 4 again.  Clobbers \t0, \t1 and the flags.
 *
 * With \src, the next block goes in too, as POLY1305_MULX_ADD, before
 * the carries of 5 (t2 >> 2): they end the chain from one block to the
 * next, and the block's adds come off it.  \h2 <= 3 + 1 + 1 + 1 = 6
 * then, as after POLY1305_MULX_ADD.
 */
.macro POLY1305_MULX_REDUCE h0, h1, h2, t0, t1, src, off, hibit
	mov		\h2, \t0
	mov		\h2, \t1
	and		$-4, \t0		/* 4 (t2 >> 2) */
	shr		$2, \t1			/* t2 >> 2 */
	and		$3, \h2
.ifnb \src
	POLY1305_MULX_ADD	\src, \off, \hibit, \h0, \h1, \h2
.endif

	add		\t1, \t0		/* 5 (t2 >> 2) < 2^64 */
	add		\t0, \h0
#ifndef POLY1305_MULX_DROP_CARRY
	adc		$0, \h1
#ifndef POLY1305_MULX_DROP_FOLD
	adc		$0, \h2
#endif
#endif
.endm

/*
 * Two chains, for long runs of blocks.  The chain above takes one
 * multiply's latency per block, about 12 cycles, while the multiplier and
 * the adders sit idle most of that time.  So groups of 16 blocks
 * m0 .. m15 go in two chains that the core interleaves: A is h over
 * m0 .. m7, B starts at 0 over m8 .. m15, each by the block above with
 * r, and then
 *
 *   h = A k + B,  k = r^8,
 *
 * which is h r^16 + m0 r^16 + ... + m15 r, as 16 blocks one by one make
 * it.  k is not clamped, so the product needs the general multiply
 * below, once a group.  k comes from r by one block multiply (r^2) and
 * two general squarings.
 */

/*
 * d = g + h k, g = d0 + d1 2^64 + d2 2^128 on entry, into d0 .. d4 (d3
 * and d4 cleared here), for any h and k whose third limbs \h2, \k2 are at
 * most 4 and g < 2^131: d < 2^262, so the carries, taken as far up as
 * they can reach, never leave d4.  \h0 .. \h2 and \k0 .. \k2 may be
 * registers or memory; \lo and \hi are scratch.  Clobbers %rdx and the
 * flags.
 */
.macro POLY1305_MULX_GMUL h0, h1, h2, k0, k1, k2, d0, d1, d2, d3, d4, lo, hi
	xor		\d3, \d3
	xor		\d4, \d4
	mov		\h0, %rdx
	mulx		\k0, \lo, \hi		/* h0 k0, at 2^0 */
	add		\lo, \d0
	adc		\hi, \d1
	adc		$0, \d2
	adc		$0, \d3
	mulx		\k1, \lo, \hi		/* h0 k1, at 2^64 */
	add		\lo, \d1
	adc		\hi, \d2
	adc		$0, \d3
	mulx		\k2, \lo, \hi		/* h0 k2, at 2^128 */
	add		\lo, \d2
	adc		\hi, \d3
	adc		$0, \d4

	mov		\h1, %rdx
	mulx		\k0, \lo, \hi		/* h1 k0, at 2^64 */
	add		\lo, \d1
	adc		\hi, \d2
	adc		$0, \d3
	adc		$0, \d4
	mulx		\k1, \lo, \hi		/* h1 k1, at 2^128 */
	add		\lo, \d2
	adc		\hi, \d3
	adc		$0, \d4
	mulx		\k2, \lo, \hi		/* h1 k2, at 2^192 */
	add		\lo, \d3
	adc		\hi, \d4

	mov		\h2, %rdx
	mulx		\k0, \lo, \hi		/* h2 k0, at 2^128 */
	add		\lo, \d2
	adc		\hi, \d3
	adc		$0, \d4
	mulx		\k1, \lo, \hi		/* h2 k1, at 2^192 */
	add		\lo, \d3
	adc		\hi, \d4
	imul		\k2, %rdx		/* h2 k2 <= 16, at 2^256 */
	add		%rdx, \d4
.endm

/*
 * d = d0 + .. + d4 2^256 < 2^262, as GMUL leaves it, folded to h = d0 +
 * d1 2^64 + \o2 2^128 with \o2 <= 4, the same modulo p: the bits from
 * 2^130 up, e, come back as 5 e = 4 e + e, where 4 e is d2 & ~3, d3, d4
 * limb by limb and e is the same shifted right by 2; then
 * POLY1305_MULX_REDUCE.  \o2 is none of the d; clobbers d2 .. d4, \t0,
 * \t1, %rdx and the flags.
 */
.macro POLY1305_MULX_GFOLD d0, d1, d2, d3, d4, o2, t0, t1
	mov		\d2, \o2
	and		$3, \o2
	mov		\d2, \t0
	and		$-4, \t0		/* 4 e, limb 0 */
	shrd		$2, \d3, \d2		/* e, limb 0 */
	mov		\d3, \t1
#ifndef POLY1305_MULX_SHR_E1
	shrd		$2, \d4, \t1		/* e, limb 1 */
#else
	shr		$2, \t1
#endif
	mov		\d4, %rdx
	shr		$2, %rdx		/* e, limb 2 */

	add		\t0, \d0
	adc		\d3, \d1
	adc		\d4, \o2
	add		\d2, \d0
	adc		\t1, \d1
	adc		%rdx, \o2		/* <= 3 + 2^6 + 2^4 + 2 */
	POLY1305_MULX_REDUCE	\d0, \d1, \o2, \t0, \t1
.endm

/*
 * h mod p, as oot_poly1305_emit() makes it before adding s: fold \h2
 * once more (h < 2^130 + 5), then g = h + 5 takes h's place if g >= 2^130,
 * that is if h >= p.  cmov, no branch.  The low 128 bits end in \h0 and
 * \h1; \h2 and \t0 .. \t2 are clobbered, and the flags.
 */
.macro POLY1305_MULX_FINAL h0, h1, h2, t0, t1, t2
	mov		\h2, \t0
	mov		\h2, \t1
	and		$-4, \t0
	shr		$2, \t1
	add		\t1, \t0		/* 5 (h2 >> 2) */
	and		$3, \h2
	add		\t0, \h0
	adc		$0, \h1
	adc		$0, \h2
	mov		\h0, \t0
	mov		\h1, \t1
	mov		\h2, \t2
	add		$5, \t0
	adc		$0, \t1
	adc		$0, \t2		/* g2 <= 5 */
#ifndef POLY1305_MULX_NO_SELECT
	bt		$2, \t2		/* g >= 2^130 */
	cmovc		\t0, \h0
	cmovc		\t1, \h1
#endif
.endm

/* The three, for one block at \off(\src). */
.macro POLY1305_BLOCK_MULX src, off, hibit, h0, h1, h2, r0, r1, rr1, \
			   t0, t1, t2, t3
	POLY1305_MULX_ADD	\src, \off, \hibit, \h0, \h1, \h2
	POLY1305_MULX_MUL	\h0, \h1, \h2, \r0, \r1, \rr1, \
				\t0, \t1, \t2, \t3
	POLY1305_MULX_REDUCE	\h0, \h1, \h2, \t0, \t1
.endm

/*
 * The %eax (at least 1) blocks at %rsi one after another, each with
 * \hibit, as POLY1305_BLOCK_MULX in a loop, but each block's add goes
 * into the previous block's POLY1305_MULX_REDUCE.  h in %r8, %r9, %r10;
 * r0 in %r11, r1 in \r1 (a register or memory), rr1 in %r12; scratch
 * %rbx, %r13 .. %r15.  %rsi ends past the blocks, %eax at 0.
 */
.macro POLY1305_MULX_BLOCKS hibit, r1
	POLY1305_MULX_ADD	%rsi, 0, \hibit, %r8, %r9, %r10
.Lblocks_mul\@:
	POLY1305_MULX_MUL	%r8, %r9, %r10, %r11, \r1, %r12, \
				%rbx, %r13, %r14, %r15
	add		$16, %rsi
	dec		%eax
	jz		.Lblocks_last\@
	POLY1305_MULX_REDUCE	%r8, %r9, %r10, %rbx, %r13, %rsi, 0, \hibit
	jmp		.Lblocks_mul\@
.Lblocks_last\@:
	POLY1305_MULX_REDUCE	%r8, %r9, %r10, %rbx, %r13
.endm

/*
 * A mulx Poly1305 routine's entry and exit: the callee-saved registers
 * its macros use as scratch, and st->h and r in and out of registers
 * (\rr1 = r1 + (r1 >> 2), through \t).
 */
.macro POLY1305_MULX_SAVE
	push		%rbx
	push		%r12
	push		%r13
	push		%r14
	push		%r15
.endm

.macro POLY1305_MULX_RESTORE
	pop		%r15
	pop		%r14
	pop		%r13
	pop		%r12
	pop		%rbx
.endm

.macro POLY1305_MULX_LOAD st, h0, h1, h2, r0, rr1, t
	mov		0(\st), \h0
	mov		8(\st), \h1
	mov		16(\st), \h2
	mov		24(\st), \r0
	mov		32(\st), \rr1
	mov		\rr1, \t
	shr		$2, \t
	add		\t, \rr1		/* rr1 = r1 + (r1 >> 2) */
.endm

.macro POLY1305_MULX_STORE st, h0, h1, h2
	mov		\h0, 0(\st)
	mov		\h1, 8(\st)
	mov		\h2, 16(\st)
.endm

/*
 * The chains' frame, below the saved registers: k = r^8, r1, hibit, what
 * %rdi and %rcx held, the groups left, the blocks after them, the 8
 * blocks left of the group in hand, and h2.
 */
#define PK0		0(%rsp)
#define PK1		8(%rsp)
#define PK2		16(%rsp)
#define PR1		24(%rsp)
#define PHIBIT		32(%rsp)
#define PRDI		40(%rsp)
#define PRCX		48(%rsp)
#define PGROUPS		56(%rsp)
#define PREST		60(%rsp)
#define PPAIRS		64(%rsp)
#define PH2		72(%rsp)
#define PFRAME		80

/*
 * From POLY1305_MULX_CHAINS blocks on, the two chains (see above) take
 * the whole groups of 16.  Below that, 12 cycles a block beat what
 * computing k costs.
 */
#define POLY1305_MULX_CHAINS	16

/*
 * With h in %r8 .. %r10, r0 in %r11, rr1 in %r12, r1 in \r1 (a register
 * or memory), the blocks at %rsi and their count in %eax: the whole groups
 * of 16 in two chains, each block with \hibit, if there are
 * POLY1305_MULX_CHAINS blocks; then %rsi and %eax say what is left, %rdi
 * and %rcx are as before, and the code goes on at \done if nothing is.
 * Chain A is h, chain B %rdi, %rcx, %rax, and both take %rbx, %r13 ..
 * %r15 as scratch, which the caller has saved.  k and r1 leave the frame
 * as zeros.
 */
.macro POLY1305_MULX_TWO hibit, r1, done
	cmp		$POLY1305_MULX_CHAINS, %eax
	jb		.Ltwo_none\@
	sub		$PFRAME, %rsp
	mov		\r1, %rdx
	mov		%rdx, PR1
	mov		%rdi, PRDI
	mov		%rcx, PRCX
	mov		\hibit, %rcx
	mov		%rcx, PHIBIT
	mov		%r10, PH2
	mov		%eax, %ecx
	shr		$4, %ecx
	mov		%ecx, PGROUPS
	and		$15, %eax
	mov		%eax, PREST

	/* k = r^2 by the block multiply, then squared twice. */
	mov		%r11, %rdi
	mov		PR1, %rcx
	xor		%eax, %eax
	POLY1305_MULX_MUL	%rdi, %rcx, %rax, %r11, PR1, %r12, \
				%rbx, %r13, %r14, %r15
	POLY1305_MULX_REDUCE	%rdi, %rcx, %rax, %rbx, %r13
	.rept POLY1305_MULX_SQUARINGS
	mov		%rdi, PK0
	mov		%rcx, PK1
	mov		%rax, PK2
	xor		%edi, %edi
	xor		%ecx, %ecx
	xor		%eax, %eax
	POLY1305_MULX_GMUL	PK0, PK1, PK2, PK0, PK1, PK2, \
				%rdi, %rcx, %rax, %r13, %r14, %rbx, %r15
	POLY1305_MULX_GFOLD	%rdi, %rcx, %rax, %r13, %r14, %r10, %rbx, %r15
	mov		%r10, %rax
	.endr
	mov		%rdi, PK0
	mov		%rcx, PK1
	mov		%rax, PK2
	mov		PH2, %r10		/* h2 again */

.Ltwo_group\@:
	xor		%edi, %edi
	xor		%ecx, %ecx
	xor		%eax, %eax
	movl		$8, PPAIRS
.Ltwo_pair\@:
	POLY1305_BLOCK_MULX	%rsi, 0, PHIBIT, %r8, %r9, %r10, \
				%r11, PR1, %r12, %rbx, %r13, %r14, %r15
	POLY1305_BLOCK_MULX	%rsi, 128, PHIBIT, %rdi, %rcx, %rax, \
				%r11, PR1, %r12, %rbx, %r13, %r14, %r15
	add		$16, %rsi
	decl		PPAIRS
	jnz		.Ltwo_pair\@

	/* h = A k + B */
	POLY1305_MULX_GMUL	%r8, %r9, %r10, PK0, PK1, PK2, \
				%rdi, %rcx, %rax, %r13, %r14, %rbx, %r15
	POLY1305_MULX_GFOLD	%rdi, %rcx, %rax, %r13, %r14, %r10, %rbx, %r15
	mov		%rdi, %r8
	mov		%rcx, %r9
	add		$128, %rsi
	decl		PGROUPS
	jnz		.Ltwo_group\@

	movq		$0, PK0
	movq		$0, PK1
	movq		$0, PK2
	movq		$0, PR1
	mov		PRDI, %rdi
	mov		PRCX, %rcx
	mov		PREST, %eax
	add		$PFRAME, %rsp
	test		%eax, %eax
	jz		\done
.Ltwo_none\@:
.endm

/*
 * The end of a whole short AEAD request in one call
 * (chachapoly_small_avx512vl(), chachapoly_small_avx2()): the one-time
 * key's r in the low and s in the high 128 bits of \key (\keyx its low
 * half), the %r9d (at least 1) blocks at %r10 absorbed from h = 0 with
 * hibit 1, and the tag into the pointer that was at 8(%rsp) when the
 * function was entered, with nothing pushed since; then the function's
 * return.  h in %r8, %r9, %r10; r0 in %r11, r1 in %rdi, rr1 in %r12;
 * the blocks at %rsi, counted in %eax; scratch %rbx, %r13, %r14, %r15;
 * s stays in \keyx.
 */
.macro POLY1305_MULX_SMALL_MAC key, keyx
	POLY1305_MULX_SAVE
	vmovq		\keyx, %r11
	vpextrq		$1, \keyx, %rdi
	vextracti128	$1, \key, \keyx		/* s */
	movabs		$0x0ffffffc0fffffff, %rbx
	and		%rbx, %r11		/* r0, clamped */
	movabs		$0x0ffffffc0ffffffc, %rbx
	and		%rbx, %rdi		/* r1, clamped */
	mov		%rdi, %r12
	shr		$2, %r12
	add		%rdi, %r12		/* rr1 = r1 + (r1 >> 2) */
	mov		%r10, %rsi
	mov		%r9d, %eax
	xor		%r8d, %r8d
	xor		%r9d, %r9d
	xor		%r10d, %r10d
	POLY1305_MULX_TWO	$1, %rdi, .Lsmall_tag\@

	POLY1305_MULX_BLOCKS	$1, %rdi

.Lsmall_tag\@:
	/* The tag, as oot_poly1305_emit(): h mod p, + s modulo 2^128. */
	POLY1305_MULX_FINAL	%r8, %r9, %r10, %rbx, %r13, %r14
	vmovq		\keyx, %rbx
	vpextrq		$1, \keyx, %r13
	add		%rbx, %r8
	adc		%r13, %r9
	mov		48(%rsp), %rax		/* tag, past the five pushes */
	mov		%r8, 0(%rax)
	mov		%r9, 8(%rax)
	POLY1305_MULX_RESTORE
	vzeroupper
	RET
.endm

/*
 * Another .S may include this file for the macros alone.
 */
#ifndef POLY1305_MULX_MACROS_ONLY

.text

/*
 * void oot_poly1305_blocks_x86_64_mulx(struct poly1305_core_state *st,
 *				    const u8 *src, unsigned int nblocks,
 *				    u32 hibit)
 *
 * oot_poly1305_blocks()'s contract: absorb @nblocks (0 too) whole
 * 16-byte blocks of @src (any alignment), each with @hibit 2^128 added
 * (1 for message blocks, 0 for a padded last partial one), into st->h,
 * which is left with h[2] <= 4 for oot_poly1305_emit() or the next call.
 *
 *	%rdi = st: h[3] at 0, r[2] at 24 (clamped), s[2] at 40 (unused)
 *	%rsi = src, %edx = nblocks, %ecx = hibit
 *
 * h in %r8, %r9, %r10; r0 in %r11, r1 read from st, rr1 in %r12; the
 * block count in %eax, hibit in %rcx; scratch %rbx, %r13, %r14, %r15.
 * From POLY1305_MULX_CHAINS blocks on, POLY1305_MULX_TWO first.
 *
 * Typed for kCFI, to be called through a pointer.  So in a clang kCFI
 * kernel the module must take its address in C: that is what makes the
 * compiler emit __kcfi_typeid_oot_poly1305_blocks_x86_64_mulx, which the
 * typed start refers to; without such a user modpost finds the symbol
 * undefined (7.3's kCFI build of a Kbuild that only adds this object).
 */
SYM_TYPED_FUNC_START(oot_poly1305_blocks_x86_64_mulx)
	test		%edx, %edx
	jz		.Lmulx_none
	POLY1305_MULX_SAVE
	mov		%edx, %eax
	mov		%ecx, %ecx		/* hibit, zero-extended */
	POLY1305_MULX_LOAD	%rdi, %r8, %r9, %r10, %r11, %r12, %rbx
	POLY1305_MULX_TWO	%rcx, 32(%rdi), .Lmulx_store

	POLY1305_MULX_BLOCKS	%rcx, 32(%rdi)

.Lmulx_store:
	POLY1305_MULX_STORE	%rdi, %r8, %r9, %r10
	POLY1305_MULX_RESTORE
.Lmulx_none:
	RET
SYM_FUNC_END(oot_poly1305_blocks_x86_64_mulx)

/*
 * void oot_poly1305_blocks_emit_x86_64_mulx(struct poly1305_core_state *st,
 *					 const u8 *src,
 *					 unsigned int nblocks, u8 *mac)
 *
 * oot_poly1305_blocks_emit()'s contract: oot_poly1305_blocks_x86_64_mulx()
 * over @nblocks (0 too) whole blocks with hibit 1, st->h updated, then the
 * tag into @mac as oot_poly1305_emit() makes it: one call and one return
 * for a message's last blocks and its tag.  Called directly, never
 * through a pointer.
 *
 *	%rdi = st, %rsi = src, %edx = nblocks, %rcx = mac
 *
 * h in %r8, %r9, %r10; r0 in %r11, r1 read from st, rr1 in %r12; the
 * block count in %eax; scratch %rbx, %r13, %r14, %r15.  From
 * POLY1305_MULX_CHAINS blocks on, POLY1305_MULX_TWO first.
 */
SYM_FUNC_START(oot_poly1305_blocks_emit_x86_64_mulx)
	POLY1305_MULX_SAVE
	mov		%edx, %eax
	POLY1305_MULX_LOAD	%rdi, %r8, %r9, %r10, %r11, %r12, %rbx
	POLY1305_MULX_TWO	$1, 32(%rdi), .Lemit_store
	test		%eax, %eax
	jz		.Lemit_tag

	POLY1305_MULX_BLOCKS	$1, 32(%rdi)
.Lemit_store:
	POLY1305_MULX_STORE	%rdi, %r8, %r9, %r10

.Lemit_tag:
	POLY1305_MULX_FINAL	%r8, %r9, %r10, %rbx, %r13, %r14
	add		40(%rdi), %r8		/* + s, modulo 2^128 */
	adc		48(%rdi), %r9
	mov		%r8, 0(%rcx)
	mov		%r9, 8(%rcx)
	POLY1305_MULX_RESTORE
	RET
SYM_FUNC_END(oot_poly1305_blocks_emit_x86_64_mulx)

#endif /* POLY1305_MULX_MACROS_ONLY */
