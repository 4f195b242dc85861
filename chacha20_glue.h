/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crypto API glue as chacha20_main.c sees it: the skciphers'
 * (chacha20_glue.c) and the AEADs' (chacha20poly1305_glue.c) registration,
 * each on what the policy (chacha20_policy.h) chose; and the suffix of
 * every driver name, which both glue files use.
 */
#ifndef CHACHA20_GLUE_H
#define CHACHA20_GLUE_H

#include <linux/init.h>

#include "chacha20_core.h"

#define DRIVER_SUFFIX		"oot"

struct poly1305_impl;

/*
 * Register chacha20, xchacha20 and xchacha12 on @ci at @priority, the
 * choices of chacha_policy_skciphers().
 */
int __init chacha_skcipher_register(const struct chacha_impl *ci,
				    int priority);
void chacha_skcipher_unregister(void);

/*
 * Register the AEADs on @ci with Poly1305 @pi at @priority, the choices
 * of chacha_policy_aeads().  chachapoly_unregister() undoes it, if done.
 */
int __init chachapoly_register(const struct chacha_impl *ci,
			       const struct poly1305_impl *pi, int priority);
void chachapoly_unregister(void);

#endif /* CHACHA20_GLUE_H */
