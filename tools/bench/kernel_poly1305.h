/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entry points of the kernel's own x86-64 Poly1305 assembly,
 * arch/x86/crypto/poly1305-x86_64-cryptogams.pl of linux-source-6.12
 * (7.3's lib/crypto/x86 copy differs only in an #ifdef), generated and
 * assembled at build time for comparison; the declarations follow
 * arch/x86/crypto/poly1305_glue.c.  Each takes @ctx, the context laid out
 * as struct kernel_poly1305_ctx; @len is in bytes, a multiple of 16.
 */
#ifndef BENCH_KERNEL_POLY1305_H
#define BENCH_KERNEL_POLY1305_H

#include <linux/types.h>
#include <linux/linkage.h>

/*
 * What the assembly reads and writes: the accumulator, base 2^64 in three
 * words or, once the AVX code has run, base 2^26 in five with a flag
 * after them; the clamped r; then the powers of r that the AVX code
 * computes on its first call.  The kernel's struct poly1305_desc_ctx has
 * 24 + 11 * 24 bytes from the accumulator on, 8-byte aligned (the
 * assembly needs no more); so has this.
 */
struct kernel_poly1305_ctx {
	union {
		u64 h[3];
		struct {
			u32 h26[5];
			u32 is_base2_26;
		};
	};
	u64 r[2];
	u8 powers[288 - 40];
};

asmlinkage void poly1305_init_x86_64(struct kernel_poly1305_ctx *ctx,
				     const u8 key[16]);
asmlinkage void poly1305_blocks_x86_64(struct kernel_poly1305_ctx *ctx,
				       const u8 *inp, size_t len, u32 padbit);
asmlinkage void poly1305_emit_x86_64(struct kernel_poly1305_ctx *ctx,
				     u8 mac[16], const u32 nonce[4]);
asmlinkage void poly1305_blocks_avx(struct kernel_poly1305_ctx *ctx,
				    const u8 *inp, size_t len, u32 padbit);
asmlinkage void poly1305_blocks_avx2(struct kernel_poly1305_ctx *ctx,
				     const u8 *inp, size_t len, u32 padbit);
asmlinkage void poly1305_blocks_avx512(struct kernel_poly1305_ctx *ctx,
				       const u8 *inp, size_t len, u32 padbit);
asmlinkage void poly1305_emit_avx(struct kernel_poly1305_ctx *ctx,
				  u8 mac[16], const u32 nonce[4]);

#endif /* BENCH_KERNEL_POLY1305_H */
