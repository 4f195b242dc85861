// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's checks of poly1305_core.c, in groups; a failure line
 * starts "FAIL poly1305/GROUP":
 *
 *   vector     RFC 8439's vectors (vectors-poly1305.h) in one update,
 *              byte by byte, and through the block API when whole blocks
 *   reference  ref_poly1305.c on the same vectors, so that it is right too
 *   edge       keys with a small r (and the largest clamped r) and
 *              messages of nearly all-0xff blocks, against the reference:
 *              they leave h just below 2^130 - 5, in [2^130 - 5, 2^130)
 *              and at or above 2^130 before the final reduction, and the
 *              core's own limbs must show that each range was reached
 *   length     every length 0..P1305_MAX_LEN at every misalignment mod 8,
 *              random messages and all-0xff ones, keys random, with r all
 *              ones (clamped), s all ones and both, against the reference
 *   split      the same messages in random pieces (empty ones too) and
 *              byte by byte: the same tag as in one update
 *   blocks     the block API resumed over several calls: the same tag
 *   wipe       poly1305_core_final() leaves the context all zero
 */
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>

#include "harness.h"
#include "poly1305_core.h"
#include "ref_poly1305.h"
#include "vectors-poly1305.h"

#define P1305_MAX_LEN	320
#define P1305_MAX_OFF	8

static u8 msg_buf[P1305_MAX_OFF + P1305_MAX_LEN];

/* One group's checks and failures, for its summary line. */
struct p1305_group {
	const char *name;
	unsigned int checks, failed;
};

static void hex16(char out[33], const u8 *p)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

/* One check: @got must be @want. */
static void check_tag(struct p1305_group *g, const char *what, const u8 *got,
		      const u8 *want)
{
	bool ok = !memcmp(got, want, POLY1305_CORE_MAC_BYTES);
	char hg[33], hw[33];

	if (!ok) {
		hex16(hg, got);
		hex16(hw, want);
		report("poly1305/%s %s: tag %s, want %s", g->name, what, hg, hw);
		g->failed++;
	}
	g->checks++;
	count(ok);
}

static void check_true(struct p1305_group *g, bool ok)
{
	if (!ok)
		g->failed++;
	g->checks++;
	count(ok);
}

static void group_done(const struct p1305_group *g)
{
	printf("  poly1305 %s: %u checks, %u failed\n", g->name, g->checks,
	       g->failed);
}

static void mac_once(const u8 *key, const u8 *msg, unsigned int len,
		     u8 *mac)
{
	struct poly1305_core_ctx ctx;

	poly1305_core_ctx_init(&ctx, key);
	poly1305_core_update(&ctx, msg, len);
	poly1305_core_final(&ctx, mac);
}

/* In pieces of random lengths (0 included), or of 1 byte if @bytewise. */
static void mac_pieces(const u8 *key, const u8 *msg, unsigned int len,
		       bool bytewise, u8 *mac)
{
	struct poly1305_core_ctx ctx;
	unsigned int off = 0, n;

	poly1305_core_ctx_init(&ctx, key);
	while (off < len) {
		if (bytewise)
			n = 1;
		else if (rng_next() % 4 == 0)
			n = 0;
		else
			n = 1 + rng_next() % (len - off < 40 ? len - off : 40);
		poly1305_core_update(&ctx, msg + off, n);
		off += n;
	}
	poly1305_core_final(&ctx, mac);
}

/* The block API over @nblocks whole blocks, in random runs of blocks. */
static void mac_blocks(const u8 *key, const u8 *msg, unsigned int nblocks,
		       bool resumed, u8 *mac)
{
	struct poly1305_core_state st;
	unsigned int n;

	poly1305_core_init(&st, key);
	while (nblocks) {
		n = resumed ? rng_next() % (nblocks + 1) : nblocks;
		poly1305_core_blocks(&st, msg, n, 1);
		msg += n * POLY1305_CORE_BLOCK_BYTES;
		nblocks -= n;
	}
	poly1305_core_emit(&st, mac);
	memset(&st, 0, sizeof(st));
}

static void test_vectors(void)
{
	struct p1305_group gv = { .name = "vector" }, gr = { .name = "reference" };
	char what[96];
	u8 mac[POLY1305_CORE_MAC_BYTES];
	unsigned int i;

	new_group();
	for (i = 0; i < ARRAY_SIZE(poly1305_tvs); i++) {
		const struct poly1305_tv *tv = &poly1305_tvs[i];

		mac_once(tv->key, tv->msg, tv->len, mac);
		check_tag(&gv, tv->source, mac, tv->tag);
		mac_pieces(tv->key, tv->msg, tv->len, true, mac);
		snprintf(what, sizeof(what), "%s byte by byte", tv->source);
		check_tag(&gv, what, mac, tv->tag);
		if (tv->len % POLY1305_CORE_BLOCK_BYTES == 0) {
			mac_blocks(tv->key, tv->msg,
				   tv->len / POLY1305_CORE_BLOCK_BYTES, false,
				   mac);
			snprintf(what, sizeof(what), "%s (block API)",
				 tv->source);
			check_tag(&gv, what, mac, tv->tag);
		}
		ref_poly1305(tv->key, tv->msg, tv->len, mac);
		check_tag(&gr, tv->source, mac, tv->tag);
	}
	group_done(&gv);
	group_done(&gr);
}

/* Where the core's h lies before the final reduction (p = 2^130 - 5). */
enum h_range {
	H_ELSEWHERE,
	H_BELOW_P,	/* [p - 16, p) */
	H_P_TO_2_130,	/* [p, 2^130) */
	H_FROM_2_130,	/* [2^130, ...): h2 >= 4 */
	H_RANGES
};

static const char *const h_range_names[H_RANGES] = {
	[H_ELSEWHERE] = "elsewhere",
	[H_BELOW_P] = "[2^130-21, 2^130-5)",
	[H_P_TO_2_130] = "[2^130-5, 2^130)",
	[H_FROM_2_130] = "[2^130, 2^131)",
};

static enum h_range h_range(const struct poly1305_core_state *st)
{
	const u64 ones = ~0ULL;

	if (st->h[2] >= 4)
		return H_FROM_2_130;
	if (st->h[2] != 3 || st->h[1] != ones)
		return H_ELSEWHERE;
	if (st->h[0] >= ones - 4)
		return H_P_TO_2_130;
	if (st->h[0] >= ones - 20)
		return H_BELOW_P;
	return H_ELSEWHERE;
}

/*
 * r = 1..5 (or every clamped bit set), then zero to two blocks from
 * edge_blocks[], then all 0xff with the first byte 0xf0..0xff: with
 * r = 1, ff.. then ff..(f9 + j) makes h = 2^130 - 8 + j; with r = 2,
 * 00.. then ff.. makes 2^131 - 2, folded to 2^130 + 3.  s is 0, all ones
 * or random, for the carry of h + s.
 */
static const u8 edge_firsts[] = { 0x00, 0xff, 0x01, 0xfe };

static void edge_block(u8 *b, unsigned int kind)
{
	memset(b, kind == 0 || kind == 2 ? 0x00 : 0xff,
	       POLY1305_CORE_BLOCK_BYTES);
	b[0] = edge_firsts[kind];
}

static void test_edges(void)
{
	struct p1305_group g = { .name = "edge" }, gc = { .name = "edge-coverage" };
	unsigned int seen[H_RANGES] = { 0 };
	struct poly1305_core_state st;
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 msg[3 * POLY1305_CORE_BLOCK_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int r, pre, last, s, nb, i;
	enum h_range where;
	char what[96];

	new_group();
	for (r = 1; r <= 6; r++) {
		for (pre = 0; pre < 21; pre++) {
			for (last = 0; last < 16; last++) {
				for (s = 0; s < 3; s++) {
					memset(key, 0, 16);
					if (r == 6)
						memset(key, 0xff, 16);
					else
						key[0] = r;
					if (s == 2)
						rng_fill(key + 16, 16);
					else
						memset(key + 16, s ? 0xff : 0, 16);
					/* pre 0: none; 1-4: one; 5-20: two */
					nb = 0;
					if (pre >= 1 && pre <= 4) {
						edge_block(msg, pre - 1);
						nb = 1;
					} else if (pre >= 5) {
						edge_block(msg, (pre - 5) / 4);
						edge_block(msg + 16, (pre - 5) % 4);
						nb = 2;
					}
					memset(msg + 16 * nb, 0xff, 16);
					msg[16 * nb] = 0xf0 + last;
					nb++;

					poly1305_core_init(&st, key);
					poly1305_core_blocks(&st, msg, nb, 1);
					where = h_range(&st);
					seen[where]++;
					poly1305_core_emit(&st, mac);
					ref_poly1305(key, msg, 16 * nb, want);
					snprintf(what, sizeof(what),
						 "r %u, blocks %u/%u, last %02x, s %u, h in %s",
						 r, nb, pre, 0xf0 + last, s,
						 h_range_names[where]);
					check_tag(&g, what, mac, want);
				}
			}
		}
	}
	printf("  poly1305 edge: h before the final reduction:");
	for (i = 0; i < H_RANGES; i++)
		printf("%s %s %u", i ? "," : "", h_range_names[i], seen[i]);
	printf("\n");
	for (i = H_BELOW_P; i < H_RANGES; i++) {
		if (!seen[i])
			report("poly1305/edge-coverage: h never in %s before emit",
			       h_range_names[i]);
		check_true(&gc, seen[i]);
	}
	group_done(&g);
	group_done(&gc);
}

static const char *const key_kinds[] = {
	"random", "r all ones", "s all ones", "r and s all ones",
};

static void make_key(u8 *key, unsigned int kind)
{
	rng_fill(key, POLY1305_CORE_KEY_BYTES);
	if (kind & 1)
		memset(key, 0xff, 16);
	if (kind & 2)
		memset(key + 16, 0xff, 16);
}

static void test_lengths(void)
{
	struct p1305_group gl = { .name = "length" }, gs = { .name = "split" };
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	u8 once[POLY1305_CORE_MAC_BYTES];
	unsigned int len, kind, ff, off;
	char what[96];
	u8 *msg;

	new_group();
	for (len = 0; len <= P1305_MAX_LEN; len++) {
		for (kind = 0; kind < ARRAY_SIZE(key_kinds); kind++) {
			for (ff = 0; ff < 2; ff++) {
				make_key(key, kind);
				off = (len + kind + ff) % P1305_MAX_OFF;
				msg = msg_buf + off;
				if (ff)
					memset(msg, 0xff, len);
				else
					rng_fill(msg, len);
				snprintf(what, sizeof(what),
					 "%u bytes at offset %u, key %s, %s message",
					 len, off, key_kinds[kind],
					 ff ? "all-0xff" : "random");
				ref_poly1305(key, msg, len, want);
				mac_once(key, msg, len, once);
				check_tag(&gl, what, once, want);

				mac_pieces(key, msg, len, false, mac);
				check_tag(&gs, what, mac, once);
				if (kind == 0 && !ff) {
					mac_pieces(key, msg, len, true, mac);
					snprintf(what, sizeof(what),
						 "%u bytes byte by byte", len);
					check_tag(&gs, what, mac, once);
				}
			}
		}
	}
	group_done(&gl);
	group_done(&gs);
}

static void test_blocks(void)
{
	struct p1305_group g = { .name = "blocks" };
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], once[POLY1305_CORE_MAC_BYTES];
	unsigned int nb, kind, t;
	char what[96];

	new_group();
	for (nb = 0; nb <= P1305_MAX_LEN / POLY1305_CORE_BLOCK_BYTES; nb++) {
		for (kind = 0; kind < ARRAY_SIZE(key_kinds); kind++) {
			make_key(key, kind);
			rng_fill(msg_buf, nb * POLY1305_CORE_BLOCK_BYTES);
			mac_blocks(key, msg_buf, nb, false, once);
			for (t = 0; t < 4; t++) {
				mac_blocks(key, msg_buf, nb, true, mac);
				snprintf(what, sizeof(what),
					 "%u blocks, key %s, resumed", nb,
					 key_kinds[kind]);
				check_tag(&g, what, mac, once);
			}
			/* One update of whole blocks is the block API. */
			mac_once(key, msg_buf, nb * POLY1305_CORE_BLOCK_BYTES,
				 mac);
			snprintf(what, sizeof(what),
				 "%u blocks, key %s, one update", nb,
				 key_kinds[kind]);
			check_tag(&g, what, mac, once);
		}
	}
	group_done(&g);
}

static void test_wipe(void)
{
	struct p1305_group g = { .name = "wipe" };
	struct poly1305_core_ctx ctx;
	u8 key[POLY1305_CORE_KEY_BYTES], mac[POLY1305_CORE_MAC_BYTES];
	const u8 *p = (const u8 *)&ctx;
	unsigned int len;
	size_t i, bad;

	new_group();
	for (len = 0; len < 40; len += 13) {
		make_key(key, 0);
		rng_fill(msg_buf, len);
		memset(&ctx, 0x5a, sizeof(ctx));
		poly1305_core_ctx_init(&ctx, key);
		poly1305_core_update(&ctx, msg_buf, len);
		poly1305_core_final(&ctx, mac);
		for (i = 0, bad = 0; i < sizeof(ctx); i++)
			bad += p[i] != 0;
		if (bad)
			report("poly1305/wipe after %u bytes: %zu of %zu bytes not zeroed",
			       len, bad, sizeof(ctx));
		check_true(&g, !bad);
	}
	group_done(&g);
}

void test_poly1305(void)
{
	test_vectors();
	test_edges();
	test_lengths();
	test_blocks();
	test_wipe();
}
