// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's checks of poly1305_core.c, in groups; a failure line
 * starts "FAIL poly1305/GROUP":
 *
 *   vector     RFC 8439's vectors (vectors-poly1305.h) in one update,
 *              byte by byte, and through the block API when whole blocks
 *   reference  ref_poly1305.c on the same vectors, so that it is right too
 *   reduction  ref_poly1305.c's folding reduction against its long division
 *              (ref_poly1305_slow()) on every edge message and on random
 *              and all-0xff messages of every length, under each kind of
 *              key (test_reference())
 *   edge       keys with a small r (and the largest clamped r) and
 *              messages of nearly all-0xff blocks, against the reference:
 *              they leave h just below 2^130 - 5, in [2^130 - 5, 2^130)
 *              and at or above 2^130 before the final reduction, and the
 *              core's own limbs must show that each range was reached
 *              (edge-coverage)
 *   length     every length 0..P1305_MAX_LEN at every misalignment mod 8,
 *              random messages and all-0xff ones, keys random, with r all
 *              ones (clamped), s all ones and both, against the reference
 *   split      the same messages in random pieces (empty ones too) and
 *              byte by byte: the same tag as in one update
 *   blocks     the block API resumed over several calls: the same tag as
 *              in one call; and up to P1305_LONG_MAX bytes in runs of
 *              0-40 blocks, against the reference
 *   random     random keys, messages of random lengths up to
 *              P1305_RANDOM_MAX bytes through the block API alone, in
 *              random runs of blocks and a padded last partial block,
 *              against the reference
 *   long       messages up to P1305_LONG_MAX bytes: every length next to
 *              a multiple of 128 (eight blocks) and random ones, against
 *              the reference
 *   wipe       oot_poly1305_final() leaves the context all zero
 *
 * The same inputs also go through each block function of p1305_impls[]
 * that the CPU runs (a SKIPPED line for each other one): on x86-64
 * oot_poly1305_blocks_x86_64_mulx() (poly1305-x86_64.S, BMI2 and ADX) and
 * oot_poly1305_blocks_avx512ifma() (poly1305-avx512ifma-x86_64.S, AVX512F,
 * AVX512VL and AVX512IFMA), with failure lines "FAIL poly1305-mulx/GROUP"
 * and "FAIL poly1305-ifma/GROUP"; on arm64 oot_poly1305_blocks_arm64()
 * (poly1305-arm64.S), "FAIL poly1305-arm64/GROUP".  Each runs in the block API alone, with
 * a last partial block padded as oot_poly1305_final() pads it, and its
 * state goes to oot_poly1305_emit() for the tag, which is compared with
 * RFC 8439's or the reference's, never with poly1305_core.c's.  Every
 * other message of whole blocks takes its last run and the tag from the
 * function's blocks_emit instead, in one call, where it has one:
 * oot_poly1305_blocks_emit_x86_64_mulx() and
 * oot_poly1305_blocks_emit_avx512ifma(); the C core's own checks take
 * oot_poly1305_blocks_emit() so:
 *
 *   vector     the RFC vectors, in one call, in runs of 0-3 blocks, and
 *              mixed with calls of oot_poly1305_blocks() (the same state
 *              layout)
 *   edge       the edge messages, also after 8 and 16 blocks that add up
 *              to p (so for r = 1 they leave h where it was), through the
 *              IFMA code's eight-lane path; edge-coverage: the same ranges
 *              of h, in the function's own state
 *   length     as the length group, in one call
 *   blocks     as the blocks group (the same runs), and the long runs
 *              also mixed with oot_poly1305_blocks()
 *   random     as the random group (the same runs)
 *   long       as the long group, in one call
 *
 * Only the group "state", of a function with .with_state (mulx, arm64),
 * compares with the C core: h reduced modulo p after every call of the
 * groups above and from chosen and random starting h (h2 <= 4, up to all
 * ones), and h2 <= 4 on return.
 *
 * The random data is drawn the same whichever functions the CPU runs.
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
/* 33 groups of eight blocks: the long checks go one byte past it. */
#define P1305_LONG_MAX	(33 * 8 * POLY1305_CORE_BLOCK_BYTES)
/* Runs of blocks of one resumed pass; the last takes what is left. */
#define P1305_MAX_RUNS	128

static u8 msg_buf[P1305_MAX_OFF + P1305_RANDOM_MAX];
static u8 long_buf[P1305_MAX_OFF + P1305_LONG_MAX + 1];

/* A block function: oot_poly1305_blocks() or another with its contract. */
typedef void p1305_blocks_fn(struct poly1305_core_state *st, const u8 *src,
			     unsigned int nblocks, u32 hibit);
/* oot_poly1305_blocks_emit()'s type: whole blocks with hibit 1, and the tag. */
typedef void p1305_emit_fn(struct poly1305_core_state *st, const u8 *src,
			   unsigned int nblocks, u8 *mac);

/*
 * One group's checks and failures, for its summary line; @impl names
 * what is checked, "poly1305" (the C core) if NULL.  Failure lines are
 * counted in @reported, up to --max-report.
 */
struct p1305_group {
	const char *impl;
	const char *name;
	unsigned int checks, failed, reported;
};

/* A block function other than the C core's, checked where the CPU runs it. */
struct p1305_impl {
	const char *name;	/* of its groups: "poly1305-mulx" */
	const char *func;	/* for the SKIPPED line */
	const char *needs;	/* what the CPU lacks if cpu_ok() is false */
	p1305_blocks_fn *blocks;
	p1305_emit_fn *blocks_emit;	/* or NULL */
	bool (*cpu_ok)(void);
	/* h against the C core's after every call, in group @state */
	bool with_state;
	struct p1305_group state;
	bool runs;		/* this CPU runs it (test_poly1305()) */
};

#ifdef __x86_64__
static bool cpu_has_mulx(void)
{
	return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
}

/* libgcc reports AVX-512 features only if the OS saves the ZMM state. */
static bool cpu_has_ifma(void)
{
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("avx512ifma");
}
#endif

#if defined(__aarch64__) && !defined(__AARCH64EB__)
/* Every arm64 CPU runs mul and umulh. */
static bool cpu_always(void)
{
	return true;
}
#endif

/* Ends with an entry without a name (the only one elsewhere). */
static struct p1305_impl p1305_impls[] = {
#ifdef __x86_64__
	{
		.name = "poly1305-mulx",
		.func = "oot_poly1305_blocks_x86_64_mulx()",
		.needs = "BMI2 or ADX",
		.blocks = oot_poly1305_blocks_x86_64_mulx,
		.blocks_emit = oot_poly1305_blocks_emit_x86_64_mulx,
		.cpu_ok = cpu_has_mulx,
		.with_state = true,
		.state = { .impl = "poly1305-mulx", .name = "state" },
	},
	{
		.name = "poly1305-ifma",
		.func = "oot_poly1305_blocks_avx512ifma()",
		.needs = "AVX512F, AVX512VL or AVX512IFMA",
		.blocks = oot_poly1305_blocks_avx512ifma,
		.blocks_emit = oot_poly1305_blocks_emit_avx512ifma,
		.cpu_ok = cpu_has_ifma,
	},
#endif
#if defined(__aarch64__) && !defined(__AARCH64EB__)
	{
		.name = "poly1305-arm64",
		.func = "oot_poly1305_blocks_arm64()",
		.needs = "nothing",
		.blocks = oot_poly1305_blocks_arm64,
		.cpu_ok = cpu_always,
		.with_state = true,
		.state = { .impl = "poly1305-arm64", .name = "state" },
	},
#endif
	{ .name = NULL }
};

/* Room for a group of each entry of p1305_impls[]. */
#define P1305_IMPLS	ARRAY_SIZE(p1305_impls)

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

/* One group named @name for each entry of p1305_impls[], in @g. */
static void impl_groups(struct p1305_group *g, const char *name)
{
	unsigned int i;

	for (i = 0; i < P1305_IMPLS; i++) {
		memset(&g[i], 0, sizeof(g[i]));
		g[i].impl = p1305_impls[i].name;
		g[i].name = name;
	}
}

/* The summary lines of the groups of the functions this CPU runs. */
static void impl_groups_done(const struct p1305_group *g)
{
	unsigned int i;

	for (i = 0; p1305_impls[i].name; i++)
		if (p1305_impls[i].runs)
			group_done(&g[i]);
}

static void mac_once(const u8 *key, const u8 *msg, unsigned int len,
		     u8 *mac)
{
	struct poly1305_core_ctx ctx;

	oot_poly1305_ctx_init(&ctx, key);
	oot_poly1305_update(&ctx, msg, len);
	oot_poly1305_final(&ctx, mac);
}

/* In pieces of random lengths (0 included), or of 1 byte if @bytewise. */
static void mac_pieces(const u8 *key, const u8 *msg, unsigned int len,
		       bool bytewise, u8 *mac)
{
	struct poly1305_core_ctx ctx;
	unsigned int off = 0, n;

	oot_poly1305_ctx_init(&ctx, key);
	while (off < len) {
		if (bytewise)
			n = 1;
		else if (rng_next() % 4 == 0)
			n = 0;
		else
			n = 1 + rng_next() % (len - off < 40 ? len - off : 40);
		oot_poly1305_update(&ctx, msg + off, n);
		off += n;
	}
	oot_poly1305_final(&ctx, mac);
}

/*
 * A block API resumed over several calls: @n runs of @len[i] blocks (empty
 * ones too), each by the function checked or, where @c[i], by
 * oot_poly1305_blocks().
 */
struct p1305_runs {
	unsigned int n;
	unsigned int len[P1305_MAX_RUNS];
	bool c[P1305_MAX_RUNS];
};

/*
 * Random runs that add up to @nblocks, of up to @maxrun blocks each (any
 * number if 0), some of them by the C core if @mix.  Drawn once and
 * given to every implementation, so that each gets the same calls and
 * the random data that follows does not depend on which implementations
 * this CPU runs.
 */
static void make_runs(struct p1305_runs *runs, unsigned int nblocks,
		      unsigned int maxrun, bool mix)
{
	unsigned int n = 0, len;

	while (nblocks) {
		if (n == P1305_MAX_RUNS - 1)
			len = nblocks;
		else if (maxrun)
			len = min_t(unsigned int, nblocks,
				    rng_next() % (maxrun + 1));
		else
			len = rng_next() % (nblocks + 1);
		runs->len[n] = len;
		runs->c[n] = mix && rng_next() % 2;
		nblocks -= len;
		n++;
	}
	runs->n = n;
}

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
 * The state check of @im: its @st after a call of @nblocks blocks, and
 * the C core's @shadow after the same call, are the same modulo p, and
 * @im kept h2 <= 4.
 */
static void check_state(struct p1305_impl *im, const char *what,
			const struct poly1305_core_state *st,
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
		report_in(&im->state.reported,
			  "%s/state %s, after %u blocks: h %llx:%016llx:%016llx, the C core's %llx:%016llx:%016llx",
			  im->name, what, nblocks,
			  (unsigned long long)st->h[2],
			  (unsigned long long)st->h[1],
			  (unsigned long long)st->h[0],
			  (unsigned long long)shadow->h[2],
			  (unsigned long long)shadow->h[1],
			  (unsigned long long)shadow->h[0]);
	check_true(&im->state, ok);
}

/*
 * @len bytes through the block function of @im (the C core's if NULL)
 * alone, not oot_poly1305_update(): the whole blocks in one call, or in
 * the runs of @runs; then a last partial block padded as
 * oot_poly1305_final() pads it (0x01, zeros), with hibit 0; then
 * oot_poly1305_emit().  If @im->with_state, the C core also runs
 * alongside, for the state check after each call (@what names the inputs
 * there).
 */
static void mac_blocks(struct p1305_impl *im, const u8 *key, const u8 *msg,
		       unsigned int len, const struct p1305_runs *runs,
		       const char *what, u8 *mac)
{
	p1305_blocks_fn *blocks = im ? im->blocks : oot_poly1305_blocks;
	p1305_emit_fn *blocks_emit = im ? im->blocks_emit :
					  oot_poly1305_blocks_emit;
	bool shadowed = im && im->with_state;
	struct poly1305_core_state st, shadow;
	unsigned int nblocks = len / POLY1305_CORE_BLOCK_BYTES;
	unsigned int part = len % POLY1305_CORE_BLOCK_BYTES;
	u8 last[POLY1305_CORE_BLOCK_BYTES];
	struct p1305_runs one;
	unsigned int i, n;
	bool emitted = false;

	if (!runs) {
		one.n = 1;
		one.len[0] = nblocks;
		one.c[0] = false;
		runs = &one;
	}
	oot_poly1305_init(&st, key);
	shadow = st;
	for (i = 0; i < runs->n; i++) {
		n = runs->len[i];
		/*
		 * Every other message of whole blocks: its last run and the
		 * tag from the function's blocks_emit, in one call.
		 */
		emitted = blocks_emit && !part && i == runs->n - 1 &&
			  !runs->c[i] && nblocks % 2;
		if (emitted)
			blocks_emit(&st, msg, n, mac);
		else if (runs->c[i])
			oot_poly1305_blocks(&st, msg, n, 1);
		else
			blocks(&st, msg, n, 1);
		if (shadowed) {
			oot_poly1305_blocks(&shadow, msg, n, 1);
			check_state(im, what, &st, &shadow, n);
		}
		msg += n * POLY1305_CORE_BLOCK_BYTES;
	}
	if (part) {
		memcpy(last, msg, part);
		last[part] = 1;
		memset(last + part + 1, 0, sizeof(last) - part - 1);
		blocks(&st, last, 1, 0);
		if (shadowed) {
			oot_poly1305_blocks(&shadow, last, 1, 0);
			check_state(im, what, &st, &shadow, 1);
		}
	}
	if (!emitted)
		oot_poly1305_emit(&st, mac);
	memset(&st, 0, sizeof(st));
	memset(&shadow, 0, sizeof(shadow));
}

static void test_vectors(void)
{
	struct p1305_group gv = { .name = "vector" }, gr = { .name = "reference" };
	struct p1305_group gi[P1305_IMPLS];
	struct p1305_runs runs, mixed;
	char what[96];
	u8 mac[POLY1305_CORE_MAC_BYTES];
	unsigned int i, k;

	impl_groups(gi, "vector");
	new_group();
	for (i = 0; i < ARRAY_SIZE(poly1305_tvs); i++) {
		const struct poly1305_tv *tv = &poly1305_tvs[i];
		unsigned int nb = tv->len / POLY1305_CORE_BLOCK_BYTES;

		mac_once(tv->key, tv->msg, tv->len, mac);
		check_tag(&gv, tv->source, mac, tv->tag);
		mac_pieces(tv->key, tv->msg, tv->len, true, mac);
		snprintf(what, sizeof(what), "%s byte by byte", tv->source);
		check_tag(&gv, what, mac, tv->tag);
		if (tv->len % POLY1305_CORE_BLOCK_BYTES == 0) {
			snprintf(what, sizeof(what), "%s (block API)",
				 tv->source);
			mac_blocks(NULL, tv->key, tv->msg, tv->len, NULL, what,
				   mac);
			check_tag(&gv, what, mac, tv->tag);
		}
		ref_poly1305(tv->key, tv->msg, tv->len, mac);
		check_tag(&gr, tv->source, mac, tv->tag);

		/* Any length: a partial last block is padded for them. */
		make_runs(&runs, nb, 3, false);
		make_runs(&mixed, nb, 3, true);
		for (k = 0; p1305_impls[k].name; k++) {
			struct p1305_impl *im = &p1305_impls[k];

			if (!im->runs)
				continue;
			snprintf(what, sizeof(what), "%s (block API)",
				 tv->source);
			mac_blocks(im, tv->key, tv->msg, tv->len, NULL, what,
				   mac);
			check_tag(&gi[k], what, mac, tv->tag);
			snprintf(what, sizeof(what), "%s in runs of 0-3 blocks",
				 tv->source);
			mac_blocks(im, tv->key, tv->msg, tv->len, &runs, what,
				   mac);
			check_tag(&gi[k], what, mac, tv->tag);
			snprintf(what, sizeof(what),
				 "%s mixed with the C blocks", tv->source);
			mac_blocks(im, tv->key, tv->msg, tv->len, &mixed, what,
				   mac);
			check_tag(&gi[k], what, mac, tv->tag);
		}
	}
	group_done(&gv);
	group_done(&gr);
	impl_groups_done(gi);
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
 * @im on the @nb blocks of an edge message @big, which the caller has put
 * after @pfx (0, 8 or 16) blocks of 2^128 - 1 and 2^128 - 4 in turn: each
 * pair with its two 2^128 adds up to 2^130 - 5 = p, so for r = 1 h after
 * them is 0 mod p.  The tag against the reference's @want, the state (if
 * @im->with_state) against the C core's after the same call, and where
 * its own h lay before the final reduction, in @seen.
 */
static void edge_impl(struct p1305_impl *im, struct p1305_group *g,
		      unsigned int *seen, const u8 *key, const u8 *big,
		      unsigned int nb, unsigned int pfx, const u8 *want,
		      const char *what_edge)
{
	struct poly1305_core_state st, shadow;
	u8 mac[POLY1305_CORE_MAC_BYTES];
	enum h_range where;
	char what[160];

	oot_poly1305_init(&st, key);
	shadow = st;
	im->blocks(&st, big, pfx + nb, 1);
	where = h_range(&st);
	seen[where]++;
	snprintf(what, sizeof(what), "%s, after %u blocks, h in %s",
		 what_edge, pfx, h_range_names[where]);
	if (im->with_state) {
		oot_poly1305_blocks(&shadow, big, pfx + nb, 1);
		check_state(im, what, &st, &shadow, pfx + nb);
	}
	oot_poly1305_emit(&st, mac);
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
			report_in(&gc->reported,
				  "%s/edge-coverage: h never in %s before emit",
				  group_impl(gc), h_range_names[i]);
		check_true(gc, seen[i]);
	}
}

/* The edge message @msg of @nb blocks for the functions of p1305_impls[]. */
static void edge_impls(struct p1305_group *gi, unsigned int (*seen)[H_RANGES],
		       const u8 *key, const u8 *msg, unsigned int nb,
		       const char *what)
{
	u8 big[(16 + 3) * POLY1305_CORE_BLOCK_BYTES];
	u8 want[POLY1305_CORE_MAC_BYTES];
	unsigned int i, k, pfx;

	for (pfx = 0; pfx <= 16; pfx += 8) {
		for (i = 0; i < pfx; i++) {
			memset(big + 16 * i, 0xff, 16);
			if (i % 2)
				big[16 * i] = 0xfc;
		}
		memcpy(big + 16 * pfx, msg, 16 * nb);
		ref_poly1305(key, big, 16 * (pfx + nb), want);
		for (k = 0; p1305_impls[k].name; k++)
			if (p1305_impls[k].runs)
				edge_impl(&p1305_impls[k], &gi[k], seen[k],
					  key, big, nb, pfx, want, what);
	}
}

/*
 * The edge messages: r 1-6, pre 0-20, last 0-15, s 0-2, each a key and one
 * to three blocks.  edge_message() builds number @n of EDGE_MESSAGES in
 * @e; @e->what names it.
 */
#define EDGE_MESSAGES	(6 * 21 * 16 * 3)

struct edge_msg {
	unsigned int r, pre, last, s, nb;
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 msg[3 * POLY1305_CORE_BLOCK_BYTES];
	char what[64];
};

static unsigned int edge_build(unsigned int r, unsigned int pre,
			       unsigned int last, unsigned int s, u8 *key,
			       u8 *msg)
{
	unsigned int nb = 0;

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
	return nb + 1;
}

static void edge_message(unsigned int n, struct edge_msg *e)
{
	e->s = n % 3;
	e->last = n / 3 % 16;
	e->pre = n / (3 * 16) % 21;
	e->r = 1 + n / (3 * 16 * 21);
	e->nb = edge_build(e->r, e->pre, e->last, e->s, e->key, e->msg);
	snprintf(e->what, sizeof(e->what), "r %u, blocks %u/%u, last %02x, s %u",
		 e->r, e->nb, e->pre, 0xf0 + e->last, e->s);
}

static void test_edges(void)
{
	struct p1305_group g = { .name = "edge" }, gc = { .name = "edge-coverage" };
	struct p1305_group gi[P1305_IMPLS], gic[P1305_IMPLS];
	unsigned int seen[H_RANGES] = { 0 };
	unsigned int iseen[P1305_IMPLS][H_RANGES] = { { 0 } };
	struct poly1305_core_state st;
	struct edge_msg e;
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int n, k;
	enum h_range where;
	char what[96];

	impl_groups(gi, "edge");
	impl_groups(gic, "edge-coverage");
	new_group();
	for (n = 0; n < EDGE_MESSAGES; n++) {
		edge_message(n, &e);
		oot_poly1305_init(&st, e.key);
		oot_poly1305_blocks(&st, e.msg, e.nb, 1);
		where = h_range(&st);
		seen[where]++;
		oot_poly1305_emit(&st, mac);
		ref_poly1305(e.key, e.msg, 16 * e.nb, want);
		snprintf(what, sizeof(what), "%s, h in %s", e.what,
			 h_range_names[where]);
		check_tag(&g, what, mac, want);
		edge_impls(gi, iseen, e.key, e.msg, e.nb, e.what);
	}
	edge_coverage(&gc, seen);
	group_done(&g);
	group_done(&gc);
	for (k = 0; p1305_impls[k].name; k++) {
		if (!p1305_impls[k].runs)
			continue;
		edge_coverage(&gic[k], iseen[k]);
		group_done(&gi[k]);
		group_done(&gic[k]);
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

/*
 * @len bytes of @msg through each function of p1305_impls[] that the CPU
 * runs, in the runs of @runs (one call if NULL), against @want.
 */
static void mac_impls(struct p1305_group *gi, const u8 *key, const u8 *msg,
		      unsigned int len, const struct p1305_runs *runs,
		      const char *what, const u8 *want)
{
	u8 mac[POLY1305_CORE_MAC_BYTES];
	unsigned int k;

	for (k = 0; p1305_impls[k].name; k++) {
		if (!p1305_impls[k].runs)
			continue;
		mac_blocks(&p1305_impls[k], key, msg, len, runs, what, mac);
		check_tag(&gi[k], what, mac, want);
	}
}

/*
 * The reference's two reductions held to each other: ref_poly1305()
 * (folding) against ref_poly1305_slow() (long division) on every edge
 * message, and on random and all-0xff messages of every length up to
 * P1305_MAX_LEN under each kind of key.  The RFC vectors hold the
 * folding one to RFC 8439 (test_vectors()).
 */
static void test_reference(void)
{
	struct p1305_group g = { .name = "reduction" };
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int n, len, kind;
	struct edge_msg e;
	char what[128];

	new_group();
	for (n = 0; n < EDGE_MESSAGES; n++) {
		edge_message(n, &e);
		ref_poly1305(e.key, e.msg, 16 * e.nb, mac);
		ref_poly1305_slow(e.key, e.msg, 16 * e.nb, want);
		snprintf(what, sizeof(what),
			 "folding vs long division, edge %s", e.what);
		check_tag(&g, what, mac, want);
	}
	for (len = 0; len <= P1305_MAX_LEN; len++) {
		for (kind = 0; kind < 2 * ARRAY_SIZE(key_kinds); kind++) {
			make_key(key, kind % ARRAY_SIZE(key_kinds));
			if (kind < ARRAY_SIZE(key_kinds))
				rng_fill(msg_buf, len);
			else
				memset(msg_buf, 0xff, len);
			ref_poly1305(key, msg_buf, len, mac);
			ref_poly1305_slow(key, msg_buf, len, want);
			snprintf(what, sizeof(what),
				 "folding vs long division, %u bytes, key %s, %s message",
				 len, key_kinds[kind % ARRAY_SIZE(key_kinds)],
				 kind < ARRAY_SIZE(key_kinds) ? "random" :
				 "all-0xff");
			check_tag(&g, what, mac, want);
		}
	}
	group_done(&g);
}

static void test_lengths(void)
{
	struct p1305_group gl = { .name = "length" }, gs = { .name = "split" };
	struct p1305_group gi[P1305_IMPLS];
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	u8 once[POLY1305_CORE_MAC_BYTES];
	unsigned int len, kind, ff, off;
	char what[96];
	u8 *msg;

	impl_groups(gi, "length");
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
				mac_impls(gi, key, msg, len, NULL, what, want);

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
	impl_groups_done(gi);
}

/*
 * The block API resumed: up to P1305_MAX_LEN bytes in random runs, the
 * C core against its own one call and the others against the reference;
 * then up to P1305_LONG_MAX bytes in runs of 0-40 blocks (every count up
 * to 20 blocks, then random ones), against the reference, the others
 * also mixed with oot_poly1305_blocks().
 */
static void test_blocks(void)
{
	struct p1305_group g = { .name = "blocks" };
	struct p1305_group gi[P1305_IMPLS];
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], once[POLY1305_CORE_MAC_BYTES];
	u8 want[POLY1305_CORE_MAC_BYTES];
	struct p1305_runs runs;
	unsigned int nb, kind, t, len;
	char what[96];

	impl_groups(gi, "blocks");
	new_group();
	for (nb = 0; nb <= P1305_MAX_LEN / POLY1305_CORE_BLOCK_BYTES; nb++) {
		for (kind = 0; kind < ARRAY_SIZE(key_kinds); kind++) {
			len = nb * POLY1305_CORE_BLOCK_BYTES;
			make_key(key, kind);
			rng_fill(msg_buf, len);
			ref_poly1305(key, msg_buf, len, want);
			snprintf(what, sizeof(what), "%u blocks, key %s, one call",
				 nb, key_kinds[kind]);
			mac_blocks(NULL, key, msg_buf, len, NULL, what, once);
			mac_impls(gi, key, msg_buf, len, NULL, what, want);
			for (t = 0; t < 4; t++) {
				make_runs(&runs, nb, 0, false);
				snprintf(what, sizeof(what),
					 "%u blocks, key %s, resumed in %u calls",
					 nb, key_kinds[kind], runs.n);
				mac_blocks(NULL, key, msg_buf, len, &runs, what,
					   mac);
				check_tag(&g, what, mac, once);
				mac_impls(gi, key, msg_buf, len, &runs, what,
					  want);
			}
			/* One update of whole blocks is the block API. */
			mac_once(key, msg_buf, len, mac);
			snprintf(what, sizeof(what),
				 "%u blocks, key %s, one update", nb,
				 key_kinds[kind]);
			check_tag(&g, what, mac, once);
		}
	}

	for (t = 0; t < 4 * 64; t++) {
		nb = t < 4 * 21 ? t / 4 :
		     rng_next() % (P1305_LONG_MAX / POLY1305_CORE_BLOCK_BYTES + 1);
		kind = t % ARRAY_SIZE(key_kinds);
		len = nb * POLY1305_CORE_BLOCK_BYTES;
		make_key(key, kind);
		rng_fill(long_buf, len);
		ref_poly1305(key, long_buf, len, want);
		make_runs(&runs, nb, 40, false);
		snprintf(what, sizeof(what),
			 "%u blocks, key %s, resumed in %u calls of 0-40", nb,
			 key_kinds[kind], runs.n);
		mac_blocks(NULL, key, long_buf, len, &runs, what, mac);
		check_tag(&g, what, mac, want);
		mac_impls(gi, key, long_buf, len, &runs, what, want);
		make_runs(&runs, nb, 40, true);
		snprintf(what, sizeof(what),
			 "%u blocks, key %s, resumed in %u calls of 0-40, mixed with the C blocks",
			 nb, key_kinds[kind], runs.n);
		mac_impls(gi, key, long_buf, len, &runs, what, want);
	}
	group_done(&g);
	impl_groups_done(gi);
}

/*
 * Random lengths up to P1305_RANDOM_MAX bytes, keys of every kind, random
 * or all-0xff messages at random misalignments, in random runs of blocks:
 * the block API of each implementation against the reference.
 */
static void test_random(void)
{
	struct p1305_group g = { .name = "random" };
	struct p1305_group gi[P1305_IMPLS];
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	struct p1305_runs runs;
	unsigned int i, len, kind, off;
	char what[96];
	u8 *msg;

	impl_groups(gi, "random");
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
		make_runs(&runs, len / POLY1305_CORE_BLOCK_BYTES, 0, false);
		snprintf(what, sizeof(what),
			 "%u bytes at offset %u, key %s, in %u calls", len, off,
			 key_kinds[kind], runs.n);
		ref_poly1305(key, msg, len, want);
		mac_blocks(NULL, key, msg, len, &runs, what, mac);
		check_tag(&g, what, mac, want);
		mac_impls(gi, key, msg, len, &runs, what, want);
	}
	group_done(&g);
	impl_groups_done(gi);
}

/*
 * Every length next to a multiple of 128 bytes (eight blocks: the IFMA
 * loop's step) from 127 to P1305_LONG_MAX + 1, then random lengths.
 */
static void test_long(void)
{
	struct p1305_group g = { .name = "long" };
	struct p1305_group gi[P1305_IMPLS];
	u8 key[POLY1305_CORE_KEY_BYTES];
	u8 mac[POLY1305_CORE_MAC_BYTES], want[POLY1305_CORE_MAC_BYTES];
	unsigned int i, len, kind, off, nnear = 3 * (P1305_LONG_MAX / 128);
	char what[96];
	u8 *msg;

	impl_groups(gi, "long");
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
		mac_impls(gi, key, msg, len, NULL, what, want);
	}
	group_done(&g);
	impl_groups_done(gi);
}

/*
 * The state check of @im from chosen and random starting h (h2 <= 4, the
 * most the contract allows, up to all ones), which no key and message
 * reach from h = 0, and the largest r: after each call its h must be the
 * C core's modulo p, with h2 <= 4.  The C core is the yardstick here, not
 * the reference, which cannot start from a given h.
 */
static void test_states(struct p1305_impl *im)
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
		oot_poly1305_init(&st, key);
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
		im->blocks(&st, msg_buf, nb, hibit);
		oot_poly1305_blocks(&shadow, msg_buf, nb, hibit);
		check_state(im, what, &st, &shadow, nb);
	}
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
		oot_poly1305_ctx_init(&ctx, key);
		oot_poly1305_update(&ctx, msg_buf, len);
		oot_poly1305_final(&ctx, mac);
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
	struct p1305_impl *im;

	for (im = p1305_impls; im->name; im++) {
		im->runs = im->cpu_ok();
		if (!im->runs) {
			printf("SKIPPED %s: CPU lacks %s; %s NOT checked\n",
			       im->name, im->needs, im->func);
			count_skipped();
		}
	}
	test_vectors();
	test_edges();
	test_reference();
	test_lengths();
	test_blocks();
	test_random();
	test_long();
	test_wipe();
	for (im = p1305_impls; im->name; im++) {
		if (im->runs && im->with_state) {
			test_states(im);
			group_done(&im->state);
		}
	}
}
