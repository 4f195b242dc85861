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
 *   random     random keys, messages of random lengths up to
 *              P1305_RANDOM_MAX bytes through the block API alone, in
 *              random runs of blocks and a padded last partial block,
 *              against the reference
 *   wipe       poly1305_core_final() leaves the context all zero
 *
 * On x86-64 the same inputs also go through poly1305_blocks_x86_64_mulx()
 * (poly1305-x86_64.S) where the CPU has BMI2 and ADX, in the block API
 * with a padded last partial block as poly1305_core_final() does it;
 * failure lines start "FAIL poly1305-mulx/GROUP".  Its tags are checked
 * against the RFC's (vector) or the reference's (edge, length, blocks,
 * random), never against the C core's; only the extra group "state"
 * compares with the C core: h reduced modulo p after every call, from
 * the keys and messages above and from chosen and random starting h
 * (h2 <= 4, up to all ones), and h2 <= 4 on return.
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
#define P1305_RANDOM_MAX	2048
#define P1305_RANDOM_MSGS	300
/* Runs of blocks of one resumed pass; the last takes what is left. */
#define P1305_MAX_RUNS	64

static u8 msg_buf[P1305_MAX_OFF + P1305_RANDOM_MAX];

typedef void (*p1305_blocks_fn)(struct poly1305_core_state *st,
				const u8 *src, unsigned int nblocks,
				u32 hibit);

/*
 * One group's checks and failures, for its summary line; @impl names
 * what is checked, "poly1305" (the C core) if NULL.
 */
struct p1305_group {
	const char *impl;
	const char *name;
	unsigned int checks, failed, reported;
};

#ifdef __x86_64__
#define P1305_MULX	"poly1305-mulx"

/* The CPU runs poly1305_blocks_x86_64_mulx(). */
static bool mulx_ok;

/* The assembly's h after every call against the C core's (extra). */
static struct p1305_group mulx_state = { .impl = P1305_MULX, .name = "state" };
#endif

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
		report_in(&g->reported, "%s/%s %s: tag %s, want %s",
			  group_impl(g), g->name, what, hg, hw);
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

/*
 * Random runs of blocks (empty ones too) that add up to @nblocks, for a
 * block API resumed over several calls, in @runs; returns how many.
 * Drawn once and given to every implementation, so that each gets the
 * same calls and the random data that follows does not depend on which
 * implementations this CPU runs.
 */
static unsigned int make_runs(unsigned int *runs, unsigned int nblocks)
{
	unsigned int n = 0;

	while (nblocks) {
		if (n == P1305_MAX_RUNS - 1)
			runs[n] = nblocks;
		else
			runs[n] = rng_next() % (nblocks + 1);
		nblocks -= runs[n++];
	}
	return n;
}

#ifdef __x86_64__
/* h fully reduced modulo p = 2^130 - 5, from any h below 2^192. */
static void h_mod_p(const u64 *h, u64 *out)
{
	unsigned __int128 t;
	u64 h0 = h[0], h1 = h[1], h2 = h[2], c;
	int i;

	for (i = 0; i < 2; i++) {
		c = (h2 >> 2) * 5;
		h2 &= 3;
		t = (unsigned __int128)h0 + c;
		h0 = (u64)t;
		t = (unsigned __int128)h1 + (u64)(t >> 64);
		h1 = (u64)t;
		h2 += (u64)(t >> 64);
	}
	/* h < 2^130 now; h >= p only if h2 = 3, h1 all ones, h0 >= -5. */
	if (h2 == 3 && h1 == ~0ULL && h0 >= ~0ULL - 4) {
		h0 += 5;
		h1 = 0;
		h2 = 0;
	}
	out[0] = h0;
	out[1] = h1;
	out[2] = h2;
}

/*
 * The extra check: the assembly's @st after a call of @nblocks blocks,
 * and the C core's @shadow after the same call, are the same modulo p,
 * and the assembly kept h2 <= 4.
 */
static void check_state(const char *what, const struct poly1305_core_state *st,
			const struct poly1305_core_state *shadow,
			unsigned int nblocks)
{
	u64 a[3], c[3];
	bool ok;

	h_mod_p(st->h, a);
	h_mod_p(shadow->h, c);
	ok = !memcmp(a, c, sizeof(a)) && st->h[2] <= 4 &&
	     !memcmp(st->r, shadow->r, sizeof(st->r)) &&
	     !memcmp(st->s, shadow->s, sizeof(st->s));
	if (!ok)
		report_in(&mulx_state.reported,
			  "%s/state %s, after %u blocks: h %llx:%016llx:%016llx, the C core's %llx:%016llx:%016llx",
			  P1305_MULX, what, nblocks,
			  (unsigned long long)st->h[2],
			  (unsigned long long)st->h[1],
			  (unsigned long long)st->h[0],
			  (unsigned long long)shadow->h[2],
			  (unsigned long long)shadow->h[1],
			  (unsigned long long)shadow->h[0]);
	check_true(&mulx_state, ok);
}
#endif

/*
 * @len bytes through @blocks alone: the whole blocks in one call, or in
 * the @nruns runs of @runs; then a last partial block padded as
 * poly1305_core_final() pads it (0x01, zeros), with hibit 0.  An
 * implementation other than the C core also runs the C core alongside,
 * for the state check after each call (@what names the inputs there).
 */
static void mac_blocks(p1305_blocks_fn blocks, const u8 *key, const u8 *msg,
		       unsigned int len, const unsigned int *runs,
		       unsigned int nruns, const char *what, u8 *mac)
{
	struct poly1305_core_state st, shadow;
	unsigned int nblocks = len / POLY1305_CORE_BLOCK_BYTES;
	unsigned int part = len % POLY1305_CORE_BLOCK_BYTES;
	u8 last[POLY1305_CORE_BLOCK_BYTES];
	unsigned int i, n;

	if (!runs) {
		runs = &nblocks;
		nruns = 1;
	}
	poly1305_core_init(&st, key);
	shadow = st;
	for (i = 0; i < nruns; i++) {
		n = runs[i];
		blocks(&st, msg, n, 1);
#ifdef __x86_64__
		if (blocks != poly1305_core_blocks) {
			poly1305_core_blocks(&shadow, msg, n, 1);
			check_state(what, &st, &shadow, n);
		}
#endif
		msg += n * POLY1305_CORE_BLOCK_BYTES;
	}
	if (part) {
		memcpy(last, msg, part);
		last[part] = 1;
		memset(last + part + 1, 0, sizeof(last) - part - 1);
		blocks(&st, last, 1, 0);
#ifdef __x86_64__
		if (blocks != poly1305_core_blocks) {
			poly1305_core_blocks(&shadow, last, 1, 0);
			check_state(what, &st, &shadow, 1);
		}
#endif
	}
	poly1305_core_emit(&st, mac);
	memset(&st, 0, sizeof(st));
	memset(&shadow, 0, sizeof(shadow));
}

static void test_vectors(void)
{
	struct p1305_group gv = { .name = "vector" }, gr = { .name = "reference" };
#ifdef __x86_64__
	struct p1305_group gm = { .impl = P1305_MULX, .name = "vector" };
#endif
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
		snprintf(what, sizeof(what), "%s (block API)", tv->source);
		if (tv->len % POLY1305_CORE_BLOCK_BYTES == 0) {
			mac_blocks(poly1305_core_blocks, tv->key, tv->msg,
				   tv->len, NULL, 0, what, mac);
			check_tag(&gv, what, mac, tv->tag);
		}
#ifdef __x86_64__
		/* Any length: a partial last block is padded for it. */
		if (mulx_ok) {
			mac_blocks(poly1305_blocks_x86_64_mulx, tv->key,
				   tv->msg, tv->len, NULL, 0, what, mac);
			check_tag(&gm, what, mac, tv->tag);
		}
#endif
		ref_poly1305(tv->key, tv->msg, tv->len, mac);
		check_tag(&gr, tv->source, mac, tv->tag);
	}
	group_done(&gv);
	group_done(&gr);
#ifdef __x86_64__
	if (mulx_ok)
		group_done(&gm);
#endif
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
 * The assembly on the same edge inputs: the tag against the reference,
 * the state against the C core's @shadow (after the same call), and
 * where its own h lay before the final reduction, in @seen.
 */
#ifdef __x86_64__
static void edge_mulx(struct p1305_group *g, unsigned int *seen,
		      const u8 *key, const u8 *msg, unsigned int nb,
		      const struct poly1305_core_state *shadow,
		      const u8 *want, const char *what)
{
	struct poly1305_core_state st;
	u8 mac[POLY1305_CORE_MAC_BYTES];

	poly1305_core_init(&st, key);
	poly1305_blocks_x86_64_mulx(&st, msg, nb, 1);
	check_state(what, &st, shadow, nb);
	seen[h_range(&st)]++;
	poly1305_core_emit(&st, mac);
	check_tag(g, what, mac, want);
}
#endif

static void edge_coverage(struct p1305_group *gc, const unsigned int *seen)
{
	unsigned int i;

	printf("  %s edge: h before the final reduction:", group_impl(gc));
	for (i = 0; i < H_RANGES; i++)
		printf("%s %s %u", i ? "," : "", h_range_names[i], seen[i]);
	printf("\n");
	for (i = H_BELOW_P; i < H_RANGES; i++) {
		if (!seen[i])
			report_in(&gc->reported,
				  "%s/edge-coverage: h never in %s before emit",
				  group_impl(gc), h_range_names[i]);
		check_true(gc, seen[i]);
	}
}

static void test_edges(void)
{
	struct p1305_group g = { .name = "edge" }, gc = { .name = "edge-coverage" };
	unsigned int seen[H_RANGES] = { 0 };
#ifdef __x86_64__
	struct p1305_group gm = { .impl = P1305_MULX, .name = "edge" };
	struct p1305_group gmc = { .impl = P1305_MULX, .name = "edge-coverage" };
	unsigned int mseen[H_RANGES] = { 0 };
#endif
	struct poly1305_core_state st;
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 msg[3 * POLY1305_CORE_BLOCK_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int r, pre, last, s, nb;
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
#ifdef __x86_64__
					if (mulx_ok) {
						snprintf(what, sizeof(what),
							 "r %u, blocks %u/%u, last %02x, s %u",
							 r, nb, pre, 0xf0 + last, s);
						edge_mulx(&gm, mseen, key, msg,
							  nb, &st, want, what);
					}
#endif
				}
			}
		}
	}
	edge_coverage(&gc, seen);
	group_done(&g);
	group_done(&gc);
#ifdef __x86_64__
	if (mulx_ok) {
		edge_coverage(&gmc, mseen);
		group_done(&gm);
		group_done(&gmc);
	}
#endif
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
#ifdef __x86_64__
	struct p1305_group gm = { .impl = P1305_MULX, .name = "length" };
#endif
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
#ifdef __x86_64__
				if (mulx_ok) {
					mac_blocks(poly1305_blocks_x86_64_mulx,
						   key, msg, len, NULL, 0, what,
						   mac);
					check_tag(&gm, what, mac, want);
				}
#endif

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
#ifdef __x86_64__
	if (mulx_ok)
		group_done(&gm);
#endif
}

static void test_blocks(void)
{
	struct p1305_group g = { .name = "blocks" };
#ifdef __x86_64__
	struct p1305_group gm = { .impl = P1305_MULX, .name = "blocks" };
	u8 want[POLY1305_CORE_MAC_BYTES];
#endif
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], once[POLY1305_CORE_MAC_BYTES];
	unsigned int runs[P1305_MAX_RUNS];
	unsigned int nb, kind, t, nruns, len;
	char what[96];

	new_group();
	for (nb = 0; nb <= P1305_MAX_LEN / POLY1305_CORE_BLOCK_BYTES; nb++) {
		for (kind = 0; kind < ARRAY_SIZE(key_kinds); kind++) {
			len = nb * POLY1305_CORE_BLOCK_BYTES;
			make_key(key, kind);
			rng_fill(msg_buf, len);
			snprintf(what, sizeof(what), "%u blocks, key %s, one call",
				 nb, key_kinds[kind]);
			mac_blocks(poly1305_core_blocks, key, msg_buf, len,
				   NULL, 0, what, once);
#ifdef __x86_64__
			if (mulx_ok) {
				ref_poly1305(key, msg_buf, len, want);
				mac_blocks(poly1305_blocks_x86_64_mulx, key,
					   msg_buf, len, NULL, 0, what, mac);
				check_tag(&gm, what, mac, want);
			}
#endif
			for (t = 0; t < 4; t++) {
				nruns = make_runs(runs, nb);
				snprintf(what, sizeof(what),
					 "%u blocks, key %s, resumed", nb,
					 key_kinds[kind]);
				mac_blocks(poly1305_core_blocks, key, msg_buf,
					   len, runs, nruns, what, mac);
				check_tag(&g, what, mac, once);
#ifdef __x86_64__
				if (mulx_ok) {
					snprintf(what, sizeof(what),
						 "%u blocks, key %s, resumed in %u calls",
						 nb, key_kinds[kind], nruns);
					mac_blocks(poly1305_blocks_x86_64_mulx,
						   key, msg_buf, len, runs,
						   nruns, what, mac);
					check_tag(&gm, what, mac, want);
				}
#endif
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
#ifdef __x86_64__
	if (mulx_ok)
		group_done(&gm);
#endif
}

/*
 * Random lengths up to P1305_RANDOM_MAX bytes, keys of every kind, random
 * or all-0xff messages at random misalignments, in random runs of blocks:
 * the block API of each implementation against the reference.
 */
static void test_random(void)
{
	struct p1305_group g = { .name = "random" };
#ifdef __x86_64__
	struct p1305_group gm = { .impl = P1305_MULX, .name = "random" };
#endif
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int runs[P1305_MAX_RUNS];
	unsigned int i, len, kind, off, nruns;
	char what[96];
	u8 *msg;

	new_group();
	for (i = 0; i < P1305_RANDOM_MSGS; i++) {
		len = rng_next() % (P1305_RANDOM_MAX - P1305_MAX_OFF + 1);
		kind = i % ARRAY_SIZE(key_kinds);
		off = rng_next() % P1305_MAX_OFF;
		msg = msg_buf + off;
		make_key(key, kind);
		if (i % 7 == 3)
			memset(msg, 0xff, len);
		else
			rng_fill(msg, len);
		nruns = make_runs(runs, len / POLY1305_CORE_BLOCK_BYTES);
		snprintf(what, sizeof(what),
			 "%u bytes at offset %u, key %s, in %u calls", len, off,
			 key_kinds[kind], nruns);
		ref_poly1305(key, msg, len, want);
		mac_blocks(poly1305_core_blocks, key, msg, len, runs, nruns,
			   what, mac);
		check_tag(&g, what, mac, want);
#ifdef __x86_64__
		if (mulx_ok) {
			mac_blocks(poly1305_blocks_x86_64_mulx, key, msg, len,
				   runs, nruns, what, mac);
			check_tag(&gm, what, mac, want);
		}
#endif
	}
	group_done(&g);
#ifdef __x86_64__
	if (mulx_ok)
		group_done(&gm);
#endif
}

#ifdef __x86_64__
/*
 * The extra state check from chosen and random starting h (h2 <= 4, the
 * most the contract allows, up to all ones), which no key and message
 * reach from h = 0, and the largest r: after each call the assembly's h
 * must be the C core's modulo p, with h2 <= 4.  The C core is the
 * yardstick here, not the reference, which cannot start from a given h.
 */
static void test_states(void)
{
	static const u64 hs[][3] = {
		{ ~0ULL, ~0ULL, 4 },
		{ ~0ULL, ~0ULL, 3 },
		{ ~0ULL - 4, ~0ULL, 3 },
		{ 0, 0, 4 },
		{ ~0ULL, 0, 4 },
		{ 0, ~0ULL, 4 },
	};
	struct poly1305_core_state st, shadow;
	u8 key[POLY1305_CORE_KEY_BYTES];
	unsigned int i, j, nb, hibit;
	char what[96];

	new_group();
	for (i = 0; i < 4 * ARRAY_SIZE(hs) + 200; i++) {
		make_key(key, i % ARRAY_SIZE(key_kinds));
		poly1305_core_init(&st, key);
		if (i < 4 * ARRAY_SIZE(hs)) {
			memcpy(st.h, hs[i / 4], sizeof(st.h));
		} else {
			for (j = 0; j < 3; j++)
				st.h[j] = rng_next();
			st.h[2] %= 5;
		}
		nb = 1 + rng_next() % 4;
		hibit = i % 3 != 2;
		if (i % 2)
			memset(msg_buf, 0xff, nb * POLY1305_CORE_BLOCK_BYTES);
		else
			rng_fill(msg_buf, nb * POLY1305_CORE_BLOCK_BYTES);
		shadow = st;
		snprintf(what, sizeof(what),
			 "from h %llx:%016llx:%016llx, key %s, hibit %u",
			 (unsigned long long)st.h[2],
			 (unsigned long long)st.h[1],
			 (unsigned long long)st.h[0],
			 key_kinds[i % ARRAY_SIZE(key_kinds)], hibit);
		poly1305_blocks_x86_64_mulx(&st, msg_buf, nb, hibit);
		poly1305_core_blocks(&shadow, msg_buf, nb, hibit);
		check_state(what, &st, &shadow, nb);
	}
}
#endif

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
			report_in(&g.reported,
				  "poly1305/wipe after %u bytes: %zu of %zu bytes not zeroed",
				  len, bad, sizeof(ctx));
		check_true(&g, !bad);
	}
	group_done(&g);
}

void test_poly1305(void)
{
#ifdef __x86_64__
	mulx_ok = __builtin_cpu_supports("bmi2") &&
		  __builtin_cpu_supports("adx");
	if (!mulx_ok) {
		printf("  %s: SKIPPED: CPU lacks BMI2 or ADX; %s NOT checked\n",
		       P1305_MULX, "poly1305_blocks_x86_64_mulx()");
		count_skipped();
	}
#endif
	test_vectors();
	test_edges();
	test_lengths();
	test_blocks();
	test_random();
	test_wipe();
#ifdef __x86_64__
	if (mulx_ok) {
		test_states();
		group_done(&mulx_state);
	}
#endif
}
