/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reference ChaCha, HChaCha and XChaCha for the tests, written from
 * RFC 8439 and draft-irtf-cfrg-xchacha-03 independently of
 * chacha20_core.c: everything is in bytes, and the key stream is produced
 * one byte position at a time.
 */
#ifndef TESTS_REF_CHACHA_H
#define TESTS_REF_CHACHA_H

#include <stddef.h>
#include <linux/types.h>

/* RFC 8439 section 2.1: the quarter round on four words. */
void ref_quarter_round(u32 *a, u32 *b, u32 *c, u32 *d);

/*
 * One 64-byte key stream block.  @input is the last four state words
 * serialised little endian: for RFC 8439, the le32 block counter followed
 * by the 96-bit nonce.
 */
void ref_chacha_block(const u8 key[32], const u8 input[16],
		      unsigned int nrounds, u8 out[64]);

/*
 * RFC 8439 section 2.4 encryption, with the 32-bit block counter wrapping
 * modulo 2^32 (the nonce is never touched).  @in and @out must not
 * overlap.
 */
void ref_chacha_xor(const u8 key[32], u32 counter, const u8 nonce[12],
		    unsigned int nrounds, const u8 *in, u8 *out, size_t len);

/* draft-irtf-cfrg-xchacha-03 section 2.2: the 32-byte subkey. */
void ref_hchacha(const u8 key[32], const u8 nonce[16], unsigned int nrounds,
		 u8 subkey[32]);

/*
 * draft-irtf-cfrg-xchacha-03 section 2.3: ChaCha with the HChaCha subkey
 * and the nonce 00 00 00 00 || nonce[16..23].
 */
void ref_xchacha_xor(const u8 key[32], const u8 nonce[24], u32 counter,
		     unsigned int nrounds, const u8 *in, u8 *out, size_t len);

#endif /* TESTS_REF_CHACHA_H */
