// SPDX-License-Identifier: GPL-2.0
/*
 * Reference Poly1305 for the tests.  Deliberately slow and plain, unlike
 * poly1305_core.c: little-endian arrays of REF_WORDS 32-bit words, the
 * accumulator always fully reduced, a = (a + n) * r % p computed as a
 * full product followed by shift-and-subtract long division by p.
 */
#include <string.h>

#include "ref_poly1305.h"

/* 320 bits: room for a product of two numbers below 2^160. */
#define REF_WORDS	10
#define REF_BITS	(32 * REF_WORDS)

/* p = 2^130 - 5 */
static const u32 ref_p[REF_WORDS] = {
	0xfffffffb, 0xffffffff, 0xffffffff, 0xffffffff, 0x3,
};

/* x = the little-endian number in @len (<= 4 * REF_WORDS) bytes of @b */
static void ref_from_bytes(u32 *x, const u8 *b, size_t len)
{
	size_t i;

	memset(x, 0, REF_WORDS * sizeof(*x));
	for (i = 0; i < len; i++)
		x[i / 4] |= (u32)b[i] << (8 * (i % 4));
}

/* x += y, modulo 2^REF_BITS (never reached here) */
static void ref_add(u32 *x, const u32 *y)
{
	u64 carry = 0;
	int i;

	for (i = 0; i < REF_WORDS; i++) {
		carry += (u64)x[i] + y[i];
		x[i] = (u32)carry;
		carry >>= 32;
	}
}

/* z = x * y; x and y below 2^160 (the top half of each is zero) */
static void ref_mul(u32 *z, const u32 *x, const u32 *y)
{
	u64 carry;
	int i, j;

	memset(z, 0, REF_WORDS * sizeof(*z));
	for (i = 0; i < REF_WORDS / 2; i++) {
		carry = 0;
		for (j = 0; j < REF_WORDS / 2; j++) {
			carry += (u64)x[i] * y[j] + z[i + j];
			z[i + j] = (u32)carry;
			carry >>= 32;
		}
		z[i + REF_WORDS / 2] = (u32)carry;
	}
}

/* x <<= 1 or x >>= 1 */
static void ref_shl1(u32 *x)
{
	int i;

	for (i = REF_WORDS - 1; i > 0; i--)
		x[i] = x[i] << 1 | x[i - 1] >> 31;
	x[0] <<= 1;
}

static void ref_shr1(u32 *x)
{
	int i;

	for (i = 0; i < REF_WORDS - 1; i++)
		x[i] = x[i] >> 1 | x[i + 1] << 31;
	x[REF_WORDS - 1] >>= 1;
}

/* If x >= m, x -= m. */
static void ref_sub_if_ge(u32 *x, const u32 *m)
{
	u32 borrow = 0;
	u64 d;
	int i;

	for (i = REF_WORDS - 1; i >= 0; i--) {
		if (x[i] != m[i])
			break;
	}
	if (i >= 0 && x[i] < m[i])
		return;
	for (i = 0; i < REF_WORDS; i++) {
		d = (u64)x[i] - m[i] - borrow;
		x[i] = (u32)d;
		borrow = (u32)(d >> 63);
	}
}

/*
 * x %= p by long division: subtract p << k wherever it fits, for k from
 * REF_BITS - 131 (p << k just below 2^REF_BITS) down to 0.
 */
static void ref_mod_p(u32 *x)
{
	u32 m[REF_WORDS];
	int k;

	memcpy(m, ref_p, sizeof(m));
	for (k = 0; k < REF_BITS - 131; k++)
		ref_shl1(m);
	for (k = REF_BITS - 131; k >= 0; k--) {
		ref_sub_if_ge(x, m);
		ref_shr1(m);
	}
}

void ref_poly1305(const u8 key[32], const u8 *msg, size_t len, u8 mac[16])
{
	/* Section 2.5: the bits of r that are cleared. */
	static const u8 clamp[16] = {
		0xff, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
		0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
	};
	u32 a[REF_WORDS], r[REF_WORDS], s[REF_WORDS], n[REF_WORDS];
	u32 prod[REF_WORDS];
	u8 rbytes[16], block[17];
	size_t i, take;

	for (i = 0; i < 16; i++)
		rbytes[i] = key[i] & clamp[i];
	ref_from_bytes(r, rbytes, 16);
	ref_from_bytes(s, key + 16, 16);
	memset(a, 0, sizeof(a));

	/* n = the block's bytes with 0x01 appended: up to 17 bytes */
	for (i = 0; i < len; i += 16) {
		take = len - i < 16 ? len - i : 16;
		memcpy(block, msg + i, take);
		block[take] = 0x01;
		ref_from_bytes(n, block, take + 1);
		ref_add(a, n);
		ref_mul(prod, a, r);
		ref_mod_p(prod);
		memcpy(a, prod, sizeof(a));
	}
	ref_add(a, s);
	for (i = 0; i < 16; i++)
		mac[i] = (u8)(a[i / 4] >> (8 * (i % 4)));
}
