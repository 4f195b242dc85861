// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's checks of the one-pass ChaCha20-Poly1305
 * (chacha20poly1305_core.c), for every ChaCha implementation of
 * chacha_impls[] with every Poly1305 of poly1305_impls[] that the CPU
 * runs (a SKIPPED line for each pair it cannot).  Each result is compared
 * with RFC 8439's vectors or with an independent two-pass reference here
 * (ref_chacha.c, then ref_poly1305.c over the MAC data laid out in full),
 * never with the code under test.  A failure line starts "FAIL aead/GROUP
 * CHACHA+POLY":
 *
 *   vector   testmgr.h's rfc7539 and rfc7539esp vectors (RFC 8439 2.8.2
 *            and A.5), encryption and decryption
 *   length   every AD length 0-160 with chosen text lengths, and every
 *            text length 0-AEAD_MAX_TEXT with the AD 0-160 by turns; out of
 *            place at every misalignment mod 8 of src and dst, and in
 *            place; decryption of the reference's ciphertext too, which
 *            must give the plaintext back and the same tag
 *   split    the AD in random pieces, the text in random whole-block steps
 *            and a last step of any length, with and without SIMD, in
 *            place
 *   edge     ciphertext of all-ones blocks, and all-zero blocks, which take
 *            h near and past 2^130 - 5 in the Poly1305 of the text
 *   nosimd   requests as where SIMD is unusable (the scalar path)
 *   wipe     chachapoly_final() leaves the request state all zero, and
 *            chachapoly_oneshot() no key stream beside the plaintext
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "chacha20poly1305_core.h"
#include "harness.h"
#include "ref_chacha.h"
#include "ref_poly1305.h"
#include "testutil.h"

#include "vectors-testmgr-aead.h"

#define AEAD_MAX_AD	160
#define AEAD_MAX_TEXT	4160
#define AEAD_SPLITS	200
#define AEAD_OFF	8
#define AEAD_MAX_PAIRS	(CHACHA_MAX_IMPLS * 4)

static u8 pt_buf[AEAD_OFF + AEAD_MAX_TEXT + 64];
static u8 ct_ref[AEAD_MAX_TEXT + 64];
static u8 out_buf[AEAD_OFF + AEAD_MAX_TEXT + 64];
static u8 back_buf[AEAD_OFF + AEAD_MAX_TEXT + 64];
static u8 mac_buf[AEAD_MAX_AD + 16 + AEAD_MAX_TEXT + 16 + 16];

struct aead_pair {
	const struct chacha_impl *ci;
	const struct poly1305_impl *pi;
	char name[48];
};

static void put_le64(u8 *p, u64 v)
{
	put_le32(p, (u32)v);
	put_le32(p + 4, (u32)(v >> 32));
}

/* RFC 8439 2.8, two passes: ChaCha20 from block 1, then Poly1305. */
static void ref_aead(const u8 *key, const u8 *nonce, const u8 *ad,
		     unsigned int adlen, const u8 *pt, unsigned int len,
		     u8 *ct, u8 tag[16])
{
	u8 input[16] = { 0 }, block0[64];
	size_t n = 0;

	memcpy(input + 4, nonce, 12);
	ref_chacha_block(key, input, 20, block0);
	ref_chacha_xor(key, 1, nonce, 20, pt, ct, len);
	memcpy(mac_buf, ad, adlen);
	n = adlen;
	memset(mac_buf + n, 0, -n % 16);
	n += -n % 16;
	memcpy(mac_buf + n, ct, len);
	n += len;
	memset(mac_buf + n, 0, -n % 16);
	n += -n % 16;
	put_le64(mac_buf + n, adlen);
	put_le64(mac_buf + n + 8, len);
	ref_poly1305(block0, mac_buf, n + 16, tag);
}

/*
 * chachapoly_oneshot() leaves no key stream behind.  Decrypting, @out holds
 * the plaintext and zeros to the end of its last block.  Encrypting, @m
 * holds what @before held up to the AD's end, zeros to the text, then the
 * ciphertext, zeros, the lengths, and zeros to the end of its last block.
 * In one call (@one_call), where no key stream is written, @m and @out
 * hold what @before and @out_before held past the lengths and outside the
 * plaintext.
 */
static void oneshot_check_wiped(const struct aead_pair *p, const u8 *m,
				const u8 *before, const u8 *out,
				const u8 *out_before, unsigned int adlen,
				unsigned int len, bool encrypt, bool one_call)
{
	unsigned int text = CHACHAPOLY_ONESHOT_AD_MAX, i;
	unsigned int ad_end = chachapoly_oneshot_ad(adlen) + adlen;
	unsigned int lens = text + round_up(len, POLY1305_CORE_BLOCK_BYTES);
	unsigned int end = text + round_up(len, CHACHA_BLOCK_BYTES);
	u8 want[CHACHAPOLY_ONESHOT_BYTES] = { 0 };
	bool ok = true;

	if (one_call) {
		end = encrypt ? CHACHAPOLY_ONESHOT_BYTES :
				CHACHAPOLY_ONESHOT_OUT_BYTES;
		memcpy(want, encrypt ? before : out_before, end);
	}
	if (encrypt) {
		memcpy(want, before, ad_end);
		memset(want + ad_end, 0, lens - ad_end);
		put_le64(want + lens, adlen);
		put_le64(want + lens + 8, len);
		if (end < lens + 16)
			end = lens + 16;
	}
	for (i = 0; i < end; i++)
		if ((i < text || i >= text + len) &&
		    (encrypt ? m : out)[i] != want[i])
			ok = false;
	count(ok);
	if (!ok)
		report("aead/wipe %s: one pass, %s, AD %u text %u: key stream left in %s",
		       p->name, encrypt ? "encrypting" : "decrypting", adlen,
		       len, encrypt ? "m" : "out");
}

/*
 * The code under test: AD in pieces of at most @adpiece bytes (0: one),
 * the text in steps of whole blocks of at most @steps blocks (0: one step),
 * the last of any length.
 */
static void run_aead(const struct aead_pair *p, const u8 *key,
		     const u8 *nonce, const u8 *ad, unsigned int adlen,
		     u8 *dst, const u8 *src, unsigned int len, bool encrypt,
		     bool simd, unsigned int adpiece, unsigned int steps,
		     u8 tag[16])
{
	struct chachapoly_req r;
	u32 kw[8];
	unsigned int i, n;
	bool fold;

	for (i = 0; i < 8; i++)
		kw[i] = get_le32(key + 4 * i);
	/*
	 * A request in one piece goes, every other one, through
	 * chachapoly_oneshot() where it fits, as the glue's short requests
	 * do: copied into its layout, with junk where the padding goes.
	 */
	if (!adpiece && !steps && (adlen + len) % 2 == 0 &&
	    chachapoly_oneshot_fits(p->ci, p->pi, adlen, len, encrypt)) {
		u8 m[CHACHAPOLY_ONESHOT_BYTES], before[CHACHAPOLY_ONESHOT_BYTES];
		u8 out[CHACHAPOLY_ONESHOT_OUT_BYTES];
		u8 out_before[CHACHAPOLY_ONESHOT_OUT_BYTES];
		u8 *res = encrypt ? m : out;
		unsigned int n = CHACHA_BLOCK_BYTES +
				 round_up(len, CHACHA_BLOCK_BYTES);
		unsigned int nblocks = chachapoly_mac_blocks(adlen, len);
		bool one_call = chacha_request_simd(p->ci, n, simd) &&
				chachapoly_oneshot_one_call(p->ci, p->pi,
							    nblocks, len);

		rng_fill(m, sizeof(m));
		rng_fill(out, sizeof(out));
		memcpy(m + chachapoly_oneshot_ad(adlen), ad, adlen);
		memcpy(m + CHACHAPOLY_ONESHOT_AD_MAX, src, len);
		memcpy(before, m, sizeof(m));
		memcpy(out_before, out, sizeof(out));
		chachapoly_oneshot(p->ci, p->pi, kw, nonce, m, out, adlen, len,
				   encrypt, simd, tag);
		memcpy(dst, res + CHACHAPOLY_ONESHOT_AD_MAX, len);
		oneshot_check_wiped(p, m, before, out, out_before, adlen, len,
				    encrypt, one_call);
		return;
	}
	chachapoly_start(&r, p->ci, p->pi, kw, nonce);
	for (i = 0; i < adlen; i += n) {
		n = adpiece ? 1 + rng_next() % adpiece : adlen;
		n = min(n, adlen - i);
		chachapoly_ad(&r, ad + i, n);
	}
	if (!adlen && adpiece && rng_next() % 2)
		chachapoly_ad(&r, ad, 0);
	/* The tag from the text's last call, or from chachapoly_final(). */
	fold = rng_next() % 2;
	i = 0;
	do {
		n = len - i;
		if (steps) {
			unsigned int b = rng_next() % (steps + 1);

			if (b * CHACHA_BLOCK_BYTES < n)
				n = b * CHACHA_BLOCK_BYTES;
		}
		chachapoly_crypt(&r, dst + i, src + i, n, encrypt, simd,
				 fold && i + n == len ? tag : NULL);
		i += n;
	} while (i < len);
	if (!fold)
		chachapoly_final(&r, tag);
}

static int check_bytes(const struct aead_pair *p, const char *group,
		       const char *what, const u8 *got, const u8 *want,
		       unsigned int len, unsigned int adlen, unsigned int tlen)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (got[i] != want[i])
			break;
	count(i == len);
	if (i < len)
		report("aead/%s %s: %s, AD %u text %u: byte %u is %02x, expected %02x",
		       group, p->name, what, adlen, tlen, i, got[i], want[i]);
	return i == len ? 0 : -1;
}

/*
 * One request both ways against the reference, for each of @n pairs:
 * encryption at the given offsets (in place if @inplace), then decryption
 * of the reference's ciphertext, which must give the plaintext back under
 * the same tag.
 */
static void check_pairs(const struct aead_pair *pairs, unsigned int n,
			const char *group, const u8 *key, const u8 *nonce,
			const u8 *ad, unsigned int adlen, unsigned int len,
			unsigned int soff, unsigned int doff, bool inplace,
			bool simd, unsigned int adpiece, unsigned int steps)
{
	u8 tag_ref[16], tag[16];
	const u8 *src = pt_buf + soff;
	unsigned int k;

	ref_aead(key, nonce, ad, adlen, src, len, ct_ref, tag_ref);
	for (k = 0; k < n; k++) {
		const struct aead_pair *p = &pairs[k];
		u8 *dst = inplace ? back_buf + soff : out_buf + doff;

		if (inplace)
			memcpy(dst, src, len);
		run_aead(p, key, nonce, ad, adlen, dst, inplace ? dst : src,
			 len, true, simd, adpiece, steps, tag);
		if (check_bytes(p, group, "ciphertext", dst, ct_ref, len, adlen,
				len) ||
		    check_bytes(p, group, "tag", tag, tag_ref, 16, adlen, len))
			continue;

		/* Decryption of the reference's ciphertext. */
		dst = inplace ? back_buf + doff : out_buf + doff;
		memcpy(inplace ? dst : back_buf + soff, ct_ref, len);
		run_aead(p, key, nonce, ad, adlen, dst,
			 inplace ? dst : back_buf + soff, len, false, simd,
			 adpiece, steps, tag);
		if (!check_bytes(p, group, "decryption", dst, src, len, adlen,
				 len))
			check_bytes(p, group, "decryption's tag", tag, tag_ref,
				    16, adlen, len);
	}
}

static void check_one(const struct aead_pair *p, const char *group,
		      const u8 *key, const u8 *nonce, const u8 *ad,
		      unsigned int adlen, unsigned int len, unsigned int soff,
		      unsigned int doff, bool inplace, bool simd,
		      unsigned int adpiece, unsigned int steps)
{
	check_pairs(p, 1, group, key, nonce, ad, adlen, len, soff, doff,
		    inplace, simd, adpiece, steps);
}

static void test_vectors(const struct aead_pair *p)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tm_aead_tv); i++) {
		const struct aead_tv *v = &tm_aead_tv[i];
		unsigned int adlen = v->alen - (v->esp ? 8 : 0);
		u8 nonce[12], tag[16];
		bool simd = i % 2;

		if (v->esp) {
			memcpy(nonce, v->key + 32, 4);
			memcpy(nonce + 4, v->iv, 8);
		} else {
			memcpy(nonce, v->iv, 12);
		}
		run_aead(p, v->key, nonce, v->assoc, adlen, out_buf, v->ptext,
			 v->plen, true, !simd, 0, 0, tag);
		if (check_bytes(p, "vector", v->source, out_buf, v->ctext,
				v->plen, adlen, v->plen) ||
		    check_bytes(p, "vector", v->source, tag, v->ctext + v->plen,
				16, adlen, v->plen))
			continue;
		run_aead(p, v->key, nonce, v->assoc, adlen, out_buf, v->ctext,
			 v->plen, false, simd, 0, 0, tag);
		if (!check_bytes(p, "vector", "decryption", out_buf, v->ptext,
				 v->plen, adlen, v->plen))
			check_bytes(p, "vector", "decryption's tag", tag,
				    v->ctext + v->plen, 16, adlen, v->plen);
	}
}

static const unsigned int chosen_lens[] = {
	0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511,
	1024, 1420, 4095, 4096, 4097, AEAD_MAX_TEXT,
};

/* Every pair on the same requests: the reference runs once for all. */
static void test_lengths(const struct aead_pair *pairs, unsigned int n)
{
	u8 key[32], nonce[12], ad[AEAD_MAX_AD];
	unsigned int adlen, len, i;

	rng_fill(key, sizeof(key));
	rng_fill(nonce, sizeof(nonce));
	rng_fill(ad, sizeof(ad));
	rng_fill(pt_buf, sizeof(pt_buf));
	for (adlen = 0; adlen <= AEAD_MAX_AD; adlen++)
		for (i = 0; i < ARRAY_SIZE(chosen_lens); i++)
			check_pairs(pairs, n, "length", key, nonce, ad, adlen,
				    chosen_lens[i], adlen % AEAD_OFF,
				    i % AEAD_OFF, i % 3 == 0, true, 0, 0);
	for (len = 0; len <= AEAD_MAX_TEXT; len++)
		check_pairs(pairs, n, "length", key, nonce, ad,
			    len % (AEAD_MAX_AD + 1), len, len % AEAD_OFF,
			    (len / AEAD_OFF) % AEAD_OFF, len % 3 == 0, true, 0,
			    0);
}

/*
 * Where an implementation prefers zmm, its key call takes the text by
 * the stride chacha_calibrate() chose (chachapoly_key_core()): every
 * length again for its pairs under each other stride choice, then the
 * widest, the default, back.
 */
static void test_key_strides(const struct aead_pair *pairs, unsigned int n)
{
	struct aead_pair sub[AEAD_MAX_PAIRS];
	unsigned int i, j, k, m;

	for (i = 0; i < chacha_nimpls; i++) {
		const struct chacha_impl *ci = &chacha_impls[i];

		if (!(ci->prefer & CHACHA_CPU_PREFER_ZMM))
			continue;
		for (j = m = 0; j < n; j++)
			if (pairs[j].ci == ci)
				sub[m++] = pairs[j];
		if (!m)
			continue;
		for (k = 1; k < CHACHA_STRIDE_CHOICES && ci->cores[k].blocks;
		     k++) {
			bool ok = !chacha_set_stride(ci, ci->cores[k].blocks);

			count(ok);
			if (!ok) {
				report("aead/stride %s: no %u-block stride",
				       ci->name, ci->cores[k].blocks);
				continue;
			}
			new_group();
			test_lengths(sub, m);
		}
		chacha_set_stride(ci, ci->cores[0].blocks);
	}
}

static void test_splits(const struct aead_pair *p)
{
	u8 key[32], nonce[12], ad[AEAD_MAX_AD];
	unsigned int i;

	for (i = 0; i < AEAD_SPLITS; i++) {
		unsigned int adlen = rng_next() % (AEAD_MAX_AD + 1);
		unsigned int len = rng_next() % (AEAD_MAX_TEXT + 1);

		rng_fill(key, sizeof(key));
		rng_fill(nonce, sizeof(nonce));
		rng_fill(ad, sizeof(ad));
		rng_fill(pt_buf, sizeof(pt_buf));
		check_one(p, "split", key, nonce, ad, adlen, len,
			  rng_next() % AEAD_OFF, rng_next() % AEAD_OFF, i % 2,
			  i % 4 != 3, 1 + rng_next() % 20,
			  1 + rng_next() % 70);
	}
}

/*
 * Ciphertext of all ones (the plaintext is the key stream's complement)
 * and of all zeros: every block is then 2^129 - 1 or 2^128, and h runs
 * near 2^130 - 5 and past it.
 */
static void test_edges(const struct aead_pair *p)
{
	static const unsigned int lens[] = { 16, 64, 128, 256, 1024, 4096 };
	u8 key[32], nonce[12], ad[16];
	unsigned int i, k, fill;

	for (i = 0; i < 2 * ARRAY_SIZE(lens); i++) {
		unsigned int len = lens[i / 2];

		fill = i % 2 ? 0xff : 0;
		rng_fill(key, sizeof(key));
		rng_fill(nonce, sizeof(nonce));
		memset(ad, fill, sizeof(ad));
		memset(pt_buf, 0, len);
		ref_chacha_xor(key, 1, nonce, 20, pt_buf, pt_buf, len);
		for (k = 0; k < len; k++)
			pt_buf[k] ^= fill;
		check_one(p, "edge", key, nonce, ad, 16, len, 0, 0, false,
			  true, 0, 0);
	}
}

static void test_nosimd(const struct aead_pair *p)
{
	u8 key[32], nonce[12], ad[AEAD_MAX_AD];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(chosen_lens); i++) {
		rng_fill(key, sizeof(key));
		rng_fill(nonce, sizeof(nonce));
		rng_fill(ad, sizeof(ad));
		rng_fill(pt_buf, sizeof(pt_buf));
		check_one(p, "nosimd", key, nonce, ad, i * 3 % AEAD_MAX_AD,
			  chosen_lens[i], i % AEAD_OFF, 0, i % 2, false, 0, 0);
	}
}

static void test_wipe(const struct aead_pair *p)
{
	static const struct chachapoly_req zero;
	struct chachapoly_req r;
	u32 kw[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	u8 nonce[12] = { 9 }, tag[16];

	chachapoly_start(&r, p->ci, p->pi, kw, nonce);
	chachapoly_ad(&r, nonce, 5);
	chachapoly_crypt(&r, pt_buf, pt_buf, 100, true, true, NULL);
	chachapoly_final(&r, tag);
	count(!memcmp(&r, &zero, sizeof(r)));
	if (memcmp(&r, &zero, sizeof(r)))
		report("aead/wipe %s: the request state is not zero", p->name);
	/* The same with the tag from the text's last call. */
	chachapoly_start(&r, p->ci, p->pi, kw, nonce);
	chachapoly_ad(&r, nonce, 5);
	chachapoly_crypt(&r, pt_buf, pt_buf, 100, true, true, tag);
	count(!memcmp(&r, &zero, sizeof(r)));
	if (memcmp(&r, &zero, sizeof(r)))
		report("aead/wipe %s: the request state is not zero after the last call",
		       p->name);
}

void test_aead(void)
{
	struct aead_pair pairs[AEAD_MAX_PAIRS];
	unsigned int i, j, n = 0, before;

	for (i = 0; i < chacha_nimpls; i++) {
		for (j = 0; j < poly1305_nimpls && n < AEAD_MAX_PAIRS; j++) {
			struct aead_pair *p = &pairs[n];
			const char *missing = NULL;

			p->ci = &chacha_impls[i];
			p->pi = &poly1305_impls[j];
			snprintf(p->name, sizeof(p->name), "%s+%s", p->ci->name,
				 p->pi->name);
			if (!cpu_has_features(p->ci->needs | p->pi->needs,
					      &missing)) {
				printf("SKIPPED aead %s: this CPU lacks %s\n",
				       p->name, missing);
				count_skipped();
				continue;
			}
			n++;
		}
	}
#ifdef __x86_64__
	/* For aead-mutate: whether its onecall fault can show here. */
	for (i = 0; i < n; i++)
		if (chachapoly_oneshot_one_call(pairs[i].ci, pairs[i].pi, 1, 0))
			break;
	if (i == n)
		printf("SKIPPED aead onecall: no pair here makes a request in one call\n");
	/* And its keytext fault: an AVX-512 pair computes block 0 late. */
	for (i = 0; i < n; i++)
		if ((pairs[i].ci->needs & CHACHA_CPU_AVX512) && !pairs[i].pi->lib)
			break;
	if (i == n)
		printf("SKIPPED aead keytext: no pair here has the key entries\n");
#endif
	before = harness_failed();
	new_group();
	test_lengths(pairs, n);
	test_key_strides(pairs, n);
	for (i = 0; i < n; i++) {
		new_group();
		test_vectors(&pairs[i]);
		new_group();
		test_splits(&pairs[i]);
		new_group();
		test_edges(&pairs[i]);
		new_group();
		test_nosimd(&pairs[i]);
		test_wipe(&pairs[i]);
	}
	printf("  aead: %u pairs of ChaCha and Poly1305 implementations, %u checks failed\n",
	       n, harness_failed() - before);
}
