// SPDX-License-Identifier: GPL-2.0
/*
 * Reference ChaCha family for the tests.  Deliberately plain and unlike
 * chacha20_core.c: single rounds chosen from a table of quarter-round
 * index sets, word access through byte shifts, and a per-byte walk of the
 * key stream.
 */
#include <string.h>

#include "ref_chacha.h"

/* RFC 8439 section 2.3: "expa" "nd 3" "2-by" "te k" as bytes. */
static const u8 ref_sigma[16] = "expand 32-byte k";

/*
 * Section 2.3: odd rounds work on the columns, even rounds on the
 * diagonals (counting from 1).
 */
static const unsigned char ref_qr_index[2][4][4] = {
	{ { 0, 4, 8, 12 }, { 1, 5, 9, 13 },
	  { 2, 6, 10, 14 }, { 3, 7, 11, 15 } },
	{ { 0, 5, 10, 15 }, { 1, 6, 11, 12 },
	  { 2, 7, 8, 13 }, { 3, 4, 9, 14 } },
};

static u32 ref_get32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void ref_put32(u8 *p, u32 v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

static u32 ref_rotl(u32 v, int n)
{
	return (v << n) | (v >> (32 - n));
}

/* Section 2.1. */
void ref_quarter_round(u32 *a, u32 *b, u32 *c, u32 *d)
{
	*a += *b;
	*d = ref_rotl(*d ^ *a, 16);
	*c += *d;
	*b = ref_rotl(*b ^ *c, 12);
	*a += *b;
	*d = ref_rotl(*d ^ *a, 8);
	*c += *d;
	*b = ref_rotl(*b ^ *c, 7);
}

/* Load the 16 state words from constant, key and input bytes. */
static void ref_load_state(u32 s[16], const u8 key[32], const u8 input[16])
{
	int i;

	for (i = 0; i < 4; i++)
		s[i] = ref_get32(ref_sigma + 4 * i);
	for (i = 0; i < 8; i++)
		s[4 + i] = ref_get32(key + 4 * i);
	for (i = 0; i < 4; i++)
		s[12 + i] = ref_get32(input + 4 * i);
}

static void ref_rounds(u32 s[16], unsigned int nrounds)
{
	unsigned int r;
	int q;

	for (r = 0; r < nrounds; r++) {
		for (q = 0; q < 4; q++) {
			const unsigned char *ix = ref_qr_index[r % 2][q];

			ref_quarter_round(&s[ix[0]], &s[ix[1]], &s[ix[2]],
					  &s[ix[3]]);
		}
	}
}

void ref_chacha_block(const u8 key[32], const u8 input[16],
		      unsigned int nrounds, u8 out[64])
{
	u32 initial[16], working[16];
	int i;

	ref_load_state(initial, key, input);
	memcpy(working, initial, sizeof(working));
	ref_rounds(working, nrounds);
	for (i = 0; i < 16; i++)
		ref_put32(out + 4 * i, working[i] + initial[i]);
}

void ref_chacha_xor(const u8 key[32], u32 counter, const u8 nonce[12],
		    unsigned int nrounds, const u8 *in, u8 *out, size_t len)
{
	u8 input[16], stream[64];
	size_t pos;

	memcpy(input + 4, nonce, 12);
	for (pos = 0; pos < len; pos++) {
		if (pos % 64 == 0) {
			/* Block j of the message uses counter + j mod 2^32. */
			ref_put32(input, counter + (u32)(pos / 64));
			ref_chacha_block(key, input, nrounds, stream);
		}
		out[pos] = in[pos] ^ stream[pos % 64];
	}
}

void ref_hchacha(const u8 key[32], const u8 nonce[16], unsigned int nrounds,
		 u8 subkey[32])
{
	u32 s[16];
	int i;

	ref_load_state(s, key, nonce);
	ref_rounds(s, nrounds);
	/* The first and last rows, without adding the input back. */
	for (i = 0; i < 4; i++) {
		ref_put32(subkey + 4 * i, s[i]);
		ref_put32(subkey + 16 + 4 * i, s[12 + i]);
	}
}

void ref_xchacha_xor(const u8 key[32], const u8 nonce[24], u32 counter,
		     unsigned int nrounds, const u8 *in, u8 *out, size_t len)
{
	u8 subkey[32], chacha_nonce[12];

	ref_hchacha(key, nonce, nrounds, subkey);
	memset(chacha_nonce, 0, 4);
	memcpy(chacha_nonce + 4, nonce + 16, 8);
	ref_chacha_xor(subkey, counter, chacha_nonce, nrounds, in, out, len);
}
