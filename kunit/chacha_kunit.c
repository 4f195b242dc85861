// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of chacha20_simd from inside the kernel.
 *
 * Every case that takes a parameter runs once for each implementation
 * this CPU can run (scalar, sse2, ... from chacha_impls[]), forced into the
 * registered drivers through the main module's test-only interface
 * (chacha20_simd_test.h).  The references are the RFC 8439 and XChaCha
 * vectors of tests/vectors.h and the kernel's own drivers (*-generic up to
 * Linux 6.15, *-lib from 6.16 on); no expected result comes from the code
 * under test.
 */

#include <crypto/internal/simd.h>
#include <crypto/internal/skcipher.h>
#include <crypto/skcipher.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/simd.h>

#include "../chacha20_core.h"
#include "../compat.h"
#include "../tests/vectors.h"
#include "chacha20_simd_test.h"

MODULE_IMPORT_NS(CHACHA_TEST_NS);

static char *expect;
module_param(expect, charp, 0444);
MODULE_PARM_DESC(expect,
		 "comma-separated implementations this CPU must be able to run, all others not (default: no check)");

/*
 * The three algorithms and their references: the kernel's generic C
 * driver up to 6.15; from 6.16 on the crypto API's only in-tree driver is
 * *-lib (crypto/chacha.c, over the kernel's ChaCha library).
 */
struct ct_alg {
	const char *name;
	const char *refs[2];
	unsigned int ivsize;
};

static const struct ct_alg ct_algs[] = {
	{ "chacha20", { "chacha20-generic", "chacha20-lib" }, CHACHA_IV_BYTES },
	{ "xchacha20", { "xchacha20-generic", "xchacha20-lib" },
	  XCHACHA_IV_BYTES },
	{ "xchacha12", { "xchacha12-generic", "xchacha12-lib" },
	  XCHACHA_IV_BYTES },
};

#define CT_NALGS	ARRAY_SIZE(ct_algs)
#define CT_MAX_TFMS	16

/* Per test case: the implementation forced, and what to free. */
struct ct_ctx {
	const struct chacha_impl *prev;
	const char *impl;
	const char *loaded;	/* in the driver names */
	struct crypto_skcipher *tfms[CT_MAX_TFMS];
	unsigned int ntfms;
	struct crypto_skcipher *ours[CT_NALGS];
	struct crypto_skcipher *ref[CT_NALGS];
};

/* The parameter generator: every implementation this CPU can run. */
static const void *ct_impl_gen(COMPAT_KUNIT_GEN_TEST const void *prev,
			       char *desc)
{
	const struct chacha_impl *p;
	bool after = !prev;
	unsigned int i;

	for (i = 0; (p = chacha_test_impl(i)); i++) {
		if (IS_ERR(p))
			continue;
		if (after) {
			strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
			return p;
		}
		after = p == prev;
	}
	return NULL;
}

static int ct_init(struct kunit *test)
{
	struct ct_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	const struct chacha_impl *p = test->param_value;

	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	/* The one in effect: chosen at load time, named by the drivers. */
	ctx->prev = chacha_test_set_impl(chacha_test_impl(0));
	if (IS_ERR(ctx->prev))
		return PTR_ERR(ctx->prev);
	ctx->loaded = ctx->prev->name;
	if (!p)
		p = ctx->prev;
	chacha_test_set_impl(p);
	ctx->impl = p->name;
	return 0;
}

static void ct_exit(struct kunit *test)
{
	struct ct_ctx *ctx = test->priv;

	while (ctx->ntfms)
		crypto_free_skcipher(ctx->tfms[--ctx->ntfms]);
	chacha_test_set_impl(ctx->prev);
}

/* A tfm freed after the case; NULL if @name is missing and @may_miss. */
static struct crypto_skcipher *ct_alloc_opt(struct kunit *test,
					    const char *name, bool may_miss)
{
	struct ct_ctx *ctx = test->priv;
	struct crypto_skcipher *tfm;

	KUNIT_ASSERT_LT(test, ctx->ntfms, CT_MAX_TFMS);
	/* Synchronous only: every request below completes on return. */
	tfm = crypto_alloc_skcipher(name, 0, CRYPTO_ALG_ASYNC);
	if (may_miss && PTR_ERR_OR_ZERO(tfm) == -ENOENT)
		return NULL;
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(tfm), "allocating %s: %ld", name,
			       PTR_ERR(tfm));
	ctx->tfms[ctx->ntfms++] = tfm;
	return tfm;
}

static struct crypto_skcipher *ct_alloc(struct kunit *test, const char *name)
{
	return ct_alloc_opt(test, name, false);
}

/*
 * Our driver by its driver name (so that nothing else is tested should a
 * plain name resolve elsewhere: ct_names checks that), and the reference.
 */
static struct crypto_skcipher *ct_ours(struct kunit *test, unsigned int a)
{
	struct ct_ctx *ctx = test->priv;
	char name[CRYPTO_MAX_ALG_NAME];

	if (!ctx->ours[a]) {
		snprintf(name, sizeof(name), "%s-%s-oot", ct_algs[a].name,
			 ctx->loaded);
		ctx->ours[a] = ct_alloc(test, name);
	}
	return ctx->ours[a];
}

static struct crypto_skcipher *ct_ref(struct kunit *test, unsigned int a)
{
	struct ct_ctx *ctx = test->priv;

	if (!ctx->ref[a])
		ctx->ref[a] = ct_alloc_opt(test, ct_algs[a].refs[0], true);
	if (!ctx->ref[a])
		ctx->ref[a] = ct_alloc(test, ct_algs[a].refs[1]);
	return ctx->ref[a];
}

static void ct_setkey(struct kunit *test, struct crypto_skcipher *tfm,
		      const u8 *key)
{
	KUNIT_ASSERT_EQ(test, crypto_skcipher_setkey(tfm, key, CHACHA_KEY_BYTES),
			0);
}

/* One request, on an allocated tfm with its key set; no sleeping if !flags. */
static int ct_run(struct skcipher_request *req, struct scatterlist *dst,
		  struct scatterlist *src, unsigned int len, const u8 *iv,
		  u32 flags, bool decrypt)
{
	u8 ivbuf[XCHACHA_IV_BYTES];

	memcpy(ivbuf, iv, crypto_skcipher_ivsize(crypto_skcipher_reqtfm(req)));
	skcipher_request_set_callback(req, flags, NULL, NULL);
	skcipher_request_set_crypt(req, src, dst, len, ivbuf);
	return decrypt ? crypto_skcipher_decrypt(req) :
			 crypto_skcipher_encrypt(req);
}

static int ct_crypt_sg(struct kunit *test, struct crypto_skcipher *tfm,
		       const u8 *key, const u8 *iv, struct scatterlist *dst,
		       struct scatterlist *src, unsigned int len, bool decrypt)
{
	struct skcipher_request *req;
	int err;

	ct_setkey(test, tfm, key);
	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, req);
	err = ct_run(req, dst, src, len, iv, CRYPTO_TFM_REQ_MAY_SLEEP, decrypt);
	skcipher_request_free(req);
	return err;
}

/* @len bytes from @src to @dst (which may be @src), each in one entry. */
static void ct_crypt(struct kunit *test, struct crypto_skcipher *tfm,
		     const u8 *key, const u8 *iv, u8 *dst, const u8 *src,
		     unsigned int len)
{
	struct scatterlist sgs, sgd;

	sg_init_one(&sgs, src, len);
	sg_init_one(&sgd, dst, len);
	KUNIT_ASSERT_EQ_MSG(test,
			    ct_crypt_sg(test, tfm, key, iv,
					dst == src ? &sgs : &sgd, &sgs, len,
					false),
			    0, "%s, %u bytes", crypto_skcipher_driver_name(tfm),
			    len);
}

/* Fails the case, naming the implementation and the first wrong byte. */
static __printf(5, 6)
bool ct_same(struct kunit *test, const u8 *got, const u8 *want,
	     unsigned int len, const char *fmt, ...)
{
	struct ct_ctx *ctx = test->priv;
	unsigned int i;
	char what[128];
	va_list ap;

	for (i = 0; i < len && got[i] == want[i]; i++)
		;
	if (i == len)
		return true;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	KUNIT_FAIL(test, "impl %s: %s: byte %u of %u is %02x, want %02x",
		   ctx->impl, what, i, len, got[i], want[i]);
	return false;
}

/* A buffer of exactly @len bytes (KASAN sees any access past it). */
static u8 *ct_buf(struct kunit *test, unsigned int len)
{
	u8 *p = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

static u8 *ct_rand_buf(struct kunit *test, unsigned int len)
{
	u8 *p = ct_buf(test, len);

	get_random_bytes(p, len);
	return p;
}

static unsigned int ct_rand_below(unsigned int n)
{
	return n ? get_random_u32() % n : 0;
}

/*
 * Ours (@dst, @len bytes at @src) against generic on the same key and IV;
 * @src must stay unchanged, @dst may equal @src only via @inplace.
 */
static bool ct_check(struct kunit *test, unsigned int a, const u8 *key,
		     const u8 *iv, const u8 *got, const u8 *src,
		     unsigned int len, const char *what)
{
	u8 *want = ct_buf(test, len);
	bool ok;

	ct_crypt(test, ct_ref(test, a), key, iv, want, src, len);
	ok = ct_same(test, got, want, len, "%s %s, %u bytes", ct_algs[a].name,
		     what, len);
	kunit_kfree(test, want);
	return ok;
}

/* One random out-of-place request of @len bytes, ours against generic. */
static bool ct_diff(struct kunit *test, unsigned int a, unsigned int len,
		    const char *what)
{
	u8 key[CHACHA_KEY_BYTES], iv[XCHACHA_IV_BYTES];
	u8 *src = ct_rand_buf(test, len), *dst = ct_buf(test, len);
	bool ok;

	get_random_bytes(key, sizeof(key));
	get_random_bytes(iv, sizeof(iv));
	ct_crypt(test, ct_ours(test, a), key, iv, dst, src, len);
	ok = ct_check(test, a, key, iv, dst, src, len, what);
	kunit_kfree(test, src);
	kunit_kfree(test, dst);
	return ok;
}

/* ---- which implementations, which driver ---- */

static bool ct_expected(const char *name)
{
	size_t n = strlen(name);
	const char *p = expect;

	while (p && *p) {
		const char *end = strchrnul(p, ',');

		if (end - p == n && !strncmp(p, name, n))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static void ct_impls(struct kunit *test)
{
	const struct chacha_impl *p;
	unsigned int i, usable = 0;

	for (i = 0; (p = chacha_test_impl(i)); i++) {
		bool ok = !IS_ERR(p);

		if (ok) {
			kunit_info(test, "implementation %s: tested", p->name);
			usable++;
			if (expect)
				KUNIT_EXPECT_TRUE_MSG(test, ct_expected(p->name),
						      "%s runs here, expect=%s",
						      p->name, expect);
		} else if (expect) {
			kunit_info(test, "implementation %u: not on this CPU", i);
		}
	}
	KUNIT_EXPECT_FALSE(test, IS_ERR(chacha_test_impl(0)));
	KUNIT_EXPECT_STREQ(test, chacha_test_impl(0)->name, "scalar");
	if (expect) {
		const char *q = expect;
		unsigned int n = 0;

		while (*q) {
			n++;
			q = strchrnul(q, ',');
			q += !!*q;
		}
		KUNIT_EXPECT_EQ_MSG(test, usable, n,
				    "implementations runnable here vs expect=%s",
				    expect);
	}
}

/*
 * The plain names resolve to this module, above generic; the driver names
 * say which implementation was chosen at load time.
 */
static void ct_names(struct kunit *test)
{
	unsigned int a;

	for (a = 0; a < CT_NALGS; a++) {
		struct crypto_skcipher *tfm = ct_alloc(test, ct_algs[a].name);
		struct crypto_skcipher *ref = ct_ref(test, a);
		struct skcipher_alg *alg = crypto_skcipher_alg(tfm);

		KUNIT_EXPECT_STREQ(test, module_name(alg->base.cra_module),
				   "chacha20_simd");
		KUNIT_EXPECT_STREQ(test, crypto_skcipher_driver_name(tfm),
				   crypto_skcipher_driver_name(ct_ours(test, a)));
		KUNIT_EXPECT_TRUE_MSG(test,
				      !strcmp(crypto_skcipher_driver_name(ref),
					      ct_algs[a].refs[0]) ||
				      !strcmp(crypto_skcipher_driver_name(ref),
					      ct_algs[a].refs[1]),
				      "reference %s",
				      crypto_skcipher_driver_name(ref));
		KUNIT_EXPECT_GT(test, alg->base.cra_priority,
				crypto_skcipher_alg(ref)->base.cra_priority);
		KUNIT_EXPECT_EQ(test, crypto_skcipher_ivsize(tfm),
				ct_algs[a].ivsize);
	}
	/* Above the in-tree SIMD driver too, where the kernel has one. */
	for (a = 0; a < CT_NALGS; a++) {
		char name[CRYPTO_MAX_ALG_NAME];
		struct crypto_skcipher *simd;

		snprintf(name, sizeof(name), "%s-simd", ct_algs[a].name);
		simd = crypto_alloc_skcipher(name, 0, CRYPTO_ALG_ASYNC);
		if (IS_ERR(simd))
			continue;
		kunit_info(test, "in-tree %s: priority %d", name,
			   crypto_skcipher_alg(simd)->base.cra_priority);
		KUNIT_EXPECT_GT(test,
				crypto_skcipher_alg(ct_ours(test, a))->base.cra_priority,
				crypto_skcipher_alg(simd)->base.cra_priority);
		crypto_free_skcipher(simd);
	}
}

#if defined(CONFIG_ARM64) && !defined(CONFIG_CPU_BIG_ENDIAN)
/*
 * The arm64 policy on CPUs that QEMU cannot be (Cortex-A55) or that the VM
 * checks do not boot: given the kinds of CPU online (their MIDRs), the
 * implementation chosen, the default priority and whether the AEADs are
 * registered.  400 only where that implementation is modelled at 0.90 of
 * the kernel's or better on every kind, by LLVM 19's own model of that
 * CPU (README, "arm64 (modelled)"; tools/bench/mca.sh): not on the
 * Cortex-A72, A76 or A710, which run on other CPUs' models.  The AEADs
 * only where modelled at 0.80 of the template's two passes or better on
 * every kind: Neoverse-V1, V2 and N2 (neon), Cortex-A510 (neon4).
 * impl=scalar takes the path of a big-endian kernel, where scalar C is
 * all the module has: 200, no AEADs.  The MIDRs are written out here,
 * real ones but the made-up ones.
 */
struct ct_policy {
	u32 midrs[3];		/* the kinds online; 0: none */
	const char *cpu;
	const char *impl;	/* impl=, or NULL */
	const char *want;
	int prio;
	bool aead;
};

static const struct ct_policy ct_policies[] = {
	{ { 0x413fd0c1 }, "Neoverse-N1 r3p1", NULL, "neon", 400, false },
	{ { 0x413fd0c1 }, "Neoverse-N1 r3p1", "neon4", "neon4", 250, false },
	{ { 0x411fd401 }, "Neoverse-V1 r1p1", NULL, "neon", 400, true },
	{ { 0x411fd401 }, "Neoverse-V1 r1p1", "neon4", "neon4", 250, false },
	{ { 0x410fd4f1 }, "Neoverse-V2 r0p1", NULL, "neon", 400, true },
	{ { 0x410fd493 }, "Neoverse-N2 r0p3", NULL, "neon", 250, true },
	{ { 0x410fd493 }, "Neoverse-N2 r0p3", "neon4", "neon4", 250, false },
	{ { 0x411fd050 }, "Cortex-A55 r1p0", NULL, "neon4", 400, false },
	{ { 0x412fd050 }, "Cortex-A55 r2p0", NULL, "neon4", 400, false },
	{ { 0x411fd050 }, "Cortex-A55 r1p0", "neon", "neon", 250, false },
	{ { 0x411fd460 }, "Cortex-A510 r1p0", NULL, "neon4", 400, true },
	{ { 0x411fd460 }, "Cortex-A510 r1p0", "neon", "neon", 250, false },
	{ { 0x410fd461, 0x411fd460 }, "Cortex-A510 r0p1 and r1p0", NULL,
	  "neon4", 400, true },
	{ { 0x411fd050, 0x412fd050 }, "Cortex-A55 r1p0 and r2p0", NULL,
	  "neon4", 400, false },
	{ { 0x411fd050, 0x414fd0b1 }, "Cortex-A55 with A76 (big.LITTLE)",
	  NULL, "neon", 250, false },
	{ { 0x411fd460, 0x412fd470, 0x412fd480 },
	  "Cortex-A510 with A710 and X2", NULL, "neon", 250, false },
	{ { 0x413fd0c1, 0x411fd401 }, "Neoverse-N1 with V1 (made up)", NULL,
	  "neon", 400, false },
	{ { 0x411fd401, 0x410fd4f1 }, "Neoverse-V1 with V2 (made up)", NULL,
	  "neon", 400, true },
	{ { 0x410fd4f1, 0x410fd493 }, "Neoverse-V2 with N2 (made up)", NULL,
	  "neon", 250, true },
	{ { 0x413fd0c1, 0x410fd493 }, "Neoverse-N1 with N2 (made up)", NULL,
	  "neon", 250, false },
	{ { 0x411fd050, 0x411fd460 }, "Cortex-A55 with A510 (made up)", NULL,
	  "neon4", 400, false },
	{ { 0x412fd470 }, "Cortex-A710 r2p0 (Neoverse-N2's model)", NULL,
	  "neon", 250, false },
	{ { 0x410fd083 }, "Cortex-A72 r0p3 (Cortex-A57's model)", NULL, "neon",
	  250, false },
	{ { 0x410fd083 }, "Cortex-A72 r0p3", "neon4", "neon4", 250, false },
	{ { 0x414fd0b1 }, "Cortex-A76 r4p1 (Cortex-A57's model)", NULL, "neon",
	  250, false },
	{ { 0x411fd070 }, "Cortex-A57 r1p0 (not modelled)", NULL, "neon", 250,
	  false },
	{ { 0x000f0510 }, "QEMU max", NULL, "neon", 250, false },
	{ { 0x510fd050 }, "Arm's A55 part number, implementer 0x51 (made up)",
	  NULL, "neon", 250, false },
	/*
	 * Scalar C, all a big-endian kernel has: 200 and no AEADs, even on
	 * CPUs where neon has them.
	 */
	{ { 0x411fd401 }, "Neoverse-V1 r1p1", "scalar", "scalar", 200, false },
	{ { 0x411fd460 }, "Cortex-A510 r1p0", "scalar", "scalar", 200, false },
};

static void ct_arm64_policy(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ct_policies); i++) {
		const struct ct_policy *c = &ct_policies[i];
		const struct chacha_impl *p;
		unsigned int n = 0;
		int prio = -1;
		bool aead = !c->aead;

		while (n < ARRAY_SIZE(c->midrs) && c->midrs[n])
			n++;
		p = chacha_test_arm64_policy(c->midrs, n, c->impl, &prio,
					     &aead);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(p), "%s: %ld", c->cpu,
				       PTR_ERR(p));
		kunit_info(test, "%s (MIDR %#010x%s)%s%s: %s, priority %d, %s",
			   c->cpu, c->midrs[0], n > 1 ? ", ..." : "",
			   c->impl ? ", impl=" : "", c->impl ? c->impl : "",
			   p->name, prio, aead ? "AEADs" : "no AEAD");
		KUNIT_EXPECT_STREQ_MSG(test, p->name, c->want, "%s", c->cpu);
		KUNIT_EXPECT_EQ_MSG(test, prio, c->prio, "%s", c->cpu);
		KUNIT_EXPECT_EQ_MSG(test, aead, c->aead, "%s: AEADs", c->cpu);
	}
}
#endif

/* ---- known answers ---- */

static unsigned int ct_alg_of(const struct chacha_tv *tv)
{
	if (tv->ivsize == CHACHA_IV_BYTES)
		return 0;
	return tv->nrounds == 20 ? 1 : 2;
}

/* Encrypt out of place, then decrypt that in place. */
static void ct_vector(struct kunit *test, struct crypto_skcipher *tfm,
		      const struct chacha_tv *tv)
{
	u8 *in = ct_buf(test, tv->len), *buf = ct_buf(test, tv->len);
	struct scatterlist sgs, sgd;

	/* Scatterlists need the linear map: copy out of the module's data. */
	memcpy(in, tv->ptext, tv->len);
	sg_init_one(&sgs, in, tv->len);
	sg_init_one(&sgd, buf, tv->len);
	KUNIT_ASSERT_EQ(test, ct_crypt_sg(test, tfm, tv->key, tv->iv, &sgd,
					  &sgs, tv->len, false), 0);
	ct_same(test, buf, tv->ctext, tv->len, "%s encrypt via %s",
		tv->source, crypto_skcipher_driver_name(tfm));
	KUNIT_ASSERT_EQ(test, ct_crypt_sg(test, tfm, tv->key, tv->iv, &sgd,
					  &sgd, tv->len, true), 0);
	ct_same(test, buf, tv->ptext, tv->len, "%s decrypt via %s",
		tv->source, crypto_skcipher_driver_name(tfm));
	kunit_kfree(test, in);
	kunit_kfree(test, buf);
}

/* RFC 8439 2.3.2: the key stream block is the encryption of zeros. */
static void ct_block_vector(struct kunit *test, struct crypto_skcipher *tfm,
			    const struct chacha_block_tv *tv)
{
	u8 *buf = ct_buf(test, CHACHA_BLOCK_BYTES);

	memset(buf, 0, CHACHA_BLOCK_BYTES);
	ct_crypt(test, tfm, tv->key, tv->iv, buf, buf, CHACHA_BLOCK_BYTES);
	ct_same(test, buf, tv->block, CHACHA_BLOCK_BYTES, "%s via %s",
		tv->source, crypto_skcipher_driver_name(tfm));
	kunit_kfree(test, buf);
}

/* By plain name, which must resolve to our driver. */
static struct crypto_skcipher *ct_plain(struct kunit *test, unsigned int a)
{
	struct crypto_skcipher *tfm = ct_alloc(test, ct_algs[a].name);

	KUNIT_ASSERT_STREQ(test, crypto_skcipher_driver_name(tfm),
			   crypto_skcipher_driver_name(ct_ours(test, a)));
	return tfm;
}

static void ct_rfc(struct kunit *test, bool by_driver)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rfc_tv); i++) {
		unsigned int a = ct_alg_of(&rfc_tv[i]);

		ct_vector(test, by_driver ? ct_ours(test, a) :
			  ct_plain(test, a), &rfc_tv[i]);
	}
	for (i = 0; i < ARRAY_SIZE(rfc_block_tv); i++)
		ct_block_vector(test, by_driver ? ct_ours(test, 0) :
				ct_plain(test, 0), &rfc_block_tv[i]);
}

static void ct_rfc_by_name(struct kunit *test)
{
	ct_rfc(test, false);
}

static void ct_rfc_by_driver(struct kunit *test)
{
	ct_rfc(test, true);
}

/* testmgr.h's chacha20, xchacha20, xchacha12 vectors. */
static void ct_testmgr(struct kunit *test)
{
	static const struct {
		const struct chacha_tv *tv;
		unsigned int n;
	} sets[] = {
		{ tm_chacha20_tv, ARRAY_SIZE(tm_chacha20_tv) },
		{ tm_xchacha20_tv, ARRAY_SIZE(tm_xchacha20_tv) },
		{ tm_xchacha12_tv, ARRAY_SIZE(tm_xchacha12_tv) },
	};
	unsigned int s, i;

	for (s = 0; s < ARRAY_SIZE(sets); s++)
		for (i = 0; i < sets[s].n; i++)
			ct_vector(test, ct_ours(test, ct_alg_of(&sets[s].tv[i])),
				  &sets[s].tv[i]);
}

/*
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2.1) through xchacha20:
 * with the vector's key and 16-byte nonce, xchacha20 must equal
 * chacha20-generic keyed with the vector's subkey, IV = the xchacha IV's
 * bytes 24-31 then 16-23.
 */
static void ct_hchacha(struct kunit *test)
{
	const struct hchacha_tv *tv = &rfc_hchacha_tv[0];
	const unsigned int len = 600;
	u8 xiv[XCHACHA_IV_BYTES], iv[CHACHA_IV_BYTES];
	u8 *src = ct_rand_buf(test, len), *got = ct_buf(test, len);
	u8 *want = ct_buf(test, len);

	memcpy(xiv, tv->nonce, 16);
	get_random_bytes(xiv + 16, 16);
	memcpy(iv, xiv + 24, 8);
	memcpy(iv + 8, xiv + 16, 8);
	ct_crypt(test, ct_ours(test, 1), tv->key, xiv, got, src, len);
	ct_crypt(test, ct_ref(test, 0), tv->subkey, iv, want, src, len);
	ct_same(test, got, want, len, "%s via xchacha20", tv->source);
}

/* ---- against generic: lengths, scatterlists, alignment ---- */

static void ct_lengths(struct kunit *test, unsigned int a)
{
	unsigned int len;

	for (len = 0; len <= 1100; len++)
		if (!ct_diff(test, a, len, "length sweep"))
			return;
}

static void ct_lengths_chacha20(struct kunit *test)
{
	ct_lengths(test, 0);
}

static void ct_lengths_xchacha20(struct kunit *test)
{
	ct_lengths(test, 1);
}

static void ct_lengths_xchacha12(struct kunit *test)
{
	ct_lengths(test, 2);
}

static void ct_random_lengths(struct kunit *test)
{
	unsigned int a, i;

	for (a = 0; a < CT_NALGS; a++)
		for (i = 0; i < 12; i++)
			if (!ct_diff(test, a, 1 + ct_rand_below(65536),
				     "random length"))
				return;
}

/*
 * Every core the implementation may run whole strides in (the first
 * CHACHA_STRIDE_CHOICES; chacha_calibrate() picks one at load), forced in
 * turn: around one to three strides of it and of every other choice,
 * with tails, and random lengths up to 64 KiB, all three algorithms,
 * against generic.
 */
static void ct_strides(struct kunit *test)
{
	static const int deltas[] = { -65, -64, -1, 0, 1, 63, 64, 65 };
	const struct chacha_impl *p = test->param_value;
	unsigned int k, j, s, d, a, prev = 0;
	bool ok = true;

	/* Scalar C has no cores, so no stride to force. */
	KUNIT_ASSERT_NOT_NULL(test, p);
	if (!p->cores[0].blocks) {
		KUNIT_EXPECT_EQ(test, chacha_test_set_stride(p, 1), 0);
		return;
	}
	for (k = 0; ok && k < CHACHA_STRIDE_CHOICES && p->cores[k].blocks;
	     k++) {
		unsigned int was = chacha_test_set_stride(p, p->cores[k].blocks);
		char what[32];

		KUNIT_ASSERT_NE(test, was, 0);
		if (!prev)
			prev = was;
		snprintf(what, sizeof(what), "stride %u",
			 p->cores[k].blocks);
		for (s = 0; ok && s < CHACHA_STRIDE_CHOICES && p->cores[s].blocks;
		     s++) {
			for (j = 1; ok && j <= 3; j++) {
				int len = j * p->cores[s].blocks *
					  CHACHA_BLOCK_BYTES;

				for (d = 0; ok && d < ARRAY_SIZE(deltas); d++)
					if (len + deltas[d] >= 0)
						ok = ct_diff(test, j % CT_NALGS,
							     len + deltas[d],
							     what);
			}
		}
		for (a = 0; ok && a < CT_NALGS; a++)
			for (j = 0; ok && j < 4; j++)
				ok = ct_diff(test, a,
					     1 + ct_rand_below(j ? 65536 : 4160),
					     what);
	}
	chacha_test_set_stride(p, prev);
}

/*
 * Scatterlists over @buf whose entries have the lengths @lens[0..n-1]; the
 * entries point into one kmalloc'ed buffer, so an entry may cross pages.
 *
 * A zero-length entry never starts on a page boundary: there the kernel's
 * scatterwalk (6.12) takes the page of offset - 1 for flush_dcache_page(),
 * which oopses on arm64 (testmgr never builds zero-length entries).
 */
static struct scatterlist *ct_sg(struct kunit *test, u8 *buf,
				 const unsigned int *lens, unsigned int n)
{
	struct scatterlist *sg = kunit_kmalloc_array(test, n, sizeof(*sg),
						     GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, sg);
	sg_init_table(sg, n);
	for (i = 0; i < n; i++) {
		bool aligned0 = !lens[i] && !offset_in_page(buf);

		sg_set_buf(&sg[i], buf + aligned0, lens[i]);
		buf += lens[i];
	}
	return sg;
}

/*
 * Ours through @src_lens / @dst_lens entries (out of place) or @src_lens
 * for both (in place, @dst_lens NULL), against generic on linear buffers.
 */
static bool ct_diff_sg(struct kunit *test, unsigned int a, unsigned int len,
		       const unsigned int *src_lens, unsigned int ns,
		       const unsigned int *dst_lens, unsigned int nd,
		       const char *what)
{
	u8 key[CHACHA_KEY_BYTES], iv[XCHACHA_IV_BYTES];
	u8 *src = ct_rand_buf(test, len), *dst = ct_buf(test, len);
	struct scatterlist *sgs, *sgd;
	bool ok;

	get_random_bytes(key, sizeof(key));
	get_random_bytes(iv, sizeof(iv));
	if (dst_lens) {
		sgs = ct_sg(test, src, src_lens, ns);
		sgd = ct_sg(test, dst, dst_lens, nd);
	} else {
		memcpy(dst, src, len);
		sgs = ct_sg(test, dst, src_lens, ns);
		sgd = sgs;
	}
	KUNIT_ASSERT_EQ(test, ct_crypt_sg(test, ct_ours(test, a), key, iv, sgd,
					  sgs, len, false), 0);
	ok = ct_check(test, a, key, iv, dst, src, len, what);
	kunit_kfree(test, src);
	kunit_kfree(test, dst);
	kunit_kfree(test, sgs);
	if (sgd != sgs)
		kunit_kfree(test, sgd);
	return ok;
}

/* Every entry one byte long, in and out of place. */
static void ct_sg_one_byte(struct kunit *test)
{
	static const unsigned int lens[] = { 1, 63, 65, 200, 1100 };
	unsigned int *ones = kunit_kmalloc_array(test, 1100, sizeof(*ones),
						 GFP_KERNEL);
	unsigned int a, i;

	KUNIT_ASSERT_NOT_NULL(test, ones);
	for (i = 0; i < 1100; i++)
		ones[i] = 1;
	for (a = 0; a < CT_NALGS; a++)
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			if (!ct_diff_sg(test, a, lens[i], ones, lens[i], ones,
					lens[i], "1-byte entries"))
				return;
			if (!ct_diff_sg(test, a, lens[i], ones, lens[i], NULL, 0,
					"1-byte entries in place"))
				return;
		}
}

/*
 * Cut @len into at most @max entries at random points; about one entry in
 * five has length zero.
 */
static unsigned int ct_random_cuts(unsigned int len, unsigned int *lens,
				   unsigned int max)
{
	unsigned int n = 0;

	while (n < max - 1 && len) {
		unsigned int l;

		switch (get_random_u32() % 5) {
		case 0:
			l = 0;
			break;
		case 1:
			l = 1 + ct_rand_below(min(len, 64U));
			break;
		default:
			l = 1 + ct_rand_below(len);
			break;
		}
		lens[n++] = l;
		len -= l;
	}
	lens[n++] = len;
	return n;
}

static void ct_sg_random(struct kunit *test)
{
	unsigned int src_lens[32], dst_lens[32];
	unsigned int a, i;

	for (a = 0; a < CT_NALGS; a++)
		for (i = 0; i < 30; i++) {
			unsigned int len = ct_rand_below(3 * CHACHA_SIMD_CHUNK);
			unsigned int ns, nd;

			ns = ct_random_cuts(len, src_lens, ARRAY_SIZE(src_lens));
			nd = ct_random_cuts(len, dst_lens, ARRAY_SIZE(dst_lens));
			if (!ct_diff_sg(test, a, len, src_lens, ns, dst_lens, nd,
					"random cuts"))
				return;
			if (!ct_diff_sg(test, a, len, src_lens, ns, NULL, 0,
					"random cuts in place"))
				return;
		}
}

/*
 * Entries that cross page boundaries: the buffers start at an offset in
 * their page such that most entries straddle a boundary.
 */
static void ct_sg_pages(struct kunit *test)
{
	static const unsigned int offs[] = { 1, 63, 100, PAGE_SIZE - 65,
					     PAGE_SIZE - 1 };
	const unsigned int total = 4 * PAGE_SIZE;
	unsigned int a, i;

	for (a = 0; a < CT_NALGS; a++)
		for (i = 0; i < ARRAY_SIZE(offs); i++) {
			unsigned int len = total - offs[i];
			unsigned int slens[3] = { PAGE_SIZE + 3,
						  2 * PAGE_SIZE - 70 };
			unsigned int dlens[2] = { PAGE_SIZE + 4 };
			u8 key[CHACHA_KEY_BYTES], iv[XCHACHA_IV_BYTES];
			u8 *sbuf = ct_rand_buf(test, total);
			u8 *dbuf = ct_buf(test, total);
			u8 *src = sbuf + offs[i], *dst = dbuf + offs[i] / 2;
			struct scatterlist *sgs, *sgd;

			slens[2] = len - slens[0] - slens[1];
			dlens[1] = len - dlens[0];
			get_random_bytes(key, sizeof(key));
			get_random_bytes(iv, sizeof(iv));
			sgs = ct_sg(test, src, slens, 3);
			sgd = ct_sg(test, dst, dlens, 2);
			KUNIT_ASSERT_EQ(test,
					ct_crypt_sg(test, ct_ours(test, a), key,
						    iv, sgd, sgs, len, false), 0);
			if (!ct_check(test, a, key, iv, dst, src, len,
				      "page-crossing entries"))
				return;
			kunit_kfree(test, sbuf);
			kunit_kfree(test, dbuf);
		}
}

static void ct_in_place(struct kunit *test)
{
	unsigned int a, i;

	for (a = 0; a < CT_NALGS; a++)
		for (i = 0; i < 20; i++) {
			unsigned int len = i < 10 ? 60 * i + i :
					   ct_rand_below(20000);
			unsigned int lens[1] = { len };

			if (!ct_diff_sg(test, a, len, lens, 1, NULL, 0,
					"in place"))
				return;
		}
}

/* src and dst at every offset 0-15 (out of place) and in place. */
static void ct_misaligned(struct kunit *test)
{
	unsigned int a, so, doff;

	for (a = 0; a < CT_NALGS; a++)
		for (so = 0; so < 16; so++)
			for (doff = 0; doff < 16; doff += 5) {
				unsigned int len = 200 + ct_rand_below(1900);
				u8 key[CHACHA_KEY_BYTES], iv[XCHACHA_IV_BYTES];
				u8 *sbuf = ct_rand_buf(test, len + so);
				u8 *dbuf = ct_buf(test, len + doff);
				u8 *src = sbuf + so, *dst = dbuf + doff;

				get_random_bytes(key, sizeof(key));
				get_random_bytes(iv, sizeof(iv));
				ct_crypt(test, ct_ours(test, a), key, iv, dst,
					 src, len);
				if (!ct_check(test, a, key, iv, dst, src, len,
					      so == doff ? "misaligned" :
					      "misaligned src/dst"))
					return;
				memcpy(dst, src, len);
				ct_crypt(test, ct_ours(test, a), key, iv, dst,
					 dst, len);
				if (!ct_check(test, a, key, iv, dst, src, len,
					      "misaligned in place"))
					return;
				kunit_kfree(test, sbuf);
				kunit_kfree(test, dbuf);
			}
}

/*
 * The 32-bit block counter wraps with no carry into the next word,
 * exactly as generic: requests starting a few blocks before 2^32.
 */
static void ct_counter_wrap(struct kunit *test)
{
	unsigned int a, back, i;

	for (a = 0; a < CT_NALGS; a++)
		for (back = 1; back <= 12; back++) {
			unsigned int len = back * CHACHA_BLOCK_BYTES + 600;
			u8 key[CHACHA_KEY_BYTES], iv[XCHACHA_IV_BYTES], iv0[32];
			u8 *src = ct_rand_buf(test, len), *dst = ct_buf(test, len);
			u8 *blk = ct_buf(test, CHACHA_BLOCK_BYTES);
			unsigned int ctr = a ? 24 : 0;
			__le32 w = cpu_to_le32(0U - back);

			get_random_bytes(key, sizeof(key));
			get_random_bytes(iv, sizeof(iv));
			memcpy(iv + ctr, &w, sizeof(w));
			ct_crypt(test, ct_ours(test, a), key, iv, dst, src, len);
			if (!ct_check(test, a, key, iv, dst, src, len,
				      "counter wrap"))
				return;
			/* After the wrap: generic's block 0, same other words. */
			memcpy(iv0, iv, sizeof(iv0));
			memset(iv0 + ctr, 0, 4);
			memset(blk, 0, CHACHA_BLOCK_BYTES);
			ct_crypt(test, ct_ref(test, a), key, iv0, blk, blk,
				 CHACHA_BLOCK_BYTES);
			for (i = 0; i < CHACHA_BLOCK_BYTES; i++)
				blk[i] ^= src[back * CHACHA_BLOCK_BYTES + i];
			if (!ct_same(test, dst + back * CHACHA_BLOCK_BYTES, blk,
				     CHACHA_BLOCK_BYTES,
				     "%s block after the wrap (start 2^32-%u)",
				     ct_algs[a].name, back))
				return;
		}
}

/* ---- SIMD sections ---- */

static bool ct_has_simd(const struct kunit *test)
{
	const struct chacha_impl *p = test->param_value;

	return p && p->cores[0].blocks;
}

/*
 * Requests around and across CHACHA_SIMD_CHUNK: ours against generic, and
 * the SIMD implementations really enter SIMD sections, at least one per
 * CHACHA_SIMD_CHUNK bytes; scalar never does.
 */
static void ct_sections(struct kunit *test)
{
	static const unsigned int lens[] = {
		CHACHA_SIMD_CHUNK - 1, CHACHA_SIMD_CHUNK, CHACHA_SIMD_CHUNK + 1,
		CHACHA_SIMD_CHUNK + 64, CHACHA_SIMD_CHUNK + 65,
		2 * CHACHA_SIMD_CHUNK - 1, 2 * CHACHA_SIMD_CHUNK,
		2 * CHACHA_SIMD_CHUNK + 129, 3 * CHACHA_SIMD_CHUNK + 1,
		16 * CHACHA_SIMD_CHUNK + 17,
	};
	unsigned int a, i;

	for (a = 0; a < CT_NALGS; a++)
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			unsigned long before = chacha_test_simd_sections();
			unsigned long n;

			if (!ct_diff(test, a, lens[i], "around SIMD sections"))
				return;
			n = chacha_test_simd_sections() - before;
			if (ct_has_simd(test))
				KUNIT_EXPECT_GE_MSG(test, n,
						    lens[i] / CHACHA_SIMD_CHUNK,
						    "%u bytes", lens[i]);
			else
				KUNIT_EXPECT_EQ(test, n, 0);
		}
}

/* Entries cut exactly at multiples of CHACHA_SIMD_CHUNK, and one off. */
static void ct_section_cuts(struct kunit *test)
{
	static const int deltas[] = { 0, 1, -1, 64, -64, 65 };
	unsigned int lens[4];
	unsigned int a, i;

	for (a = 0; a < CT_NALGS; a++)
		for (i = 0; i < ARRAY_SIZE(deltas); i++) {
			unsigned int len = 4 * CHACHA_SIMD_CHUNK + 100;

			lens[0] = CHACHA_SIMD_CHUNK + deltas[i];
			lens[1] = CHACHA_SIMD_CHUNK;
			lens[2] = 2 * CHACHA_SIMD_CHUNK - deltas[i];
			lens[3] = len - lens[0] - lens[1] - lens[2];
			if (!ct_diff_sg(test, a, len, lens, 4, lens, 4,
					"entries cut at section boundaries"))
				return;
			if (!ct_diff_sg(test, a, len, lens, 4, NULL, 0,
					"in place, cut at section boundaries"))
				return;
		}
}

/* ---- where SIMD is not usable ---- */

static const unsigned int ct_ctx_lens[] = {
	0, 1, 63, 64, 65, 127, 128, 129, 256, 511, 1000,
	CHACHA_SIMD_CHUNK, CHACHA_SIMD_CHUNK + 1, 2 * CHACHA_SIMD_CHUNK + 33,
};

#define CT_CTX_REQS	(CT_NALGS * ARRAY_SIZE(ct_ctx_lens))

/* Requests prepared in process context, run in another context. */
struct ct_job {
	struct skcipher_request *req[CT_NALGS];
	struct scatterlist sgs[CT_CTX_REQS], sgd[CT_CTX_REQS];
	u8 key[CHACHA_KEY_BYTES], iv[XCHACHA_IV_BYTES];
	u8 *src, *dst;
	unsigned int total, off[CT_CTX_REQS];
	int err[CT_CTX_REQS];
	bool simd_usable, in_softirq, forced;
	unsigned long sections;
	struct tasklet_struct tasklet;
	struct completion done;
	bool finished;
};

static void ct_job_init(struct kunit *test, struct ct_job *job)
{
	unsigned int a, i, r, off;

	job->total = 0;
	for (i = 0; i < ARRAY_SIZE(ct_ctx_lens); i++)
		job->total += ct_ctx_lens[i];
	job->src = ct_rand_buf(test, job->total);
	job->dst = ct_buf(test, CT_NALGS * job->total);
	get_random_bytes(job->key, sizeof(job->key));
	get_random_bytes(job->iv, sizeof(job->iv));
	for (a = 0, r = 0; a < CT_NALGS; a++) {
		ct_setkey(test, ct_ours(test, a), job->key);
		job->req[a] = skcipher_request_alloc(ct_ours(test, a),
						     GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, job->req[a]);
		/* dst: one region per algorithm, laid out as src. */
		for (i = 0, off = 0; i < ARRAY_SIZE(ct_ctx_lens); i++, r++) {
			job->off[r] = off;
			sg_init_one(&job->sgs[r], job->src + off, ct_ctx_lens[i]);
			sg_init_one(&job->sgd[r], job->dst + a * job->total + off,
				    ct_ctx_lens[i]);
			off += ct_ctx_lens[i];
		}
	}
	init_completion(&job->done);
}

/* Runs every request of @job in the current context; never sleeps. */
static void ct_job_run(struct ct_job *job)
{
	unsigned long before = chacha_test_simd_sections();
	unsigned int a, i, r;

	job->simd_usable = crypto_simd_usable();
	job->in_softirq = in_serving_softirq();
	for (a = 0, r = 0; a < CT_NALGS; a++)
		for (i = 0; i < ARRAY_SIZE(ct_ctx_lens); i++, r++)
			job->err[r] = ct_run(job->req[a], &job->sgd[r],
					     &job->sgs[r], ct_ctx_lens[i],
					     job->iv, 0, false);
	job->sections = chacha_test_simd_sections() - before;
}

/* After the job: errors, the context seen, the bytes against generic. */
static void ct_job_check(struct kunit *test, struct ct_job *job,
			 const char *where)
{
	unsigned int a, i, r;

	for (a = 0; a < CT_NALGS; a++)
		skcipher_request_free(job->req[a]);
	KUNIT_ASSERT_TRUE_MSG(test, job->finished, "%s: never ran", where);
	if (!job->simd_usable)
		KUNIT_EXPECT_EQ_MSG(test, job->sections, 0,
				    "%s: SIMD sections entered where crypto_simd_usable() is false",
				    where);
	for (a = 0, r = 0; a < CT_NALGS; a++)
		for (i = 0; i < ARRAY_SIZE(ct_ctx_lens); i++, r++) {
			KUNIT_ASSERT_EQ_MSG(test, job->err[r], 0, "%s: %s, %u bytes",
					    where, ct_algs[a].name,
					    ct_ctx_lens[i]);
			if (!ct_check(test, a, job->key, job->iv,
				      job->dst + a * job->total + job->off[r],
				      job->src + job->off[r], ct_ctx_lens[i],
				      where))
				return;
		}
}

/*
 * With interrupts off in a task: there crypto_simd_usable() is false on
 * arm64; on x86 it is not (and the FPU must not be used there), so SIMD is
 * also switched off as testmgr does.  Hard interrupts themselves cannot
 * be tested: the skcipher walk refuses them (-EDEADLK and a warning).
 */
static void ct_irqs_off(struct kunit *test)
{
#ifdef COMPAT_CRYPTO_SIMD_TEST_SWITCH
	struct ct_job *job = kunit_kzalloc(test, sizeof(*job), GFP_KERNEL);
	unsigned long flags;

	KUNIT_ASSERT_NOT_NULL(test, job);
	ct_job_init(test, job);
	local_irq_save(flags);
	__this_cpu_write(crypto_simd_disabled_for_test, true);
	ct_job_run(job);
	__this_cpu_write(crypto_simd_disabled_for_test, false);
	local_irq_restore(flags);
	job->finished = true;
	ct_job_check(test, job, "interrupts off");
	KUNIT_EXPECT_FALSE(test, job->simd_usable);
#else
	kunit_skip(test, "needs CRYPTO_MANAGER_EXTRA_TESTS or CRYPTO_SELFTESTS_FULL");
#endif
}

static void ct_tasklet_fn(struct tasklet_struct *t)
{
	struct ct_job *job = from_tasklet(job, t, tasklet);

#ifdef COMPAT_CRYPTO_SIMD_TEST_SWITCH
	/* As testmgr does: SIMD off for the crypto code on this CPU. */
	if (job->forced)
		__this_cpu_write(crypto_simd_disabled_for_test, true);
#endif
	ct_job_run(job);
#ifdef COMPAT_CRYPTO_SIMD_TEST_SWITCH
	__this_cpu_write(crypto_simd_disabled_for_test, false);
#endif
	WRITE_ONCE(job->finished, true);
	complete(&job->done);
}

static void ct_softirq_job(struct kunit *test, bool forced)
{
	struct ct_job *job = kunit_kzalloc(test, sizeof(*job), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, job);
	ct_job_init(test, job);
	job->forced = forced;
	tasklet_setup(&job->tasklet, ct_tasklet_fn);
	tasklet_schedule(&job->tasklet);
	wait_for_completion_timeout(&job->done, 20 * HZ);
	tasklet_kill(&job->tasklet);
	ct_job_check(test, job, forced ? "softirq, SIMD disabled" : "softirq");
	KUNIT_EXPECT_TRUE(test, job->in_softirq);
	if (forced)
		KUNIT_EXPECT_FALSE(test, job->simd_usable);
}

/*
 * From a softirq (tasklet): once as the context comes (SIMD usable on x86,
 * on arm64 as well), once with SIMD disabled as testmgr's fuzzer does it.
 */
static void ct_softirq(struct kunit *test)
{
	ct_softirq_job(test, false);
#ifdef COMPAT_CRYPTO_SIMD_TEST_SWITCH
	ct_softirq_job(test, true);
#endif
}

/* In process context with SIMD disabled (testmgr's switch). */
static void ct_nosimd_task(struct kunit *test)
{
#ifdef COMPAT_CRYPTO_SIMD_TEST_SWITCH
	struct ct_job *job = kunit_kzalloc(test, sizeof(*job), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, job);
	ct_job_init(test, job);
	preempt_disable();
	__this_cpu_write(crypto_simd_disabled_for_test, true);
	ct_job_run(job);
	__this_cpu_write(crypto_simd_disabled_for_test, false);
	preempt_enable();
	job->finished = true;
	ct_job_check(test, job, "task, SIMD disabled");
	KUNIT_EXPECT_FALSE(test, job->simd_usable);
#else
	kunit_skip(test, "needs CRYPTO_MANAGER_EXTRA_TESTS or CRYPTO_SELFTESTS_FULL");
#endif
}

/* ---- errors ---- */

/* Wrong key lengths fail with -EINVAL; a right key then works. */
static void ct_bad_keys(struct kunit *test)
{
	static const unsigned int bad[] = { 0, 1, 16, 31, 33, 64 };
	u8 key[64], iv[XCHACHA_IV_BYTES];
	unsigned int a, i;

	get_random_bytes(key, sizeof(key));
	get_random_bytes(iv, sizeof(iv));
	for (a = 0; a < CT_NALGS; a++) {
		struct crypto_skcipher *tfm = ct_ours(test, a);
		u8 *src = ct_rand_buf(test, 1000), *dst = ct_buf(test, 1000);

		for (i = 0; i < ARRAY_SIZE(bad); i++)
			KUNIT_EXPECT_EQ_MSG(test,
					    crypto_skcipher_setkey(tfm, key, bad[i]),
					    -EINVAL, "%s, %u-byte key",
					    ct_algs[a].name, bad[i]);
		ct_crypt(test, tfm, key, iv, dst, src, 1000);
		if (!ct_check(test, a, key, iv, dst, src, 1000,
			      "after bad keys"))
			return;
		/* A bad key after a good one: refused, then usable again. */
		KUNIT_EXPECT_EQ(test, crypto_skcipher_setkey(tfm, key, 31),
				-EINVAL);
		ct_crypt(test, tfm, key + 1, iv, dst, src, 1000);
		if (!ct_check(test, a, key + 1, iv, dst, src, 1000,
			      "after a bad key replaced a good one"))
			return;
	}
}

/*
 * Allocation failures inside requests: fail the 1st, 2nd, ... slab
 * allocation of a request whose 1-byte entries make the walk allocate,
 * without and with CRYPTO_TFM_REQ_MAY_SLEEP; each request either fails
 * with -ENOMEM or gives the right bytes, and the tfm works afterwards.
 */
static void ct_failslab(struct kunit *test)
{
#ifdef CONFIG_FAILSLAB
	unsigned int *slens = kunit_kmalloc_array(test, 600, sizeof(*slens),
						  GFP_KERNEL);
	unsigned int *dlens = slens + 300;
	u8 key[CHACHA_KEY_BYTES], iv[XCHACHA_IV_BYTES];
	unsigned int a, i, nth;

	/* 400 bytes in 300 entries of 1 and 2 bytes, cut apart in dst. */
	KUNIT_ASSERT_NOT_NULL(test, slens);
	for (i = 0; i < 300; i++)
		slens[i] = 1 + (i % 3 == 0);
	for (i = 0; i < 300; i++)
		dlens[i] = slens[(i + 1) % 300];
	get_random_bytes(key, sizeof(key));
	get_random_bytes(iv, sizeof(iv));
	for (a = 0; a < CT_NALGS; a++) {
		struct crypto_skcipher *tfm = ct_ours(test, a);
		struct skcipher_request *req;
		const unsigned int len = 400;
		u8 *src = ct_rand_buf(test, len), *dst = ct_buf(test, len);
		struct scatterlist *sgs = ct_sg(test, src, slens, 300);
		struct scatterlist *sgd = ct_sg(test, dst, dlens, 300);
		unsigned int sleep;

		ct_setkey(test, tfm, key);
		req = skcipher_request_alloc(tfm, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, req);
		/* Atomic (the walk's GFP_ATOMIC), then may sleep (GFP_KERNEL). */
		for (sleep = 0; sleep < 2; sleep++) {
			unsigned int failed = 0;

			for (nth = 1; nth < 1000; nth++) {
				bool injected;
				int err;

				memset(dst, 0, len);
				current->fail_nth = nth;
				err = ct_run(req, sgd, sgs, len, iv, sleep ?
					     CRYPTO_TFM_REQ_MAY_SLEEP : 0,
					     false);
				injected = !current->fail_nth;
				current->fail_nth = 0;
				if (!injected) {
					KUNIT_EXPECT_EQ(test, err, 0);
					ct_check(test, a, key, iv, dst, src,
						 len, "no failure injected");
					break;
				}
				failed++;
				if (err) {
					KUNIT_EXPECT_EQ_MSG(test, err, -ENOMEM,
							    "%s, allocation %u failed",
							    ct_algs[a].name,
							    nth);
				} else if (!ct_check(test, a, key, iv, dst, src,
						     len,
						     "allocation failed, no error")) {
					break;
				}
			}
			KUNIT_EXPECT_GT_MSG(test, failed, 0,
					    "%s%s: the request allocated nothing",
					    ct_algs[a].name,
					    sleep ? ", may sleep" : "");
			kunit_info(test, "%s%s: %u allocations failed in turn",
				   ct_algs[a].name, sleep ? ", may sleep" : "",
				   failed);
		}
		skcipher_request_free(req);
		if (!ct_diff_sg(test, a, len, slens, 300, dlens, 300,
				"after allocation failures"))
			return;
	}
#else
	kunit_skip(test, "needs CONFIG_FAILSLAB");
#endif
}

#define CT_CASE(fn)	KUNIT_CASE_PARAM(fn, ct_impl_gen)

static struct kunit_case ct_api_cases[] = {
	KUNIT_CASE(ct_impls),
	KUNIT_CASE(ct_names),
#if defined(CONFIG_ARM64) && !defined(CONFIG_CPU_BIG_ENDIAN)
	KUNIT_CASE(ct_arm64_policy),
#endif
	CT_CASE(ct_rfc_by_name),
	CT_CASE(ct_rfc_by_driver),
	CT_CASE(ct_testmgr),
	CT_CASE(ct_hchacha),
	CT_CASE(ct_bad_keys),
	CT_CASE(ct_failslab),
	{}
};

static struct kunit_case ct_diff_cases[] = {
	CT_CASE(ct_lengths_chacha20),
	CT_CASE(ct_lengths_xchacha20),
	CT_CASE(ct_lengths_xchacha12),
	CT_CASE(ct_random_lengths),
	CT_CASE(ct_strides),
	CT_CASE(ct_sg_one_byte),
	CT_CASE(ct_sg_random),
	CT_CASE(ct_sg_pages),
	CT_CASE(ct_in_place),
	CT_CASE(ct_misaligned),
	CT_CASE(ct_counter_wrap),
	CT_CASE(ct_sections),
	CT_CASE(ct_section_cuts),
	{}
};

static struct kunit_case ct_context_cases[] = {
	CT_CASE(ct_irqs_off),
	CT_CASE(ct_softirq),
	CT_CASE(ct_nosimd_task),
	{}
};

static struct kunit_suite ct_api_suite = {
	.name = "chacha20_simd_api",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = ct_api_cases,
};

static struct kunit_suite ct_diff_suite = {
	.name = "chacha20_simd_vs_generic",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = ct_diff_cases,
};

static struct kunit_suite ct_context_suite = {
	.name = "chacha20_simd_no_simd",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = ct_context_cases,
};

kunit_test_suites(&ct_api_suite, &ct_diff_suite, &ct_context_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of chacha20_simd, every implementation in turn");
