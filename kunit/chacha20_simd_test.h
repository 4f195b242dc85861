/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test-only interface chacha20_simd exports to its KUnit module
 * (kunit/chacha_kunit.c) in a build made for the KUnit runs (make
 * CHACHA_TEST_HOOKS=1, see Kbuild), in the symbol namespace
 * CHACHA20_SIMD_TEST.  Nothing else should use it; a normal build has none
 * of it.
 */
#ifndef CHACHA20_SIMD_TEST_H
#define CHACHA20_SIMD_TEST_H

#include <linux/types.h>
#include <linux/version.h>

/*
 * The namespace's name, for EXPORT_SYMBOL_NS_GPL() and MODULE_IMPORT_NS():
 * an identifier up to 6.12, a string literal from 6.13 on.
 */
#if LINUX_VERSION_MAJOR > 6 || \
	(LINUX_VERSION_MAJOR == 6 && LINUX_VERSION_PATCHLEVEL >= 13)
#define CHACHA_TEST_NS	"CHACHA20_SIMD_TEST"
#else
#define CHACHA_TEST_NS	CHACHA20_SIMD_TEST
#endif

struct chacha_impl;
struct poly1305_impl;

/*
 * chacha_impls[@i]; ERR_PTR(-ENODEV) if this CPU cannot run it, NULL past
 * the end of the table.
 */
const struct chacha_impl *chacha_test_impl(unsigned int i);

/*
 * Make the registered drivers run @impl (one chacha_test_impl() returned)
 * from the next request on; returns the one they ran until now, or
 * ERR_PTR(-EINVAL), changing nothing, for a pointer that is not an entry
 * of the table this CPU can run.  Their
 * driver names keep the implementation chosen at load time.
 */
const struct chacha_impl *chacha_test_set_impl(const struct chacha_impl *impl);

/*
 * Run whole strides of @impl (one chacha_test_impl() returned) in its core
 * of @blocks blocks from the next request on (chacha_set_stride());
 * returns the blocks of the one used until now, or 0, changing nothing,
 * if @impl has no such stride choice.
 */
unsigned int chacha_test_set_stride(const struct chacha_impl *impl,
				    unsigned int blocks);

/*
 * poly1305_impls[@i], the AEADs' Poly1305 implementations; ERR_PTR(-ENODEV)
 * if this CPU cannot run it, NULL past the end of the table.
 */
const struct poly1305_impl *chacha_test_poly(unsigned int i);

/*
 * Make the AEADs run Poly1305 @impl (one chacha_test_poly() returned) from
 * the next request on; returns the one they ran until now, or
 * ERR_PTR(-EINVAL), changing nothing.
 */
const struct poly1305_impl *chacha_test_set_poly(const struct poly1305_impl *impl);

/*
 * The Poly1305 tag of @nblocks whole blocks at @msg under @key (32 bytes)
 * into @mac (16 bytes), through @impl's block function: its SIMD one in a
 * SIMD section if @simd and it has one, else its scalar one.
 */
void chacha_test_poly1305(const struct poly1305_impl *impl, bool simd,
			  const u8 *key, const u8 *msg, unsigned int nblocks,
			  u8 *mac);

/* SIMD sections (chacha_simd_begin() calls) entered so far, on all CPUs. */
unsigned long chacha_test_simd_sections(void);

#ifdef CONFIG_ARM64
/*
 * The arm64 policy for a system with NEON whose online CPUs are of the
 * @n kinds @midrs: the implementation the module would choose there
 * (@name: as impl=@name would; NULL: by default), in *@prio the default
 * priority that gets, and in *@aead whether the AEADs on it would be
 * registered.  ERR_PTR() as impl= would fail.
 */
const struct chacha_impl *chacha_test_arm64_policy(const u32 *midrs,
						   unsigned int n,
						   const char *name, int *prio,
						   bool *aead);
#endif

#endif /* CHACHA20_SIMD_TEST_H */
