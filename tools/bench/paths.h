/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One build of paths.c with chacha20_core.c and the assembly: the module's
 * request path and the kernel's, with one set of compiler flags.
 * bench_plain has the benchmark's flags; bench_kernel, when the benchmark
 * is built with it, the flags Kbuild used for the module against a
 * distribution kernel, and the mitigation thunks of kthunks-x86_64.S.
 */
#ifndef BENCH_PATHS_H
#define BENCH_PATHS_H

#include <linux/types.h>

#include "chacha20_core.h"
#include "chacha20poly1305_core.h"

/* The kernel's tiers, as its static keys choose them. */
#define BENCH_TIER_SSSE3	0
#define BENCH_TIER_AVX2		1
#define BENCH_TIER_AVX512VL	2

/* The kernel's Poly1305 (its poly1305_use_avx* static keys) */
#define BENCH_POLY_SCALAR	0
#define BENCH_POLY_AVX		1
#define BENCH_POLY_AVX2		2
#define BENCH_POLY_AVX512	3

/*
 * One ChaCha20-Poly1305 message but its text: what the tfm holds (the key
 * in CPU order) and what the request brings.  @tag is written when
 * encrypting and checked when decrypting.
 */
struct bench_aead {
	const u32 *key;
	const u8 *nonce;	/* CHACHAPOLY_NONCE_BYTES */
	const u8 *ad;
	unsigned int adlen;
	u8 *tag;		/* CHACHAPOLY_TAG_BYTES */
};

/* The kernel's skcipher enters SIMD once per walk step, a page. */
#define BENCH_SECTION_BYTES	4096

struct bench_paths {
	/* this build's chacha_impls[] */
	const struct chacha_impl *impls;
	const unsigned int *nimpls;
	/* the price of a SIMD section, and chacha_scalar_{max,tail}_bytes */
	void (*set_choices)(unsigned int fpu_cost, unsigned int scalar_max,
			    unsigned int scalar_tail);
	void (*crypt_request)(const struct chacha_impl *impl, u32 *state,
			      u8 *dst, const u8 *src, unsigned int len,
			      unsigned int nrounds, bool simd_usable);
	void (*calibrate)(const struct chacha_impl *impl, u64 (*clock)(void),
			  struct chacha_calibration *c);
	/* chacha_set_stride(): force the core of whole strides */
	int (*set_stride)(const struct chacha_impl *impl, unsigned int blocks);
	/* the kernel's skcipher, 6.12's or (@lib) 7.3's chacha20-lib */
	void (*kernel_walk)(unsigned int tier, bool lib, u32 *state, u8 *dst,
			    const u8 *src, unsigned int len,
			    unsigned int nrounds);
	/* one SIMD section's price, paid */
	void (*fpu_charge)(void);
	/* this build's poly1305_impls[] */
	const struct poly1305_impl *polys;
	const unsigned int *npolys;
	/*
	 * The module's AEAD request (chacha20poly1305_glue.c): true unless
	 * decrypting finds another tag.
	 */
	bool (*aead)(const struct chacha_impl *ci,
		     const struct poly1305_impl *pi, const struct bench_aead *a,
		     u8 *dst, const u8 *src, unsigned int len, bool decrypt);
	/*
	 * The Poly1305 tier (BENCH_POLY_*) of the kernel's library, which the
	 * AEAD takes from @pi->lib_from bytes on where no stitched core runs.
	 */
	void (*set_lib_poly)(unsigned int ptier);
	/*
	 * The kernel's rfc7539 template on its chacha20 skcipher (the tier,
	 * 6.12's or @lib 7.3's) and its Poly1305 (@ptier, BENCH_POLY_*).
	 */
	bool (*kernel_aead)(unsigned int tier, unsigned int ptier, bool lib,
			    const struct bench_aead *a, u8 *dst,
			    const u8 *src, unsigned int len, bool decrypt);
};

extern const struct bench_paths bench_plain;
#ifdef BENCH_WITH_KERNEL
extern const struct bench_paths bench_kernel;
#endif

#endif /* BENCH_PATHS_H */
