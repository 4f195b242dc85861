// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20-Poly1305 in one walk: the ChaCha20 key stream and Poly1305 of
 * the ciphertext over each stretch of at most CHACHA_SIMD_CHUNK bytes in
 * the same SIMD section, the second pass over bytes still in L1.  See
 * chacha20poly1305_core.h.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "chacha20poly1305_core.h"

#define POLY_BLOCK	POLY1305_CORE_BLOCK_BYTES

/*
 * Faults the user-space tests plant in a copy of this file (make -C tests
 * aead-mutate), each of which the harness must catch; never in the
 * module.
 */
#define CHACHAPOLY_FAULT_ADPAD	1	/* the AD's last part block unpadded */
#define CHACHAPOLY_FAULT_LENS	2	/* the lengths block swapped */
#define CHACHAPOLY_FAULT_DECAUTH 3	/* decryption MACs the plaintext */
#define CHACHAPOLY_FAULT_CHUNK	4	/* in a section, the chunk's last block unMACed */
#define CHACHAPOLY_FAULT_COUNTER 5	/* the text starts at block 0 */
#define CHACHAPOLY_FAULT_TAIL	6	/* the text's part block padded with 0x01 */
#define CHACHAPOLY_FAULT_STITCH	7	/* stitched, the last stride unMACed */
#define CHACHAPOLY_FAULT_TWOPASS 8	/* two passes, a chunk's last block unMACed */
#define CHACHAPOLY_FAULT_HEAD	9	/* encrypting, the head left unMACed */
#define CHACHAPOLY_FAULT_ONESHOT 10	/* oneshot, the lengths' block unMACed */
#define CHACHAPOLY_FAULT_ONECALL 11	/* in one call, the lengths' block unMACed */
#define CHACHAPOLY_FAULT_KEYTEXT 12	/* block 0 with the text, the counter a block short */

#ifdef CHACHAPOLY_PLANT_FAULT
#ifdef __KERNEL__
#error "CHACHAPOLY_PLANT_FAULT is for the user-space tests only"
#endif
#define PLANTED(fault)	(CHACHAPOLY_FAULT_##fault == (CHACHAPOLY_PLANT_FAULT))
#else
#define PLANTED(fault)	(0 && CHACHAPOLY_FAULT_##fault)
#endif

/*
 * Every Poly1305 block of the AEAD is whole: RFC 8439 pads the AD and the
 * ciphertext with zeros to 16 bytes, so hibit is always 1.
 */
const struct poly1305_impl poly1305_impls[] = {
	/*
	 * C and mulx alone (not stitched) are slower than the kernel's vector
	 * Poly1305 on long requests: two passes with it win from 512 and
	 * 2048 bytes on (tools/bench RESULTS.md sections 10 and 11).
	 */
	{ "c", 0, 0, oot_poly1305_blocks, NULL, 0, 512, false },
#ifdef __x86_64__
	{ "mulx", CHACHA_CPU_BMI2_ADX, 0, oot_poly1305_blocks_x86_64_mulx,
	  NULL, 0, 2048, false },
	/*
	 * zmm: only where zmm costs no clock speed, as for ChaCha20.  The
	 * powers of r it computes per call make it slower than mulx below
	 * about 32 blocks (tools/bench RESULTS.md section 9: 256-byte
	 * requests 8% slower, 512-byte ones 3% faster): below that, mulx.
	 */
	{ "ifma", CHACHA_CPU_AVX512 | CHACHA_CPU_IFMA | CHACHA_CPU_BMI2_ADX,
	  CHACHA_CPU_PREFER_ZMM, oot_poly1305_blocks_x86_64_mulx,
	  oot_poly1305_blocks_avx512ifma, 32, 0, false },
#endif
#if defined(__aarch64__) && !defined(__AARCH64EB__)
	/*
	 * mul/umulh, the Poly1305 the stitched NEON core weaves into its
	 * rounds; alone, for the AD, the tails and requests without SIMD.
	 */
	{ "arm64", 0, 0, oot_poly1305_blocks_arm64, NULL, 0, 0, false },
#endif
#ifdef CHACHAPOLY_LIB_POLY1305
	{ "lib", 0, 0, NULL, NULL, 0, 0, true },
#endif
};

const unsigned int poly1305_nimpls = ARRAY_SIZE(poly1305_impls);

/*
 * @fn on @st as a direct call, so that the request path makes no indirect
 * call (a retpoline on the kernels that patch them in;
 * tools/disasm-check.sh): each known function by name, C for anything
 * else, which the table never holds.
 */
static __always_inline void poly1305_call_st(struct poly1305_core_state *st,
					     poly1305_blocks_fn fn,
					     const u8 *src, unsigned int nblocks)
{
#ifdef __x86_64__
	if (fn == oot_poly1305_blocks_avx512ifma)
		oot_poly1305_blocks_avx512ifma(st, src, nblocks, 1);
	else if (fn == oot_poly1305_blocks_x86_64_mulx)
		oot_poly1305_blocks_x86_64_mulx(st, src, nblocks, 1);
	else
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
	if (fn == oot_poly1305_blocks_arm64)
		oot_poly1305_blocks_arm64(st, src, nblocks, 1);
	else
#else
	(void)fn;	/* C is the only Poly1305 here */
#endif
		oot_poly1305_blocks(st, src, nblocks, 1);
}

/*
 * poly1305_call_st() and the tag into @tag in one call, where @fn has a
 * function that does both (C, mulx and IFMA): then true.  Else @fn alone, and
 * false: the caller emits the tag.
 */
static __always_inline bool poly1305_call_emit(struct poly1305_core_state *st,
					       poly1305_blocks_fn fn,
					       const u8 *src,
					       unsigned int nblocks, u8 *tag)
{
#ifdef __x86_64__
	if (fn == oot_poly1305_blocks_avx512ifma) {
		oot_poly1305_blocks_emit_avx512ifma(st, src, nblocks, tag);
		return true;
	}
	if (fn == oot_poly1305_blocks_x86_64_mulx) {
		oot_poly1305_blocks_emit_x86_64_mulx(st, src, nblocks, tag);
		return true;
	}
#endif
	if (fn == oot_poly1305_blocks) {
		oot_poly1305_blocks_emit(st, src, nblocks, tag);
		return true;
	}
	poly1305_call_st(st, fn, src, nblocks);
	return false;
}

/* @fn of @r's Poly1305, or the kernel's library for its entry. */
static __always_inline void poly1305_call(struct chachapoly_req *r,
					  poly1305_blocks_fn fn,
					  const u8 *src, unsigned int nblocks)
{
#ifdef CHACHAPOLY_LIB_POLY1305
	if (r->pi->lib) {
		poly1305_update(&r->lib, src, nblocks * POLY_BLOCK);
		return;
	}
#endif
	poly1305_call_st(&r->poly, fn, src, nblocks);
}

/*
 * The bytes of @ci's stitched core's stride, where chachapoly_stitches():
 * 8 AVX2 blocks; 4 NEON ones and a scalar one for neon, 4 NEON ones for
 * neon4.
 */
static unsigned int chachapoly_stride_bytes(const struct chacha_impl *ci)
{
#if defined(__aarch64__) && !defined(__AARCH64EB__)
	if (ci->cores[0].fn != chacha20_6block_xor_neon)
		return 4 * CHACHA_BLOCK_BYTES;
	return 5 * CHACHA_BLOCK_BYTES;
#else
	(void)ci;
	return 8 * CHACHA_BLOCK_BYTES;
#endif
}

/*
 * The head's bytes: the key stream of the stitched core's first stride,
 * computed with block 0 in one call of @ci's widest core where that is
 * one block wider than the stride, in a SIMD section; else 0.
 */
static unsigned int chachapoly_head_bytes(const struct chacha_impl *ci,
					  const struct poly1305_impl *pi,
					  bool simd_usable)
{
	unsigned int stride;

	if (!CHACHAPOLY_HEAD_MAX || !simd_usable ||
	    !chachapoly_stitches(ci, pi))
		return 0;
	stride = chachapoly_stride_bytes(ci);
	if (stride != CHACHAPOLY_HEAD_MAX ||
	    ci->cores[0].blocks * CHACHA_BLOCK_BYTES !=
	    CHACHA_BLOCK_BYTES + stride)
		return 0;
	return stride;
}

/* What chachapoly_key() enciphers to get block 0 and the head. */
static const u8 chachapoly_zeros[CHACHA_BLOCK_BYTES + CHACHAPOLY_HEAD_MAX];

/* @dst = @src ^ @ks, @len bytes, 8 at a time where it can. */
static void chachapoly_xor(u8 *dst, const u8 *src, const u8 *ks,
			   unsigned int len)
{
	unsigned int i = 0;
	u64 a, b;

	for (; i + sizeof(a) <= len; i += sizeof(a)) {
		memcpy(&a, src + i, sizeof(a));
		memcpy(&b, ks + i, sizeof(b));
		a ^= b;
		memcpy(dst + i, &a, sizeof(a));
	}
	for (; i < len; i++)
		dst[i] = src[i] ^ ks[i];
}

/* @nblocks whole blocks of @src, in the SIMD function where it pays. */
static void chachapoly_blocks(struct chachapoly_req *r, const u8 *src,
			      unsigned int nblocks, bool in_section)
{
	const struct poly1305_impl *pi = r->pi;

	if (in_section && pi->simd && nblocks >= pi->simd_min_blocks)
		poly1305_call(r, pi->simd, src, nblocks);
	else if (nblocks)
		poly1305_call(r, pi->scalar, src, nblocks);
}

/*
 * The one-time Poly1305 key, the first 32 bytes of block 0, in scalar C
 * inline: no call.  @state moves on to block 1.
 */
static __always_inline void chachapoly_key_block(u32 *state, u8 *key)
{
	u32 x[CHACHA_STATE_WORDS] __uninitialized;	/* copied in first */
	unsigned int i;

	memcpy(x, state, sizeof(x));
	chacha_permute(x, 20);
	for (i = 0; i < POLY1305_CORE_KEY_BYTES / sizeof(u32); i++) {
		__le32 w = cpu_to_le32(x[i] + state[i]);

		memcpy(key + 4 * i, &w, sizeof(w));
	}
	chacha_wipe8(x, sizeof(x));
	state[12]++;
}

/*
 * @r->ks holds block 0's key stream: the one-time Poly1305 key from its
 * first 32 bytes, then zeros over it.
 */
static __always_inline void chachapoly_keyed(struct chachapoly_req *r)
{
	r->keyed = true;
#ifdef CHACHAPOLY_LIB_POLY1305
	if (r->pi->lib)
		poly1305_init(&r->lib, r->ks);
	else
#endif
		oot_poly1305_init(&r->poly, r->ks);
	chacha_wipe8(r->ks, CHACHA_BLOCK_BYTES);
	if (PLANTED(COUNTER))
		r->state[12] = 0;
}

/*
 * Block 0, once per request, when the AD spills, the text starts or the
 * tag is due: the one-time Poly1305 key, its first 32 bytes; with a head,
 * then the head's key stream, which the text's first bytes take, from
 * one call of the cores (zeros in).  Not in chachapoly_start(), so that
 * a request that needs no block 0 before its text makes no call for it.
 */
static __always_inline void chachapoly_key(struct chachapoly_req *r,
					   bool simd_usable)
{
	const struct chacha_impl *ci = r->ci;
	unsigned int head;

	if (r->keyed)
		return;
	head = chachapoly_head_bytes(ci, r->pi, simd_usable);
	r->headlen = head;
	if (head)
		chacha_crypt_request(ci, r->state, r->ks, chachapoly_zeros,
				     CHACHA_BLOCK_BYTES + head, 20, simd_usable);
	else
		chachapoly_key_block(r->state, r->ks);
	chachapoly_keyed(r);
}

/*
 * Whether chachapoly_crypt() leaves block 0 to its SIMD section, where
 * chachapoly_key_text() computes it: on x86-64, a SIMD implementation
 * with SSSE3 and the module's own Poly1305, not keyed yet.
 */
static __always_inline bool chachapoly_key_late(const struct chachapoly_req *r)
{
#ifdef __x86_64__
	return !r->keyed && !r->pi->lib && (r->ci->needs & CHACHA_CPU_SSSE3);
#else
	(void)r;	/* no SIMD block 0 here */
	return false;
#endif
}

/*
 * Whether the text's first bytes may be written before Poly1305 reads
 * them: encrypting (@mac_dst), or deciphering into a buffer that the
 * ciphertext does not overlap.  In place, Poly1305 must read the
 * ciphertext first, and so needs block 0 before any text.
 */
static __always_inline bool chachapoly_text_first(const u8 *dst,
						  const u8 *src,
						  unsigned int len,
						  bool mac_dst)
{
	return mac_dst || (uintptr_t)dst + len <= (uintptr_t)src ||
	       (uintptr_t)src + len <= (uintptr_t)dst;
}

/*
 * The key entry for block 0 and the text's first *@len (> 0) bytes on an
 * AVX-512 implementation, as its blocks (8, 12, 16 or 24), and the text
 * bytes it takes in *@len; 0 for block 0 alone.  The narrowest core that
 * holds both, up to 16 blocks; past that, VL's 16-block core with 15
 * blocks of text.  zmm's: the 24-block core where block 0 and the text
 * fill it but for at most three blocks; else a stride less block 0
 * (chacha_stride(), as calibrated), so that the rest of the text goes in
 * whole strides; and none where the text is whole strides already, as
 * block 0 would only push a 1-block tail after them.  Against the widest
 * core that holds both, on a Xeon (family 6 model 0xa7) whose stride is
 * 16 blocks: 8-14% less time per request at 1088, 2048 and 3008 bytes,
 * 7% at 4096, 2% at 16 KiB.
 */
static __always_inline unsigned int chachapoly_key_core(const struct chachapoly_req *r,
							unsigned int *len)
{
	unsigned int blocks = 1 + DIV_ROUND_UP(*len, CHACHA_BLOCK_BYTES);
	unsigned int stride;

	if (blocks <= 8)
		return 8;
	if (blocks <= 12)
		return 12;
	if (!(r->ci->prefer & CHACHA_CPU_PREFER_ZMM)) {
		*len = min_t(unsigned int, *len, 15 * CHACHA_BLOCK_BYTES);
		return 16;
	}
	if (blocks <= 16)
		return 16;
	if (chacha_core_fills(24, blocks * CHACHA_BLOCK_BYTES))
		return 24;
	stride = chacha_stride(r->ci);
	if (!stride || (blocks - 1) % stride == 0)
		return 0;
	*len = min_t(unsigned int, *len, (stride - 1) * CHACHA_BLOCK_BYTES);
	return stride;
}

/*
 * In a SIMD section, where chachapoly_key_late(): block 0's key stream
 * into @r->ks.  With @text (chachapoly_text_first()) on an AVX-512
 * implementation, also the text's first bytes, up to @len (> 0), in one
 * call of chachapoly_key_core()'s key entry.  A wide core costs about the
 * same with a block more.  Else block 0 alone: on AVX-512 through VL's
 * 2-block row core, whose rounds (vprold) take less time than SSSE3's; a
 * 1024 B request then takes 3% less on a Xeon (family 6 model 0xa7).
 * Else through the SSSE3 core: about 180 TSC ticks on a Zen 4, where
 * scalar C takes about 260.
 * Returns the text's bytes done; the counter moves on past them.
 */
static __always_inline unsigned int chachapoly_key_text(struct chachapoly_req *r,
							u8 *dst, const u8 *src,
							unsigned int len,
							bool text)
{
#ifdef __x86_64__
	u32 *state = r->state;
	u8 *ks = r->ks;
	unsigned int core;

	if (text && (r->ci->needs & CHACHA_CPU_AVX512)) {
		core = chachapoly_key_core(r, &len);
		if (core == 8)
			chacha20_8block_xor_key_avx512vl(state, dst, src, 20,
							 len, ks);
		else if (core == 12)
			chacha20_12block_xor_key_avx512vl(state, dst, src, 20,
							  len, ks);
		else if (core == 16 &&
			 !(r->ci->prefer & CHACHA_CPU_PREFER_ZMM))
			chacha20_16block_xor_key_avx512vl(state, dst, src, 20,
							  len, ks);
		else if (core == 16)
			chacha20_16block_xor_key_avx512(state, dst, src, 20,
							len, ks);
		else if (core == 24)
			chacha20_24block_xor_key_avx512(state, dst, src, 20,
							len, ks);
		if (core) {
			state[12] += 1 - PLANTED(KEYTEXT) +
				     DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
			return len;
		}
	}
	if (r->ci->needs & CHACHA_CPU_AVX512)
		chacha20_2block_xor_part_avx512vl(state, ks, chachapoly_zeros,
						  20, CHACHA_BLOCK_BYTES);
	else
		chacha20_1block_xor_part_ssse3(state, ks, chachapoly_zeros, 20,
					       CHACHA_BLOCK_BYTES);
	state[12]++;
#else
	(void)dst;	/* chachapoly_key_late() is false here */
	(void)src;
	(void)len;
	(void)text;
	chachapoly_key_block(r->state, r->ks);
#endif
	return 0;
}

/* Zeros after the @len bytes at @base, up to a multiple of POLY_BLOCK. */
static __always_inline void chachapoly_zero_pad(u8 *base, unsigned int len)
{
	unsigned int i;

	for (i = len; i % POLY_BLOCK; i++)
		base[i] = 0;
}

void chachapoly_ad_spill(struct chachapoly_req *r, const u8 *ad,
			 unsigned int len)
{
	unsigned int n;

	chachapoly_key(r, false);
	if (r->buflen) {
		n = round_up(r->buflen, POLY_BLOCK) - r->buflen;
		chachapoly_copy64(r->buf + r->buflen, ad, n);
		chachapoly_blocks(r, r->buf, (r->buflen + n) / POLY_BLOCK, false);
		ad += n;
		len -= n;
	}
	n = round_down(len, POLY_BLOCK);
	chachapoly_blocks(r, ad, n / POLY_BLOCK, false);
	chachapoly_copy64(r->buf, ad + n, len - n);
	r->buflen = len - n;
}

/*
 * What is left of the AD, once, before the first ciphertext: zero-padded
 * to a whole block, in one call.  The AD is no secret: @r->buf is wiped
 * with the rest of @r by chachapoly_final().
 */
static __always_inline void chachapoly_ad_end(struct chachapoly_req *r)
{
	if (!r->buflen)
		return;
	if (!PLANTED(ADPAD)) {
		chachapoly_zero_pad(r->buf, r->buflen);
		chachapoly_blocks(r, r->buf,
				  round_up(r->buflen, POLY_BLOCK) / POLY_BLOCK,
				  false);
	}
	r->buflen = 0;
}

/* Poly1305 of @len bytes of ciphertext, padded if the text ends here. */
static __always_inline void chachapoly_text(struct chachapoly_req *r,
					    const u8 *ct, unsigned int len,
					    bool in_section)
{
	unsigned int n = round_down(len, POLY_BLOCK);

	if (PLANTED(CHUNK) && in_section && n == CHACHA_SIMD_CHUNK)
		len = n -= POLY_BLOCK;
	chachapoly_blocks(r, ct, n / POLY_BLOCK, in_section);
	if (len > n) {
		/*
		 * Only the text's last piece ends inside a block: its tail
		 * waits in @r->buf for chachapoly_final(), which pads it and
		 * MACs it with the lengths, in one call with the tag.
		 */
		chachapoly_copy64(r->buf, ct + n, len - n);
		r->buflen = len - n;
		if (PLANTED(TAIL))
			r->buf[r->buflen++] = 1;
	}
}

/*
 * @n strides of @stride bytes (chachapoly_stride_bytes()) through the
 * stitched core, where chachapoly_stitches(), @mac a stride behind @dst or
 * at @src; the counter moves on past them.  On x86-64 in one call.
 */
static void chachapoly_strides(struct chachapoly_req *r, u8 *dst,
			       const u8 *src, const u8 *mac,
			       unsigned int stride, unsigned int n)
{
#ifdef __x86_64__
	(void)stride;	/* one stitched core, which moves the counter */
	chachapoly_8block_xor_avx2(r->state, dst, src, &r->poly, mac, n);
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
	for (; n; n--) {
		if (stride == 5 * CHACHA_BLOCK_BYTES)
			chachapoly_5block_xor_neon(r->state, dst, src, &r->poly,
						   mac);
		else
			chachapoly_4block_xor_neon(r->state, dst, src, &r->poly,
						   mac);
		r->state[12] += stride / CHACHA_BLOCK_BYTES;
		dst += stride;
		src += stride;
		mac += stride;
	}
#else
	(void)r;	/* no stitched core here */
	(void)dst;
	(void)src;
	(void)mac;
	(void)stride;
	(void)n;
#endif
}

/*
 * ChaCha20 alone over @len (> 0) bytes in a SIMD section, as
 * chacha_crypt_impl() does it, a return fewer: on x86-64, up to a stride
 * of the stitched AVX2 pair or up to 12 blocks of an AVX-512
 * implementation, one direct call of the narrowest part entry that
 * covers it.  A last block goes to the AVX2 pair's SSSE3 core, or on
 * AVX-512 to VL's 2-block core, as block 0 alone does.
 * chacha_crypt_impl() takes it where chacha_calibrate() measured it
 * faster than scalar C; on a Zen 4, where it did not, the two cost about
 * the same.
 */
static __always_inline void chachapoly_chacha(const struct chacha_impl *ci,
					      const struct poly1305_impl *pi,
					      u32 *state, u8 *dst,
					      const u8 *src, unsigned int len,
					      bool wide)
{
#ifdef __x86_64__
	if (len <= 8 * CHACHA_BLOCK_BYTES && chachapoly_stitches(ci, pi)) {
		if (len > 4 * CHACHA_BLOCK_BYTES)
			chacha20_8block_xor_part_avx2(state, dst, src, 20, len);
		else if (len > 2 * CHACHA_BLOCK_BYTES)
			chacha20_4block_xor_part_avx2(state, dst, src, 20, len);
		else if (len > CHACHA_BLOCK_BYTES)
			chacha20_2block_xor_part_avx2(state, dst, src, 20, len);
		else
			chacha20_1block_xor_part_ssse3(state, dst, src, 20,
						       len);
		state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
		return;
	}
	/* Both AVX-512 implementations, up to their 12-block core. */
	if (len <= 12 * CHACHA_BLOCK_BYTES && (ci->needs & CHACHA_CPU_AVX512)) {
		if (len > 8 * CHACHA_BLOCK_BYTES)
			chacha20_12block_xor_part_avx512vl(state, dst, src, 20,
							   len);
		else if (len > 4 * CHACHA_BLOCK_BYTES)
			chacha20_8block_xor_part_avx512vl(state, dst, src, 20,
							  len);
		else if (len > 2 * CHACHA_BLOCK_BYTES)
			chacha20_4block_xor_part_avx512vl(state, dst, src, 20,
							  len);
		else
			chacha20_2block_xor_part_avx512vl(state, dst, src, 20,
							  len);
		state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
		return;
	}
	/*
	 * With @wide, text that fills the zmm implementation's 24-block
	 * core (chacha_core_fills()): one direct call of it, as
	 * chacha_crypt_impl() would make.  Where the text is never that
	 * long, no call site for it.
	 */
	if (wide && (ci->prefer & CHACHA_CPU_PREFER_ZMM) &&
	    chacha_core_fills(24, len)) {
		chacha20_24block_xor_part_avx512(state, dst, src, 20, len);
		state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
		return;
	}
#else
	(void)pi;	/* no direct calls here */
	(void)wide;
#endif
	chacha_crypt_impl(ci, state, dst, src, len, 20);
}

/*
 * The whole strides of @len bytes, in a SIMD section, through a core that
 * stitches Poly1305 into the ChaCha20 rounds, where @r's pair has one:
 * AVX2 with mulx, NEON with mul/umulh.  Returns the bytes done, 0 for
 * other pairs.  The MAC stays in order.  Decrypting, each stride's
 * ciphertext is MACed while it is deciphered.  Encrypting (@mac_dst), the
 * stride before's output is MACed while the next one is enciphered; the
 * last stride's is left to the caller, which MACs it with the text after
 * it in one call.  @lagged: the stride before is the head's, enciphered
 * already and not yet MACed, at @dst - stride.
 */
static unsigned int chachapoly_stitched(struct chachapoly_req *r, u8 *dst,
					const u8 *src, unsigned int len,
					bool mac_dst, bool lagged)
{
	const unsigned int stride = chachapoly_stride_bytes(r->ci);
	unsigned int n = len - len % stride, i = 0;

	if (!n || !chachapoly_stitches(r->ci, r->pi))
		return 0;
	if (mac_dst && !lagged) {
		chachapoly_chacha(r->ci, r->pi, r->state, dst, src, stride,
				  false);
		i = stride;
	}
	if (i < n)
		chachapoly_strides(r, dst + i, src + i,
				   mac_dst ? dst + i - stride : src + i, stride,
				   (n - i) / stride);
	return n;
}

/*
 * Encrypting after stitched strides, where chachapoly_stitches(): the
 * @len (< stride) bytes of the text's tail in one call of the stitched
 * core's last entry, which MACs the stride at @mac meanwhile.  Returns
 * whether it ran; the counter moves on past the tail.
 */
static __always_inline bool chachapoly_stitched_last(struct chachapoly_req *r,
						     u8 *dst, const u8 *src,
						     unsigned int len,
						     const u8 *mac)
{
#ifdef __x86_64__
	if (!chachapoly_stitches(r->ci, r->pi))
		return false;
	chachapoly_8block_xor_last_avx2(r->state, dst, src, &r->poly, mac,
					len);
	r->state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
	return true;
#else
	(void)r;	/* NEON's stitched cores have no last entry */
	(void)dst;
	(void)src;
	(void)len;
	(void)mac;
	return false;
#endif
}

/*
 * One stretch of text: Poly1305 of the ciphertext, before the XOR when
 * decrypting (so it works in place) and after it when encrypting; in a
 * SIMD section (@in_section) through @r's cores, else in scalar C.
 */
static __always_inline void chachapoly_step(struct chachapoly_req *r,
					    u8 *dst, const u8 *src,
					    unsigned int len, bool encrypt,
					    bool in_section)
{
	const unsigned int stride = chachapoly_stride_bytes(r->ci);
	bool mac_dst = encrypt || PLANTED(DECAUTH), lagged = false;
	unsigned int done = 0, lag = 0, head = min(len, r->headlen);
	unsigned int ciphered = 0;	/* of @len, by a call that also did more */

	/*
	 * Not keyed yet (chachapoly_key_late()): block 0 first, where it may
	 * with the text's first bytes, then the AD's last part block, before
	 * any text.  Without SIMD, chachapoly_crypt() has keyed @r already.
	 */
	if (in_section && !r->keyed) {
		bool text = chachapoly_text_first(dst, src, len, mac_dst);

		ciphered = chachapoly_key_text(r, dst, src, len, text);
		chachapoly_keyed(r);
		chachapoly_ad_end(r);
	}
	if (head) {
		/*
		 * The head, from chachapoly_key()'s key stream.  Encrypting,
		 * a whole head followed by a stride is the stitched core's
		 * stride before, MACed in its first call; else at once.
		 */
		if (!mac_dst)
			chachapoly_text(r, src, head, in_section);
		chachapoly_xor(dst, src, r->ks + sizeof(r->ks) - r->headlen,
			       head);
		r->headlen -= head;
		lagged = mac_dst && in_section &&
			 head == stride &&
			 len - head >= head;
		if (mac_dst && !lagged)
			chachapoly_text(r, dst, head, in_section);
		dst += head;
		src += head;
		len -= head;
	}
	if (in_section)
		done = chachapoly_stitched(r, dst, src, len, mac_dst,
					   lagged && !PLANTED(HEAD));
	dst += done;
	src += done;
	len -= done;
	/*
	 * Encrypting after stitched strides, the last one's ciphertext is
	 * still to MAC, @lag bytes before @dst: with the rest, in one call.
	 */
	if (mac_dst && done && !PLANTED(STITCH))
		lag = stride;
	/*
	 * Then a tail: enciphered by the stitched core while it MACs that
	 * last stride, where it may.  The tail's own MAC follows.
	 */
	if (lag && len &&
	    chachapoly_stitched_last(r, dst, src, len, dst - lag)) {
		lag = 0;
		ciphered = len;
	}
	/* Whole strides: no core call and no Poly1305 call for nothing. */
	if (!len && !lag)
		return;
	if (!mac_dst)
		chachapoly_text(r, src, len, in_section);
	if (len > ciphered && in_section)
		chachapoly_chacha(r->ci, r->pi, r->state, dst + ciphered,
				  src + ciphered, len - ciphered, true);
	else if (len > ciphered)
		chacha_crypt_request(r->ci, r->state, dst + ciphered,
				     src + ciphered, len - ciphered, 20, false);
	if (mac_dst)
		chachapoly_text(r, dst - lag, len + lag, in_section);
}

/*
 * chachapoly_step() without SIMD, out of line: chachapoly_crypt() inlines
 * it in its SIMD section alone, a call and a return fewer per section.
 */
static noinline void chachapoly_step_nosimd(struct chachapoly_req *r,
					    u8 *dst, const u8 *src,
					    unsigned int len, bool encrypt)
{
	chachapoly_step(r, dst, src, len, encrypt, false);
}

/*
 * The kernel's library makes SIMD sections of its own, so it runs outside
 * ours: two passes over each stretch of at most CHACHA_SIMD_CHUNK bytes,
 * the second over bytes still in L1, each in its own section.
 */
static __always_inline void chachapoly_two_pass(struct chachapoly_req *r,
						u8 *dst, const u8 *src,
						unsigned int len, bool encrypt,
						bool simd_usable)
{
	bool mac_dst = encrypt || PLANTED(DECAUTH);

	while (len) {
		unsigned int n = min_t(unsigned int, len, CHACHA_SIMD_CHUNK);
		unsigned int m = n;

		if (PLANTED(TWOPASS) && n == CHACHA_SIMD_CHUNK)
			m -= POLY_BLOCK;
		if (!mac_dst)
			chachapoly_text(r, src, m, false);
		chacha_crypt_request(r->ci, r->state, dst, src, n, 20,
				     simd_usable);
		if (mac_dst)
			chachapoly_text(r, dst, m, false);
		dst += n;
		src += n;
		len -= n;
	}
}

/*
 * The tag, once the text is done (@r keyed): the part block left in
 * @r->buf, the AD's where there is no text and else the text's, padded
 * and MACed with the lengths after it, in the call that emits the tag.
 * Wipes @r.
 */
static __always_inline void chachapoly_finish(struct chachapoly_req *r,
					      u8 *tag)
{
	unsigned int n;
	__le64 w;

	if (PLANTED(ADPAD) && !r->textlen)
		r->buflen = 0;
	n = round_up(r->buflen, POLY_BLOCK);
	chachapoly_zero_pad(r->buf, r->buflen);
	w = cpu_to_le64(r->adlen);
	memcpy(r->buf + n + 8 * PLANTED(LENS), &w, sizeof(w));
	w = cpu_to_le64(r->textlen);
	memcpy(r->buf + n + 8 * !PLANTED(LENS), &w, sizeof(w));
	n += POLY_BLOCK;
#ifdef CHACHAPOLY_LIB_POLY1305
	if (r->pi->lib) {
		poly1305_update(&r->lib, r->buf, n);
		poly1305_final(&r->lib, tag);
		memzero_explicit(r, sizeof(*r));
		return;
	}
#endif
	oot_poly1305_blocks_emit(&r->poly, r->buf, n / POLY_BLOCK, tag);
	memzero_explicit(r, sizeof(*r));
}

void chachapoly_crypt(struct chachapoly_req *r, u8 *dst, const u8 *src,
		      unsigned int len, bool encrypt, bool simd_usable,
		      u8 *tag)
{
	/*
	 * The key stream of the text and, where the section makes it, of
	 * block 0, judged as chachapoly_oneshot() judges it.  No text, no
	 * section: block 0 alone is keyed at once.
	 */
	bool late = chachapoly_key_late(r);
	unsigned int n = len && late ? len + CHACHA_BLOCK_BYTES : len;
	bool simd = !r->pi->lib && chacha_request_simd(r->ci, n, simd_usable);

	if (!simd || !late) {
		chachapoly_key(r, simd_usable);
		chachapoly_ad_end(r);
	}
	r->textlen += len;

	if (r->pi->lib) {
		chachapoly_two_pass(r, dst, src, len, encrypt, simd_usable);
	} else if (!simd) {
		chachapoly_step_nosimd(r, dst, src, len, encrypt);
	} else {
		while (len) {
			unsigned int n = min_t(unsigned int, len,
					       CHACHA_SIMD_CHUNK);
			struct chacha_simd_save buf __uninitialized;
			struct chacha_simd_save *save = sizeof(buf) ? &buf
								    : NULL;

			chacha_simd_begin(save);
			chachapoly_step(r, dst, src, n, encrypt, true);
			chacha_simd_end(save);
			dst += n;
			src += n;
			len -= n;
		}
	}
	if (tag)
		chachapoly_finish(r, tag);
}

void chachapoly_final(struct chachapoly_req *r,
		      u8 tag[CHACHAPOLY_TAG_BYTES])
{
	/* No text: block 0 is still to come, the AD's part block buffered. */
	chachapoly_key(r, false);
	chachapoly_finish(r, tag);
}

/*
 * @dst = @src ^ @ks for @len bytes, 8 at a time where it can, and zeros
 * over the @n >= @len bytes of @ks as it goes: @n is a multiple of 8, as
 * the key stream's blocks are.  Not chachapoly_xor(), which stays out of
 * line where the walk calls it (tools/bench/mca.sh models it by name).
 */
static __always_inline void chachapoly_xor_wipe(u8 *dst, const u8 *src,
						u8 *ks, unsigned int len,
						unsigned int n)
{
	unsigned int i = 0;
	u64 a, b, z = 0;

	for (; i + sizeof(a) <= len; i += sizeof(a)) {
		memcpy(&a, src + i, sizeof(a));
		memcpy(&b, ks + i, sizeof(b));
		a ^= b;
		memcpy(dst + i, &a, sizeof(a));
		memcpy(ks + i, &z, sizeof(z));
	}
	for (; i < len; i++)
		dst[i] = src[i] ^ ks[i];
	for (i = round_down(len, sizeof(z)); i < n; i += sizeof(z))
		memcpy(ks + i, &z, sizeof(z));
	barrier_data(ks);
}

/* Zeros over @len bytes at @p, a multiple of 8, no call to memset(). */
static __always_inline void chachapoly_zero8(u8 *p, unsigned int len)
{
	unsigned int i;
	u64 z = 0;

	for (i = 0; i < len; i += sizeof(z))
		memcpy(p + i, &z, sizeof(z));
}

/* Zeros over the bytes from @len to @n at @p, @n a multiple of 8. */
static __always_inline void chachapoly_zero_tail(u8 *p, unsigned int len,
						 unsigned int n)
{
	unsigned int i;

	for (i = len; i % sizeof(u64); i++)
		p[i] = 0;
	chachapoly_zero8(p + i, n - i);
}

/*
 * The padding after the AD and after the text, and the lengths; encrypting
 * (@ks_end past the lengths), zeros over the key stream left there.
 * Poly1305 then reads chachapoly_mac_blocks() from the AD's start.
 */
static __always_inline void chachapoly_pad_lens(u8 *m, unsigned int adlen,
						unsigned int len,
						unsigned int ks_end)
{
	u8 *text = m + CHACHAPOLY_ONESHOT_AD_MAX;
	unsigned int lens = round_up(len, POLY_BLOCK);
	__le64 w;

	if (!PLANTED(ADPAD))
		chachapoly_zero_pad(m + chachapoly_oneshot_ad(adlen), adlen);
	chachapoly_zero_pad(text, len);
	w = cpu_to_le64(adlen);
	memcpy(text + lens + 8 * PLANTED(LENS), &w, sizeof(w));
	w = cpu_to_le64(len);
	memcpy(text + lens + 8 * !PLANTED(LENS), &w, sizeof(w));
	lens += POLY_BLOCK;
	if (ks_end > lens)
		chachapoly_zero8(text + lens, ks_end - lens);
}

/*
 * chachapoly_oneshot()'s request in one call, where
 * chachapoly_oneshot_one_call(): the text at @m's CHACHAPOLY_ONESHOT_AD_MAX,
 * enciphered in place or deciphered into @out there, and the @macblocks
 * Poly1305 blocks from @m + @a.
 */
static __always_inline void chachapoly_one_call(const struct chacha_impl *ci,
						const u32 *state, u8 *m,
						u8 *out, unsigned int a,
						unsigned int len,
						unsigned int macblocks,
						bool encrypt, u8 *tag)
{
#ifdef __x86_64__
	u8 *text = m + CHACHAPOLY_ONESHOT_AD_MAX;
	u8 *dst = encrypt ? text : out + CHACHAPOLY_ONESHOT_AD_MAX;

	if (ci->needs & CHACHA_CPU_AVX512)
		chachapoly_small_avx512vl(state, dst, text, len, m + a,
					  macblocks, tag);
	else
		chachapoly_small_avx2(state, dst, text, len, m + a, macblocks,
				      tag);
#else
	(void)ci;	/* chachapoly_oneshot_one_call() is false here */
	(void)state;
	(void)m;
	(void)out;
	(void)a;
	(void)len;
	(void)macblocks;
	(void)encrypt;
	(void)tag;
#endif
}

void chachapoly_oneshot(const struct chacha_impl *ci,
			const struct poly1305_impl *pi, const u32 *key,
			const u8 nonce[CHACHAPOLY_NONCE_BYTES], u8 *m, u8 *out,
			unsigned int adlen, unsigned int len, bool encrypt,
			bool simd_usable, u8 tag[CHACHAPOLY_TAG_BYTES])
{
	/* All written before they are read. */
	u8 head[CHACHAPOLY_ONESHOT_AD_MAX] __uninitialized;
	u8 key0[POLY1305_CORE_KEY_BYTES] __uninitialized;
	u32 state[CHACHA_STATE_WORDS] __uninitialized;
	struct poly1305_core_state st __uninitialized;
	struct chacha_simd_save buf __uninitialized;
	struct chacha_simd_save *save = sizeof(buf) ? &buf : NULL;
	unsigned int n = CHACHA_BLOCK_BYTES + round_up(len, CHACHA_BLOCK_BYTES);
	unsigned int a = chachapoly_oneshot_ad(adlen);
	/*
	 * A SIMD section where the whole key stream, block 0 included,
	 * would take one in chacha_calibrate()'s measure.  On a Rocket
	 * Lake that chose scalar C up to 64 B, a 16 B text through SSSE3
	 * costs 629 TSC cycles in a section and 762 in scalar C.
	 */
	bool simd = chacha_request_simd(ci, n, simd_usable);
	/* Poly1305's SIMD function where it pays, as chachapoly_blocks(). */
	unsigned int nblocks = chachapoly_mac_blocks(adlen, len);
	poly1305_blocks_fn fn = simd && pi->simd &&
				nblocks >= pi->simd_min_blocks ? pi->simd :
								 pi->scalar;
	bool one_call = simd && chachapoly_oneshot_one_call(ci, pi, nblocks,
							    len);
	bool tagged;

	BUILD_BUG_ON(CHACHAPOLY_ONESHOT_AD_MAX != CHACHA_BLOCK_BYTES);
	chachapoly_init_state(state, key, nonce);
	if (one_call) {
		/*
		 * Block 0 stays in registers, so @m keeps the AD and no key
		 * stream lands anywhere: the padding and the lengths first,
		 * then the request in one call, the tag included.
		 */
		chachapoly_pad_lens(m, adlen, len, 0);
		chacha_simd_begin(save);
		chachapoly_one_call(ci, state, m, out, a, len,
				    nblocks - PLANTED(ONECALL), encrypt, tag);
		chacha_simd_end(save);
		chacha_wipe8(state, sizeof(state));
		return;
	}
	if (simd)
		chacha_simd_begin(save);
	/*
	 * Encrypting, block 0 over where the AD goes, the text's key stream
	 * over the text, in place in whole blocks: one call, no XOR pass.
	 * The AD waits in @head, then covers what is left of block 0.
	 * Decrypting, one call from @m to @out: block 0 over the AD's place,
	 * the plaintext from block 1.  @m keeps the ciphertext for Poly1305,
	 * and no XOR pass follows.
	 */
	if (encrypt)
		memcpy(head, m, sizeof(head));
	if (simd)
		chachapoly_chacha(ci, pi, state, encrypt ? m : out, m, n,
				  false);
	else
		chacha_crypt_request(ci, state, encrypt ? m : out, m, n, 20,
				     false);
	if (encrypt) {
		/*
		 * Block 0 went over what @head keeps: XORing that out gives
		 * the key, with no zeros stored first for the core to load.
		 */
		chachapoly_xor_wipe(key0, head, m, sizeof(key0), sizeof(key0));
		oot_poly1305_init(&st, key0);
		chacha_wipe8(key0, sizeof(key0));
		memcpy(m, head, sizeof(head));
		chachapoly_pad_lens(m, adlen, len, n - CHACHA_BLOCK_BYTES);
	} else {
		chachapoly_xor_wipe(key0, m, out, sizeof(key0),
				    CHACHA_BLOCK_BYTES);
		oot_poly1305_init(&st, key0);
		chacha_wipe8(key0, sizeof(key0));
		/* Past the text, block n's key stream XOR what @m held. */
		chachapoly_zero_tail(out + CHACHA_BLOCK_BYTES, len,
				     n - CHACHA_BLOCK_BYTES);
		if (PLANTED(DECAUTH))
			memcpy(m + CHACHA_BLOCK_BYTES, out + CHACHA_BLOCK_BYTES,
			       len);
		chachapoly_pad_lens(m, adlen, len, 0);
	}
	tagged = poly1305_call_emit(&st, fn, m + a, nblocks - PLANTED(ONESHOT),
				    tag);
	if (simd)
		chacha_simd_end(save);
	if (!tagged)
		oot_poly1305_emit(&st, tag);
	chacha_wipe8(state, sizeof(state));
	chacha_wipe8(&st, sizeof(st));
}
