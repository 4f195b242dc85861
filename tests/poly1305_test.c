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
 *   long       messages up to P1305_LONG_MAX bytes: every length next to
 *              a multiple of 128 (eight blocks) and random ones, against
 *              the reference
 *   wipe       poly1305_core_final() leaves the context all zero
 *
 * Then, on x86-64 CPUs with AVX512F, AVX512VL and AVX512IFMA (a SKIPPED
 * line otherwise), poly1305_blocks_avx512ifma() on the same inputs, with
 * failure lines "FAIL poly1305-ifma/GROUP".  Its state goes to
 * poly1305_core_emit() for the tag, and the tag is compared with RFC 8439
 * or ref_poly1305.c, never with poly1305_core.c's:
 *
 *   vector     the RFC vectors, in one call (a last partial block padded
 *              here), in runs of 0-3 blocks, and mixed with calls of
 *              poly1305_core_blocks() (the same state layout)
 *   edge       the edge messages, also after 8 and 16 blocks that add up
 *              to p (so for r = 1 they leave h where it was), through the
 *              eight-lane path; edge-coverage: the same ranges of h
 *   length     every length 0..P1305_MAX_LEN, as the length group
 *   blocks     resumed: runs of 0-40 blocks, alone and mixed with
 *              poly1305_core_blocks(), up to P1305_LONG_MAX bytes
 *   long       as the long group
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
/* 33 groups of eight blocks: the long checks go one byte past it. */
#define P1305_LONG_MAX	(33 * 8 * POLY1305_CORE_BLOCK_BYTES)

static u8 msg_buf[P1305_MAX_OFF + P1305_MAX_LEN];
static u8 long_buf[P1305_MAX_OFF + P1305_LONG_MAX + 1];

/* A block function: poly1305_core_blocks() or another with its contract. */
typedef void p1305_blocks_fn(struct poly1305_core_state *st, const u8 *src,
			     unsigned int nblocks, u32 hibit);

/* poly1305_blocks_avx512ifma() if this CPU runs it, else NULL. */
static p1305_blocks_fn *ifma_blocks;

#define P1305_IFMA	"poly1305-ifma"

/* One group's checks and failures, for its summary line. */
struct p1305_group {
	const char *impl;	/* NULL: "poly1305" (poly1305_core.c) */
	const char *name;
	unsigned int checks, failed;
};

static const char *group_impl(const struct p1305_group *g)
{
	return g->impl ? g->impl : "poly1305";
}

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
		report("%s/%s %s: tag %s, want %s", group_impl(g), g->name,
		       what, hg, hw);
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
	printf("  %s %s: %u checks, %u failed\n", group_impl(g), g->name,
	       g->checks, g->failed);
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

/*
 * @len bytes through @fn, not poly1305_core_update(): the whole blocks in
 * runs of 0..@maxrun blocks (all in one call if @maxrun is 0), each run
 * by @fn or, if @mix, by @fn or poly1305_core_blocks() at random; a last
 * partial block padded here (0x01, then zeros) and given to @fn with
 * hibit 0; then poly1305_core_emit().
 */
static void mac_fn(p1305_blocks_fn *fn, const u8 *key, const u8 *msg,
		   unsigned int len, unsigned int maxrun, bool mix, u8 *mac)
{
	unsigned int nb = len / POLY1305_CORE_BLOCK_BYTES, n;
	unsigned int part = len % POLY1305_CORE_BLOCK_BYTES;
	struct poly1305_core_state st;
	u8 last[POLY1305_CORE_BLOCK_BYTES];

	poly1305_core_init(&st, key);
	while (nb) {
		n = maxrun ? rng_next() % (maxrun + 1) : nb;
		n = min_t(unsigned int, n, nb);
		if (mix && rng_next() % 2)
			poly1305_core_blocks(&st, msg, n, 1);
		else
			fn(&st, msg, n, 1);
		msg += n * POLY1305_CORE_BLOCK_BYTES;
		nb -= n;
	}
	if (part) {
		memset(last, 0, sizeof(last));
		memcpy(last, msg, part);
		last[part] = 1;
		fn(&st, last, 1, 0);
	}
	poly1305_core_emit(&st, mac);
	memset(&st, 0, sizeof(st));
}

static void test_vectors_ifma(void)
{
	struct p1305_group g = { .impl = P1305_IFMA, .name = "vector" };
	u8 mac[POLY1305_CORE_MAC_BYTES];
	char what[96];
	unsigned int i;

	new_group();
	for (i = 0; i < ARRAY_SIZE(poly1305_tvs); i++) {
		const struct poly1305_tv *tv = &poly1305_tvs[i];

		mac_fn(ifma_blocks, tv->key, tv->msg, tv->len, 0, false, mac);
		check_tag(&g, tv->source, mac, tv->tag);
		mac_fn(ifma_blocks, tv->key, tv->msg, tv->len, 3, false, mac);
		snprintf(what, sizeof(what), "%s in runs of 0-3 blocks",
			 tv->source);
		check_tag(&g, what, mac, tv->tag);
		mac_fn(ifma_blocks, tv->key, tv->msg, tv->len, 3, true, mac);
		snprintf(what, sizeof(what), "%s mixed with the C blocks",
			 tv->source);
		check_tag(&g, what, mac, tv->tag);
	}
	group_done(&g);
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

/*
 * poly1305_blocks_avx512ifma() on an edge message, after @pfx (0, 8 or
 * 16) blocks of 2^128 - 1 and 2^128 - 4 in turn: each pair with its two
 * 2^128 adds up to 2^130 - 5 = p, so for r = 1 h after them is 0 mod p.
 */
static void edge_ifma(struct p1305_group *g, unsigned int *seen,
		      const u8 *key, const u8 *msg, unsigned int nb,
		      unsigned int pfx, const char *what_edge)
{
	u8 big[(16 + 3) * POLY1305_CORE_BLOCK_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	struct poly1305_core_state st;
	enum h_range where;
	unsigned int i;
	char what[160];

	for (i = 0; i < pfx; i++) {
		memset(big + 16 * i, 0xff, 16);
		if (i % 2)
			big[16 * i] = 0xfc;
	}
	memcpy(big + 16 * pfx, msg, 16 * nb);
	poly1305_core_init(&st, key);
	ifma_blocks(&st, big, pfx + nb, 1);
	where = h_range(&st);
	seen[where]++;
	poly1305_core_emit(&st, mac);
	ref_poly1305(key, big, 16 * (pfx + nb), want);
	snprintf(what, sizeof(what), "%s, after %u blocks, h in %s",
		 what_edge, pfx, h_range_names[where]);
	check_tag(g, what, mac, want);
}

static void edge_coverage(struct p1305_group *gc, const unsigned int *seen)
{
	unsigned int i;

	printf("  %s edge: h before the final reduction:", group_impl(gc));
	for (i = 0; i < H_RANGES; i++)
		printf("%s %s %u", i ? "," : "", h_range_names[i], seen[i]);
	printf("\n");
	for (i = H_BELOW_P; i < H_RANGES; i++) {
		if (!seen[i])
			report("%s/edge-coverage: h never in %s before emit",
			       group_impl(gc), h_range_names[i]);
		check_true(gc, seen[i]);
	}
}

static void test_edges(void)
{
	struct p1305_group g = { .name = "edge" }, gc = { .name = "edge-coverage" };
	struct p1305_group gi = { .impl = P1305_IFMA, .name = "edge" };
	struct p1305_group gic = { .impl = P1305_IFMA, .name = "edge-coverage" };
	unsigned int seen[H_RANGES] = { 0 }, seen_ifma[H_RANGES] = { 0 };
	struct poly1305_core_state st;
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 msg[3 * POLY1305_CORE_BLOCK_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int r, pre, last, s, nb, pfx;
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
					if (!ifma_blocks)
						continue;
					snprintf(what, sizeof(what),
						 "r %u, blocks %u/%u, last %02x, s %u",
						 r, nb, pre, 0xf0 + last, s);
					for (pfx = 0; pfx <= 16; pfx += 8)
						edge_ifma(&gi, seen_ifma, key,
							  msg, nb, pfx, what);
				}
			}
		}
	}
	edge_coverage(&gc, seen);
	group_done(&g);
	group_done(&gc);
	if (ifma_blocks) {
		edge_coverage(&gic, seen_ifma);
		group_done(&gi);
		group_done(&gic);
	}
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
	struct p1305_group gi = { .impl = P1305_IFMA, .name = "length" };
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
				if (ifma_blocks) {
					mac_fn(ifma_blocks, key, msg, len, 0,
					       false, mac);
					check_tag(&gi, what, mac, want);
				}

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
	if (ifma_blocks)
		group_done(&gi);
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

/* Resumed over calls of 0-40 blocks, alone and mixed, against the reference. */
static void test_blocks_ifma(void)
{
	struct p1305_group g = { .impl = P1305_IFMA, .name = "blocks" };
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int nb, kind, t, len;
	char what[96];

	new_group();
	for (t = 0; t < 4 * 64; t++) {
		/* every count up to 20 blocks, then random ones up to the most */
		nb = t < 4 * 21 ? t / 4 :
		     rng_next() % (P1305_LONG_MAX / POLY1305_CORE_BLOCK_BYTES + 1);
		kind = t % ARRAY_SIZE(key_kinds);
		len = nb * POLY1305_CORE_BLOCK_BYTES;
		make_key(key, kind);
		rng_fill(long_buf, len);
		ref_poly1305(key, long_buf, len, want);
		mac_fn(ifma_blocks, key, long_buf, len, 40, false, mac);
		snprintf(what, sizeof(what), "%u blocks, key %s, resumed", nb,
			 key_kinds[kind]);
		check_tag(&g, what, mac, want);
		mac_fn(ifma_blocks, key, long_buf, len, 40, true, mac);
		snprintf(what, sizeof(what),
			 "%u blocks, key %s, resumed, mixed with the C blocks",
			 nb, key_kinds[kind]);
		check_tag(&g, what, mac, want);
	}
	group_done(&g);
}

/*
 * Every length next to a multiple of 128 bytes (eight blocks: the IFMA
 * loop's step) from 127 to P1305_LONG_MAX + 1, then random lengths.
 */
static void test_long(void)
{
	struct p1305_group g = { .name = "long" };
	struct p1305_group gi = { .impl = P1305_IFMA, .name = "long" };
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int i, len, kind, off, nnear = 3 * (P1305_LONG_MAX / 128);
	char what[96];
	u8 *msg;

	new_group();
	for (i = 0; i < nnear + 64; i++) {
		if (i < nnear)
			len = 128 * (i / 3 + 1) + i % 3 - 1;
		else
			len = rng_next() % (P1305_LONG_MAX + 1);
		kind = i % ARRAY_SIZE(key_kinds);
		off = i % P1305_MAX_OFF;
		msg = long_buf + off;
		make_key(key, kind);
		if (i % 8 == 7)
			memset(msg, 0xff, len);
		else
			rng_fill(msg, len);
		snprintf(what, sizeof(what),
			 "%u bytes at offset %u, key %s, %s message", len, off,
			 key_kinds[kind], i % 8 == 7 ? "all-0xff" : "random");
		ref_poly1305(key, msg, len, want);
		mac_once(key, msg, len, mac);
		check_tag(&g, what, mac, want);
		if (ifma_blocks) {
			mac_fn(ifma_blocks, key, msg, len, 0, false, mac);
			check_tag(&gi, what, mac, want);
		}
	}
	group_done(&g);
	if (ifma_blocks)
		group_done(&gi);
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

#ifdef __x86_64__
/* libgcc reports AVX-512 features only if the OS saves the ZMM state. */
static bool cpu_has_ifma(void)
{
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("avx512ifma");
}
#endif

void test_poly1305(void)
{
	ifma_blocks = NULL;
#ifdef __x86_64__
	if (cpu_has_ifma()) {
		ifma_blocks = poly1305_blocks_avx512ifma;
	} else {
		printf("SKIPPED %s: CPU lacks AVX512F, AVX512VL or AVX512IFMA\n",
		       P1305_IFMA);
		count_skipped();
	}
#endif
	test_vectors();
	if (ifma_blocks)
		test_vectors_ifma();
	test_edges();
	test_lengths();
	test_blocks();
	if (ifma_blocks)
		test_blocks_ifma();
	test_long();
	test_wipe();
}
