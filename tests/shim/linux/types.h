/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/types.h>. */
#ifndef TESTS_SHIM_LINUX_TYPES_H
#define TESTS_SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;

/* No sparse here: the endian types are plain integers. */
typedef uint32_t __le32;
typedef uint64_t __le64;

#endif /* TESTS_SHIM_LINUX_TYPES_H */
