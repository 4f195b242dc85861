/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ChaCha20-Poly1305 (RFC 8439 section 2.8) on the module's ChaCha cores
 * and Poly1305 block functions, in one walk over the text: each stretch
 * of at most CHACHA_SIMD_CHUNK bytes is enciphered and authenticated
 * inside one SIMD section while it is in L1.  Nothing here knows about the
 * crypto API: the AEAD glue (chacha20poly1305_glue.c) feeds it the AD and
 * the text of a request step by step; the user-space harness and the
 * benchmark build it unchanged.
 */
#ifndef CHACHA20POLY1305_CORE_H
#define CHACHA20POLY1305_CORE_H

#include <linux/kernel.h>

#include "chacha20_core.h"
#include "poly1305_core.h"

#define CHACHAPOLY_KEY_BYTES	32
#define CHACHAPOLY_NONCE_BYTES	12
#define CHACHAPOLY_TAG_BYTES	16

/*
 * x86-64 kernels have the kernel's Poly1305 library, <crypto/poly1305.h>:
 * the code the rfc7539 template runs, vector code included, which makes
 * its own SIMD sections.  The benchmark defines CHACHAPOLY_LIB_POLY1305
 * with a stand-in (tools/bench/libshim).
 */
#if defined(__KERNEL__) && defined(CONFIG_X86_64)
#if IS_REACHABLE(CONFIG_CRYPTO_LIB_POLY1305)
#define CHACHAPOLY_LIB_POLY1305
#endif
#endif
#ifdef CHACHAPOLY_LIB_POLY1305
#include <crypto/poly1305.h>
#endif

typedef void (*poly1305_blocks_fn)(struct poly1305_core_state *st,
				   const u8 *src, unsigned int nblocks,
				   u32 hibit);

/*
 * A Poly1305 implementation: @scalar uses no vector register and runs
 * anywhere; @simd, if any, runs only inside a SIMD section and only for
 * runs of at least @simd_min_blocks blocks (it is slower below).  Both
 * work on the same struct poly1305_core_state.  @lib_from: requests of
 * at least this many bytes of text take the kernel's library instead (0:
 * none), where its vector code beats this one and no stitched core runs.
 * @lib: this is the kernel's library (no block functions; never chosen
 * by default, only through @lib_from or poly1305=lib).
 */
struct poly1305_impl {
	const char *name;
	unsigned int needs;	/* CHACHA_CPU_* */
	/* As in struct chacha_impl: not chosen by default without these. */
	unsigned int prefer;
	poly1305_blocks_fn scalar;
	poly1305_blocks_fn simd;
	unsigned int simd_min_blocks;
	unsigned int lib_from;
	bool lib;
};

#ifdef __x86_64__
/*
 * @nstrides (at least 1) 512-byte strides in one call, each
 * chacha20_8block_xor_avx2(@state, @dst, @src, 20) with Poly1305 of the
 * 32 blocks at @mac (@src, or bytes the call does not write or wrote a
 * stride before) spread between its rounds, as
 * oot_poly1305_blocks_x86_64_mulx(@st, @mac, 32, 1); @dst, @src and @mac
 * move on by a stride, @state's counter by 8 blocks
 * (chacha20-avx2-x86_64.S).  Needs AVX2, BMI2 and ADX, inside a SIMD
 * section.
 */
asmlinkage void chachapoly_8block_xor_avx2(u32 *state, u8 *dst,
					   const u8 *src,
					   struct poly1305_core_state *st,
					   const u8 *mac, unsigned int nstrides);

/*
 * One stride of it that XORs only @len (1 to 512) bytes and still MACs
 * the 32 blocks at @mac: encrypting, the text's tail while the stride
 * before it is MACed.  Only reads @state.  The same file and needs.
 */
asmlinkage void chachapoly_8block_xor_last_avx2(u32 *state, u8 *dst,
						const u8 *src,
						struct poly1305_core_state *st,
						const u8 *mac, unsigned int len);
#endif

#ifdef __x86_64__
/*
 * A whole short request in one call (chacha20-avx512-x86_64.S): ChaCha20
 * from block 0, whose first 32 bytes become the one-time key in
 * registers, the text's @len bytes from block 1 on, from @src to @dst,
 * then Poly1305 of the @macblocks blocks at @mac, read after the text is
 * written, and the tag.  Needs AVX-512 (F, VL, BW), BMI2 and ADX, inside a
 * SIMD section; @len at most CHACHAPOLY_SMALL_MAX.
 */
#define CHACHAPOLY_SMALL_MAX	576
asmlinkage void chachapoly_small_avx512vl(const u32 *state, u8 *dst,
					  const u8 *src, unsigned int len,
					  const u8 *mac, unsigned int macblocks,
					  u8 *tag);

/*
 * The same on AVX2 with BMI2 and ADX (chacha20-avx2-x86_64.S), for the
 * stitched pair, up to CHACHAPOLY_SMALL_AVX2_MAX bytes of text: block 0
 * and three blocks of text in its 4-block row core.
 */
#define CHACHAPOLY_SMALL_AVX2_MAX	192
asmlinkage void chachapoly_small_avx2(const u32 *state, u8 *dst,
				      const u8 *src, unsigned int len,
				      const u8 *mac, unsigned int macblocks,
				      u8 *tag);
#endif

#if defined(__aarch64__) && !defined(__AARCH64EB__)
/*
 * chacha20_4block_xor_neon(@state, @dst, @src, 20) over one 256-byte
 * stride with Poly1305 of the 16 blocks at @mac (@src, or bytes the call
 * does not write) spread between its rounds, as
 * oot_poly1305_blocks_arm64(@st, @mac, 16, 1) (chacha20-neon-arm64.S).  Inside
 * a SIMD section; only reads @state.
 */
asmlinkage void chachapoly_4block_xor_neon(const u32 *state, u8 *dst,
					   const u8 *src,
					   struct poly1305_core_state *st,
					   const u8 *mac);
/*
 * The same over a 320-byte stride and 20 Poly1305 blocks, the fifth
 * ChaCha20 block on the general-purpose registers: the stitched core of
 * the neon implementation (whose skcipher strides are 6-block ones), the
 * 4-block one being neon4's.
 */
asmlinkage void chachapoly_5block_xor_neon(const u32 *state, u8 *dst,
					   const u8 *src,
					   struct poly1305_core_state *st,
					   const u8 *mac);
#endif

/*
 * Whether @ci and @pi have a core that stitches the two: AVX2 and mulx,
 * NEON and mul/umulh.
 */
static inline bool chachapoly_stitches(const struct chacha_impl *ci,
				       const struct poly1305_impl *pi)
{
#ifdef __x86_64__
	return ci->cores[0].fn == chacha20_8block_xor_avx2 &&
	       pi->scalar == oot_poly1305_blocks_x86_64_mulx && !pi->simd;
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
	return (ci->needs & CHACHA_CPU_NEON) &&
	       pi->scalar == oot_poly1305_blocks_arm64 && !pi->simd;
#else
	(void)ci;	/* no stitched core here */
	(void)pi;
	return false;
#endif
}

/* All Poly1305 implementations, lowest first; poly1305_impls[0] is C. */
extern const struct poly1305_impl poly1305_impls[];
extern const unsigned int poly1305_nimpls;

/*
 * The key stream that chachapoly_key() may compute beyond block 0, in
 * the same call: one stride of the stitched core whose implementation's
 * widest core is that stride and one block wide (arm64's neon: 6 blocks,
 * the 5-block stitched core's 320 bytes).  None elsewhere.
 */
#if defined(__aarch64__) && !defined(__AARCH64EB__)
#define CHACHAPOLY_HEAD_MAX	320
#else
#define CHACHAPOLY_HEAD_MAX	0
#endif

/* The AD that chachapoly_ad() keeps for one call to MAC it. */
#define CHACHAPOLY_AD_BUF_BYTES	(4 * POLY1305_CORE_BLOCK_BYTES)

/*
 * One request's state, from chachapoly_start() to chachapoly_final(): the
 * ChaCha state at the next block, Poly1305's, the AD not yet MACed,
 * the lengths for the last block of the MAC, and block 0 of the key
 * stream with the head's (@headlen bytes of it left, at the end of @ks).
 */
struct chachapoly_req {
	const struct chacha_impl *ci;
	const struct poly1305_impl *pi;
	u32 state[CHACHA_STATE_WORDS];
	union {
		struct poly1305_core_state poly;
#ifdef CHACHAPOLY_LIB_POLY1305
		struct poly1305_desc_ctx lib;	/* pi->lib */
#endif
	};
	u64 adlen;
	u64 textlen;
	/*
	 * The AD not yet MACed, up to CHACHAPOLY_AD_BUF_BYTES; or the
	 * text's part block.  chachapoly_final() pads it and puts the
	 * lengths after it.
	 */
	u8 buf[CHACHAPOLY_AD_BUF_BYTES + POLY1305_CORE_BLOCK_BYTES];
	unsigned int buflen;
	unsigned int headlen;
	bool keyed;	/* block 0 done: @poly keyed, @state at block 1 */
	u8 ks[CHACHA_BLOCK_BYTES + CHACHAPOLY_HEAD_MAX];
};

/*
 * The Poly1305 for a request of @textlen bytes on @ci and @pi (the
 * module's choice or the user's): @pi, or the kernel's library from
 * @pi->lib_from on where that exists and @ci and @pi have no stitched
 * core.
 */
static inline const struct poly1305_impl *
chachapoly_poly_for(const struct chacha_impl *ci,
		    const struct poly1305_impl *pi, unsigned int textlen)
{
#ifdef CHACHAPOLY_LIB_POLY1305
	const struct poly1305_impl *lib = &poly1305_impls[poly1305_nimpls - 1];
#else
	const struct poly1305_impl *lib = NULL;
#endif

	if (lib && pi->lib_from && textlen >= pi->lib_from &&
	    !chachapoly_stitches(ci, pi))
		return lib;
	return pi;
}

/*
 * A request's ChaCha20 state at block 0: the nonce's words straight into
 * the state, no IV built on the stack first (its 8-byte reloads across
 * two stores wait for both to retire).
 */
static __always_inline void chachapoly_init_state(u32 *state, const u32 *key,
						  const u8 *nonce)
{
	chacha_init_key(state, key);
	state[12] = 0;
	chacha_le32_words(&state[13], nonce, CHACHAPOLY_NONCE_BYTES / 4);
}

/*
 * Start a request: the ChaCha20 state for @key (8 words, CPU order) and
 * @nonce with the counter at 0; block 0 of the key stream is the
 * Poly1305 key, and the text starts at block 1.  Block 0 waits for the
 * first call that needs it.  Inline: a call and a return fewer per
 * request.
 */
static inline void chachapoly_start(struct chachapoly_req *r,
				    const struct chacha_impl *ci,
				    const struct poly1305_impl *pi,
				    const u32 *key,
				    const u8 nonce[CHACHAPOLY_NONCE_BYTES])
{
	r->ci = ci;
	r->pi = pi;
	r->adlen = 0;
	r->textlen = 0;
	r->buflen = 0;
	r->headlen = 0;
	r->keyed = false;
	chachapoly_init_state(r->state, key, nonce);
}

/*
 * The first and the last @n bytes of @len >= @n, which may overlap, from
 * @src to @dst: fixed-size copies, for chachapoly_copy64().
 */
static __always_inline void chachapoly_copy_ends(u8 *dst, const u8 *src,
						 unsigned int len,
						 unsigned int n)
{
	u64 a[4] __uninitialized, b[4] __uninitialized;	/* copies */

	memcpy(a, src, n);
	memcpy(b, src + len - n, n);
	memcpy(dst, a, n);
	memcpy(dst + len - n, b, n);
}

/*
 * @len bytes, at most 64, from @src to @dst, which do not overlap: two
 * fixed-size copies that may overlap each other, no call to memcpy() for
 * the variable length.  Writes nothing outside the @len bytes.
 */
static __always_inline void chachapoly_copy64(u8 *dst, const u8 *src,
					      unsigned int len)
{
	if (len >= 32) {
		chachapoly_copy_ends(dst, src, len, 32);
	} else if (len >= 16) {
		chachapoly_copy_ends(dst, src, len, 16);
	} else if (len >= 8) {
		chachapoly_copy_ends(dst, src, len, 8);
	} else if (len >= 4) {
		chachapoly_copy_ends(dst, src, len, 4);
	} else if (len) {
		dst[0] = src[0];
		dst[len / 2] = src[len / 2];
		dst[len - 1] = src[len - 1];
	}
}

/* chachapoly_ad() for AD that no longer fits in @r->buf. */
void chachapoly_ad_spill(struct chachapoly_req *r, const u8 *ad,
			 unsigned int len);

/*
 * Authenticate @len more bytes of AD, in pieces of any length.  Short AD
 * waits in @r->buf, and the text's first call MACs it in one call: inline,
 * no call here at all.
 */
static inline void chachapoly_ad(struct chachapoly_req *r, const u8 *ad,
				 unsigned int len)
{
	r->adlen += len;
	if (len > CHACHAPOLY_AD_BUF_BYTES - r->buflen) {
		chachapoly_ad_spill(r, ad, len);
		return;
	}
	chachapoly_copy64(r->buf + r->buflen, ad, len);
	r->buflen += len;
}

/*
 * Encipher (@encrypt) or decipher @len more bytes of text from @src into
 * @dst (the same or not overlapping at all) and authenticate the
 * ciphertext: what it writes when encrypting, what it reads when
 * decrypting, so that in place decryption authenticates the ciphertext
 * before the pass overwrites it.  The AD is complete from the first call
 * on.  Every call but the last takes a multiple of CHACHA_BLOCK_BYTES.
 * SIMD sections of at most CHACHA_SIMD_CHUNK bytes if @simd_usable.
 * @tag: NULL; or the text ends here, and the call writes the tag and
 * wipes @r as chachapoly_final() would, with a call and a return fewer.
 */
void chachapoly_crypt(struct chachapoly_req *r, u8 *dst, const u8 *src,
		      unsigned int len, bool encrypt, bool simd_usable,
		      u8 *tag);

/*
 * The tag of the AD and text so far, where no chachapoly_crypt() call
 * wrote it: no text, or a walk that stopped on an error; wipes @r.
 */
void chachapoly_final(struct chachapoly_req *r,
		      u8 tag[CHACHAPOLY_TAG_BYTES]);

/*
 * The most text, and AD, of a request that chachapoly_oneshot() takes.
 * Up to 576 bytes of text it beats the walk on AVX-512 and on AVX2.  Where
 * the pair stitches, a walk of whole 512-byte strides beats it when
 * decrypting, so there only up to 448 bytes.  Encrypting, the walk MACs
 * its first stride after the XOR, unstitched, and the one pass beats it
 * up to 576.  Figures: tools/bench RESULTS.md, runs 13 and 18.  The AD's
 * limit holds ESP's 20 bytes with its IV, kTLS's 13 and dm-crypt's 20.
 * All are multiples of 16.
 */
#define CHACHAPOLY_ONESHOT_STITCHED_MAX	448
#ifdef __aarch64__
/* Every arm64 pair stitches: no more stack than that needs. */
#define CHACHAPOLY_ONESHOT_MAX		CHACHAPOLY_ONESHOT_STITCHED_MAX
#else
#define CHACHAPOLY_ONESHOT_MAX		576
#endif
#define CHACHAPOLY_ONESHOT_AD_MAX	64

/*
 * A request for chachapoly_oneshot() lies in one buffer, as Poly1305 reads
 * it.  The text starts at CHACHAPOLY_ONESHOT_AD_MAX.  The AD ends there,
 * zero-padded to 16 bytes: it starts at chachapoly_oneshot_ad(adlen).
 * After the text, zero-padded to 16 bytes, come 16 bytes for the lengths.
 * The buffer runs a whole ChaCha block past the text: encrypting, the key
 * stream goes over the text's last block whole, in place.
 */
#define CHACHAPOLY_ONESHOT_BYTES	(CHACHAPOLY_ONESHOT_AD_MAX + \
					 CHACHAPOLY_ONESHOT_MAX + \
					 CHACHA_BLOCK_BYTES)
/*
 * Decrypting, chachapoly_oneshot() writes block 0's place and the plaintext
 * to a second buffer of this size, the plaintext again from
 * CHACHAPOLY_ONESHOT_AD_MAX, and leaves zeros in all but the plaintext.
 * In one call (chachapoly_oneshot_one_call()) it writes the plaintext
 * alone.
 */
#define CHACHAPOLY_ONESHOT_OUT_BYTES	(CHACHAPOLY_ONESHOT_AD_MAX + \
					 CHACHAPOLY_ONESHOT_MAX)

static inline unsigned int chachapoly_oneshot_ad(unsigned int adlen)
{
	return CHACHAPOLY_ONESHOT_AD_MAX -
	       round_up(adlen, POLY1305_CORE_BLOCK_BYTES);
}

/*
 * The most text that chachapoly_oneshot() takes for @ci and @pi, in the
 * direction @encrypt.  None for scalar C, whose walk makes the same block
 * calls without the copy.
 */
static inline unsigned int chachapoly_oneshot_max(const struct chacha_impl *ci,
						  const struct poly1305_impl *pi,
						  bool encrypt)
{
	if (pi->lib || !ci->cores[0].blocks)
		return 0;
	if (!encrypt && chachapoly_stitches(ci, pi))
		return CHACHAPOLY_ONESHOT_STITCHED_MAX;
	return CHACHAPOLY_ONESHOT_MAX;
}

static inline bool chachapoly_oneshot_fits(const struct chacha_impl *ci,
					   const struct poly1305_impl *pi,
					   unsigned int adlen,
					   unsigned int len, bool encrypt)
{
	unsigned int max = chachapoly_oneshot_max(ci, pi, encrypt);

	return max && len <= max && adlen <= CHACHAPOLY_ONESHOT_AD_MAX;
}

/*
 * Whether chachapoly_oneshot() makes a request of @nblocks Poly1305 blocks
 * and @len bytes of text on @ci and @pi in one call, where it runs in a
 * SIMD section: chachapoly_small_avx512vl() for AVX-512 cores with mulx,
 * where @pi takes mulx for @nblocks (from IFMA's simd_min_blocks on, IFMA
 * after a core call beats the one call); chachapoly_small_avx2() for the
 * stitched AVX2 pair.
 */
static inline bool chachapoly_oneshot_one_call(const struct chacha_impl *ci,
					       const struct poly1305_impl *pi,
					       unsigned int nblocks,
					       unsigned int len)
{
#ifdef __x86_64__
	if (chachapoly_stitches(ci, pi))
		return len <= CHACHAPOLY_SMALL_AVX2_MAX;
	return (ci->needs & CHACHA_CPU_AVX512) &&
	       pi->scalar == oot_poly1305_blocks_x86_64_mulx &&
	       (!pi->simd || nblocks < pi->simd_min_blocks) &&
	       len <= CHACHAPOLY_SMALL_MAX;
#else
	(void)ci;	/* no such call here */
	(void)pi;
	(void)nblocks;
	(void)len;
	return false;
#endif
}

/* The Poly1305 blocks of a request: the AD, the text, the lengths. */
static inline unsigned int chachapoly_mac_blocks(unsigned int adlen,
						 unsigned int len)
{
	return (round_up(adlen, POLY1305_CORE_BLOCK_BYTES) +
		round_up(len, POLY1305_CORE_BLOCK_BYTES)) /
	       POLY1305_CORE_BLOCK_BYTES + 1;
}

/*
 * A whole request in @m, laid out as above: what chachapoly_start(),
 * chachapoly_ad(), chachapoly_crypt() and chachapoly_final() do, with the
 * tag in @tag.  Encrypting, the text is enciphered in place in @m, which
 * keeps no key stream, and @out is not used.  Decrypting, the plaintext
 * goes to @out, as CHACHAPOLY_ONESHOT_OUT_BYTES says.  For short requests:
 * at most one SIMD section, if @simd_usable and SIMD beats scalar C at
 * this length; block 0's key stream and the text's from one call of @ci's
 * cores, straight over the text; Poly1305 in one call.  Writes the padding
 * and the lengths, and may write the rest of @m.  Only where
 * chachapoly_oneshot_fits().
 */
void chachapoly_oneshot(const struct chacha_impl *ci,
			const struct poly1305_impl *pi, const u32 *key,
			const u8 nonce[CHACHAPOLY_NONCE_BYTES], u8 *m, u8 *out,
			unsigned int adlen, unsigned int len, bool encrypt,
			bool simd_usable, u8 tag[CHACHAPOLY_TAG_BYTES]);

#endif /* CHACHA20POLY1305_CORE_H */
