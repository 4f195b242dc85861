// SPDX-License-Identifier: GPL-2.0
/*
 * The request paths the benchmark measures, other than the libraries:
 * the charged SIMD section that the module's chacha_crypt_request() and
 * chachapoly_crypt() call, the module's AEAD request, and a re-creation
 * of the kernel's own skcipher and rfc7539 paths around its assembly.
 * Built twice, with the module's C and the .S files: with the benchmark's
 * flags, and with the flags Kbuild uses for the module against a
 * distribution kernel (the @kernel rows; see the Makefile and kflags.sh).
 * Each build exports one struct bench_paths and nothing else that the
 * other could clash with.
 */
#include <linux/compiler_attributes.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "chacha20_core.h"
#include "chacha20poly1305_core.h"
#include "kernel_chacha.h"
#include "kernel_poly1305.h"
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

/* Whether two tags differ, in a time that does not tell where (memneq). */
static bool tag_differs(const u8 *a, const u8 *b)
{
	unsigned int i;
	u8 d = 0;

	for (i = 0; i < CHACHAPOLY_TAG_BYTES; i++)
		d |= a[i] ^ b[i];
	return d;
}

/*
 * The glue's short requests (chachapoly_small()): the AD and the text
 * copied into one buffer on the stack, chachapoly_oneshot() there, and
 * the text copied out, decrypting from the second buffer.  The copies
 * stand for the glue's from and to the scatterlists.
 */
static noinline void module_aead_oneshot(const struct chacha_impl *ci,
					 const struct poly1305_impl *pi,
					 const struct bench_aead *a, u8 *dst,
					 const u8 *src, unsigned int len,
					 bool decrypt, u8 *tag)
{
	u8 m[CHACHAPOLY_ONESHOT_BYTES] __uninitialized;
	u8 out[CHACHAPOLY_ONESHOT_OUT_BYTES] __uninitialized;
	u8 *text = m + CHACHAPOLY_ONESHOT_AD_MAX;
	u8 *res = decrypt ? out : m;

	memcpy(m + chachapoly_oneshot_ad(a->adlen), a->ad, a->adlen);
	memcpy(text, src, len);
	chachapoly_oneshot(ci, pi, a->key, a->nonce, m, out, a->adlen, len,
			   !decrypt, true, tag);
	memcpy(dst, res + CHACHAPOLY_ONESHOT_AD_MAX, len);
	/* As the glue: encrypting, @m holds no secret after the call. */
	if (decrypt)
		memzero_explicit(out + CHACHAPOLY_ONESHOT_AD_MAX, len);
}

/*
 * The module's AEAD request as chachapoly_walk() and its callers make it:
 * chachapoly_start(), the AD, the text one walk step (a page) at a time,
 * the last one writing the tag, then the tag out or compared.  Left out,
 * as on the kernel's side below: the crypto API's calls, the scatterlist
 * walks and the AD's copy through a bounce buffer.
 */
static bool module_aead(const struct chacha_impl *ci,
			const struct poly1305_impl *pi,
			const struct bench_aead *a, u8 *dst, const u8 *src,
			unsigned int len, bool decrypt)
{
	struct chachapoly_req r __uninitialized;	/* chachapoly_start() */
	u8 tag[CHACHAPOLY_TAG_BYTES];
	bool ok = true;

	pi = chachapoly_poly_for(ci, pi, len);
	if (chachapoly_oneshot_fits(ci, pi, a->adlen, len, !decrypt)) {
		module_aead_oneshot(ci, pi, a, dst, src, len, decrypt, tag);
		goto out;
	}
	chachapoly_start(&r, ci, pi, a->key, a->nonce);
	chachapoly_ad(&r, a->ad, a->adlen);
	if (!len)
		chachapoly_final(&r, tag);
	while (len) {
		unsigned int n = min_t(unsigned int, len, BENCH_SECTION_BYTES);

		chachapoly_crypt(&r, dst, src, n, !decrypt, true,
				 n == len ? tag : NULL);
		dst += n;
		src += n;
		len -= n;
	}
out:
	if (decrypt)
		ok = !tag_differs(tag, a->tag);
	else
		memcpy(a->tag, tag, sizeof(tag));
	memzero_explicit(tag, sizeof(tag));
	return ok;
}

/*
 * The kernel's Poly1305 (6.12's arch/x86/crypto/poly1305_glue.c, 7.3's
 * lib/crypto/poly1305.c and lib/crypto/x86/poly1305.h, the same calls
 * into the same assembly), written here: its context, the partial block
 * and the key's second half.
 */
struct kpoly_desc {
	u8 buf[POLY1305_CORE_BLOCK_BYTES];
	unsigned int buflen;
	u32 s[4];
	struct kernel_poly1305_ctx ctx;
};

/* The AVX code is worth its set-up from 18 blocks on (the glue's rule). */
#define KPOLY_SIMD_MIN_BYTES	(18 * POLY1305_CORE_BLOCK_BYTES)

/*
 * The accumulator back in base 2^64 for the scalar code, if the AVX code
 * left it in base 2^26: five 26-bit limbs, carried, packed into 64-bit
 * words, and what lies above 2^130 folded back in as 5 per 2^130.  The
 * glue does this before every scalar call; with SIMD always usable here
 * it never finds base 2^26, as in the kernel outside interrupts.
 */
static void kpoly_base2_64(struct kernel_poly1305_ctx *c)
{
	unsigned __int128 t;
	u64 l[5], w0, w1, w2;
	unsigned int i;

	if (!c->is_base2_26)
		return;
	for (i = 0; i < 5; i++)
		l[i] = c->h26[i];
	for (i = 0; i < 4; i++) {
		l[i + 1] += l[i] >> 26;
		l[i] &= 0x3ffffff;
	}
	w0 = l[0] | l[1] << 26 | l[2] << 52;
	w1 = l[2] >> 12 | l[3] << 14 | l[4] << 40;
	w2 = l[4] >> 24;
	t = (unsigned __int128)w0 + (w2 >> 2) * 5;
	w0 = (u64)t;
	t = (unsigned __int128)w1 + (u64)(t >> 64);
	w1 = (u64)t;
	w2 = (w2 & 3) + (u64)(t >> 64);
	c->h[0] = w0;
	c->h[1] = w1;
	c->h[2] = w2;		/* is_base2_26 = 0 with it */
}

/*
 * poly1305_simd_blocks() (6.12; 7.3's poly1305_blocks()): the scalar code
 * without AVX, or for short input while the accumulator is in base 2^64;
 * otherwise a SIMD section per 4 KiB around the tier's code.
 */
static void kpoly_blocks(unsigned int ptier, struct kernel_poly1305_ctx *c,
			 const u8 *src, unsigned int len, u32 padbit)
{
	if (ptier == BENCH_POLY_SCALAR ||
	    (len < KPOLY_SIMD_MIN_BYTES && !c->is_base2_26)) {
		kpoly_base2_64(c);
		poly1305_blocks_x86_64(c, src, len, padbit);
		return;
	}
	do {
		unsigned int n = min_t(unsigned int, len, BENCH_SECTION_BYTES);

		chacha_simd_begin(NULL);
		if (ptier == BENCH_POLY_AVX512)
			poly1305_blocks_avx512(c, src, n, padbit);
		else if (ptier == BENCH_POLY_AVX2)
			poly1305_blocks_avx2(c, src, n, padbit);
		else
			poly1305_blocks_avx(c, src, n, padbit);
		chacha_simd_end(NULL);
		src += n;
		len -= n;
	} while (len);
}

/*
 * The key: r to the assembly's init, s kept for the end.  6.12's shash
 * clears the whole descriptor first (crypto_poly1305_init()); 7.3's
 * poly1305_init() does not.
 */
static void kpoly_init(struct kpoly_desc *d, bool lib,
		       const u8 key[POLY1305_CORE_KEY_BYTES])
{
	unsigned int i;

	if (!lib)
		memset(d, 0, sizeof(*d));
	for (i = 0; i < 4; i++) {
		__le32 w;

		memcpy(&w, key + 16 + 4 * i, sizeof(w));
		d->s[i] = le32_to_cpu(w);
	}
	d->buflen = 0;
	poly1305_init_x86_64(&d->ctx, key);
}

/* poly1305_update_arch(): whole blocks straight on, the rest buffered. */
static void kpoly_update(unsigned int ptier, struct kpoly_desc *d,
			 const u8 *src, unsigned int len)
{
	unsigned int n;

	if (d->buflen) {
		n = min_t(unsigned int, len,
			  POLY1305_CORE_BLOCK_BYTES - d->buflen);
		memcpy(d->buf + d->buflen, src, n);
		d->buflen += n;
		src += n;
		len -= n;
		if (d->buflen < POLY1305_CORE_BLOCK_BYTES)
			return;
		kpoly_blocks(ptier, &d->ctx, d->buf, POLY1305_CORE_BLOCK_BYTES,
			     1);
		d->buflen = 0;
	}
	n = round_down(len, POLY1305_CORE_BLOCK_BYTES);
	if (n)
		kpoly_blocks(ptier, &d->ctx, src, n, 1);
	if (len > n) {
		memcpy(d->buf, src + n, len - n);
		d->buflen = len - n;
	}
}

/* poly1305_final_arch(): a partial block padded with 1, then emit. */
static void kpoly_final(unsigned int ptier, struct kpoly_desc *d,
			u8 tag[CHACHAPOLY_TAG_BYTES])
{
	if (d->buflen) {
		d->buf[d->buflen] = 1;
		memset(d->buf + d->buflen + 1, 0,
		       POLY1305_CORE_BLOCK_BYTES - d->buflen - 1);
		kpoly_blocks(ptier, &d->ctx, d->buf, POLY1305_CORE_BLOCK_BYTES,
			     0);
	}
	if (ptier == BENCH_POLY_SCALAR)
		poly1305_emit_x86_64(&d->ctx, tag, d->s);
	else
		poly1305_emit_avx(&d->ctx, tag, d->s);
	memzero_explicit(d, sizeof(*d));
}

/*
 * The kernel's Poly1305 library for the module's AEAD (libshim's
 * <crypto/poly1305.h>): 7.3's poly1305_init(), _update(), _final() on
 * the Poly1305 tier set_lib_poly() last chose.
 */
static unsigned int lib_ptier;

static void set_lib_poly(unsigned int ptier)
{
	lib_ptier = ptier;
}

static struct kpoly_desc *lib_desc(struct poly1305_desc_ctx *desc)
{
	BUILD_BUG_ON(sizeof(struct kpoly_desc) >
		     sizeof(struct poly1305_desc_ctx));
	return (struct kpoly_desc *)desc;
}

void poly1305_init(struct poly1305_desc_ctx *desc, const u8 *key)
{
	kpoly_init(lib_desc(desc), true, key);
}

void poly1305_update(struct poly1305_desc_ctx *desc, const u8 *src,
		     unsigned int nbytes)
{
	kpoly_update(lib_ptier, lib_desc(desc), src, nbytes);
}

void poly1305_final(struct poly1305_desc_ctx *desc, u8 *digest)
{
	kpoly_final(lib_ptier, lib_desc(desc), digest);
}

/* The template's padding: 6.12's zeroed pad, 7.3's zero page. */
static const u8 kpoly_zeros[POLY1305_CORE_BLOCK_BYTES];

/*
 * The template's MAC, in its order of updates: the AD, its pad, the
 * ciphertext (6.12: through the ahash walk, a page at a time; 7.3: the
 * whole scatterlist entry at once), its pad, the lengths.
 */
static void kernel_mac(unsigned int ptier, bool lib,
		       const u8 key[POLY1305_CORE_KEY_BYTES],
		       const struct bench_aead *a, const u8 *ct,
		       unsigned int len, u8 tag[CHACHAPOLY_TAG_BYTES])
{
	unsigned int textlen = len;
	struct kpoly_desc d;
	__le64 lens[2];

	kpoly_init(&d, lib, key);
	kpoly_update(ptier, &d, a->ad, a->adlen);
	kpoly_update(ptier, &d, kpoly_zeros, -a->adlen % POLY1305_CORE_BLOCK_BYTES);
	while (len) {
		unsigned int n = lib ? len :
			min_t(unsigned int, len, BENCH_SECTION_BYTES);

		kpoly_update(ptier, &d, ct, n);
		ct += n;
		len -= n;
	}
	kpoly_update(ptier, &d, kpoly_zeros, -textlen % POLY1305_CORE_BLOCK_BYTES);
	lens[0] = cpu_to_le64(a->adlen);
	lens[1] = cpu_to_le64(textlen);
	kpoly_update(ptier, &d, (const u8 *)lens, sizeof(lens));
	kpoly_final(ptier, &d, tag);
}

/* A request to the kernel's chacha20 skcipher, the IV's counter at @ctr. */
static void kernel_chacha(unsigned int tier, bool lib, const u32 *key,
			  u8 iv[CHACHA_IV_BYTES], u32 ctr, u8 *dst,
			  const u8 *src, unsigned int len)
{
	u32 state[CHACHA_STATE_WORDS];
	__le32 c = cpu_to_le32(ctr);

	memcpy(iv, &c, sizeof(c));
	chacha_init_state(state, key, iv);
	kernel_walk(tier, lib, state, dst, src, len, 20);
}

/*
 * The kernel's rfc7539 template (crypto/chacha20poly1305.c): encrypting,
 * the text through the skcipher from block 1, the Poly1305 key (32 bytes
 * of block 0) through a request of its own, then the MAC of the
 * ciphertext; decrypting, the key and the MAC first, then the text.  The
 * template's requests, callbacks and scatterlist walks are left out:
 * this is the least that it costs.
 */
static bool kernel_aead(unsigned int tier, unsigned int ptier, bool lib,
			const struct bench_aead *a, u8 *dst, const u8 *src,
			unsigned int len, bool decrypt)
{
	u8 key[POLY1305_CORE_KEY_BYTES] = { 0 };
	u8 iv[CHACHA_IV_BYTES];
	u8 tag[CHACHAPOLY_TAG_BYTES];
	bool ok = true;

	memcpy(iv + 4, a->nonce, CHACHAPOLY_NONCE_BYTES);
	if (!decrypt)
		kernel_chacha(tier, lib, a->key, iv, 1, dst, src, len);
	kernel_chacha(tier, lib, a->key, iv, 0, key, key, sizeof(key));
	kernel_mac(ptier, lib, key, a, decrypt ? src : dst, len, tag);
	if (decrypt) {
		kernel_chacha(tier, lib, a->key, iv, 1, dst, src, len);
		ok = !tag_differs(tag, a->tag);
	} else {
		memcpy(a->tag, tag, sizeof(tag));
	}
	memzero_explicit(key, sizeof(key));
	return ok;
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
	.polys = poly1305_impls,
	.npolys = &poly1305_nimpls,
	.aead = module_aead,
	.set_lib_poly = set_lib_poly,
	.kernel_aead = kernel_aead,
};
