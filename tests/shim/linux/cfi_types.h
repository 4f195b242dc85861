/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/cfi_types.h>: no kCFI in user space, so a
 * typed function start is a plain one.
 */
#ifndef TESTS_SHIM_LINUX_CFI_TYPES_H
#define TESTS_SHIM_LINUX_CFI_TYPES_H

#ifdef __ASSEMBLY__
#include <linux/linkage.h>

#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)
#endif

#endif /* TESTS_SHIM_LINUX_CFI_TYPES_H */
