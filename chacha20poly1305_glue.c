// SPDX-License-Identifier: GPL-2.0
/*
 * The rfc7539(chacha20,poly1305) and rfc7539esp(chacha20,poly1305) AEADs
 * in one walk over the text (chacha20poly1305_core.c), on the ChaCha
 * implementation the skciphers use and the best Poly1305 of the CPU.
 *
 * Byte for byte the kernel's rfc7539 template (crypto/chacha20poly1305.c):
 * the same key, IV and AD layouts and the same errors, and out of place
 * the AD copied to dst as the template does from 6.16 on; except that a
 * decryption that fails leaves zeros, not plaintext, where the text was
 * in dst: a wrong tag, or an error of the walk part-way.
 */

#include <crypto/algapi.h>
#include <crypto/internal/aead.h>
#include <crypto/internal/simd.h>
#include <crypto/internal/skcipher.h>
#include <crypto/scatterwalk.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/string.h>
#include <asm/simd.h>

#include "chacha20poly1305_core.h"
#include "chacha20_glue.h"
#include "chacha20_policy.h"
#include "kunit/chacha20_simd_test.h"

#define CHACHAPOLY_SALT_BYTES	4	/* rfc7539esp: the key's last 4 */
#define CHACHAPOLY_ESP_IV_BYTES	8

#ifdef CHACHA_TEST_HOOKS
static const struct poly1305_impl *chachapoly_pi;
#else
static const struct poly1305_impl *chachapoly_pi __ro_after_init;
#endif

struct chachapoly_tfm_ctx {
	u32 key[CHACHAPOLY_KEY_BYTES / sizeof(u32)];
	u8 salt[CHACHAPOLY_SALT_BYTES];
};

/* rfc7539esp has an 8-byte IV and the salt; rfc7539 a 12-byte IV. */
static bool chachapoly_is_esp(struct crypto_aead *tfm)
{
	return crypto_aead_ivsize(tfm) == CHACHAPOLY_ESP_IV_BYTES;
}

static int chachapoly_setkey(struct crypto_aead *tfm, const u8 *key,
			     unsigned int keylen)
{
	struct chachapoly_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	unsigned int saltlen = chachapoly_is_esp(tfm) ? CHACHAPOLY_SALT_BYTES
						      : 0;

	if (keylen != CHACHAPOLY_KEY_BYTES + saltlen)
		return -EINVAL;
	chacha_le32_words(ctx->key, key, ARRAY_SIZE(ctx->key));
	memcpy(ctx->salt, key + CHACHAPOLY_KEY_BYTES, saltlen);
	return 0;
}

static int chachapoly_setauthsize(struct crypto_aead *tfm,
				  unsigned int authsize)
{
	return authsize == CHACHAPOLY_TAG_BYTES ? 0 : -EINVAL;
}

/*
 * sg_miter_start() on all of @sg, with no sg_nents() first: that walks
 * the whole list, a call and a loop per request.  The iterator stops
 * where sg_nents() would, at the entry after which sg_next() gives NULL,
 * and each caller stops at its own length before.
 */
static __always_inline void chachapoly_miter_start(struct sg_mapping_iter *m,
						   struct scatterlist *sg,
						   unsigned int flags)
{
	sg_miter_start(m, sg, UINT_MAX, COMPAT_SG_MITER_MAP | flags);
}

/*
 * Copy @n bytes from @buf into the scatterlist of @m, from where @m
 * stands.  Each page is mapped and unmapped in turn, inside the caller's
 * mapping of @buf's page: the mappings nest.
 */
static void chachapoly_sg_copy_to(struct sg_mapping_iter *m, const u8 *buf,
				  unsigned int n)
{
	while (n && sg_miter_next(m)) {
		unsigned int k = min_t(size_t, m->length, n);

		memcpy(m->addr, buf, k);
		m->consumed = k;
		buf += k;
		n -= k;
	}
	sg_miter_stop(m);
}

/*
 * The AD, from the front of req->src, in one pass over each list: its
 * first @adlen bytes authenticated straight from the pages (rfc7539esp
 * leaves out the IV at its end), all of them copied to req->dst out of
 * place, as the template does from 6.16 on.
 */
static void chachapoly_hash_ad(struct chachapoly_req *r,
			       struct aead_request *req, unsigned int adlen)
{
	/* Both written by sg_miter_start() before use. */
	struct sg_mapping_iter src __uninitialized, dst __uninitialized;
	bool copy = req->dst != req->src;
	unsigned int off = 0;

	if (!req->assoclen)
		return;
	chachapoly_miter_start(&src, req->src, SG_MITER_FROM_SG);
	if (copy)
		chachapoly_miter_start(&dst, req->dst, SG_MITER_TO_SG);
	while (off < req->assoclen && sg_miter_next(&src)) {
		unsigned int n = min_t(size_t, src.length,
				       req->assoclen - off);

		if (off < adlen)
			chachapoly_ad(r, src.addr, min(n, adlen - off));
		if (copy)
			chachapoly_sg_copy_to(&dst, src.addr, n);
		src.consumed = n;
		off += n;
	}
	sg_miter_stop(&src);
}

/* -EINVAL for an rfc7539esp request whose AD cannot hold the IV. */
static int chachapoly_check_ad(struct aead_request *req)
{
	if (chachapoly_is_esp(crypto_aead_reqtfm(req)) &&
	    req->assoclen < CHACHAPOLY_ESP_IV_BYTES)
		return -EINVAL;
	return 0;
}

/*
 * The nonce of @req: rfc7539's IV, or rfc7539esp's salt and IV.  Returns
 * the AD's bytes that Poly1305 reads: rfc7539esp's AD ends in the IV,
 * which is not authenticated.
 */
static __always_inline unsigned int
chachapoly_nonce(struct aead_request *req, u8 nonce[CHACHAPOLY_NONCE_BYTES])
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct chachapoly_tfm_ctx *ctx = crypto_aead_ctx(tfm);

	if (!chachapoly_is_esp(tfm)) {
		memcpy(nonce, req->iv, CHACHAPOLY_NONCE_BYTES);
		return req->assoclen;
	}
	memcpy(nonce, ctx->salt, CHACHAPOLY_SALT_BYTES);
	memcpy(nonce + CHACHAPOLY_SALT_BYTES, req->iv,
	       CHACHAPOLY_ESP_IV_BYTES);
	return req->assoclen - CHACHAPOLY_ESP_IV_BYTES;
}

/* A stretch of a buffer that a scatterlist copy fills or empties. */
struct chachapoly_piece {
	u8 *buf;
	unsigned int len;
};

/*
 * Copy between @sg, from byte @skip on, and the @n pieces @p in turn:
 * into them (@from_sg) or out of them.  One pass over the list, each page
 * mapped once.  Returns -EINVAL if the list ends first.
 */
static int chachapoly_sg_pieces(struct scatterlist *sg, unsigned int skip,
				const struct chachapoly_piece *p,
				unsigned int n, bool from_sg)
{
	/* Written by sg_miter_start() before use. */
	struct sg_mapping_iter m __uninitialized;
	unsigned int k = 0, off = 0;

	while (k < n && !p[k].len)
		k++;
	if (k == n)
		return 0;
	chachapoly_miter_start(&m, sg, from_sg ? SG_MITER_FROM_SG :
						 SG_MITER_TO_SG);
	if (skip && !sg_miter_skip(&m, skip))
		goto out;
	while (k < n && sg_miter_next(&m)) {
		size_t used = 0;

		while (k < n && used < m.length) {
			unsigned int c = min_t(size_t, m.length - used,
					       p[k].len - off);

			if (from_sg)
				memcpy(p[k].buf + off, m.addr + used, c);
			else
				memcpy(m.addr + used, p[k].buf + off, c);
			used += c;
			off += c;
			for (; k < n && off == p[k].len; off = 0)
				k++;
		}
		m.consumed = used;
	}
out:
	sg_miter_stop(&m);
	return k < n ? -EINVAL : 0;
}

/*
 * A short request, where chachapoly_oneshot_fits(): copied from req->src
 * into one buffer on the stack laid out for chachapoly_oneshot(), done
 * there at once, and copied to req->dst.  No walk and no allocation.
 * Decrypting, @want is the tag received.  As chachapoly_walk(), out of
 * place the AD goes to dst too, and a failed decryption leaves zeros where
 * the text goes.
 */
static int chachapoly_small(struct aead_request *req, bool encrypt,
			    unsigned int textlen,
			    const struct chacha_impl *ci,
			    const struct poly1305_impl *pi)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct chachapoly_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	/* Filled from req->src or by chachapoly_oneshot() before use. */
	u8 m[CHACHAPOLY_ONESHOT_BYTES] __uninitialized;
	u8 out[CHACHAPOLY_ONESHOT_OUT_BYTES] __uninitialized;
	u8 tag[CHACHAPOLY_TAG_BYTES], want[CHACHAPOLY_TAG_BYTES];
	u8 nonce[CHACHAPOLY_NONCE_BYTES];
	unsigned int adlen = chachapoly_nonce(req, nonce);
	u8 *text = m + CHACHAPOLY_ONESHOT_AD_MAX;
	/* What goes to dst: in place in @m, decrypting from @out. */
	u8 *res = (encrypt ? m : out) + CHACHAPOLY_ONESHOT_AD_MAX;
	u8 *wipe = encrypt ? m : res;
	/* The IV at the AD's end, for rfc7539esp; in m's lengths' place. */
	u8 *iv = text + round_up(textlen, POLY1305_CORE_BLOCK_BYTES);
	bool copy = req->dst != req->src;
	struct chachapoly_piece p[] = {
		{ m + chachapoly_oneshot_ad(adlen), adlen },
		{ iv, req->assoclen - adlen },
		{ text, textlen },
		{ encrypt ? tag : want, CHACHAPOLY_TAG_BYTES },
	};
	struct chachapoly_piece w[] = { { res, textlen }, { tag, sizeof(tag) } };
	bool simd = crypto_simd_usable();
	int err;

	/* Decrypting, the text and the tag received; encrypting, the text. */
	err = chachapoly_sg_pieces(req->src, 0, p, ARRAY_SIZE(p) - encrypt,
				   true);
	/* Out of place, the AD goes to dst before the lengths take m's IV. */
	if (!err && copy)
		err = chachapoly_sg_pieces(req->dst, 0, p, 2, false);
	if (!err) {
		chachapoly_oneshot(ci, pi, ctx->key, nonce, m, out, adlen,
				   textlen, encrypt, simd, tag);
		if (encrypt)
			wipe = res + textlen;
	}
	if (!encrypt) {
		if (!err && crypto_memneq(tag, want, sizeof(tag)))
			err = -EBADMSG;
		if (err)
			memzero_explicit(res, textlen);
	}
	/* The text, and the tag encrypting; nothing to write, dst untouched. */
	if (!err || (!encrypt && textlen)) {
		int werr = chachapoly_sg_pieces(req->dst, req->assoclen, w,
						1 + encrypt, false);

		err = err ?: werr;
	}
	/*
	 * The plaintext: decrypting in @out, where chachapoly_oneshot() leaves
	 * zeros or what @out held around it, and @m holds only what came in.  Encrypting, in @m
	 * if chachapoly_oneshot() did not run.  After it, @m holds the
	 * ciphertext, the AD, zeros and the lengths, and @wipe nothing.
	 */
	if (wipe != res + textlen)
		memzero_explicit(wipe, res + textlen - wipe);
	memzero_explicit(tag, sizeof(tag));
	memzero_explicit(want, sizeof(want));
	memzero_explicit(nonce, sizeof(nonce));
	return err;
}

/*
 * One request, checked by chachapoly_check_ad().  @textlen: the text's
 * bytes, without the tag.  Returns the walk's error; the tag of the
 * ciphertext in @tag.
 */
static int chachapoly_walk(struct aead_request *req, bool encrypt,
			   unsigned int textlen, const struct chacha_impl *ci,
			   const struct poly1305_impl *pi,
			   u8 tag[CHACHAPOLY_TAG_BYTES])
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	const struct chachapoly_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	bool simd = crypto_simd_usable();
	struct chachapoly_req r __uninitialized;	/* chachapoly_start() */
	u8 nonce[CHACHAPOLY_NONCE_BYTES];
	unsigned int adlen = chachapoly_nonce(req, nonce);
	struct skcipher_walk walk;
	bool tagged = false;
	int err;

	if (encrypt)
		err = skcipher_walk_aead_encrypt(&walk, req, false);
	else
		err = skcipher_walk_aead_decrypt(&walk, req, false);

	chachapoly_start(&r, ci, pi, ctx->key, nonce);
	chachapoly_hash_ad(&r, req, adlen);

	while (walk.nbytes) {
		unsigned int n = walk.nbytes;
		u8 *last = tag;

		/*
		 * Only the last step may end inside a block.  The last one
		 * writes the tag too.
		 */
		if (n < walk.total) {
			n = round_down(n, CHACHA_BLOCK_BYTES);
			last = NULL;
		}
		chachapoly_crypt(&r, walk.dst.virt.addr, walk.src.virt.addr,
				 n, encrypt, simd, last);
		tagged = !!last;
		err = skcipher_walk_done(&walk, walk.nbytes - n);
	}

	/* No text, or an error on the way: the tag is still to come. */
	if (!tagged)
		chachapoly_final(&r, tag);
	memzero_explicit(nonce, sizeof(nonce));
	return err;
}

/*
 * The request's pair, the module's choice or the user's: the Poly1305 for
 * @textlen bytes of text.
 */
static __always_inline const struct chacha_impl *
chachapoly_pair(unsigned int textlen, const struct poly1305_impl **pi)
{
	const struct chacha_impl *ci = READ_ONCE(chacha_impl);

	*pi = chachapoly_poly_for(ci, READ_ONCE(chachapoly_pi), textlen);
	return ci;
}

static int chachapoly_encrypt(struct aead_request *req)
{
	const struct poly1305_impl *pi;
	const struct chacha_impl *ci = chachapoly_pair(req->cryptlen, &pi);
	u8 tag[CHACHAPOLY_TAG_BYTES];
	int err = chachapoly_check_ad(req);

	if (err)
		return err;
	if (chachapoly_oneshot_fits(ci, pi, req->assoclen, req->cryptlen,
				    true))
		return chachapoly_small(req, true, req->cryptlen, ci, pi);
	err = chachapoly_walk(req, true, req->cryptlen, ci, pi, tag);
	if (!err)
		scatterwalk_map_and_copy(tag, req->dst,
					 req->assoclen + req->cryptlen,
					 sizeof(tag), 1);
	memzero_explicit(tag, sizeof(tag));
	return err;
}

static int chachapoly_decrypt(struct aead_request *req)
{
	u8 tag[CHACHAPOLY_TAG_BYTES], want[CHACHAPOLY_TAG_BYTES];
	const struct poly1305_impl *pi;
	const struct chacha_impl *ci;
	unsigned int textlen;
	int err = chachapoly_check_ad(req);

	if (!err && req->cryptlen < CHACHAPOLY_TAG_BYTES)
		err = -EINVAL;
	if (err)
		return err;
	textlen = req->cryptlen - CHACHAPOLY_TAG_BYTES;
	ci = chachapoly_pair(textlen, &pi);
	if (chachapoly_oneshot_fits(ci, pi, req->assoclen, textlen, false))
		return chachapoly_small(req, false, textlen, ci, pi);
	/* Before the walk: in place, the text's last step may be next to it. */
	scatterwalk_map_and_copy(want, req->src, req->assoclen + textlen,
				 sizeof(want), 0);

	err = chachapoly_walk(req, false, textlen, ci, pi, tag);
	if (!err && crypto_memneq(tag, want, sizeof(tag)))
		err = -EBADMSG;
	/*
	 * No plaintext stays behind: not a forgery's, and not the part that
	 * a walk which failed on the way (an allocation) wrote unverified.
	 * With no text there is nothing to zero, and dst is not touched.
	 */
	if (err && textlen)
		sg_zero_buffer(req->dst, sg_nents(req->dst), textlen,
			       req->assoclen);
	memzero_explicit(tag, sizeof(tag));
	memzero_explicit(want, sizeof(want));
	return err;
}

#define CHACHAPOLY_ALG(alg, ivbytes) {					\
	.base.cra_name		= alg,					\
	.base.cra_blocksize	= 1,					\
	.base.cra_ctxsize	= sizeof(struct chachapoly_tfm_ctx),	\
	.base.cra_module	= THIS_MODULE,				\
	.ivsize			= ivbytes,				\
	.maxauthsize		= CHACHAPOLY_TAG_BYTES,			\
	.chunksize		= CHACHA_BLOCK_BYTES,			\
	.setkey			= chachapoly_setkey,			\
	.setauthsize		= chachapoly_setauthsize,		\
	.encrypt		= chachapoly_encrypt,			\
	.decrypt		= chachapoly_decrypt,			\
}

static struct aead_alg chachapoly_algs[] = {
	CHACHAPOLY_ALG("rfc7539(chacha20,poly1305)", CHACHAPOLY_NONCE_BYTES),
	CHACHAPOLY_ALG("rfc7539esp(chacha20,poly1305)",
		       CHACHAPOLY_ESP_IV_BYTES),
};

/* Driver names: rfc7539-<chacha impl>-<poly1305 impl>-oot, ... */
static const char *const chachapoly_prefix[] = { "rfc7539", "rfc7539esp" };

/* Whether chachapoly_register() registered the AEADs. */
static bool chachapoly_registered __ro_after_init;

int __init chachapoly_register(const struct chacha_impl *ci,
			       const struct poly1305_impl *pi, int priority)
{
	int i, err;

	BUILD_BUG_ON(ARRAY_SIZE(chachapoly_prefix) !=
		     ARRAY_SIZE(chachapoly_algs));
	chachapoly_pi = pi;
	for (i = 0; i < ARRAY_SIZE(chachapoly_algs); i++) {
		struct crypto_alg *base = &chachapoly_algs[i].base;

		base->cra_priority = priority;
		snprintf(base->cra_driver_name, sizeof(base->cra_driver_name),
			 "%s-%s-%s-" DRIVER_SUFFIX, chachapoly_prefix[i],
			 ci->name, pi->name);
	}
	err = crypto_register_aeads(chachapoly_algs,
				    ARRAY_SIZE(chachapoly_algs));
	chachapoly_registered = !err;
	return err;
}

void chachapoly_unregister(void)
{
	if (chachapoly_registered)
		crypto_unregister_aeads(chachapoly_algs,
					ARRAY_SIZE(chachapoly_algs));
}

#ifdef CHACHA_TEST_HOOKS
/* The test-only interface of kunit/chacha20_simd_test.h. */
const struct poly1305_impl *
chacha_test_set_poly(const struct poly1305_impl *p)
{
	if (p < poly1305_impls || p >= poly1305_impls + poly1305_nimpls ||
	    (p->needs & chacha_cpu_features()) != p->needs)
		return ERR_PTR(-EINVAL);
	return xchg(&chachapoly_pi, p);
}
EXPORT_SYMBOL_NS_GPL(chacha_test_set_poly, CHACHA_TEST_NS);

void chacha_test_poly1305(const struct poly1305_impl *p, bool simd,
			  const u8 *key, const u8 *msg, unsigned int nblocks,
			  u8 *mac)
{
	struct poly1305_core_state st;

	oot_poly1305_init(&st, key);
	if (simd && p->simd) {
		struct chacha_simd_save save;

		chacha_simd_begin(&save);
		p->simd(&st, msg, nblocks, 1);
		chacha_simd_end(&save);
	} else {
		p->scalar(&st, msg, nblocks, 1);
	}
	oot_poly1305_emit(&st, mac);
	memzero_explicit(&st, sizeof(st));
}
EXPORT_SYMBOL_NS_GPL(chacha_test_poly1305, CHACHA_TEST_NS);
#endif

/*
 * Where the AEADs are registered: a lookup that finds no driver loads the
 * module (dm-crypt, IPsec and kTLS ask for these names).  Not on arm64,
 * where most CPUs get no AEAD of the module's.
 */
#ifdef CONFIG_X86_64
MODULE_ALIAS_CRYPTO("rfc7539(chacha20,poly1305)");
MODULE_ALIAS_CRYPTO("rfc7539esp(chacha20,poly1305)");
#endif

/*
 * The AEAD driver names of the pairs a CPU gets by default, as the
 * skciphers have theirs (chacha20_glue.c), so that users may ask for one:
 * rfc7539-<ChaCha20>-<Poly1305>-oot and rfc7539esp-...  A pair that only
 * impl= or poly1305= makes exists once the module is loaded.
 */
#ifdef CONFIG_X86_64
MODULE_ALIAS_CRYPTO("rfc7539-sse2-c-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-sse2-c-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539-ssse3-c-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-ssse3-c-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539-ssse3-mulx-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-ssse3-mulx-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539-avx2-c-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-avx2-c-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539-avx2-mulx-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-avx2-mulx-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539-avx512vl-mulx-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-avx512vl-mulx-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539-avx512-mulx-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-avx512-mulx-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539-avx512-ifma-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-avx512-ifma-" DRIVER_SUFFIX);
#endif
#if defined(CONFIG_ARM64) && !defined(CONFIG_CPU_BIG_ENDIAN)
MODULE_ALIAS_CRYPTO("rfc7539-neon-arm64-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-neon-arm64-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539-neon4-arm64-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("rfc7539esp-neon4-arm64-" DRIVER_SUFFIX);
#endif
