// SPDX-License-Identifier: GPL-2.0
/*
 * The request paths the benchmark measures, other than the libraries:
 * the charged SIMD section that the module's chacha_crypt_request() calls,
 * and a re-creation of the kernel's own skcipher paths around its
 * assembly.  Built twice, with chacha20_core.c and the .S files: with the
 * benchmark's flags, and with the flags Kbuild uses for the module against
 * a distribution kernel (the @kernel rows; see the Makefile and
 * kflags.sh).  Each build exports one struct bench_paths and nothing
 * else that the other could clash with.
 */
#include <linux/compiler_attributes.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "chacha20_core.h"
#include "kernel_chacha.h"
#include "paths.h"

#ifndef BENCH_PATHS
#error "BENCH_PATHS names this build's struct bench_paths"
#endif

static unsigned int fpu_cost;

static inline u64 paths_tsc(void)
{
	u32 lo, hi;

	asm volatile("lfence\n\trdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return (u64)hi << 32 | lo;
}

/*
 * The SIMD section: fpu_cost TSC cycles, spent on entry.  Both sides call
 * these directly, once each per section, as the module (its inline
 * chacha_simd_begin(), chacha20_core.h) and the in-tree drivers call the
 * kernel's kernel_fpu_begin_mask() and kernel_fpu_end(): never inlined
 * (noipa), or kernel_walk() below would skip two calls and returns that
 * the kernel pays.
 */
#define PATHS_CALL	__attribute__((__noipa__))

PATHS_CALL void chacha_simd_begin(struct chacha_simd_save *save __always_unused)
{
	u64 t0;

	if (!fpu_cost)
		return;
	t0 = paths_tsc();
	while (paths_tsc() - t0 < fpu_cost)
		;
}

PATHS_CALL void chacha_simd_end(struct chacha_simd_save *save __always_unused)
{
	asm volatile("" : : : "memory");
}

/* A library's section, charged the same (call_peer() in bench.c). */
static void fpu_charge(void)
{
	chacha_simd_begin(NULL);
	chacha_simd_end(NULL);
}

/*
 * The kernel's chacha_dosimd() (6.12's arch/x86/crypto/chacha_glue.c,
 * 7.3's lib/crypto/x86/chacha.h): static keys choose the tier, then whole
 * strides of the widest routine and one call of the narrowest that covers
 * the rest, which handles the partial tail itself.  Direct calls, as
 * there.
 */
static unsigned int kadvance(unsigned int len, unsigned int maxblocks)
{
	len = min_t(unsigned int, len, maxblocks * CHACHA_BLOCK_BYTES);
	return DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
}

static void kernel_dosimd(unsigned int tier, u32 *state, u8 *dst,
			  const u8 *src, unsigned int len, int nrounds)
{
	if (tier >= BENCH_TIER_AVX512VL) {
		while (len >= CHACHA_BLOCK_BYTES * 8) {
			chacha_8block_xor_avx512vl(state, dst, src, len,
						   nrounds);
			len -= CHACHA_BLOCK_BYTES * 8;
			src += CHACHA_BLOCK_BYTES * 8;
			dst += CHACHA_BLOCK_BYTES * 8;
			state[12] += 8;
		}
		if (len > CHACHA_BLOCK_BYTES * 4) {
			chacha_8block_xor_avx512vl(state, dst, src, len,
						   nrounds);
			state[12] += kadvance(len, 8);
			return;
		}
		if (len > CHACHA_BLOCK_BYTES * 2) {
			chacha_4block_xor_avx512vl(state, dst, src, len,
						   nrounds);
			state[12] += kadvance(len, 4);
			return;
		}
		if (len) {
			chacha_2block_xor_avx512vl(state, dst, src, len,
						   nrounds);
			state[12] += kadvance(len, 2);
			return;
		}
	}
	if (tier >= BENCH_TIER_AVX2) {
		while (len >= CHACHA_BLOCK_BYTES * 8) {
			chacha_8block_xor_avx2(state, dst, src, len, nrounds);
			len -= CHACHA_BLOCK_BYTES * 8;
			src += CHACHA_BLOCK_BYTES * 8;
			dst += CHACHA_BLOCK_BYTES * 8;
			state[12] += 8;
		}
		if (len > CHACHA_BLOCK_BYTES * 4) {
			chacha_8block_xor_avx2(state, dst, src, len, nrounds);
			state[12] += kadvance(len, 8);
			return;
		}
		if (len > CHACHA_BLOCK_BYTES * 2) {
			chacha_4block_xor_avx2(state, dst, src, len, nrounds);
			state[12] += kadvance(len, 4);
			return;
		}
		if (len > CHACHA_BLOCK_BYTES) {
			chacha_2block_xor_avx2(state, dst, src, len, nrounds);
			state[12] += kadvance(len, 2);
			return;
		}
	}
	while (len >= CHACHA_BLOCK_BYTES * 4) {
		chacha_4block_xor_ssse3(state, dst, src, len, nrounds);
		len -= CHACHA_BLOCK_BYTES * 4;
		src += CHACHA_BLOCK_BYTES * 4;
		dst += CHACHA_BLOCK_BYTES * 4;
		state[12] += 4;
	}
	if (len > CHACHA_BLOCK_BYTES) {
		chacha_4block_xor_ssse3(state, dst, src, len, nrounds);
		state[12] += kadvance(len, 4);
		return;
	}
	if (len) {
		chacha_block_xor_ssse3(state, dst, src, len, nrounds);
		state[12]++;
	}
}

/*
 * The kernel's generic C (chacha_crypt_generic()), written here: a block
 * of key stream at a time, XORed in words where a whole block is left.
 */
static inline u32 k7_rotl(u32 v, unsigned int n)
{
	return (v << n) | (v >> (32 - n));
}

static inline void k7_qr(u32 *x, int a, int b, int c, int d)
{
	x[a] += x[b];
	x[d] = k7_rotl(x[d] ^ x[a], 16);
	x[c] += x[d];
	x[b] = k7_rotl(x[b] ^ x[c], 12);
	x[a] += x[b];
	x[d] = k7_rotl(x[d] ^ x[a], 8);
	x[c] += x[d];
	x[b] = k7_rotl(x[b] ^ x[c], 7);
}

static void kernel7_generic(u32 *state, u8 *dst, const u8 *src,
			    unsigned int len, unsigned int nrounds)
{
	u8 stream[CHACHA_BLOCK_BYTES];
	unsigned int i, n;
	u32 x[16];
	u64 a, b;

	while (len) {
		memcpy(x, state, sizeof(x));
		for (i = 0; i < nrounds; i += 2) {
			k7_qr(x, 0, 4, 8, 12);
			k7_qr(x, 1, 5, 9, 13);
			k7_qr(x, 2, 6, 10, 14);
			k7_qr(x, 3, 7, 11, 15);
			k7_qr(x, 0, 5, 10, 15);
			k7_qr(x, 1, 6, 11, 12);
			k7_qr(x, 2, 7, 8, 13);
			k7_qr(x, 3, 4, 9, 14);
		}
		for (i = 0; i < 16; i++) {
			u32 w = x[i] + state[i];

			memcpy(stream + 4 * i, &w, 4);	/* little-endian */
		}
		state[12]++;
		n = min_t(unsigned int, len, CHACHA_BLOCK_BYTES);
		if (n == CHACHA_BLOCK_BYTES) {
			for (i = 0; i < n; i += 8) {
				memcpy(&a, src + i, 8);
				memcpy(&b, stream + i, 8);
				a ^= b;
				memcpy(dst + i, &a, 8);
			}
		} else {
			for (i = 0; i < n; i++)
				dst[i] = src[i] ^ stream[i];
		}
		dst += n;
		src += n;
		len -= n;
	}
}

/*
 * The kernel's skcipher: a SIMD section per walk step (a page).  With
 * @lib, 6.16+'s chacha20-lib: chacha_crypt() per walk step, which is
 * generic C up to one block and one SIMD section otherwise.
 */
static void kernel_walk(unsigned int tier, bool lib, u32 *state, u8 *dst,
			const u8 *src, unsigned int len, unsigned int nrounds)
{
	while (len) {
		unsigned int n = min_t(unsigned int, len, BENCH_SECTION_BYTES);

		if (lib && n <= CHACHA_BLOCK_BYTES) {
			kernel7_generic(state, dst, src, n, nrounds);
		} else {
			chacha_simd_begin(NULL);
			kernel_dosimd(tier, state, dst, src, n, nrounds);
			chacha_simd_end(NULL);
		}
		dst += n;
		src += n;
		len -= n;
	}
}

static void set_choices(unsigned int fpu, unsigned int scalar_max,
			unsigned int scalar_tail)
{
	fpu_cost = fpu;
	chacha_scalar_max_bytes = scalar_max;
	chacha_scalar_tail_bytes = scalar_tail;
}

const struct bench_paths BENCH_PATHS = {
	.impls = chacha_impls,
	.nimpls = &chacha_nimpls,
	.set_choices = set_choices,
	.crypt_request = chacha_crypt_request,
	.calibrate = chacha_calibrate,
	.set_stride = chacha_set_stride,
	.kernel_walk = kernel_walk,
	.fpu_charge = fpu_charge,
};
