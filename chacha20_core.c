// SPDX-License-Identifier: GPL-2.0
/*
 * Scalar ChaCha, HChaCha, the per-implementation walk over SIMD cores and
 * the request path that cuts SIMD work into sections.
 *
 * Nothing here knows about the crypto API: the glue says whether SIMD is
 * usable.  The SIMD sections are chacha_simd_begin() and chacha_simd_end()
 * of chacha20_core.h, the kernel's or the user-space tests'.  The
 * user-space harness and the benchmark build this file unchanged.
 */

#include <linux/errno.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/bitops.h>
#include <linux/cache.h>
#include <asm/byteorder.h>

#include "chacha20_core.h"

/*
 * The table's rules, checked where it is compiled (the kernel's build
 * too): a core without a part function fits the tail bounce buffer, no
 * core is wider than CHACHA_MAX_BLOCKS (else the entry's width is void, a
 * compile error), and cores[] keeps a terminating empty entry (IMPL()
 * counts its cores).
 */
#define CORE(n, fn)							\
	{ __builtin_choose_expr((n) <= CHACHA_BOUNCE_BLOCKS, n, (void)0),	\
	  fn, NULL, NULL, NULL }
#define CORE_PART(n, fn, part)						\
	{ __builtin_choose_expr((n) <= CHACHA_MAX_BLOCKS, n, (void)0),	\
	  fn, part, NULL, NULL }
/* A core with part and strides entries: chacha20_<n>block_xor_*_<sfx>. */
#define CORE_STRIDES(n, sfx)						\
	{ __builtin_choose_expr((n) <= CHACHA_MAX_BLOCKS, n, (void)0),	\
	  chacha20_##n##block_xor_##sfx,				\
	  chacha20_##n##block_xor_part_##sfx,				\
	  chacha20_##n##block_xor_strides_##sfx, NULL }
/* A core with part, strides and key entries (AVX-512). */
#define CORE_KEYED(n, sfx)						\
	{ __builtin_choose_expr((n) <= CHACHA_MAX_BLOCKS, n, (void)0),	\
	  chacha20_##n##block_xor_##sfx,				\
	  chacha20_##n##block_xor_part_##sfx,				\
	  chacha20_##n##block_xor_strides_##sfx,			\
	  chacha20_##n##block_xor_key_##sfx }
#define IMPL(name, needs, prefer, ...)					\
	{ name, (needs) + BUILD_BUG_ON_ZERO(				\
		ARRAY_SIZE(((struct chacha_core[]){ __VA_ARGS__ })) >=	\
		CHACHA_MAX_CORES), prefer, { __VA_ARGS__ } }

#ifdef __x86_64__
#define X86_AVX512	(CHACHA_CPU_SSE2 | CHACHA_CPU_SSSE3 | CHACHA_CPU_AVX2 | \
			 CHACHA_CPU_AVX512)
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, 0, { { 0 } } },
	IMPL("sse2", CHACHA_CPU_SSE2, 0,
	     CORE_STRIDES(4, sse2),
	     CORE(2, chacha20_2block_xor_sse2),
	     CORE_PART(1, chacha20_1block_xor_sse2,
		       chacha20_1block_xor_part_sse2)),
	IMPL("ssse3", CHACHA_CPU_SSE2 | CHACHA_CPU_SSSE3, 0,
	     CORE_STRIDES(4, ssse3),
	     CORE(2, chacha20_2block_xor_ssse3),
	     CORE_PART(1, chacha20_1block_xor_ssse3,
		       chacha20_1block_xor_part_ssse3)),
	IMPL("avx2", CHACHA_CPU_SSE2 | CHACHA_CPU_SSSE3 | CHACHA_CPU_AVX2, 0,
	     CORE_STRIDES(8, avx2),
	     CORE_PART(4, chacha20_4block_xor_avx2,
		       chacha20_4block_xor_part_avx2),
	     CORE_PART(2, chacha20_2block_xor_avx2,
		       chacha20_2block_xor_part_avx2),
	     CORE_PART(1, chacha20_1block_xor_ssse3,
		       chacha20_1block_xor_part_ssse3)),
	/*
	 * Below eight blocks the AVX-512 implementations use 4- and 2-block
	 * cores in the row layout with vprold, and the SSSE3 1-block core: a
	 * narrow request pays for the call, not for the width, and one
	 * 8-block call costs more than a 2- or 4-block one (tools/bench).
	 *
	 * AVX-512VL on ymm: two interleaved 8-block groups, 32 registers.
	 */
	IMPL("avx512vl", X86_AVX512, 0,
	     CORE_KEYED(16, avx512vl),
	     CORE_KEYED(12, avx512vl),
	     CORE_KEYED(8, avx512vl),
	     CORE_PART(4, chacha20_4block_xor_avx512vl,
		       chacha20_4block_xor_part_avx512vl),
	     CORE_PART(2, chacha20_2block_xor_avx512vl,
		       chacha20_2block_xor_part_avx512vl),
	     CORE_PART(1, chacha20_1block_xor_ssse3,
		       chacha20_1block_xor_part_ssse3)),
	/* 16 blocks in zmm; the default only where zmm pays (the glue). */
	IMPL("avx512", X86_AVX512, CHACHA_CPU_PREFER_ZMM,
	     CORE_KEYED(24, avx512),
	     CORE_KEYED(16, avx512),
	     CORE_KEYED(12, avx512vl),
	     CORE_PART(8, chacha20_8block_xor_avx512vl,
		       chacha20_8block_xor_part_avx512vl),
	     CORE_PART(4, chacha20_4block_xor_avx512vl,
		       chacha20_4block_xor_part_avx512vl),
	     CORE_PART(2, chacha20_2block_xor_avx512vl,
		       chacha20_2block_xor_part_avx512vl),
	     CORE_PART(1, chacha20_1block_xor_ssse3,
		       chacha20_1block_xor_part_ssse3)),
};

#undef X86_AVX512
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
/*
 * The same NEON cores twice: "neon" runs the 6-block loop (four blocks in
 * NEON registers, two on the integer ALUs) and the 4-block core for
 * tails; "neon4" runs the 4-block core alone, the default only where its
 * loop is modelled faster than the 6-block one (Cortex-A55; see
 * chacha_arm64_models[] in chacha20_policy.c).
 */
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, 0, { { 0 } } },
	IMPL("neon", CHACHA_CPU_NEON, 0,
	     CORE(6, chacha20_6block_xor_neon),
	     CORE(4, chacha20_4block_xor_neon)),
	IMPL("neon4", CHACHA_CPU_NEON, CHACHA_CPU_PREFER_NEON4,
	     CORE(4, chacha20_4block_xor_neon)),
};
#else
const struct chacha_impl chacha_impls[] = {
	{ "scalar", 0, 0, { { 0 } } },
};
#endif
#undef IMPL
#undef CORE_PART
#undef CORE
const unsigned int chacha_nimpls = ARRAY_SIZE(chacha_impls);

/* Until chacha_calibrate() runs: the choices measured on a Zen 4. */
unsigned int chacha_scalar_max_bytes = CHACHA_BLOCK_BYTES;
unsigned int chacha_scalar_tail_bytes = CHACHA_BLOCK_BYTES;

/*
 * The core of chacha_impls[i] that runs its whole strides: an index into
 * its cores[], below CHACHA_STRIDE_CHOICES; 0, the widest, until
 * chacha_calibrate() or chacha_set_stride() chooses.  Set at init only,
 * except in the KUnit build, whose tests force each choice in turn.
 */
#ifdef CHACHA_TEST_HOOKS
static u8 chacha_stride_core[CHACHA_MAX_IMPLS];
#else
static u8 chacha_stride_core[CHACHA_MAX_IMPLS] __ro_after_init;
#endif

/* @impl's index in chacha_impls[], or -1 if it is not an entry. */
static int chacha_impl_index(const struct chacha_impl *impl)
{
	if (impl < chacha_impls || impl >= chacha_impls + chacha_nimpls)
		return -1;
	return impl - chacha_impls;
}

int chacha_set_stride(const struct chacha_impl *impl, unsigned int blocks)
{
	int i = chacha_impl_index(impl);
	unsigned int k;

	for (k = 0; i >= 0 && k < CHACHA_STRIDE_CHOICES; k++) {
		if (!impl->cores[k].blocks)
			break;
		if (impl->cores[k].blocks == blocks) {
			chacha_stride_core[i] = k;
			return 0;
		}
	}
	return -EINVAL;
}

unsigned int chacha_stride(const struct chacha_impl *impl)
{
	int i = chacha_impl_index(impl);

	return i < 0 ? 0 : impl->cores[chacha_stride_core[i]].blocks;
}

#ifndef __KERNEL__
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
	chacha_wipe8(x, sizeof(x));
}
#endif

/* HChaCha: the permuted words 0-3 and 12-15, without the feed-forward. */
void hchacha_block_scalar(const u32 *state, u32 *out, unsigned int nrounds)
{
	u32 x[CHACHA_STATE_WORDS];

	memcpy(x, state, sizeof(x));
	chacha_permute(x, nrounds);
	memcpy(&out[0], &x[0], 4 * sizeof(u32));
	memcpy(&out[4], &x[12], 4 * sizeof(u32));
	chacha_wipe8(x, sizeof(x));
}

/*
 * XOR one block of key stream for state[12] into @n <= 64 bytes, word by
 * word, and the last 1-3 bytes of a partial block from the next word: no
 * key stream buffer to fill and wipe.
 */
static __always_inline void chacha_xor_block_scalar(const u32 *state,
						    u8 *dst, const u8 *src,
						    unsigned int n,
						    unsigned int nrounds)
{
	u32 x[CHACHA_STATE_WORDS] __uninitialized;	/* copied in first */
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
	chacha_wipe8(x, sizeof(x));
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
 * A tail of @len bytes, shorter than the stride of @impl's core that
 * covers it, for a core with no part function: through a stack buffer,
 * by one more walk of @stride (that core's stride, so it runs that core
 * alone).  Out of line, so that only this path has the buffer (and the
 * stack protector's canary), and __uninitialized: it is written before it
 * is read, so the kernel's automatic zero-fill (INIT_STACK_ALL_ZERO) would
 * be 512 wasted stores on every call.
 */
static noinline void chacha_crypt_bounce(const struct chacha_impl *impl,
					 u32 *state, u8 *dst, const u8 *src,
					 unsigned int len, unsigned int stride,
					 unsigned int nrounds)
{
	u8 buf[CHACHA_BOUNCE_BLOCKS * CHACHA_BLOCK_BYTES] __uninitialized;
	u32 ctr = state[12];

	memcpy(buf, src, len);
	chacha_crypt_impl(impl, state, buf, buf, stride, nrounds);
	memcpy(dst, buf, len);
	state[12] = ctr + DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
	memzero_explicit(buf, stride);
}

/*
 * One call of @core on the last @len bytes, which it covers: the core
 * itself for a whole stride, else its part function, else through a
 * buffer.  Every core costs about the same per call (they are latency
 * bound), so this beats a ladder of narrower calls.
 */
static __always_inline void chacha_core_tail(const struct chacha_impl *impl,
					     const struct chacha_core *core,
					     u32 *state, u8 *dst,
					     const u8 *src, unsigned int len,
					     unsigned int nrounds)
{
	unsigned int stride = core->blocks * CHACHA_BLOCK_BYTES;

	if (len == stride) {
		core->fn(state, dst, src, nrounds);
		state[12] += core->blocks;
	} else if (core->part) {
		core->part(state, dst, src, nrounds, len);
		state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
	} else {
		chacha_crypt_bounce(impl, state, dst, src, len, stride,
				    nrounds);
	}
}

/*
 * Core @k of @impl on the last @len bytes if it is the narrowest that
 * covers them (the next one is narrower than @len, or there is none).
 */
static __always_inline bool chacha_tail_at(const struct chacha_impl *impl,
					   unsigned int k, u32 *state,
					   u8 *dst, const u8 *src,
					   unsigned int len,
					   unsigned int nrounds)
{
	const struct chacha_core *next = &impl->cores[k + 1];

	if (next->blocks && next->blocks * CHACHA_BLOCK_BYTES >= len)
		return false;
	chacha_core_tail(impl, &impl->cores[k], state, dst, src, len, nrounds);
	return true;
}

/*
 * Whole strides of @impl's core @k, if @k is @wide, the stride core (and
 * @impl has a core @k): then true, and what is left of *@len is shorter
 * than that core's stride.  One call of its strides entry where it has
 * one, else a call per stride.
 */
static __always_inline bool chacha_strides_at(const struct chacha_impl *impl,
					      unsigned int k, unsigned int wide,
					      u32 *state, u8 **dst,
					      const u8 **src, unsigned int *len,
					      unsigned int nrounds)
{
	const struct chacha_core *core = &impl->cores[k];
	unsigned int stride = core->blocks * CHACHA_BLOCK_BYTES;

	if (k != wide || !core->blocks)
		return false;
	if (core->strides) {
		unsigned int n = *len / stride;

		if (n) {
			core->strides(state, *dst, *src, nrounds, n);
			*dst += n * stride;
			*src += n * stride;
			*len -= n * stride;
		}
		return true;
	}
	while (*len >= stride) {
		core->fn(state, *dst, *src, nrounds);
		state[12] += core->blocks;
		*dst += stride;
		*src += stride;
		*len -= stride;
	}
	return true;
}

/*
 * chacha_crypt_impl() for one implementation, whole strides in its core
 * @wide.  Inlined with @impl an entry of the constant chacha_impls[],
 * every core->fn and core->part below is a constant, and the compiler
 * calls each core directly: no indirect call (a retpoline, with the
 * kernel's mitigations) per core.
 */
static __always_inline void chacha_crypt_cores(const struct chacha_impl *impl,
					       unsigned int wide, u32 *state,
					       u8 *dst, const u8 *src,
					       unsigned int len,
					       unsigned int nrounds)
{
	if (!impl->cores[0].blocks) {
		chacha_crypt_scalar(state, dst, src, len, nrounds);
		return;
	}
	/*
	 * Where the stride core is narrower than core 0, the widest, and
	 * @len fills core 0 but for a few blocks: one call of its part
	 * entry, where it has one (one call site per implementation).
	 */
	if (wide && impl->cores[0].part &&
	    len > impl->cores[wide].blocks * CHACHA_BLOCK_BYTES &&
	    chacha_core_fills(impl->cores[0].blocks, len)) {
		impl->cores[0].part(state, dst, src, nrounds, len);
		state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
		return;
	}
	/* The stride core, by constant index (the widest by default). */
	BUILD_BUG_ON(CHACHA_STRIDE_CHOICES != 3);
	if (!chacha_strides_at(impl, 1, wide, state, &dst, &src, &len,
			       nrounds) &&
	    !chacha_strides_at(impl, 2, wide, state, &dst, &src, &len,
			       nrounds))
		chacha_strides_at(impl, 0, 0, state, &dst, &src, &len, nrounds);
	if (len <= chacha_scalar_tail_bytes) {
		if (len)
			chacha_crypt_scalar(state, dst, src, len, nrounds);
		return;
	}
	/*
	 * The narrowest core that covers the tail, once: a chain of tests
	 * with a constant index each, so that each calls its core directly
	 * (a loop would be merged into one indirect call).
	 */
	BUILD_BUG_ON(CHACHA_MAX_CORES != 8);	/* seven tests, and the end */
	if (chacha_tail_at(impl, 0, state, dst, src, len, nrounds) ||
	    chacha_tail_at(impl, 1, state, dst, src, len, nrounds) ||
	    chacha_tail_at(impl, 2, state, dst, src, len, nrounds) ||
	    chacha_tail_at(impl, 3, state, dst, src, len, nrounds) ||
	    chacha_tail_at(impl, 4, state, dst, src, len, nrounds) ||
	    chacha_tail_at(impl, 5, state, dst, src, len, nrounds))
		return;
	chacha_tail_at(impl, 6, state, dst, src, len, nrounds);
}

/*
 * One inlined copy of chacha_crypt_cores() per entry of chacha_impls[],
 * chosen by comparing pointers: a few predicted branches, no indirect
 * call.  (Written out: a compiler may fold a loop of such tests back into
 * one copy that calls through @impl.)  A table that is not
 * chacha_impls[], the harness's copy with a broken core, runs the same
 * code through its pointers, in the harness's build only.
 */
#define CHACHA_NIMPLS		ARRAY_SIZE(chacha_impls)

/*
 * chacha_crypt_cores() of chacha_impls[@k], if @impl is that entry (no
 * out-of-bounds index where there is none).
 */
static __always_inline bool chacha_crypt_nth(const struct chacha_impl *impl,
					     unsigned int k, u32 *state,
					     u8 *dst, const u8 *src,
					     unsigned int len,
					     unsigned int nrounds)
{
	if (k >= CHACHA_NIMPLS || impl != &chacha_impls[k % CHACHA_NIMPLS])
		return false;
	chacha_crypt_cores(&chacha_impls[k % CHACHA_NIMPLS],
			   chacha_stride_core[k % CHACHA_NIMPLS], state, dst, src,
			   len, nrounds);
	return true;
}

/* The best implementations, the defaults, are the last entries: first. */
static __always_inline void chacha_crypt_any(const struct chacha_impl *impl,
					     u32 *state, u8 *dst,
					     const u8 *src, unsigned int len,
					     unsigned int nrounds)
{
#ifdef CHACHA_TEST_TABLES
	unsigned int k;

#endif
	BUILD_BUG_ON(CHACHA_NIMPLS > CHACHA_MAX_IMPLS);
	if (chacha_crypt_nth(impl, 7, state, dst, src, len, nrounds) ||
	    chacha_crypt_nth(impl, 6, state, dst, src, len, nrounds) ||
	    chacha_crypt_nth(impl, 5, state, dst, src, len, nrounds) ||
	    chacha_crypt_nth(impl, 4, state, dst, src, len, nrounds) ||
	    chacha_crypt_nth(impl, 3, state, dst, src, len, nrounds) ||
	    chacha_crypt_nth(impl, 2, state, dst, src, len, nrounds) ||
	    chacha_crypt_nth(impl, 1, state, dst, src, len, nrounds) ||
	    chacha_crypt_nth(impl, 0, state, dst, src, len, nrounds))
		return;
#ifdef CHACHA_TEST_TABLES
	/* A copy of an entry runs the stride chosen for that entry. */
	for (k = 0; k < chacha_nimpls; k++)
		if (!strcmp(impl->name, chacha_impls[k].name))
			break;
	chacha_crypt_cores(impl, k < chacha_nimpls ? chacha_stride_core[k] : 0,
			   state, dst, src, len, nrounds);
#else
	chacha_crypt_scalar(state, dst, src, len, nrounds);	/* never */
#endif
}

#undef CHACHA_NIMPLS

void chacha_crypt_impl(const struct chacha_impl *impl, u32 *state, u8 *dst,
		       const u8 *src, unsigned int len, unsigned int nrounds)
{
	chacha_crypt_any(impl, state, dst, src, len, nrounds);
}

void chacha_crypt_request(const struct chacha_impl *impl, u32 *state, u8 *dst,
			  const u8 *src, unsigned int len, unsigned int nrounds,
			  bool simd_usable)
{
	if (!chacha_request_simd(impl, len, simd_usable)) {
		chacha_crypt_scalar(state, dst, src, len, nrounds);
		return;
	}

	while (len) {
		unsigned int n = min_t(unsigned int, len, CHACHA_SIMD_CHUNK);
		struct chacha_simd_save buf __uninitialized;
		/*
		 * Where there is nothing to save (all but arm64 6.19+), no
		 * pointer to the stack: no stack protector canary either.
		 */
		struct chacha_simd_save *save = sizeof(buf) ? &buf : NULL;

		chacha_simd_begin(save);
		chacha_crypt_any(impl, state, dst, src, n, nrounds);
		chacha_simd_end(save);
		dst += n;
		src += n;
		len -= n;
	}
}

/* One run of @impl over @len bytes at @buf, in @clock's units. */
static u64 __init chacha_time_one(const struct chacha_impl *impl,
				  bool section, u64 (*clock)(void), u32 *state,
				  u8 *buf, unsigned int len)
{
	struct chacha_simd_save save;
	u64 t = clock();

	if (section)
		chacha_simd_begin(&save);
	chacha_crypt_impl(impl, state, buf, buf, len, 20);
	if (section)
		chacha_simd_end(&save);
	return clock() - t;
}

/* The fastest of CHACHA_CALIB_TRIALS runs, in @clock's units. */
static u64 __init chacha_time(const struct chacha_impl *impl, bool section,
			      u64 (*clock)(void), u32 *state, u8 *buf,
			      unsigned int len)
{
	u64 best = ~0ULL;
	unsigned int i;

	for (i = 0; i < CHACHA_CALIB_TRIALS; i++) {
		u64 t = chacha_time_one(impl, section, clock, state, buf, len);

		best = min_t(u64, best, t);
	}
	return best;
}

/* Whole strides for the stride calibration: in place, never read as such. */
static u8 chacha_calib_strides[CHACHA_CALIB_STRIDE_BYTES] __initdata;

/*
 * Each stride choice of @impl (an entry of chacha_impls[]) over
 * CHACHA_CALIB_STRIDE_BYTES, inside a section (left out of the timing):
 * by turns, so that a slower stretch of the CPU (a clock change, a
 * neighbour on its core) costs every choice alike, the fastest of
 * CHACHA_CALIB_TRIALS runs each.  Then the fastest per byte, a wider core
 * only where it beats every narrower one by the margin.
 */
static void __init chacha_calibrate_stride(const struct chacha_impl *impl,
					   u64 (*clock)(void),
					   struct chacha_calibration *c,
					   u32 *state)
{
	unsigned int i, k, n = 0, best;

	while (n < CHACHA_STRIDE_CHOICES && impl->cores[n].blocks)
		c->stride_time[n++] = ~0ULL;
	for (i = 0; i < CHACHA_CALIB_TRIALS; i++) {
		struct chacha_simd_save save;

		chacha_simd_begin(&save);
		for (k = 0; k < n; k++) {
			u64 t;

			chacha_set_stride(impl, impl->cores[k].blocks);
			t = chacha_time_one(impl, false, clock, state,
					    chacha_calib_strides,
					    CHACHA_CALIB_STRIDE_BYTES);
			c->stride_time[k] = min_t(u64, c->stride_time[k], t);
		}
		chacha_simd_end(&save);
	}
	for (best = n - 1, k = best; k-- > 0;)
		if (c->stride_time[k] * CHACHA_CALIB_STRIDE_MARGIN <
		    c->stride_time[best] * (CHACHA_CALIB_STRIDE_MARGIN - 1))
			best = k;
	chacha_set_stride(impl, impl->cores[best].blocks);
	memzero_explicit(chacha_calib_strides, sizeof(chacha_calib_strides));
}

void __init chacha_calibrate(const struct chacha_impl *impl,
			     u64 (*clock)(void), struct chacha_calibration *c)
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

	if (chacha_impl_index(impl) >= 0)
		chacha_calibrate_stride(impl, clock, c, state);
out:
	c->scalar_max_bytes = chacha_scalar_max_bytes;
	c->scalar_tail_bytes = chacha_scalar_tail_bytes;
	c->stride_blocks = chacha_stride(impl);
	memzero_explicit(buf, sizeof(buf));
	memzero_explicit(state, sizeof(state));
}
