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

struct poly1305_impl;

/*
 * Register the AEADs on @ci with Poly1305 @pi at @priority, the choices
 * of chacha_policy_aeads().
 */
int __init chachapoly_register(const struct chacha_impl *ci,
			       const struct poly1305_impl *pi, int priority);
void chachapoly_unregister(void);

#endif /* CHACHA20_GLUE_H */
