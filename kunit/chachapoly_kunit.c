// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the module's rfc7539(chacha20,poly1305) and
 * rfc7539esp(chacha20,poly1305) AEADs, for each ChaCha implementation
 * with each Poly1305 implementation this CPU runs, forced into the
 * registered drivers through the test-only interface.  The reference is
 * the kernel's rfc7539 template on its generic drivers (7.x: chacha20-lib
 * and the Poly1305 library); no expected result comes from the code under
 * test.
 */

#include <crypto/aead.h>
#include <crypto/internal/simd.h>
#include <crypto/poly1305.h>
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/simd.h>

#include "../chacha20poly1305_core.h"
#include "../compat.h"
#include "chacha20_simd_test.h"

#define CP_TAG		CHACHAPOLY_TAG_BYTES
#define CP_MAX_TEXT	(3 * CHACHA_SIMD_CHUNK + 100)
#define CP_MAX_AD	600
#define CP_GUARD	64	/* bytes after dst's last entry that must stay */
#define CP_CANARY	0x5c
#define CP_MAX_SG	24

/*
 * cp_nosimd: the module's requests run as where SIMD is unusable
 * (testmgr's switch, preemption off, the request may not sleep).
 */
static bool cp_no_simd;

struct cp_alg {
	const char *name;
	const char *refs[2];
	unsigned int keylen;
	unsigned int ivsize;
	unsigned int adskip;	/* bytes at the AD's end not authenticated */
};

static const struct cp_alg cp_algs[] = {
	{ "rfc7539(chacha20,poly1305)",
	  { "rfc7539(chacha20-generic,poly1305-generic)",
	    "rfc7539(chacha20-lib,poly1305-generic)" }, 32, 12, 0 },
	{ "rfc7539esp(chacha20,poly1305)",
	  { "rfc7539esp(chacha20-generic,poly1305-generic)",
	    "rfc7539esp(chacha20-lib,poly1305-generic)" }, 36, 8, 8 },
};

#define CP_NALGS	ARRAY_SIZE(cp_algs)

/* A ChaCha and a Poly1305 implementation of the module. */
struct cp_pair {
	const struct chacha_impl *ci;
	const struct poly1305_impl *pi;
};

#define CP_MAX_PAIRS	32
static struct cp_pair cp_pairs[CP_MAX_PAIRS];

struct cp_ctx {
	const struct chacha_impl *prev_ci;
	const struct poly1305_impl *prev_pi;
	char name[48];
	struct crypto_aead *ours[CP_NALGS];
	struct crypto_aead *ref[CP_NALGS];
};

/* Every pair of implementations this CPU runs. */
static const void *cp_pair_gen(COMPAT_KUNIT_GEN_TEST const void *prev,
			       char *desc)
{
	const struct cp_pair *p = prev ? (const struct cp_pair *)prev + 1 :
					 cp_pairs;
	unsigned int i, j, n = 0;

	if (!prev) {
		const struct chacha_impl *ci;
		const struct poly1305_impl *pi;

		memset(cp_pairs, 0, sizeof(cp_pairs));
		for (i = 0; (ci = chacha_test_impl(i)); i++)
			for (j = 0; (pi = chacha_test_poly(j)); j++)
				if (!IS_ERR(ci) && !IS_ERR(pi) &&
				    n < CP_MAX_PAIRS - 1)
					cp_pairs[n++] = (struct cp_pair){ ci, pi };
	}
	if (!p->ci)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s+%s", p->ci->name,
		 p->pi->name);
	return p;
}

static int cp_init(struct kunit *test)
{
	struct cp_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	const struct cp_pair *p = test->param_value;
	unsigned int a, r;

	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	cp_no_simd = false;
	ctx->prev_ci = chacha_test_set_impl(p->ci);
	if (IS_ERR(ctx->prev_ci))
		return PTR_ERR(ctx->prev_ci);
	ctx->prev_pi = chacha_test_set_poly(p->pi);
	if (IS_ERR(ctx->prev_pi)) {
		chacha_test_set_impl(ctx->prev_ci);
		return PTR_ERR(ctx->prev_pi);
	}
	snprintf(ctx->name, sizeof(ctx->name), "%s+%s", p->ci->name,
		 p->pi->name);
	for (a = 0; a < CP_NALGS; a++) {
		ctx->ours[a] = crypto_alloc_aead(cp_algs[a].name, 0, 0);
		if (IS_ERR(ctx->ours[a])) {
			ctx->ours[a] = NULL;
			continue;
		}
		for (r = 0; r < ARRAY_SIZE(cp_algs[a].refs); r++) {
			ctx->ref[a] = crypto_alloc_aead(cp_algs[a].refs[r], 0,
							0);
			if (!IS_ERR(ctx->ref[a]))
				break;
			ctx->ref[a] = NULL;
		}
	}
	return 0;
}

static void cp_exit(struct kunit *test)
{
	struct cp_ctx *ctx = test->priv;
	unsigned int a;

	for (a = 0; a < CP_NALGS; a++) {
		if (ctx->ours[a])
			crypto_free_aead(ctx->ours[a]);
		if (ctx->ref[a])
			crypto_free_aead(ctx->ref[a]);
	}
	chacha_test_set_poly(ctx->prev_pi);
	chacha_test_set_impl(ctx->prev_ci);
}

/* Ours and the template for algorithm @a, both keyed with @key. */
static void cp_tfms(struct kunit *test, unsigned int a, const u8 *key)
{
	struct cp_ctx *ctx = test->priv;
	const char *drv;

	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->ours[a], "no %s",
				  cp_algs[a].name);
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->ref[a], "no %s",
				  cp_algs[a].refs[0]);
	drv = crypto_aead_driver_name(ctx->ours[a]);
	KUNIT_ASSERT_TRUE_MSG(test, strstr(drv, "-oot"),
			      "%s resolves to %s", cp_algs[a].name, drv);
	KUNIT_ASSERT_EQ(test, crypto_aead_setkey(ctx->ours[a], key,
						 cp_algs[a].keylen), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setkey(ctx->ref[a], key,
						 cp_algs[a].keylen), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setauthsize(ctx->ours[a], CP_TAG),
			0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setauthsize(ctx->ref[a], CP_TAG), 0);
}

static int cp_run_ctx(struct crypto_aead *tfm, struct scatterlist *src,
		      struct scatterlist *dst, unsigned int assoclen,
		      unsigned int cryptlen, const u8 *iv, bool decrypt,
		      bool nosimd)
{
	struct aead_request *req = aead_request_alloc(tfm, GFP_KERNEL);
	u8 ivbuf[CHACHAPOLY_NONCE_BYTES];
	int err;

	if (!req)
		return -ENOMEM;
	memcpy(ivbuf, iv, crypto_aead_ivsize(tfm));
	aead_request_set_callback(req, nosimd ? 0 : CRYPTO_TFM_REQ_MAY_SLEEP,
				  NULL, NULL);
	aead_request_set_ad(req, assoclen);
	aead_request_set_crypt(req, src, dst, cryptlen, ivbuf);
#ifdef COMPAT_CRYPTO_SIMD_TEST_SWITCH
	if (nosimd) {
		preempt_disable();
		__this_cpu_write(crypto_simd_disabled_for_test, true);
	}
#endif
	err = decrypt ? crypto_aead_decrypt(req) : crypto_aead_encrypt(req);
#ifdef COMPAT_CRYPTO_SIMD_TEST_SWITCH
	if (nosimd) {
		__this_cpu_write(crypto_simd_disabled_for_test, false);
		preempt_enable();
	}
#endif
	aead_request_free(req);
	return err;
}

static int cp_run(struct crypto_aead *tfm, struct scatterlist *src,
		  struct scatterlist *dst, unsigned int assoclen,
		  unsigned int cryptlen, const u8 *iv, bool decrypt)
{
	return cp_run_ctx(tfm, src, dst, assoclen, cryptlen, iv, decrypt,
			  false);
}

/* One linear buffer through the template. */
static int cp_ref(struct kunit *test, unsigned int a, u8 *buf,
		  unsigned int assoclen, unsigned int cryptlen, const u8 *iv,
		  bool decrypt)
{
	struct cp_ctx *ctx = test->priv;
	struct scatterlist sg;

	sg_init_one(&sg, buf, assoclen + cryptlen + (decrypt ? 0 : CP_TAG));
	return cp_run(ctx->ref[a], &sg, &sg, assoclen, cryptlen, iv, decrypt);
}

/*
 * @buf cut into @n random entries (empty ones too) covering @len bytes,
 * in @sg; with @n 1, one entry.
 */
static void cp_cut(struct scatterlist *sg, u8 *buf, unsigned int len,
		   unsigned int n)
{
	unsigned int i, off = 0;

	sg_init_table(sg, n);
	for (i = 0; i < n; i++) {
		unsigned int piece = len - off;

		if (i + 1 < n && piece)
			piece = get_random_u32() % (piece + 1) /
				(get_random_u32() % 4 + 1);
		sg_set_buf(&sg[i], buf + off, piece);
		off += piece;
	}
}

static bool cp_same(struct kunit *test, const u8 *got, const u8 *want,
		    unsigned int len, const char *what, unsigned int a,
		    unsigned int adlen, unsigned int textlen)
{
	struct cp_ctx *ctx = test->priv;
	unsigned int i;

	for (i = 0; i < len && got[i] == want[i]; i++)
		;
	if (i == len)
		return true;
	KUNIT_FAIL(test, "%s %s, AD %u, text %u: %s: byte %u is %02x, want %02x",
		   ctx->name, cp_algs[a].name, adlen, textlen, what, i, got[i],
		   want[i]);
	return false;
}

static bool cp_guard_ok(struct kunit *test, const u8 *p, unsigned int a,
			const char *what)
{
	unsigned int i;

	for (i = 0; i < CP_GUARD; i++)
		if (p[i] != CP_CANARY) {
			KUNIT_FAIL(test, "%s: %s wrote byte %u past dst",
				   cp_algs[a].name, what, i);
			return false;
		}
	return true;
}

/*
 * One random request of @a, encrypted by ours (in place or not, through
 * random scatterlists) and by the template, then the template's
 * ciphertext decrypted by ours; with @forge, one authenticated bit of it
 * flipped first: -EBADMSG from both, and dst's text all zero from ours.
 */
static bool cp_one(struct kunit *test, unsigned int a, unsigned int adlen,
		   unsigned int textlen, bool inplace, bool forge)
{
	const struct cp_alg *al = &cp_algs[a];
	struct cp_ctx *ctx = test->priv;
	unsigned int total = adlen + textlen + CP_TAG, ns, nd;
	struct scatterlist *sgs, *sgd;
	u8 key[36], iv[12], *src, *ref, *dst;
	bool ok = false;
	int err;

	get_random_bytes(key, sizeof(key));
	get_random_bytes(iv, sizeof(iv));
	cp_tfms(test, a, key);
	src = kmalloc(total, GFP_KERNEL);
	ref = kmalloc(total, GFP_KERNEL);
	dst = kmalloc(total + CP_GUARD, GFP_KERNEL);
	sgs = kmalloc_array(2 * CP_MAX_SG, sizeof(*sgs), GFP_KERNEL);
	if (!src || !ref || !dst || !sgs)
		goto out;
	sgd = sgs + CP_MAX_SG;
	get_random_bytes(src, adlen + textlen);
	memcpy(ref, src, adlen + textlen);
	err = cp_ref(test, a, ref, adlen, textlen, iv, false);
	KUNIT_ASSERT_EQ(test, err, 0);

	/* Encryption */
	ns = 1 + get_random_u32() % CP_MAX_SG;
	nd = 1 + get_random_u32() % CP_MAX_SG;
	memset(dst, CP_CANARY, total + CP_GUARD);
	if (inplace)
		memcpy(dst, src, adlen + textlen);
	cp_cut(sgs, inplace ? dst : src, inplace ? total : adlen + textlen, ns);
	cp_cut(sgd, dst, total, nd);
	err = cp_run_ctx(ctx->ours[a], sgs, inplace ? sgs : sgd, adlen,
			 textlen, iv, false, cp_no_simd);
	if (err) {
		KUNIT_FAIL(test, "%s %s: encryption: %d", ctx->name, al->name,
			   err);
		goto out;
	}
	if (!cp_same(test, dst, ref, total, "encryption (AD copied too)", a,
		     adlen, textlen) ||
	    !cp_guard_ok(test, dst + total, a, "encryption"))
		goto out;

	/* Decryption of the template's ciphertext */
	if (forge) {
		unsigned int auth = adlen - al->adskip, i;

		i = get_random_u32() % (auth + textlen + CP_TAG);
		if (i >= auth)
			i += al->adskip;
		ref[i] ^= 1 << (get_random_u32() % 8);
	}
	memset(dst, CP_CANARY, total + CP_GUARD);
	if (inplace)
		memcpy(dst, ref, total);
	cp_cut(sgs, inplace ? dst : ref, total, ns);
	cp_cut(sgd, dst, adlen + textlen, nd);
	err = cp_run_ctx(ctx->ours[a], sgs, inplace ? sgs : sgd, adlen,
			 textlen + CP_TAG, iv, true, cp_no_simd);
	if (forge) {
		int want;

		want = cp_ref(test, a, ref, adlen, textlen + CP_TAG, iv, true);
		if (err != -EBADMSG || want != -EBADMSG) {
			KUNIT_FAIL(test, "%s %s, AD %u, text %u: forgery: %d, template %d",
				   ctx->name, al->name, adlen, textlen, err,
				   want);
			goto out;
		}
		memset(ref, 0, textlen);
		ok = cp_same(test, dst + adlen, ref, textlen,
			     "text left in dst after -EBADMSG", a, adlen,
			     textlen);
	} else {
		if (err) {
			KUNIT_FAIL(test, "%s %s, AD %u, text %u: decryption: %d",
				   ctx->name, al->name, adlen, textlen, err);
			goto out;
		}
		ok = cp_same(test, dst, src, adlen + textlen, "decryption", a,
			     adlen, textlen);
	}
	ok = ok && cp_guard_ok(test, dst + (inplace ? total : adlen + textlen),
			       a, "decryption");
out:
	kfree(src);
	kfree(ref);
	kfree(dst);
	kfree(sgs);
	KUNIT_ASSERT_TRUE(test, ok);
	return ok;
}

static unsigned int cp_rand_below(unsigned int n)
{
	return get_random_u32() % n;
}

/* Random requests, both algorithms, in place and out of place. */
static void cp_random(struct kunit *test)
{
	unsigned int a, i;

	for (a = 0; a < CP_NALGS; a++)
		for (i = 0; i < 60; i++)
			cp_one(test, a, cp_algs[a].adskip +
			       cp_rand_below(i % 4 ? 40 : CP_MAX_AD),
			       cp_rand_below(i % 8 ? 1500 : CP_MAX_TEXT), i % 2,
			       false);
}

/* Lengths around blocks, the one pass's limits and SIMD sections. */
static void cp_lengths(struct kunit *test)
{
	static const unsigned int lens[] = {
		0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 448, 449, 511,
		512, 576, 577, 1420,
		CHACHA_SIMD_CHUNK - 1, CHACHA_SIMD_CHUNK, CHACHA_SIMD_CHUNK + 1,
		2 * CHACHA_SIMD_CHUNK + 17,
	};
	unsigned int a, i;

	for (a = 0; a < CP_NALGS; a++)
		for (i = 0; i < ARRAY_SIZE(lens); i++)
			cp_one(test, a, cp_algs[a].adskip + i % 21, lens[i],
			       i % 3 == 0, false);
}

/* Forgeries: -EBADMSG and no plaintext left in dst. */
static void cp_forgeries(struct kunit *test)
{
	unsigned int a, i;

	for (a = 0; a < CP_NALGS; a++)
		for (i = 0; i < 40; i++)
			cp_one(test, a, cp_algs[a].adskip + cp_rand_below(40),
			       cp_rand_below(i % 4 ? 600 : CP_MAX_TEXT), i % 2,
			       true);
}

/* The same result whatever the call returns: @what of ours and the template. */
static void cp_same_err(struct kunit *test, int ours, int ref,
			const char *what, unsigned int a, unsigned int n)
{
	KUNIT_EXPECT_EQ_MSG(test, ours, ref, "%s %s %u", cp_algs[a].name, what,
			    n);
	KUNIT_EXPECT_NE_MSG(test, ours, 0, "%s %s %u", cp_algs[a].name, what,
			    n);
}

/*
 * Bad keys, tag sizes and lengths fail as the template's do.  The text is
 * on the heap: a scatterlist may not point at a stack that vmalloc maps
 * (arm64's skcipher walk oopses on it in flush_dcache_page()).
 */
static void cp_bad_input(struct kunit *test)
{
	struct cp_ctx *ctx = test->priv;
	u8 key[48] = { 0 }, iv[12] = { 0 }, *buf;
	const unsigned int buflen = 64;
	unsigned int a, n;

	buf = kunit_kzalloc(test, buflen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	for (a = 0; a < CP_NALGS; a++) {
		struct crypto_aead *ours = ctx->ours[a], *ref = ctx->ref[a];

		cp_tfms(test, a, key);
		for (n = 0; n <= sizeof(key); n++)
			if (n != cp_algs[a].keylen)
				cp_same_err(test, crypto_aead_setkey(ours, key, n),
					    crypto_aead_setkey(ref, key, n),
					    "setkey", a, n);
		for (n = 0; n <= 16; n++)
			if (n != CP_TAG)
				cp_same_err(test,
					    crypto_aead_setauthsize(ours, n),
					    crypto_aead_setauthsize(ref, n),
					    "setauthsize", a, n);
		cp_tfms(test, a, key);
		for (n = 0; n < CP_TAG; n++) {
			struct scatterlist sg;

			sg_init_one(&sg, buf, buflen);
			cp_same_err(test,
				    cp_run(ours, &sg, &sg, 0, n, iv, true),
				    cp_run(ref, &sg, &sg, 0, n, iv, true),
				    "decryption of cryptlen", a, n);
		}
		for (n = 0; n < cp_algs[a].adskip; n++) {
			struct scatterlist sg;

			sg_init_one(&sg, buf, buflen);
			cp_same_err(test,
				    cp_run(ours, &sg, &sg, n, 16, iv, false),
				    cp_run(ref, &sg, &sg, n, 16, iv, false),
				    "encryption of assoclen", a, n);
			cp_same_err(test,
				    cp_run(ours, &sg, &sg, n, 32, iv, true),
				    cp_run(ref, &sg, &sg, n, 32, iv, true),
				    "decryption of assoclen", a, n);
		}
	}
}

/* SIMD sections: none for scalar ChaCha, one per CHACHA_SIMD_CHUNK else. */
static void cp_sections(struct kunit *test)
{
	const struct cp_pair *p = test->param_value;
	unsigned int a;

	for (a = 0; a < CP_NALGS; a++) {
		unsigned long before = chacha_test_simd_sections(), n;

		cp_one(test, a, cp_algs[a].adskip + 13, 4 * CHACHA_SIMD_CHUNK,
		       false, false);
		n = chacha_test_simd_sections() - before;
		/* Two passes: encryption and decryption. */
		if (p->ci->cores[0].blocks)
			KUNIT_EXPECT_GE(test, n, 2 * 4UL);
		else
			KUNIT_EXPECT_EQ(test, n, 0UL);

		/*
		 * A short request: one section each way, block 0 and the
		 * text's key stream and Poly1305 all in it (chachapoly_small()).
		 * The kernel's library Poly1305 takes the walk.
		 */
		before = chacha_test_simd_sections();
		cp_one(test, a, cp_algs[a].adskip + 13, 256, false, false);
		n = chacha_test_simd_sections() - before;
		if (!p->pi->lib)
			KUNIT_EXPECT_EQ(test, n,
					p->ci->cores[0].blocks ? 2UL : 0UL);
	}
}

/* Where SIMD is unusable (testmgr's switch): correct, and no section. */
static void cp_nosimd(struct kunit *test)
{
#ifdef COMPAT_CRYPTO_SIMD_TEST_SWITCH
	unsigned int a, i;

	for (a = 0; a < CP_NALGS; a++)
		for (i = 0; i < 12; i++) {
			unsigned long before = chacha_test_simd_sections();

			cp_no_simd = true;
			cp_one(test, a, cp_algs[a].adskip + i, 700 * i + i,
			       i % 2, i % 3 == 0);
			cp_no_simd = false;
			KUNIT_EXPECT_EQ(test, chacha_test_simd_sections() - before,
					0UL);
		}
#else
	kunit_skip(test, "needs CRYPTO_MANAGER_EXTRA_TESTS or CRYPTO_SELFTESTS_FULL");
#endif
}

/* The plain names reach the module's drivers, named after the pair loaded. */
static void cp_names(struct kunit *test)
{
	struct cp_ctx *ctx = test->priv;
	unsigned int a;

	for (a = 0; a < CP_NALGS; a++) {
		const char *drv;

		KUNIT_ASSERT_NOT_NULL(test, ctx->ours[a]);
		drv = crypto_aead_driver_name(ctx->ours[a]);
		KUNIT_EXPECT_TRUE_MSG(test, !strncmp(drv, "rfc7539", 7) &&
				      strstr(drv, "-oot"),
				      "%s resolves to %s", cp_algs[a].name, drv);
		KUNIT_EXPECT_EQ(test, crypto_aead_ivsize(ctx->ours[a]),
				cp_algs[a].ivsize);
		KUNIT_EXPECT_EQ(test, crypto_aead_maxauthsize(ctx->ours[a]),
				CP_TAG);
		KUNIT_EXPECT_FALSE(test, crypto_aead_get_flags(ctx->ours[a]) &
				   CRYPTO_ALG_ASYNC);
	}
}

/*
 * The pair's Poly1305 block functions alone, on the limb edges that random
 * keys never reach (so neither the AEAD cases nor testmgr's vectors do):
 * r = 1..5 or every clamped bit, s 0, all ones or random, and messages
 * that leave h just below p = 2^130 - 5, in [p, 2^130) and past 2^130
 * before the final reduction (after 0, 8 or 16 blocks that add up to p,
 * so that the eight-lane code takes them too).  Against the kernel's
 * Poly1305 library.
 */
static void cp_poly1305_one(struct kunit *test, const struct cp_pair *p,
			    bool simd, const u8 *key, const u8 *msg,
			    unsigned int nblocks, const char *what)
{
	struct poly1305_desc_ctx desc;
	u8 want[POLY1305_DIGEST_SIZE], got[POLY1305_CORE_MAC_BYTES];

	poly1305_init(&desc, key);
	poly1305_update(&desc, msg, nblocks * POLY1305_CORE_BLOCK_BYTES);
	poly1305_final(&desc, want);
	chacha_test_poly1305(p->pi, simd, key, msg, nblocks, got);
	KUNIT_EXPECT_TRUE_MSG(test, !memcmp(got, want, sizeof(got)),
			      "poly1305 %s%s: %s, %u blocks: tag %*phN, want %*phN",
			      p->pi->name, simd ? " (SIMD)" : "", what, nblocks,
			      (int)sizeof(got), got, (int)sizeof(want), want);
}

static void cp_poly1305_edges(struct kunit *test)
{
	static const u8 firsts[] = { 0x00, 0xff, 0x01, 0xfe };
	const struct cp_pair *p = test->param_value;
	u8 key[POLY1305_CORE_KEY_BYTES], *msg;
	unsigned int r, sk, pre, last, pfx, i, n, k;
	char what[64];

	msg = kunit_kmalloc(test, 19 * POLY1305_CORE_BLOCK_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	/* r 1-6, s 3 kinds, pre 0-4, last f0..ff by 3, pfx 0, 8, 16 */
	for (k = 0; k < 6 * 3 * 5 * 6 * 3; k++) {
		r = 1 + k % 6;
		sk = k / 6 % 3;
		pre = k / 18 % 5;
		last = 0xf0 + 3 * (k / 90 % 6);
		pfx = 8 * (k / 540);
		memset(key, 0, 16);
		if (r <= 5)
			key[0] = r;
		else
			memcpy(key, "\xff\xff\xff\x0f\xfc\xff\xff\x0f"
				    "\xfc\xff\xff\x0f\xfc\xff\xff\x0f", 16);
		if (sk == 2)
			get_random_bytes(key + 16, 16);
		else
			memset(key + 16, sk ? 0xff : 0, 16);
		for (i = 0; i < pfx; i++) {
			memset(msg + 16 * i, 0xff, 16);
			if (i % 2)
				msg[16 * i] = 0xfc;
		}
		n = pfx;
		/* pre: none, or one or two edge blocks before the last */
		if (pre) {
			memset(msg + 16 * n, pre % 2 ? 0xff : 0, 16);
			msg[16 * n++] = firsts[pre - 1];
		}
		if (pre > 2) {
			memset(msg + 16 * n, 0xff, 16);
			msg[16 * n++] = firsts[4 - pre + 2 - 1];
		}
		memset(msg + 16 * n, 0xff, 16);
		msg[16 * n++] = last;
		snprintf(what, sizeof(what), "r %u s %u pre %u last %02x", r,
			 sk, pre, last);
		cp_poly1305_one(test, p, false, key, msg, n, what);
		if (p->pi->simd)
			cp_poly1305_one(test, p, true, key, msg, n, what);
	}
}

#ifdef CONFIG_FAILSLAB
#define CP_FS_AD	20
#define CP_FS_TEXT	(CHACHAPOLY_ONESHOT_MAX + 300)

/*
 * @len bytes of @buf in entries of 1 to 64 bytes, a pattern that @seed
 * shifts, in @sg (room for @len entries).
 */
static void cp_cut_small(struct scatterlist *sg, u8 *buf, unsigned int len,
			 unsigned int seed)
{
	unsigned int n = 0, off = 0;

	sg_init_table(sg, len);
	while (off < len) {
		unsigned int piece = min(len - off, 1 + (seed + 29 * n) % 64);

		sg_set_buf(&sg[n++], buf + off, piece);
		off += piece;
	}
	sg_mark_end(&sg[n - 1]);
}

struct cp_fs {
	unsigned int a;
	bool decrypt, inplace, sleep;
};

/*
 * One way of failing the walk's allocations in turn (@f): requests of
 * CP_FS_AD bytes of AD and CP_FS_TEXT of text in entries of 1-64 bytes,
 * the nth slab allocation failed for n = 1, 2, ... until a request makes
 * no more.  Each either succeeds with the template's bytes, or fails with
 * -ENOMEM and, decrypting, leaves no plaintext: zeros where the text was.
 * Nothing past dst changes.  Returns how many requests had an allocation
 * fail.
 */
static unsigned int cp_failslab_one(struct kunit *test, const struct cp_fs *f,
				    const u8 *plain, const u8 *ct,
				    const u8 *key, const u8 *iv)
{
	const unsigned int in_len = CP_FS_AD + CP_FS_TEXT +
				    (f->decrypt ? CP_TAG : 0);
	const unsigned int out_len = CP_FS_AD + CP_FS_TEXT +
				     (f->decrypt ? 0 : CP_TAG);
	const unsigned int total = CP_FS_AD + CP_FS_TEXT + CP_TAG;
	const u8 *in = f->decrypt ? ct : plain, *want = f->decrypt ? plain : ct;
	struct cp_ctx *ctx = test->priv;
	struct crypto_aead *tfm = ctx->ours[f->a];
	struct aead_request *req;
	struct scatterlist *sgs, *sgd;
	unsigned int nth, failed = 0;
	u8 *src, *dst, ivbuf[CHACHAPOLY_NONCE_BYTES];

	src = kunit_kmalloc(test, total, GFP_KERNEL);
	dst = kunit_kmalloc(test, total + CP_GUARD, GFP_KERNEL);
	sgs = kunit_kmalloc_array(test, 2 * total, sizeof(*sgs), GFP_KERNEL);
	req = aead_request_alloc(tfm, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, src && dst && sgs && req);
	sgd = sgs + total;
	for (nth = 1; nth < 100; nth++) {
		const char *what = "";
		bool injected;
		int err;

		memcpy(src, in, in_len);
		memset(dst, CP_CANARY, total + CP_GUARD);
		if (f->inplace)
			memcpy(dst, in, in_len);
		cp_cut_small(sgs, f->inplace ? dst : src, total, nth);
		cp_cut_small(sgd, dst, out_len, nth + 7);
		memcpy(ivbuf, iv, cp_algs[f->a].ivsize);
		aead_request_set_callback(req, f->sleep ?
					  CRYPTO_TFM_REQ_MAY_SLEEP : 0,
					  NULL, NULL);
		aead_request_set_ad(req, CP_FS_AD);
		aead_request_set_crypt(req, sgs, f->inplace ? sgs : sgd,
				       in_len - CP_FS_AD, ivbuf);
		current->fail_nth = nth;
		err = f->decrypt ? crypto_aead_decrypt(req) :
				   crypto_aead_encrypt(req);
		injected = !current->fail_nth;
		current->fail_nth = 0;
		failed += injected;
		if (!cp_guard_ok(test, dst + (f->inplace ? total : out_len),
				 f->a, "a request with an allocation failed"))
			break;
		if (!err) {
			if (!cp_same(test, dst, want, out_len, injected ?
				     "allocation failed, no error" :
				     "no failure injected", f->a, CP_FS_AD,
				     CP_FS_TEXT))
				break;
		} else if (err != -ENOMEM) {
			KUNIT_FAIL(test, "%s %s: allocation %u failed: %d",
				   ctx->name, cp_algs[f->a].name, nth, err);
			break;
		} else if (f->decrypt) {
			what = "text not zeroed after -ENOMEM";
			if (!memchr_inv(dst + CP_FS_AD, 0, CP_FS_TEXT))
				what = "";
		}
		if (*what) {
			memset(src, 0, CP_FS_TEXT);
			cp_same(test, dst + CP_FS_AD, src, CP_FS_TEXT, what,
				f->a, CP_FS_AD, CP_FS_TEXT);
			break;
		}
		if (!injected)
			break;
	}
	aead_request_free(req);
	return failed;
}

/*
 * Allocation failures inside requests (failslab's fail_nth): both
 * algorithms, encrypting and decrypting, in place and not, with and
 * without CRYPTO_TFM_REQ_MAY_SLEEP (tools/kunit/guest-init.sh has
 * failslab fail allocations that may sleep too).  The reference is the
 * template's ciphertext of the same request.
 */
static void cp_failslab(struct kunit *test)
{
	struct cp_ctx *ctx = test->priv;
	const unsigned int total = CP_FS_AD + CP_FS_TEXT + CP_TAG;
	u8 key[36], iv[CHACHAPOLY_NONCE_BYTES], *plain, *ct;
	unsigned int a, k;

	plain = kunit_kmalloc(test, total, GFP_KERNEL);
	ct = kunit_kmalloc(test, total, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, plain && ct);
	for (a = 0; a < CP_NALGS; a++) {
		get_random_bytes(key, sizeof(key));
		get_random_bytes(iv, sizeof(iv));
		get_random_bytes(plain, CP_FS_AD + CP_FS_TEXT);
		cp_tfms(test, a, key);
		memcpy(ct, plain, CP_FS_AD + CP_FS_TEXT);
		KUNIT_ASSERT_EQ(test, cp_ref(test, a, ct, CP_FS_AD, CP_FS_TEXT,
					     iv, false), 0);
		for (k = 0; k < 8; k++) {
			struct cp_fs f = { a, k & 1, k & 2, k & 4 };
			unsigned int n = cp_failslab_one(test, &f, plain, ct,
							 key, iv);

			KUNIT_EXPECT_GT_MSG(test, n, 0,
					    "%s %s, %s%s%s: no allocation failed",
					    ctx->name, cp_algs[a].name,
					    f.decrypt ? "decrypting" : "encrypting",
					    f.inplace ? ", in place" : "",
					    f.sleep ? ", may sleep" : "");
			if (test->status == KUNIT_FAILURE)
				return;
		}
	}
}
#else
static void cp_failslab(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB");
}
#endif

#define CP_CASE(fn)	KUNIT_CASE_PARAM(fn, cp_pair_gen)

static struct kunit_case cp_cases[] = {
	CP_CASE(cp_names),
	CP_CASE(cp_poly1305_edges),
	CP_CASE(cp_lengths),
	CP_CASE(cp_random),
	CP_CASE(cp_forgeries),
	CP_CASE(cp_bad_input),
	CP_CASE(cp_sections),
	CP_CASE(cp_nosimd),
	CP_CASE(cp_failslab),
	{}
};

static struct kunit_suite cp_suite = {
	.name = "chacha20poly1305_simd_vs_template",
	.init = cp_init,
	.exit = cp_exit,
	.test_cases = cp_cases,
};

kunit_test_suites(&cp_suite);
