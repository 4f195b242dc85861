/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-ins for the thunks that a kernel built with
 * CONFIG_MITIGATION_RETPOLINE and CONFIG_MITIGATION_RETHUNK sends every
 * indirect branch and every return of C (and every RET of assembly)
 * through, in the forms the kernel patches in at boot for the CPU's
 * mitigations.  The @kernel rows of the benchmark are built with the
 * kernel's own flags (-mindirect-branch=thunk-extern,
 * -mfunction-return=thunk-extern), so they call these.
 *
 * Each thunk is 32 bytes in the upper half of a 64-byte cache line, where
 * Intel's ITS mitigation puts its thunks.  At start-up, bench_thunks_set()
 * (kthunks.c) copies one variant's code into every thunk, as the kernel's
 * alternatives patch its own: __x86_indirect_thunk_<reg> for each
 * register, and __x86_return_thunk.  The variants are position
 * independent, so a copy runs anywhere.
 *
 * Indirect branches:
 *   none       jmp *%reg            (eIBRS, AutoIBRS, or not affected: the
 *                                    kernel then patches "call *%reg" into
 *                                    the call site, one direct jmp less)
 *   its        jmp *%reg            (ITS, "Aligned branch/return thunks":
 *                                    the kernel's thunk is this one)
 *   lfence     lfence; jmp *%reg    (AMD's LFENCE retpoline)
 *   retpoline  the generic retpoline: call, capture loop, ret
 * Returns:
 *   none       ret                  (the kernel patches "ret; int3" into
 *                                    the site: one direct jmp less)
 *   its        ret                  (ITS: the kernel's its_return_thunk)
 *   untrain    ret                  (retbleed's untrained return thunk:
 *                                    its untraining runs at kernel entry,
 *                                    not per return)
 *   srso       SRSO's "Safe RET": a call into a lea/ret pair that drops
 *              the call's return address, so that every return is
 *              mispredicted into the ud2 after the call
 */

#define HALF	32

	.text

/* The thunks: each starts as int3s, until bench_thunks_set() fills it. */
	.macro thunk name
	.p2align 6
	.fill HALF, 1, 0xcc
	.globl \name
	.type \name, @function
\name:
	.fill HALF, 1, 0xcc
	.size \name, HALF
	.endm

	.p2align 12
	.globl bench_thunks_start
bench_thunks_start:
	.irp reg, rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15
	thunk __x86_indirect_thunk_\reg
	.endr
	thunk __x86_return_thunk
	.globl bench_thunks_end
bench_thunks_end:

/*
 * The variants, one template per register: start and end labels for the
 * copy.  Never run in place.
 */
	.section .rodata, "a"

	.macro indirect_variants reg
	.globl bench_ind_plain_\reg, bench_ind_plain_\reg\()_end
bench_ind_plain_\reg:
	jmp *%\reg
	int3
bench_ind_plain_\reg\()_end:
	.globl bench_ind_lfence_\reg, bench_ind_lfence_\reg\()_end
bench_ind_lfence_\reg:
	lfence
	jmp *%\reg
	int3
bench_ind_lfence_\reg\()_end:
	.globl bench_ind_retpoline_\reg, bench_ind_retpoline_\reg\()_end
bench_ind_retpoline_\reg:
	call 1f
2:	pause
	lfence
	jmp 2b
1:	mov %\reg, (%rsp)
	ret
	int3
bench_ind_retpoline_\reg\()_end:
	.endm

	.irp reg, rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15
	indirect_variants \reg
	.endr

	.globl bench_ret_plain, bench_ret_plain_end
bench_ret_plain:
	ret
	int3
bench_ret_plain_end:

/* call, then drop its return address and return to our caller's caller. */
	.globl bench_ret_srso, bench_ret_srso_end
bench_ret_srso:
	call 1f
	ud2
1:	lea 8(%rsp), %rsp
	ret
	int3
bench_ret_srso_end:

	.section .note.GNU-stack, "", @progbits
