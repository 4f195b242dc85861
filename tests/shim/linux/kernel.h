/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/kernel.h>: the few helpers used. */
#ifndef TESTS_SHIM_LINUX_KERNEL_H
#define TESTS_SHIM_LINUX_KERNEL_H

#include <linux/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#define min_t(type, a, b) ({			\
	type __min_a = (a);			\
	type __min_b = (b);			\
	__min_a < __min_b ? __min_a : __min_b;	\
})

#endif /* TESTS_SHIM_LINUX_KERNEL_H */
