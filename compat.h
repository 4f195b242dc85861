/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place for differences between the kernels this tree builds
 * against (6.1 and later), tested where the API appeared rather than by
 * version number.  chacha20_core.h includes it, so that every file sees
 * the same struct chacha_simd_save; the KUnit part needs <kunit/test.h>
 * included first.
 */
#ifndef CHACHA20_SIMD_COMPAT_H
#define CHACHA20_SIMD_COMPAT_H

/*
 * KUnit parameter generators: from 6.18 on they are given the test first,
 * in the same change that added KUNIT_CASE_PARAM_WITH_INIT().  Declare one
 * as gen(COMPAT_KUNIT_GEN_TEST const void *prev, char *desc).
 */
#ifdef KUNIT_CASE_PARAM_WITH_INIT
#define COMPAT_KUNIT_GEN_TEST	struct kunit *test,
#else
#define COMPAT_KUNIT_GEN_TEST
#endif

/*
 * crypto_simd_disabled_for_test, the per-CPU switch behind
 * crypto_simd_usable() that the tests flip, exists with the crypto
 * manager's extra tests: CONFIG_CRYPTO_MANAGER_EXTRA_TESTS up to 6.14,
 * renamed CONFIG_CRYPTO_SELFTESTS_FULL in 6.15.
 */
#if defined(CONFIG_CRYPTO_MANAGER_EXTRA_TESTS) || \
	defined(CONFIG_CRYPTO_SELFTESTS_FULL)
#define COMPAT_CRYPTO_SIMD_TEST_SWITCH	1
#endif

/*
 * arm64, from 6.19 on: kernel_neon_begin() and kernel_neon_end() take a
 * buffer on the caller's stack, where the kernel-mode FP/SIMD state is
 * saved if the task is preempted in between.  The same series added
 * scoped_ksimd(), the guard that supplies one, to <asm/simd.h>.
 */
#ifdef CONFIG_ARM64
#include <asm/simd.h>
#ifdef scoped_ksimd
#define COMPAT_KERNEL_NEON_BUFFER	1
#endif
#endif

/*
 * arm64: is_midr_in_range() and is_midr_in_range_list() of <asm/cputype.h>
 * match a MIDR the caller passes up to 6.14.  From 6.15 on they read the
 * MIDR themselves and, in a KVM guest told the implementations it may
 * migrate to, match any of those; only the list function is left, out of
 * line.  midr_is_cpu_model_range(), under both, is the same in 6.1, 6.12
 * and 7.3: the one test of a given MIDR against one struct midr_range
 * (MIDR_ALL_VERSIONS() and friends) on every kernel.
 */
#ifdef CONFIG_ARM64
#include <asm/cputype.h>

static inline bool compat_midr_in_range(u32 midr,
					const struct midr_range *range)
{
	return midr_is_cpu_model_range(midr, range->model, range->rv_min,
				       range->rv_max);
}
#endif

/*
 * sg_miter's mapping of a page: kmap_local_page() with SG_MITER_LOCAL
 * where the kernel has it, else kmap_atomic() with SG_MITER_ATOMIC.
 * Both work in softirq context, and both need nested mappings undone in
 * reverse order.  The user-space harness and benchmark have no
 * scatterlists.
 */
#ifdef __KERNEL__
#include <linux/scatterlist.h>
#ifdef SG_MITER_LOCAL
#define COMPAT_SG_MITER_MAP	SG_MITER_LOCAL
#else
#define COMPAT_SG_MITER_MAP	SG_MITER_ATOMIC
#endif
#endif

/*
 * __uninitialized: a local that is written before it is read, exempt from
 * CONFIG_INIT_STACK_ALL_ZERO's zero-fill (-ftrivial-auto-var-init=zero).
 * <linux/compiler_attributes.h> has it from 6.6 on; the compilers that
 * have the option (gcc 12, clang 8) have the attribute.
 */
#ifndef __uninitialized
#if __has_attribute(__uninitialized__)
#define __uninitialized __attribute__((__uninitialized__))
#else
#define __uninitialized
#endif
#endif

/*
 * CHACHA20_SIMD_VERSION: MODULE_VERSION(), from tools/version.sh (or the
 * file VERSION) through Kbuild; a build that bypasses Kbuild says so.
 */
#ifndef CHACHA20_SIMD_VERSION
#define CHACHA20_SIMD_VERSION "unknown"
#endif

#endif /* CHACHA20_SIMD_COMPAT_H */
