/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/linkage.h>: just the symbol macros that the
 * ChaCha .S files and chacha20_core.h use.
 */
#ifndef TESTS_SHIM_LINUX_LINKAGE_H
#define TESTS_SHIM_LINUX_LINKAGE_H

#ifdef __ASSEMBLY__
/* SYM_FUNC_START(), SYM_FUNC_START_LOCAL(), SYM_FUNC_END(), RET */
#include "linkage-asm.S"
#else
#define asmlinkage
#endif

#endif /* TESTS_SHIM_LINUX_LINKAGE_H */
