/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What harness.c shares with the checks in other files of the harness
 * (poly1305_test.c): failure lines, the pass/fail count and the random
 * data of --seed.
 */
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/compiler_attributes.h>

/*
 * One failure line, "FAIL " and the message, up to --max-report of them
 * per group of checks (new_group() starts a group).
 */
__printf(1, 2) void report(const char *fmt, ...);
void new_group(void);
/* The same, counted in *@reported (zeroed by the caller), not per group. */
__printf(2, 3) void report_in(unsigned int *reported, const char *fmt, ...);

/* One check passed or failed. */
void count(bool ok);
/* Checks of something this CPU cannot run were skipped (SKIPPED line). */
void count_skipped(void);

/* Deterministic random data (xorshift64*, from --seed). */
u64 rng_next(void);
void rng_fill(u8 *p, size_t len);

/*
 * poly1305_test.c: the checks of poly1305_core.c, poly1305-x86_64.S and
 * poly1305-avx512ifma-x86_64.S.
 */
void test_poly1305(void);

/* aead_test.c: the checks of chacha20poly1305_core.c. */
void test_aead(void);

/* Checks failed so far. */
unsigned int harness_failed(void);

#endif /* TESTS_HARNESS_H */
