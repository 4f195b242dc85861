/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the skcipher glue (chacha20_glue.c) shares with the AEAD glue
 * (chacha20poly1305_glue.c), the two halves of one module.
 */
#ifndef CHACHA20_GLUE_H
#define CHACHA20_GLUE_H

#include <linux/init.h>

#include "chacha20_core.h"

#define DRIVER_SUFFIX		"oot"

/*
 * The ChaCha implementation every driver runs, chosen at load (__ro_after_init
 * unless CHACHA_TEST_HOOKS).
 */
extern const struct chacha_impl *chacha_impl;

/* CHACHA_CPU_* of this CPU. */
unsigned int chacha_cpu_features(void);

/*
 * Whether the AEADs on @ci are faster than the rfc7539 template on the
 * in-tree drivers: always on x86-64; on little-endian arm64 where they are
 * modelled so on every kind of CPU online (chacha20_glue.c); never on
 * big-endian arm64.  Why, for the log, in @why (x86-64: nothing).
 */
bool __init chacha_aead_modelled_faster(const struct chacha_impl *ci,
					char *why, size_t size);

/*
 * Register the AEADs on @ci, above the template's instance on the
 * skciphers at @priority, with the best Poly1305 of a CPU with @have, or
 * @poly_name's.  By default (@priority_set false) on arm64 only where
 * chacha_aead_modelled_faster(), and then above the in-tree drivers.
 */
int __init chachapoly_register(const struct chacha_impl *ci, int priority,
			       bool priority_set, unsigned int have,
			       const char *poly_name);
void chachapoly_unregister(void);

#endif /* CHACHA20_GLUE_H */
