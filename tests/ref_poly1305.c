// SPDX-License-Identifier: GPL-2.0
/*
 * Reference Poly1305 for the tests.  Plain, unlike poly1305_core.c:
 * little-endian arrays of REF_WORDS 32-bit words, the accumulator always
 * fully reduced, a = (a + n) * r % p computed as a full product and then
 * reduced in one of two ways: by folding (2^130 = 5 modulo p, until the
 * number is below 2^130, then p subtracted if it fits), which
 * ref_poly1305() uses, or by shift-and-subtract long division by p, which
 * ref_poly1305_slow() uses.  The harness holds the two to each other (its
 * poly1305/reference group) and ref_poly1305() to RFC 8439; the long
 * division was once the only one, but it spent 97 % of the harness's time.
 */
#include <stdbool.h>
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

/* x >= 2^130 */
static bool ref_ge_2_130(const u32 *x)
{
	int i;

	for (i = 5; i < REF_WORDS; i++) {
		if (x[i])
			return true;
	}
	return x[4] >> 2;
}

/*
 * x %= p by folding: x = (x mod 2^130) + 5 (x >> 130) while x >= 2^130,
 * then x - p if x >= p (x < 2^130 + 5 * 2^k only shrinks, so the loop
 * ends, and below 2^130 one subtraction of p is enough).
 */
static void ref_fold_p(u32 *x)
{
	static const u32 five[REF_WORDS] = { 5 };
	u32 hi[REF_WORDS], t[REF_WORDS];
	int i;

	while (ref_ge_2_130(x)) {
		for (i = 0; i < REF_WORDS; i++) {
			hi[i] = i + 4 < REF_WORDS ? x[i + 4] >> 2 : 0;
			if (i + 5 < REF_WORDS)
				hi[i] |= x[i + 5] << 30;
		}
		x[4] &= 3;
		for (i = 5; i < REF_WORDS; i++)
			x[i] = 0;
		ref_mul(t, hi, five);
		ref_add(x, t);
	}
	ref_sub_if_ge(x, ref_p);
}

static void ref_mac(const u8 key[32], const u8 *msg, size_t len, u8 mac[16],
		    void (*reduce)(u32 *x))
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
		reduce(prod);
		memcpy(a, prod, sizeof(a));
	}
	ref_add(a, s);
	for (i = 0; i < 16; i++)
		mac[i] = (u8)(a[i / 4] >> (8 * (i % 4)));
}

void ref_poly1305(const u8 key[32], const u8 *msg, size_t len, u8 mac[16])
{
	ref_mac(key, msg, len, mac, ref_fold_p);
}

void ref_poly1305_slow(const u8 key[32], const u8 *msg, size_t len,
		       u8 mac[16])
{
	ref_mac(key, msg, len, mac, ref_mod_p);
}
