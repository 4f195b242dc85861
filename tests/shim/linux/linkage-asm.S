/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The assembler half of the shim's <linux/linkage.h>, included from it when
 * __ASSEMBLY__.  It is a .S file because it is assembler, not C (and so is
 * checked as such).
 *
 * As a kernel's configuration makes them, for the benchmark's @kernel
 * build (tools/bench/kflags.sh): SHIM_IBT, an ENDBR at every function's
 * entry (X86_KERNEL_IBT); SHIM_RETHUNK, RET through __x86_return_thunk
 * (MITIGATION_RETHUNK); SHIM_SLS, an int3 after it (MITIGATION_SLS).
 */

#ifdef SHIM_IBT
#define SHIM_ENDBR	endbr64
#else
#define SHIM_ENDBR
#endif

#define SYM_FUNC_START(name)		\
	.globl name;			\
	.type name, @function;		\
	.p2align 4;			\
	name:				\
	SHIM_ENDBR

#define SYM_FUNC_START_LOCAL(name)	\
	.type name, @function;		\
	.p2align 4;			\
	name:

#define SYM_FUNC_END(name)		\
	.size name, . - name

#define SYM_L_GLOBAL(name)	.globl name
#define SYM_L_LOCAL(name)

/* A label inside a function, as the kernel's: no type, no ENDBR. */
#define SYM_INNER_LABEL(name, linkage)	\
	linkage(name);			\
	name:

#if defined(SHIM_RETHUNK) && defined(SHIM_SLS)
#define RET	jmp __x86_return_thunk; int3
#elif defined(SHIM_RETHUNK)
#define RET	jmp __x86_return_thunk
#elif defined(SHIM_SLS)
#define RET	ret; int3
#else
#define RET	ret
#endif
