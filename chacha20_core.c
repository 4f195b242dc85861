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

#define CORE(n, fn)		{ n, fn, NULL }
#define CORE_PART(n, fn, part)	{ n, fn, part }

#ifdef __x86_64__
#define X86_AVX512	(CHACHA_CPU_SSE2 | CHACHA_CPU_SSSE3 | CHACHA_CPU_AVX2 | \
			 CHACHA_CPU_AVX512)
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, 0, { { 0 } } },
	{ "sse2", CHACHA_CPU_SSE2, 0, {
		CORE(4, chacha20_4block_xor_sse2),
		CORE(2, chacha20_2block_xor_sse2),
		CORE_PART(1, chacha20_1block_xor_sse2,
			  chacha20_1block_xor_part_sse2),
	} },
	{ "ssse3", CHACHA_CPU_SSE2 | CHACHA_CPU_SSSE3, 0, {
		CORE(4, chacha20_4block_xor_ssse3),
		CORE(2, chacha20_2block_xor_ssse3),
		CORE_PART(1, chacha20_1block_xor_ssse3,
			  chacha20_1block_xor_part_ssse3),
	} },
	{ "avx2", CHACHA_CPU_SSE2 | CHACHA_CPU_SSSE3 | CHACHA_CPU_AVX2, 0, {
		CORE(8, chacha20_8block_xor_avx2),
		CORE(4, chacha20_4block_xor_avx2),
		CORE(2, chacha20_2block_xor_avx2),
		CORE_PART(1, chacha20_1block_xor_ssse3,
			  chacha20_1block_xor_part_ssse3),
	} },
	/*
	 * Below eight blocks the AVX-512 implementations use 4- and 2-block
	 * cores in the row layout with vprold, and the SSSE3 1-block core: a
	 * narrow request pays for the call, not for the width, and one
	 * 8-block call costs more than a 2- or 4-block one (tools/bench).
	 *
	 * AVX-512VL on ymm: two interleaved 8-block groups, 32 registers.
	 */
	{ "avx512vl", X86_AVX512, 0, {
		CORE_PART(16, chacha20_16block_xor_avx512vl,
			  chacha20_16block_xor_part_avx512vl),
		CORE_PART(12, chacha20_12block_xor_avx512vl,
			  chacha20_12block_xor_part_avx512vl),
		CORE_PART(8, chacha20_8block_xor_avx512vl,
			  chacha20_8block_xor_part_avx512vl),
		CORE_PART(4, chacha20_4block_xor_avx512vl,
			  chacha20_4block_xor_part_avx512vl),
		CORE_PART(2, chacha20_2block_xor_avx512vl,
			  chacha20_2block_xor_part_avx512vl),
		CORE_PART(1, chacha20_1block_xor_ssse3,
			  chacha20_1block_xor_part_ssse3),
	} },
	/* 16 blocks in zmm; the default only where zmm pays (the glue). */
	{ "avx512", X86_AVX512, CHACHA_CPU_PREFER_ZMM, {
		CORE_PART(24, chacha20_24block_xor_avx512,
			  chacha20_24block_xor_part_avx512),
		CORE_PART(16, chacha20_16block_xor_avx512,
			  chacha20_16block_xor_part_avx512),
		CORE_PART(12, chacha20_12block_xor_avx512vl,
			  chacha20_12block_xor_part_avx512vl),
		CORE_PART(8, chacha20_8block_xor_avx512vl,
			  chacha20_8block_xor_part_avx512vl),
		CORE_PART(4, chacha20_4block_xor_avx512vl,
			  chacha20_4block_xor_part_avx512vl),
		CORE_PART(2, chacha20_2block_xor_avx512vl,
			  chacha20_2block_xor_part_avx512vl),
		CORE_PART(1, chacha20_1block_xor_ssse3,
			  chacha20_1block_xor_part_ssse3),
	} },
};

#undef X86_AVX512
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, 0, { { 0 } } },
	{ "neon", CHACHA_CPU_NEON, 0, {
		CORE(6, chacha20_6block_xor_neon),
		CORE(4, chacha20_4block_xor_neon),
	} },
};
#else
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, 0, { { 0 } } },
};
#endif
#undef CORE_PART
#undef CORE
const unsigned int chacha_nimpls = ARRAY_SIZE(chacha_impls);

/* Until chacha_calibrate() runs: the choices measured on a Zen 4. */
unsigned int chacha_scalar_max_bytes = CHACHA_BLOCK_BYTES;
unsigned int chacha_scalar_tail_bytes = CHACHA_BLOCK_BYTES;

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

/*
 * XOR one block of key stream for state[12] into @n <= 64 bytes, word by
 * word, and the last 1-3 bytes of a partial block from the next word: no
 * key stream buffer to fill and wipe.
 */
static void chacha_xor_block_scalar(const u32 *state, u8 *dst, const u8 *src,
				    unsigned int n, unsigned int nrounds)
{
	u32 x[CHACHA_STATE_WORDS];
	unsigned int i;

	memcpy(x, state, sizeof(x));
	chacha_permute(x, nrounds);
	for (i = 0; i < n / 4; i++) {
		__le32 w;

		memcpy(&w, src + 4 * i, sizeof(w));
		w ^= cpu_to_le32(x[i] + state[i]);
		memcpy(dst + 4 * i, &w, sizeof(w));
	}
	if (n % 4) {
		u32 k = x[i] + state[i];	/* little-endian: low byte first */

		for (i *= 4; i < n; i++, k >>= 8)
			dst[i] = src[i] ^ (u8)k;
	}
	memzero_explicit(x, sizeof(x));
}

static void chacha_crypt_scalar(u32 *state, u8 *dst, const u8 *src,
				unsigned int len, unsigned int nrounds)
{
	while (len) {
		unsigned int n = min_t(unsigned int, len, CHACHA_BLOCK_BYTES);

		chacha_xor_block_scalar(state, dst, src, n, nrounds);
		state[12]++;
		dst += n;
		src += n;
		len -= n;
	}
}

/*
 * One call of @core on the last @len (< its stride) bytes: its part
 * function if it has one, else through a stack buffer.  Every core costs
 * about the same per call (they are latency bound), so this beats a
 * ladder of narrower calls.
 */
static void chacha_core_bounce(const struct chacha_core *core, u32 *state,
			       u8 *dst, const u8 *src, unsigned int len,
			       unsigned int nrounds)
{
	u8 buf[CHACHA_BOUNCE_BLOCKS * CHACHA_BLOCK_BYTES];

	if (core->part) {
		core->part(state, dst, src, nrounds, len);
		state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
		return;
	}
	memcpy(buf, src, len);
	core->fn(state, buf, buf, nrounds);
	memcpy(dst, buf, len);
	state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
	memzero_explicit(buf, core->blocks * CHACHA_BLOCK_BYTES);
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
		/* The narrowest core that covers the tail, once. */
		if (len > chacha_scalar_tail_bytes) {
			while (core[1].blocks &&
			       core[1].blocks * CHACHA_BLOCK_BYTES >= len)
				core++;
			if (len < core->blocks * CHACHA_BLOCK_BYTES) {
				chacha_core_bounce(core, state, dst, src, len,
						   nrounds);
			} else {
				core->fn(state, dst, src, nrounds);
				state[12] += core->blocks;
			}
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
	if (len <= chacha_scalar_max_bytes || !impl->cores[0].blocks ||
	    !simd_usable) {
		chacha_crypt_impl(&chacha_impls[0], state, dst, src, len,
				  nrounds);
		return;
	}

	while (len) {
		unsigned int n = min_t(unsigned int, len, CHACHA_SIMD_CHUNK);
		struct chacha_simd_save save;

		chacha_simd_begin(&save);
		chacha_crypt_impl(impl, state, dst, src, n, nrounds);
		chacha_simd_end(&save);
		dst += n;
		src += n;
		len -= n;
	}
}

/* The fastest of CHACHA_CALIB_TRIALS runs, in @clock's units. */
static u64 chacha_time(const struct chacha_impl *impl, bool section,
		       u64 (*clock)(void), u32 *state, u8 *buf,
		       unsigned int len)
{
	u64 best = ~0ULL;
	unsigned int i;

	for (i = 0; i < CHACHA_CALIB_TRIALS; i++) {
		struct chacha_simd_save save;
		u64 t = clock();

		if (section)
			chacha_simd_begin(&save);
		chacha_crypt_impl(impl, state, buf, buf, len, 20);
		if (section)
			chacha_simd_end(&save);
		t = clock() - t;
		if (t < best)
			best = t;
	}
	return best;
}

void chacha_calibrate(const struct chacha_impl *impl, u64 (*clock)(void),
		      struct chacha_calibration *c)
{
	u8 buf[CHACHA_CALIB_MAX_BYTES];
	u32 state[CHACHA_STATE_WORDS];
	struct chacha_simd_save save;
	unsigned int len;

	memset(c, 0, sizeof(*c));
	memset(buf, 0x5a, sizeof(buf));
	memset(state, 0xa5, sizeof(state));
	chacha_scalar_max_bytes = 0;
	chacha_scalar_tail_bytes = 0;
	if (!impl->cores[0].blocks)
		goto out;

	/*
	 * A last block inside a section: scalar C or the narrowest core.
	 * The core runs inside one SIMD section (never outside one: in the
	 * kernel that would clobber some task's vector registers), which
	 * the timing leaves out.
	 */
	c->scalar_block = chacha_time(&chacha_impls[0], false, clock, state,
				      buf, CHACHA_BLOCK_BYTES);
	chacha_simd_begin(&save);
	c->simd_block = chacha_time(impl, false, clock, state, buf,
				    CHACHA_BLOCK_BYTES);
	chacha_simd_end(&save);
	if (c->scalar_block < c->simd_block)
		chacha_scalar_tail_bytes = CHACHA_BLOCK_BYTES;

	/* Whole requests: scalar C, or a SIMD section, block by block. */
	for (len = CHACHA_BLOCK_BYTES; len <= CHACHA_CALIB_MAX_BYTES;
	     len += CHACHA_BLOCK_BYTES) {
		u64 scalar = chacha_time(&chacha_impls[0], false, clock, state,
					 buf, len);
		u64 simd = chacha_time(impl, true, clock, state, buf, len);

		if (len == CHACHA_BLOCK_BYTES)
			c->simd_request_block = simd;
		if (scalar >= simd)
			break;
		chacha_scalar_max_bytes = len;
	}
out:
	c->scalar_max_bytes = chacha_scalar_max_bytes;
	c->scalar_tail_bytes = chacha_scalar_tail_bytes;
	memzero_explicit(buf, sizeof(buf));
	memzero_explicit(state, sizeof(state));
}
