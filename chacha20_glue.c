// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20, XChaCha20 and XChaCha12 skciphers on SIMD cores, with scalar C
 * for tails, tiny requests and contexts where SIMD is not usable.
 *
 * Byte-for-byte compatible with the kernel's *-generic drivers, including
 * the 32-bit block counter that wraps with no carry into the nonce.
 *
 * The skcipher glue only: chacha20_main.c registers them on the
 * implementation and at the priority that chacha20_policy.c chose.
 */

#include <crypto/algapi.h>
#include <crypto/internal/simd.h>
#include <crypto/internal/skcipher.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <asm/simd.h>

#include "chacha20_core.h"
#include "chacha20_glue.h"
#include "chacha20_policy.h"

struct chacha_tfm_ctx {
	u32 key[CHACHA_KEY_BYTES / sizeof(u32)];
	unsigned int nrounds;
};

static int chacha_stream_xor(struct skcipher_request *req, const u32 *key,
			     const u8 *iv, unsigned int nrounds)
{
	const struct chacha_impl *ci = READ_ONCE(chacha_impl);
	struct skcipher_walk walk;
	u32 state[CHACHA_STATE_WORDS] __uninitialized;	/* chacha_init_state() */
	int err;

	err = skcipher_walk_virt(&walk, req, false);
	chacha_init_state(state, key, iv);

	while (walk.nbytes) {
		unsigned int n = walk.nbytes;

		/* Only the last step may end inside a block. */
		if (n < walk.total)
			n = round_down(n, CHACHA_BLOCK_BYTES);

		chacha_crypt_request(ci, state, walk.dst.virt.addr,
				     walk.src.virt.addr, n, nrounds,
				     crypto_simd_usable());
		err = skcipher_walk_done(&walk, walk.nbytes - n);
	}

	memzero_explicit(state, sizeof(state));
	return err;
}

static int chacha_setkey(struct crypto_skcipher *tfm, const u8 *key,
			 unsigned int keylen, unsigned int nrounds)
{
	struct chacha_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);

	if (keylen != CHACHA_KEY_BYTES)
		return -EINVAL;

	chacha_le32_words(ctx->key, key, ARRAY_SIZE(ctx->key));
	ctx->nrounds = nrounds;
	return 0;
}

static int chacha20_setkey(struct crypto_skcipher *tfm, const u8 *key,
			   unsigned int keylen)
{
	return chacha_setkey(tfm, key, keylen, 20);
}

static int chacha12_setkey(struct crypto_skcipher *tfm, const u8 *key,
			   unsigned int keylen)
{
	return chacha_setkey(tfm, key, keylen, 12);
}

/*
 * XChaCha: HChaCha of the key and the first 16 IV bytes gives a subkey;
 * the stream then starts from IV bytes 24-31 (counter) and 16-23 (nonce).
 */
static int xchacha_stream_xor(struct skcipher_request *req,
			      const struct chacha_tfm_ctx *ctx)
{
	/* Each written whole before it is read: no auto-init zero-fill. */
	u32 state[CHACHA_STATE_WORDS] __uninitialized;
	u32 subkey[CHACHA_KEY_BYTES / sizeof(u32)] __uninitialized;
	u8 iv[CHACHA_IV_BYTES] __uninitialized;
	int err;

	chacha_init_state(state, ctx->key, req->iv);
	hchacha_block_scalar(state, subkey, ctx->nrounds);
	memcpy(&iv[0], req->iv + 24, 8);
	memcpy(&iv[8], req->iv + 16, 8);

	err = chacha_stream_xor(req, subkey, iv, ctx->nrounds);

	memzero_explicit(state, sizeof(state));
	memzero_explicit(subkey, sizeof(subkey));
	return err;
}

/* Encryption and decryption are the same XOR. */
static int chacha_skcipher_crypt(struct skcipher_request *req)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	struct chacha_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);

	if (crypto_skcipher_ivsize(tfm) == XCHACHA_IV_BYTES)
		return xchacha_stream_xor(req, ctx);
	return chacha_stream_xor(req, ctx->key, req->iv, ctx->nrounds);
}

#define CHACHA_ALG(alg, ivbytes, setkeyfn) {			\
	.base.cra_name		= alg,					\
	.base.cra_blocksize	= 1,					\
	.base.cra_ctxsize	= sizeof(struct chacha_tfm_ctx),	\
	.base.cra_module	= THIS_MODULE,				\
	.min_keysize		= CHACHA_KEY_BYTES,			\
	.max_keysize		= CHACHA_KEY_BYTES,			\
	.ivsize			= ivbytes,				\
	.chunksize		= CHACHA_BLOCK_BYTES,			\
	.setkey			= setkeyfn,				\
	.encrypt		= chacha_skcipher_crypt,		\
	.decrypt		= chacha_skcipher_crypt,		\
}

static struct skcipher_alg chacha_algs[] = {
	CHACHA_ALG("chacha20", CHACHA_IV_BYTES, chacha20_setkey),
	CHACHA_ALG("xchacha20", XCHACHA_IV_BYTES, chacha20_setkey),
	CHACHA_ALG("xchacha12", XCHACHA_IV_BYTES, chacha12_setkey),
};

int __init chacha_skcipher_register(const struct chacha_impl *ci,
				    int priority)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(chacha_algs); i++) {
		struct crypto_alg *base = &chacha_algs[i].base;

		base->cra_priority = priority;
		snprintf(base->cra_driver_name, sizeof(base->cra_driver_name),
			 "%s-%s-" DRIVER_SUFFIX, base->cra_name, ci->name);
	}
	return crypto_register_skciphers(chacha_algs, ARRAY_SIZE(chacha_algs));
}

void chacha_skcipher_unregister(void)
{
	crypto_unregister_skciphers(chacha_algs, ARRAY_SIZE(chacha_algs));
}

MODULE_ALIAS_CRYPTO("chacha20");
MODULE_ALIAS_CRYPTO("xchacha20");
MODULE_ALIAS_CRYPTO("xchacha12");

/* Every driver name the module can register, so users may ask for one. */
MODULE_ALIAS_CRYPTO("chacha20-scalar-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha20-scalar-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha12-scalar-" DRIVER_SUFFIX);
#ifdef CONFIG_X86_64
MODULE_ALIAS_CRYPTO("chacha20-sse2-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha20-sse2-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha12-sse2-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("chacha20-ssse3-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha20-ssse3-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha12-ssse3-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("chacha20-avx2-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha20-avx2-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha12-avx2-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("chacha20-avx512vl-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha20-avx512vl-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha12-avx512vl-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("chacha20-avx512-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha20-avx512-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha12-avx512-" DRIVER_SUFFIX);
#endif
#if defined(CONFIG_ARM64) && !defined(CONFIG_CPU_BIG_ENDIAN)
MODULE_ALIAS_CRYPTO("chacha20-neon-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha20-neon-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha12-neon-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("chacha20-neon4-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha20-neon4-" DRIVER_SUFFIX);
MODULE_ALIAS_CRYPTO("xchacha12-neon4-" DRIVER_SUFFIX);
#endif
