/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/errno.h>: the uapi header's error numbers
 * (the C library's <errno.h> includes <linux/errno.h> itself, so it would
 * find this file and define nothing).
 */
#ifndef TESTS_SHIM_LINUX_ERRNO_H
#define TESTS_SHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif /* TESTS_SHIM_LINUX_ERRNO_H */
