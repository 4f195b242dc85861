/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/compiler_attributes.h>: __printf(),
 * __weak, __always_unused, noinline.
 */
#ifndef TESTS_SHIM_LINUX_COMPILER_ATTRIBUTES_H
#define TESTS_SHIM_LINUX_COMPILER_ATTRIBUTES_H

#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#define __weak		__attribute__((__weak__))
#define __always_unused	__attribute__((__unused__))
#define noinline	__attribute__((__noinline__))

#endif /* TESTS_SHIM_LINUX_COMPILER_ATTRIBUTES_H */
