/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/bitops.h>: rol32(). */
#ifndef TESTS_SHIM_LINUX_BITOPS_H
#define TESTS_SHIM_LINUX_BITOPS_H

#include <linux/types.h>

static inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

#endif /* TESTS_SHIM_LINUX_BITOPS_H */
