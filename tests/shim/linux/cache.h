/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/cache.h>: nothing is write-protected. */
#ifndef TESTS_SHIM_LINUX_CACHE_H
#define TESTS_SHIM_LINUX_CACHE_H

#define __ro_after_init

#endif /* TESTS_SHIM_LINUX_CACHE_H */
