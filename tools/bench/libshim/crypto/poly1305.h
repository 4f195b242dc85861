/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark's stand-in for the kernel's Poly1305 library, which the
 * AEAD core takes for long requests on some pairs (poly1305_impl's
 * lib_from): paths.c's re-creation of the kernel's glue around its own
 * assembly (kpoly_*), with the Poly1305 tier a kernel on a CPU of the
 * row's tier would run (bench_paths' set_lib_poly).  Only the names and
 * calls of <crypto/poly1305.h>; prefixed, so that nothing clashes with
 * the libraries the benchmark links.
 */
#ifndef BENCH_LIBSHIM_CRYPTO_POLY1305_H
#define BENCH_LIBSHIM_CRYPTO_POLY1305_H

#include <linux/types.h>

/* Room for paths.c's struct kpoly_desc, which it checks. */
struct poly1305_desc_ctx {
	u64 opaque[48];
};

#define poly1305_init	bench_lib_poly1305_init
#define poly1305_update	bench_lib_poly1305_update
#define poly1305_final	bench_lib_poly1305_final

void poly1305_init(struct poly1305_desc_ctx *desc, const u8 *key);
void poly1305_update(struct poly1305_desc_ctx *desc, const u8 *src,
		     unsigned int nbytes);
void poly1305_final(struct poly1305_desc_ctx *desc, u8 *digest);

#endif /* BENCH_LIBSHIM_CRYPTO_POLY1305_H */
