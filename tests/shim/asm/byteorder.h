/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <asm/byteorder.h>, for either byte order. */
#ifndef TESTS_SHIM_ASM_BYTEORDER_H
#define TESTS_SHIM_ASM_BYTEORDER_H

#include <linux/types.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define cpu_to_le32(x)	((__le32)(u32)(x))
#define le32_to_cpu(x)	((u32)(__le32)(x))
#define cpu_to_le64(x)	((__le64)(u64)(x))
#define le64_to_cpu(x)	((u64)(__le64)(x))
#elif __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define cpu_to_le32(x)	((__le32)__builtin_bswap32(x))
#define le32_to_cpu(x)	((u32)__builtin_bswap32(x))
#define cpu_to_le64(x)	((__le64)__builtin_bswap64(x))
#define le64_to_cpu(x)	((u64)__builtin_bswap64(x))
#else
#error "unknown byte order"
#endif

#endif /* TESTS_SHIM_ASM_BYTEORDER_H */
