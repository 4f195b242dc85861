/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness's stand-in for the kernel's Poly1305 library, which the
 * AEAD core takes for long requests on some pairs (poly1305_impl's
 * lib_from) and for its "lib" entry: the calls of <crypto/poly1305.h>,
 * answered by the harness's independent reference (lib_poly1305.c keeps
 * the message and runs ref_poly1305() on it at the end), so that what
 * the core does around them (the order of the updates, the padding and
 * the lengths, which bytes it authenticates) is checked as for the
 * module's own Poly1305.
 */
#ifndef TESTS_SHIM_CRYPTO_POLY1305_H
#define TESTS_SHIM_CRYPTO_POLY1305_H

#include <linux/types.h>

struct poly1305_desc_ctx {
	u8 key[32];
	u8 *msg;
	size_t len, cap;
};

void poly1305_init(struct poly1305_desc_ctx *desc, const u8 *key);
void poly1305_update(struct poly1305_desc_ctx *desc, const u8 *src,
		     unsigned int nbytes);
void poly1305_final(struct poly1305_desc_ctx *desc, u8 *digest);

#endif /* TESTS_SHIM_CRYPTO_POLY1305_H */
