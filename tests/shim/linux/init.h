/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/init.h>: nothing is discarded after init. */
#ifndef TESTS_SHIM_LINUX_INIT_H
#define TESTS_SHIM_LINUX_INIT_H

#define __init
#define __initdata

#endif /* TESTS_SHIM_LINUX_INIT_H */
