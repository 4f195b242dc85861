/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/bits.h>: BIT(). */
#ifndef TESTS_SHIM_LINUX_BITS_H
#define TESTS_SHIM_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))

#endif /* TESTS_SHIM_LINUX_BITS_H */
