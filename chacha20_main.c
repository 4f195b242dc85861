// SPDX-License-Identifier: GPL-2.0
/*
 * chacha20_simd: the module's init and exit.  The policy (chacha20_policy.c)
 * chooses what runs at what priority; then the skcipher glue
 * (chacha20_glue.c) registers the skciphers, and the AEAD glue
 * (chacha20poly1305_glue.c) the AEADs where the policy wants them.
 */

#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>

#include "chacha20_core.h"
#include "chacha20_glue.h"
#include "chacha20_policy.h"
#include "kunit/chacha20_simd_test.h"

static int __init chacha_simd_mod_init(void)
{
	struct chacha_policy pol;
	int err;

	err = chacha_policy_skciphers(&pol);
	if (err)
		return err;
	err = chacha_skcipher_register(pol.impl, pol.priority);
	if (err)
		return err;
	/*
	 * Then the AEADs, on the same implementation and above the
	 * skciphers' priority; an error (poly1305=) takes the skciphers back
	 * out.
	 */
	err = chacha_policy_aeads(&pol);
	if (!err && pol.poly)
		err = chachapoly_register(pol.impl, pol.poly,
					  pol.aead_priority);
	if (err)
		chacha_skcipher_unregister();
	return err;
}

static void __exit chacha_simd_mod_exit(void)
{
	chachapoly_unregister();
	chacha_skcipher_unregister();
}

#ifdef CHACHA_TEST_HOOKS
/*
 * The test-only interface of kunit/chacha20_simd_test.h: the SIMD sections
 * entered (chacha_simd_begin()), by the module's drivers and by kunit/.
 */
DEFINE_PER_CPU(unsigned long, chacha_simd_sections);

unsigned long chacha_test_simd_sections(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(chacha_simd_sections, cpu);
	return n;
}
EXPORT_SYMBOL_NS_GPL(chacha_test_simd_sections, CHACHA_TEST_NS);
#endif

module_init(chacha_simd_mod_init);
module_exit(chacha_simd_mod_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(CHACHA20_SIMD_VERSION);
MODULE_AUTHOR("chacha20-simd developers");
MODULE_DESCRIPTION("ChaCha20, XChaCha20 and XChaCha12 stream ciphers and ChaCha20-Poly1305 (x86-64 SSE2/SSSE3/AVX2/AVX-512, arm64 NEON, scalar)");
