/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place for differences between the kernels this tree builds
 * against (6.1 and later), tested where the API appeared rather than by
 * version number.  The module itself needs none; the KUnit tests one.
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

#endif /* CHACHA20_SIMD_COMPAT_H */
