/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/string.h>. */
#ifndef TESTS_SHIM_LINUX_STRING_H
#define TESTS_SHIM_LINUX_STRING_H

#include <string.h>

/* memset() that the compiler may not drop as a dead store. */
static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

#endif /* TESTS_SHIM_LINUX_STRING_H */
