/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The assembler half of the shim's <linux/linkage.h>, included from it when
 * __ASSEMBLY__.  It is a .S file because it is assembler, not C (and so is
 * checked as such).
 */

#define SYM_FUNC_START(name)		\
	.globl name;			\
	.type name, @function;		\
	.p2align 4;			\
	name:

#define SYM_FUNC_START_LOCAL(name)	\
	.type name, @function;		\
	.p2align 4;			\
	name:

#define SYM_FUNC_END(name)		\
	.size name, . - name

#define RET	ret
