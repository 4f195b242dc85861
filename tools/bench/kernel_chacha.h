/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entry points of the kernel's own x86-64 ChaCha assembly,
 * arch/x86/crypto/chacha-{ssse3,avx2,avx512vl}-x86_64.S of linux-source-6.12,
 * assembled at build time for comparison (the declarations follow
 * arch/x86/crypto/chacha_glue.c).  Each call XORs min(@len, its stride)
 * bytes of key stream, a partial last block included; the caller advances
 * state[12].
 */
#ifndef BENCH_KERNEL_CHACHA_H
#define BENCH_KERNEL_CHACHA_H

#include <linux/types.h>
#include <linux/linkage.h>

typedef void (*kernel_chacha_fn)(u32 *state, u8 *dst, const u8 *src,
				 unsigned int len, int nrounds);

asmlinkage void chacha_block_xor_ssse3(u32 *state, u8 *dst, const u8 *src,
				       unsigned int len, int nrounds);
asmlinkage void chacha_4block_xor_ssse3(u32 *state, u8 *dst, const u8 *src,
					unsigned int len, int nrounds);
asmlinkage void chacha_2block_xor_avx2(u32 *state, u8 *dst, const u8 *src,
				       unsigned int len, int nrounds);
asmlinkage void chacha_4block_xor_avx2(u32 *state, u8 *dst, const u8 *src,
				       unsigned int len, int nrounds);
asmlinkage void chacha_8block_xor_avx2(u32 *state, u8 *dst, const u8 *src,
				       unsigned int len, int nrounds);
asmlinkage void chacha_2block_xor_avx512vl(u32 *state, u8 *dst, const u8 *src,
					   unsigned int len, int nrounds);
asmlinkage void chacha_4block_xor_avx512vl(u32 *state, u8 *dst, const u8 *src,
					   unsigned int len, int nrounds);
asmlinkage void chacha_8block_xor_avx512vl(u32 *state, u8 *dst, const u8 *src,
					   unsigned int len, int nrounds);

#endif /* BENCH_KERNEL_CHACHA_H */
