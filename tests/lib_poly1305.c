// SPDX-License-Identifier: GPL-2.0
/*
 * The stand-in for the kernel's Poly1305 library (shim/crypto/poly1305.h):
 * the message kept whole, its tag from the reference at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <crypto/poly1305.h>

#include "ref_poly1305.h"

void poly1305_init(struct poly1305_desc_ctx *desc, const u8 *key)
{
	memcpy(desc->key, key, sizeof(desc->key));
	desc->msg = NULL;
	desc->len = 0;
	desc->cap = 0;
}

void poly1305_update(struct poly1305_desc_ctx *desc, const u8 *src,
		     unsigned int nbytes)
{
	if (desc->len + nbytes > desc->cap) {
		size_t cap = 2 * (desc->len + nbytes);
		u8 *msg = realloc(desc->msg, cap);

		if (!msg) {
			perror("lib_poly1305");
			exit(2);
		}
		desc->msg = msg;
		desc->cap = cap;
	}
	memcpy(desc->msg + desc->len, src, nbytes);
	desc->len += nbytes;
}

void poly1305_final(struct poly1305_desc_ctx *desc, u8 *digest)
{
	ref_poly1305(desc->key, desc->msg, desc->len, digest);
	free(desc->msg);
	memset(desc, 0, sizeof(*desc));
}
