/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the harness and the constant-time check: which
 * implementations this CPU can run, and state set-up from key and IV bytes
 * in the kernel's IV layouts.
 */
#ifndef TESTS_TESTUTIL_H
#define TESTS_TESTUTIL_H

#include <linux/types.h>

#include "chacha20_core.h"

/*
 * Whether the CPU has every feature in @needs (CHACHA_CPU_*).  If not and
 * @missing is not NULL, *@missing names the first missing one.
 */
bool cpu_has_features(unsigned int needs, const char **missing);

/* Little-endian 32-bit load and store, byte by byte. */
u32 get_le32(const u8 *p);
void put_le32(u8 *p, u32 v);

/* state = chacha_init_state(le32 words of @key, @iv): chacha20 layout. */
void chacha_setup(u32 *state, const u8 *key, const u8 *iv);

/*
 * XChaCha as crypto/chacha_generic.c does it: @iv is the 24-byte nonce
 * followed by the le64 block counter; HChaCha of the key and the first 16
 * nonce bytes gives the subkey, and the state takes the counter and the
 * last 8 nonce bytes.
 */
void xchacha_setup(u32 *state, const u8 *key, const u8 *iv,
		   unsigned int nrounds);

#endif /* TESTS_TESTUTIL_H */
