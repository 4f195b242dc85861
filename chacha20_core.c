// SPDX-License-Identifier: GPL-2.0
/*
 * Scalar ChaCha, HChaCha and the per-implementation walk over SIMD cores.
 *
 * Nothing here touches the FPU or knows about the crypto API: the glue
 * decides when SIMD may run and wraps chacha_crypt_impl() in an FPU
 * section.  The user-space harness builds this file unchanged.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/bitops.h>
#include <asm/byteorder.h>

#include "chacha20_core.h"

#ifdef __x86_64__
#define CORE(n, fn)	{ n, fn }
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, { { 0 } } },
	{ "sse2", CHACHA_CPU_SSE2, {
		CORE(4, chacha20_4block_xor_sse2),
	} },
	{ "ssse3", CHACHA_CPU_SSE2 | CHACHA_CPU_SSSE3, {
		CORE(4, chacha20_4block_xor_ssse3),
	} },
	{ "avx2", CHACHA_CPU_SSE2 | CHACHA_CPU_SSSE3 | CHACHA_CPU_AVX2, {
		CORE(8, chacha20_8block_xor_avx2),
		CORE(4, chacha20_4block_xor_avx2),
	} },
};

#undef CORE
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
#define CORE(n, fn)	{ n, fn }
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, { { 0 } } },
	{ "neon", CHACHA_CPU_NEON, {
		CORE(6, chacha20_6block_xor_neon),
		CORE(4, chacha20_4block_xor_neon),
	} },
};

#undef CORE
#else
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, { { 0 } } },
};
#endif
const unsigned int chacha_nimpls = ARRAY_SIZE(chacha_impls);

/* "expand 32-byte k" */
static const u32 chacha_sigma[4] = {
	0x61707865, 0x3320646e, 0x79622d32, 0x6b206574
};

void chacha_init_state(u32 *state, const u32 *key, const u8 *iv)
{
	int i;

	memcpy(state, chacha_sigma, sizeof(chacha_sigma));
	memcpy(&state[4], key, CHACHA_KEY_BYTES);
	for (i = 0; i < 4; i++) {
		__le32 w;

		memcpy(&w, iv + 4 * i, sizeof(w));
		state[12 + i] = le32_to_cpu(w);
	}
}

static __always_inline void chacha_qr(u32 *x, int a, int b, int c, int d)
{
	x[a] += x[b];
	x[d] = rol32(x[d] ^ x[a], 16);
	x[c] += x[d];
	x[b] = rol32(x[b] ^ x[c], 12);
	x[a] += x[b];
	x[d] = rol32(x[d] ^ x[a], 8);
	x[c] += x[d];
	x[b] = rol32(x[b] ^ x[c], 7);
}

static void chacha_permute(u32 *x, unsigned int nrounds)
{
	unsigned int i;

	for (i = 0; i < nrounds; i += 2) {
		chacha_qr(x, 0, 4, 8, 12);
		chacha_qr(x, 1, 5, 9, 13);
		chacha_qr(x, 2, 6, 10, 14);
		chacha_qr(x, 3, 7, 11, 15);
		chacha_qr(x, 0, 5, 10, 15);
		chacha_qr(x, 1, 6, 11, 12);
		chacha_qr(x, 2, 7, 8, 13);
		chacha_qr(x, 3, 4, 9, 14);
	}
}

/* One 64-byte key stream block for state[12] as it stands. */
void chacha_block_scalar(const u32 *state, u8 *out, unsigned int nrounds)
{
	u32 x[CHACHA_STATE_WORDS];
	int i;

	memcpy(x, state, sizeof(x));
	chacha_permute(x, nrounds);
	for (i = 0; i < CHACHA_STATE_WORDS; i++) {
		__le32 w = cpu_to_le32(x[i] + state[i]);

		memcpy(out + 4 * i, &w, sizeof(w));
	}
	memzero_explicit(x, sizeof(x));
}

/* HChaCha: the permuted words 0-3 and 12-15, without the feed-forward. */
void hchacha_block_scalar(const u32 *state, u32 *out, unsigned int nrounds)
{
	u32 x[CHACHA_STATE_WORDS];

	memcpy(x, state, sizeof(x));
	chacha_permute(x, nrounds);
	memcpy(&out[0], &x[0], 4 * sizeof(u32));
	memcpy(&out[4], &x[12], 4 * sizeof(u32));
	memzero_explicit(x, sizeof(x));
}

static void xor_bytes(u8 *dst, const u8 *src, const u8 *ks, unsigned int n)
{
	while (n--)
		*dst++ = *src++ ^ *ks++;
}

static void chacha_crypt_scalar(u32 *state, u8 *dst, const u8 *src,
				unsigned int len, unsigned int nrounds)
{
	u8 ks[CHACHA_BLOCK_BYTES];

	while (len) {
		unsigned int n = min_t(unsigned int, len, CHACHA_BLOCK_BYTES);

		chacha_block_scalar(state, ks, nrounds);
		xor_bytes(dst, src, ks, n);
		state[12]++;
		dst += n;
		src += n;
		len -= n;
	}
	memzero_explicit(ks, sizeof(ks));
}

/*
 * One call of @core on the last @len (< its stride) bytes, through a stack
 * buffer.  Every core costs about the same per call (they are latency
 * bound), so this beats a ladder of narrower calls.
 */
static void chacha_core_bounce(const struct chacha_core *core, u32 *state,
			       u8 *dst, const u8 *src, unsigned int len,
			       unsigned int nrounds)
{
	u8 buf[CHACHA_MAX_BLOCKS * CHACHA_BLOCK_BYTES];

	memcpy(buf, src, len);
	core->fn(state, buf, buf, nrounds);
	memcpy(dst, buf, len);
	state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
	memzero_explicit(buf, sizeof(buf));
}

void chacha_crypt_impl(const struct chacha_impl *impl, u32 *state, u8 *dst,
		       const u8 *src, unsigned int len, unsigned int nrounds)
{
	const struct chacha_core *core = &impl->cores[0];

	if (core->blocks) {
		unsigned int stride = core->blocks * CHACHA_BLOCK_BYTES;

		while (len >= stride) {
			core->fn(state, dst, src, nrounds);
			state[12] += core->blocks;
			dst += stride;
			src += stride;
			len -= stride;
		}
		/* A single block is cheaper in scalar C than in any core. */
		if (len > CHACHA_BLOCK_BYTES) {
			while (core[1].blocks &&
			       core[1].blocks * CHACHA_BLOCK_BYTES >= len)
				core++;
			chacha_core_bounce(core, state, dst, src, len, nrounds);
			return;
		}
	}
	if (len)
		chacha_crypt_scalar(state, dst, src, len, nrounds);
}

void chacha_crypt_request(const struct chacha_impl *impl, u32 *state, u8 *dst,
			  const u8 *src, unsigned int len, unsigned int nrounds,
			  bool simd_usable)
{
	if (len <= CHACHA_SCALAR_MAX_BYTES || !impl->cores[0].blocks ||
	    !simd_usable) {
		chacha_crypt_impl(&chacha_impls[0], state, dst, src, len,
				  nrounds);
		return;
	}

	while (len) {
		unsigned int n = min_t(unsigned int, len, CHACHA_SIMD_CHUNK);

		chacha_simd_begin();
		chacha_crypt_impl(impl, state, dst, src, n, nrounds);
		chacha_simd_end();
		dst += n;
		src += n;
		len -= n;
	}
}
