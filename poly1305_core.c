// SPDX-License-Identifier: GPL-2.0
/*
 * Scalar Poly1305 (RFC 8439 section 2.5): h = (h + m) * r mod 2^130 - 5
 * per 16-byte block m, then h mod 2^130 - 5, plus s, modulo 2^128.
 *
 * h lives in three 64-bit limbs, h0 + h1 2^64 + h2 2^128, kept below
 * 2^130 + 2^64 (h2 <= 4) between blocks, not fully reduced until the end.
 * r = r0 + r1 2^64 is clamped, so r0 < 2^60 and r1 < 2^60 is a multiple
 * of 4; then 2^128 r1 = 2^130 (r1 / 4) = 5 (r1 / 4) = rr1 modulo p, and
 * each block is five 64 x 64 -> 128-bit products and one small one.
 *
 * Constant time: no branch and no address depends on the key, the
 * message or h, only on lengths.  Carries go through 128-bit additions
 * and the last subtraction of p through a mask.  The user-space harness
 * and the constant-time check in tests/ build this file unchanged.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "poly1305_core.h"

/*
 * Test only: tests/Makefile's poly1305-mutate builds more copies of this
 * file with -DPOLY1305_PLANT_FAULT=POLY1305_FAULT_..., each with one of
 * these mistakes, and checks that the harness fails.  The module never
 * defines it; PLANTED() is then 0 and no trace is left in the object.
 */
#define POLY1305_FAULT_CARRY	1	/* emit: h + 5 drops h0's carry */
#define POLY1305_FAULT_SELECT	2	/* emit: never subtracts p */
#define POLY1305_FAULT_SADD	3	/* emit: h + s drops the low carry */
#define POLY1305_FAULT_FOLD	4	/* blocks: the fold drops h1's carry */
#define POLY1305_FAULT_PAD	5	/* final: no 0x01 after a part block */
#define POLY1305_FAULT_SPLIT	6	/* update: tops the buffer up at 0 */
#define POLY1305_FAULT_WIPE	7	/* final: leaves the context as is */
#define POLY1305_FAULT_BRANCH	8	/* emit: branches on h >= p (ct.c) */

#ifdef POLY1305_PLANT_FAULT
#ifdef __KERNEL__
#error "POLY1305_PLANT_FAULT is for the user-space tests only"
#endif
#define PLANTED(fault)	(POLY1305_FAULT_##fault == (POLY1305_PLANT_FAULT))
#else
#define PLANTED(fault)	(0 && POLY1305_FAULT_##fault)
#endif

/*
 * Always inlined, as the load oot_poly1305_le64() in poly1305_core.h:
 * with the kernel's fortified memcpy() the compiler left both out of
 * line, six calls per request and two per block of the C Poly1305, each
 * through a return thunk where the kernel has them.
 */
static __always_inline void store_le64(u8 *p, u64 v)
{
	__le64 w = cpu_to_le64(v);

	memcpy(p, &w, sizeof(w));
}

/* The full product: one mul on x86-64, mul and umulh on arm64. */
static inline unsigned __int128 mul_64x64(u64 a, u64 b)
{
	return (unsigned __int128)a * b;
}

/* h2 keeps two bits, 5 (h >> 130) goes into h0: h stays the same mod p. */
static void fold_h2(u64 *h0, u64 *h1, u64 *h2)
{
	unsigned __int128 t;
	u64 c = (*h2 >> 2) + (*h2 & ~3ULL);

	*h2 &= 3;
	t = (unsigned __int128)*h0 + c;
	*h0 = (u64)t;
	t = (unsigned __int128)*h1 + (u64)(t >> 64);
	*h1 = (u64)t;
	if (!PLANTED(FOLD))
		*h2 += (u64)(t >> 64);
}

/* oot_poly1305_blocks(), inlined in oot_poly1305_blocks_emit() too. */
static __always_inline void poly1305_blocks_c(struct poly1305_core_state *st,
					      const u8 *src,
					      unsigned int nblocks, u32 hibit)
{
	const u64 r0 = st->r[0], r1 = st->r[1];
	const u64 rr1 = r1 + (r1 >> 2);
	u64 h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
	unsigned __int128 d0, d1;
	u64 d2;

	while (nblocks--) {
		/* h += m + hibit 2^128: h2 <= 4 + 1 + 1 */
		d0 = (unsigned __int128)h0 + oot_poly1305_le64(src);
		d1 = (unsigned __int128)h1 + oot_poly1305_le64(src + 8) +
		     (u64)(d0 >> 64);
		h0 = (u64)d0;
		h1 = (u64)d1;
		h2 += (u64)(d1 >> 64) + hibit;

		/*
		 * h * r with h1 r1 2^128 = h1 rr1 and h2 r1 2^192 =
		 * h2 rr1 2^64 modulo p: each sum stays below 2^126.
		 */
		d0 = mul_64x64(h0, r0) + mul_64x64(h1, rr1);
		d1 = mul_64x64(h0, r1) + mul_64x64(h1, r0) +
		     mul_64x64(h2, rr1);
		d2 = h2 * r0;

		/* Back to limbs: h2 < 2^63, so 5 (h2 >> 2) fits in 64 bits. */
		d1 += (u64)(d0 >> 64);
		h0 = (u64)d0;
		h1 = (u64)d1;
		h2 = d2 + (u64)(d1 >> 64);
		fold_h2(&h0, &h1, &h2);

		src += POLY1305_CORE_BLOCK_BYTES;
	}
	st->h[0] = h0;
	st->h[1] = h1;
	st->h[2] = h2;
}

void oot_poly1305_blocks(struct poly1305_core_state *st, const u8 *src,
			 unsigned int nblocks, u32 hibit)
{
	poly1305_blocks_c(st, src, nblocks, hibit);
}

/* oot_poly1305_emit(), inlined in oot_poly1305_blocks_emit() too. */
static __always_inline void poly1305_emit_c(const struct poly1305_core_state *st,
					    u8 mac[POLY1305_CORE_MAC_BYTES])
{
	u64 h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
	unsigned __int128 t;
	u64 g0, g1, g2, mask;

	/*
	 * Fold once more whatever h2 holds: then h < 2^130 + 5 (h2 <= 4),
	 * and h mod p is h - p if h >= p, else h.
	 */
	fold_h2(&h0, &h1, &h2);

	/* g = h + 5 = h - p + 2^130: h >= p if and only if g >= 2^130. */
	t = (unsigned __int128)h0 + 5;
	g0 = (u64)t;
	if (PLANTED(CARRY))
		t = h1;
	else
		t = (unsigned __int128)h1 + (u64)(t >> 64);
	g1 = (u64)t;
	g2 = h2 + (u64)(t >> 64);

	/* All ones if g >= 2^130 (g2 <= 4 + 1, so g2 >> 2 is 0 or 1). */
	mask = 0 - (g2 >> (PLANTED(SELECT) ? 3 : 2));
	if (PLANTED(BRANCH) && (g2 >> 2))
		__asm__ __volatile__("" : "+r" (mask));
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);

	/* + s, modulo 2^128 */
	t = (unsigned __int128)h0 + st->s[0];
	h0 = (u64)t;
	h1 += st->s[1] + (PLANTED(SADD) ? 0 : (u64)(t >> 64));

	store_le64(mac, h0);
	store_le64(mac + 8, h1);
}

void oot_poly1305_emit(const struct poly1305_core_state *st,
		       u8 mac[POLY1305_CORE_MAC_BYTES])
{
	poly1305_emit_c(st, mac);
}

void oot_poly1305_blocks_emit(struct poly1305_core_state *st, const u8 *src,
			      unsigned int nblocks,
			      u8 mac[POLY1305_CORE_MAC_BYTES])
{
	poly1305_blocks_c(st, src, nblocks, 1);
	poly1305_emit_c(st, mac);
}

void oot_poly1305_ctx_init(struct poly1305_core_ctx *ctx,
			   const u8 key[POLY1305_CORE_KEY_BYTES])
{
	oot_poly1305_init(&ctx->st, key);
	ctx->buflen = 0;
}

void oot_poly1305_update(struct poly1305_core_ctx *ctx, const u8 *src,
			 unsigned int len)
{
	unsigned int n;

	if (!len)
		return;
	if (ctx->buflen) {
		n = min_t(unsigned int, len,
			  POLY1305_CORE_BLOCK_BYTES - ctx->buflen);
		memcpy(ctx->buf + (PLANTED(SPLIT) ? 0 : ctx->buflen), src, n);
		ctx->buflen += n;
		src += n;
		len -= n;
		if (ctx->buflen < POLY1305_CORE_BLOCK_BYTES)
			return;
		oot_poly1305_blocks(&ctx->st, ctx->buf, 1, 1);
		ctx->buflen = 0;
	}
	n = len / POLY1305_CORE_BLOCK_BYTES;
	if (n) {
		oot_poly1305_blocks(&ctx->st, src, n, 1);
		src += n * POLY1305_CORE_BLOCK_BYTES;
		len -= n * POLY1305_CORE_BLOCK_BYTES;
	}
	if (len) {
		memcpy(ctx->buf, src, len);
		ctx->buflen = len;
	}
}

void oot_poly1305_final(struct poly1305_core_ctx *ctx,
			u8 mac[POLY1305_CORE_MAC_BYTES])
{
	/* A last partial block: its bytes, 0x01, zeros, and no 2^128. */
	if (ctx->buflen) {
		ctx->buf[ctx->buflen] = PLANTED(PAD) ? 0 : 1;
		memset(ctx->buf + ctx->buflen + 1, 0,
		       POLY1305_CORE_BLOCK_BYTES - ctx->buflen - 1);
		oot_poly1305_blocks(&ctx->st, ctx->buf, 1, 0);
	}
	oot_poly1305_emit(&ctx->st, mac);
	if (!PLANTED(WIPE))
		memzero_explicit(ctx, sizeof(*ctx));
}
