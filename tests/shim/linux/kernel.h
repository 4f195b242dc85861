/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/kernel.h>: the few helpers used. */
#ifndef TESTS_SHIM_LINUX_KERNEL_H
#define TESTS_SHIM_LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/compiler_attributes.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* 0, or a compile error when @e is true (an integer constant expression). */
#define BUILD_BUG_ON_ZERO(e)	((int)sizeof(struct { int:(-!!(e)); }))
#define BUILD_BUG_ON(e)		((void)BUILD_BUG_ON_ZERO(e))

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
/* @y a power of two, as in the kernel. */
/* A compiler barrier that keeps the stores to @p: <linux/compiler.h>. */
static inline void barrier_data(void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))(y) - 1)) + 1)
#define round_down(x, y)	((x) & ~((__typeof__(x))(y) - 1))

#define min_t(type, a, b) ({			\
	type __min_a = (a);			\
	type __min_b = (b);			\
	__min_a < __min_b ? __min_a : __min_b;	\
})

/* The kernel's min() also rejects operands of different types. */
#define min(a, b) ({						\
	__auto_type __min_x = (a);				\
	__auto_type __min_y = (b);				\
	(void)(&__min_x == &__min_y);				\
	__min_x < __min_y ? __min_x : __min_y;			\
})

#endif /* TESTS_SHIM_LINUX_KERNEL_H */
