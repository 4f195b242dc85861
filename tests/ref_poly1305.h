/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reference Poly1305 for the tests, written from RFC 8439 section 2.5.1's
 * pseudocode independently of poly1305_core.c: numbers are arrays of
 * 32-bit words, products are schoolbook, the accumulator is fully
 * reduced after every block (no partial reduction).
 */
#ifndef TESTS_REF_POLY1305_H
#define TESTS_REF_POLY1305_H

#include <stddef.h>
#include <linux/types.h>

/* The 16-byte tag of @len bytes of @msg under the 32-byte one-time @key. */
void ref_poly1305(const u8 key[32], const u8 *msg, size_t len, u8 mac[16]);
/*
 * The same, reduced by binary long division instead of folding: slow,
 * and sharing nothing with the folding but the schoolbook product.
 */
void ref_poly1305_slow(const u8 key[32], const u8 *msg, size_t len,
		       u8 mac[16]);

#endif /* TESTS_REF_POLY1305_H */
