// SPDX-License-Identifier: GPL-2.0
/*
 * User-space test harness for the ChaCha cores.
 *
 * Every implementation in chacha_impls[] that this CPU can run, and each of
 * its cores on its own, is checked against known-answer vectors and, on
 * random data, against the independent reference in ref_chacha.c:
 * every length 0..MAX_LEN through chacha_crypt_impl() and the request
 * path, once for each core chacha_calibrate() may choose for whole
 * strides (chacha_set_stride()), every length
 * 1..stride through a core's part function (masked tail) if it has one,
 * one to three strides through its strides function if it has one,
 * all 8 x 8 source and destination misalignments, in place and out of
 * place, counters 0xfffffff0..0xffffffff (wrapping with no carry into
 * state[13], so inside a 16-block stride too), 20 and 12 rounds.
 * Canary bytes around every buffer must stay untouched and the state must
 * change exactly as the API says.  Every table entry must fit what
 * chacha_crypt_impl() relies on (stride, part function), on any CPU.
 * Then poly1305_core.c, poly1305-x86_64.S and poly1305-avx512ifma-x86_64.S,
 * against RFC 8439 and ref_poly1305.c (see poly1305_test.c).
 *
 *   harness                     run everything
 *   harness --list-cores        print IMPL:BLOCKS for each core this CPU runs
 *   harness --mutate IMPL:BLOCKS[:flip|overrun|state]
 *                               test a copy of the table in which that core
 *                               flips an output byte, writes past its
 *                               output or writes the state: must fail
 *   harness --poly1305-only     only the Poly1305 checks (poly1305_test.c),
 *                               for tests/Makefile's poly1305-mutate
 *   harness --seed N            seed of the random data (default 1)
 *   harness --max-report N      print at most N failure lines per group of
 *                               checks (default 5)
 *
 * Exit status 0 when every check passed, 1 otherwise, 2 on bad usage.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/compiler_attributes.h>
#include <linux/kernel.h>

#include "chacha20_core.h"
#include "harness.h"
#include "ref_chacha.h"
#include "testutil.h"
#include "vectors.h"

#define MAX_LEN		4160	/* 65 blocks: every core and a tail */
#define MAX_OFF		8	/* misalignments 0..7 */
#define GUARD		64	/* canary bytes either side */
#define BUF_SIZE	(GUARD + MAX_OFF + MAX_LEN + GUARD)
#define CTR_FIRST	0xfffffff0u	/* 16 counters up to the wrap */
#define NUM_CTRS	16

static unsigned int n_passed, n_failed, n_skipped;
static unsigned int max_report = 5, n_reported;

/* One failure line, unless *@reported has reached max_report. */
static void vreport(unsigned int *reported, const char *fmt, va_list ap)
{
	if ((*reported)++ >= max_report) {
		if (*reported == max_report + 1)
			printf("FAIL ... (more failures in this group not shown)\n");
		return;
	}
	printf("FAIL ");
	vprintf(fmt, ap);
	printf("\n");
}

/*
 * Print one failure line, up to max_report of them per group of checks
 * (see new_group()), so that every kind of failure shows.
 */
void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(&n_reported, fmt, ap);
	va_end(ap);
}

void report_in(unsigned int *reported, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(reported, fmt, ap);
	va_end(ap);
}

/* A mismatch at byte @d of an output. */
static void report_diff(const char *what, const u8 *got, const u8 *want,
			long d)
{
	report("%s: output differs first at byte %ld (got 0x%02x, want 0x%02x)",
	       what, d, got[d], want[d]);
}

void count_skipped(void)
{
	n_skipped++;
}

void new_group(void)
{
	n_reported = 0;
}

unsigned int harness_failed(void)
{
	return n_failed;
}

void count(bool ok)
{
	if (ok)
		n_passed++;
	else
		n_failed++;
}

/* xorshift64*: deterministic random data from --seed. */
static u64 rng_state;

u64 rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

void rng_fill(u8 *p, size_t len)
{
	while (len--)
		*p++ = (u8)(rng_next() >> 56);
}

/* Index of the first byte where @a and @b differ, or -1. */
static long first_diff(const u8 *a, const u8 *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

/* ---- the table under test, with the optional mutated core ---- */

static struct chacha_impl *impls;

static u8 src_buf[BUF_SIZE], dst_buf[BUF_SIZE];

/*
 * Harness self-test only (--mutate): a wrapper around one core of the
 * copy of the table that breaks its contract in one of these ways.
 */
enum mutation {
	MUT_FLIP,	/* flip one output byte, moving from call to call */
	MUT_OVERRUN,	/* also write the byte after the output */
	MUT_STATE,	/* also bump state[12], which cores must not write */
};

static const char *const mutation_names[] = {
	[MUT_FLIP] = "flip",
	[MUT_OVERRUN] = "overrun",
	[MUT_STATE] = "state",
};

static chacha_core_fn mutant_fn;
static chacha_part_fn mutant_part_fn;
static chacha_strides_fn mutant_strides_fn;
static chacha_key_fn mutant_key_fn;
static unsigned int mutant_blocks, mutant_calls;
static enum mutation mutation;

/* Break the output of @bytes bytes at @dst, or the state, as asked. */
static void mutate_output(const u32 *state, u8 *dst, unsigned int bytes)
{
	switch (mutation) {
	case MUT_FLIP:
		dst[(mutant_calls++ * 71u + bytes - 1) % bytes] ^= 0x01;
		break;
	case MUT_OVERRUN:
		/* Only into the harness's guard bytes, never a real stack. */
		if (dst >= dst_buf && dst + bytes < dst_buf + BUF_SIZE)
			dst[bytes] ^= 0x01;
		break;
	case MUT_STATE:
		/* The harness's states are writable u32 arrays. */
		((u32 *)state)[12]++;
		break;
	}
}

static void mutant_core(const u32 *state, u8 *dst, const u8 *src,
			unsigned int nrounds)
{
	mutant_fn(state, dst, src, nrounds);
	mutate_output(state, dst, mutant_blocks * CHACHA_BLOCK_BYTES);
}

static void mutant_part(const u32 *state, u8 *dst, const u8 *src,
			unsigned int nrounds, unsigned int len)
{
	mutant_part_fn(state, dst, src, nrounds, len);
	if (len)
		mutate_output(state, dst, len);
}

static void mutant_strides(u32 *state, u8 *dst, const u8 *src,
			   unsigned int nrounds, unsigned int nstrides)
{
	mutant_strides_fn(state, dst, src, nrounds, nstrides);
	mutate_output(state, dst,
		      nstrides * mutant_blocks * CHACHA_BLOCK_BYTES);
}

static void mutant_key(const u32 *state, u8 *dst, const u8 *src,
		       unsigned int nrounds, unsigned int len, u8 *key)
{
	mutant_key_fn(state, dst, src, nrounds, len, key);
	/* With no text, the key stream takes the flip. */
	if (len)
		mutate_output(state, dst, len);
	else
		mutate_output(state, key, CHACHA_BLOCK_BYTES);
}

static struct chacha_impl *find_impl(const char *name)
{
	unsigned int i;

	for (i = 0; i < chacha_nimpls; i++)
		if (!strcmp(impls[i].name, name))
			return &impls[i];
	return NULL;
}

/*
 * Parse IMPL:BLOCKS[:MUTATION] and install the mutant in the copy of the
 * table.
 */
static struct chacha_impl *install_mutant(const char *spec)
{
	char name[64], how[16] = "flip";
	struct chacha_impl *impl;
	struct chacha_core *core;
	unsigned int blocks, i;
	int end = 0;

	if (sscanf(spec, "%63[^:]:%u%n:%15s%n", name, &blocks, &end, how,
		   &end) < 2 || spec[end])
		return NULL;
	for (i = 0; i < ARRAY_SIZE(mutation_names); i++)
		if (!strcmp(how, mutation_names[i]))
			break;
	if (i == ARRAY_SIZE(mutation_names))
		return NULL;
	mutation = i;
	impl = find_impl(name);
	if (!impl)
		return NULL;
	for (core = impl->cores; core->blocks; core++) {
		if (core->blocks == blocks) {
			mutant_fn = core->fn;
			mutant_blocks = core->blocks;
			core->fn = mutant_core;
			if (core->part) {
				mutant_part_fn = core->part;
				core->part = mutant_part;
			}
			if (core->strides) {
				mutant_strides_fn = core->strides;
				core->strides = mutant_strides;
			}
			if (core->key) {
				mutant_key_fn = core->key;
				core->key = mutant_key;
			}
			return impl;
		}
	}
	return NULL;
}

/* ---- one random-data case ---- */

/*
 * What a case runs: one core alone, the whole implementation through
 * chacha_crypt_impl(), or the request path chacha_crypt_request() with
 * the scalar/SIMD choices given here.
 */
struct target {
	const struct chacha_impl *impl;
	const struct chacha_core *core;	/* NULL: a whole-request path */
	bool part;			/* core->part rather than core->fn */
	bool strides;			/* core->strides, len whole strides */
	bool key;			/* core->key: block 0, then the text */
	bool request;			/* chacha_crypt_request() */
	unsigned int scalar_max, scalar_tail;	/* chacha_scalar_*_bytes */
};

struct tcase {
	const char *kind;
	unsigned int len;
	unsigned int src_off, dst_off;	/* src_off: out of place only */
	u32 ctr;
	unsigned int nrounds;
	bool in_place;
};

static void target_name(char *buf, size_t size, const struct target *t)
{
	if (t->core)
		snprintf(buf, size, "%s/%u-block%s", t->impl->name,
			 t->core->blocks,
			 t->part ? " part" : t->strides ? " strides" :
			 t->key ? " key" : "");
	else if (t->request)
		snprintf(buf, size, "%s/request scalar_max=%u scalar_tail=%u",
			 t->impl->name, t->scalar_max, t->scalar_tail);
	else
		snprintf(buf, size, "%s/crypt", t->impl->name);
}

/*
 * The entry of chacha_impls[] that @impl is or copies (the mutation
 * self-test's copy runs the stride chosen for its entry).
 */
static const struct chacha_impl *table_entry(const struct chacha_impl *impl)
{
	unsigned int i;

	for (i = 0; i < chacha_nimpls; i++)
		if (!strcmp(impl->name, chacha_impls[i].name))
			return &chacha_impls[i];
	return impl;
}

/* Whole strides of @impl in its core of @blocks blocks, from now on. */
static void set_stride(const struct chacha_impl *impl, unsigned int blocks)
{
	if (chacha_set_stride(table_entry(impl), blocks)) {
		fprintf(stderr, "harness: %s has no stride of %u blocks\n",
			impl->name, blocks);
		exit(2);
	}
}

static void case_name(char *buf, size_t size, const struct target *t,
		      const struct tcase *c)
{
	char tn[64], stride[16] = "";

	target_name(tn, sizeof(tn), t);
	if (!t->core && t->impl->cores[0].blocks)
		snprintf(stride, sizeof(stride), " stride=%u",
			 chacha_stride(table_entry(t->impl)));
	snprintf(buf, size,
		 "%s %s len=%u src_off=%u dst_off=%u ctr=0x%08x rounds=%u %s%s",
		 tn, c->kind, c->len, c->in_place ? c->dst_off : c->src_off,
		 c->dst_off, (unsigned int)c->ctr, c->nrounds,
		 c->in_place ? "in-place" : "out-of-place", stride);
}

static u8 plain[MAX_LEN], expect[MAX_LEN];

/* A position-dependent pattern, so that shifted writes show too. */
static u8 canary(size_t i)
{
	return (u8)(0xa5 ^ (i * 29));
}

static void fill_canary(u8 *buf)
{
	size_t i;

	for (i = 0; i < BUF_SIZE; i++)
		buf[i] = canary(i);
}

/* First canary byte of @buf outside [start, start + len) that changed. */
static long guard_damage(const u8 *buf, size_t start, size_t len)
{
	size_t i;

	for (i = 0; i < BUF_SIZE; i++) {
		if (i >= start && i < start + len)
			continue;
		if (buf[i] != canary(i))
			return (long)i;
	}
	return -1;
}

/*
 * @t's key entry over @c: block 0's key stream, which must equal the
 * reference's at @c->ctr, lands in a buffer with guard bytes after it.
 */
static bool check_key_block(const struct target *t, const struct tcase *c,
			    u32 *state, u8 *dst, const u8 *src,
			    const u8 *key, const u8 *iv)
{
	static const u8 zeros[CHACHA_BLOCK_BYTES];
	u8 ks[CHACHA_BLOCK_BYTES + 16], want[CHACHA_BLOCK_BYTES];
	char name[256];
	unsigned int i;
	long d;

	memset(ks, 0xa5, sizeof(ks));
	t->core->key(state, dst, src, c->nrounds, c->len, ks);
	ref_chacha_xor(key, c->ctr, iv + 4, c->nrounds, zeros, want,
		       sizeof(want));
	case_name(name, sizeof(name), t, c);
	d = first_diff(ks, want, sizeof(want));
	if (d >= 0) {
		report("%s: key stream byte %ld is %02x, want %02x", name, d,
		       ks[d], want[d]);
		return false;
	}
	for (i = CHACHA_BLOCK_BYTES; i < sizeof(ks); i++) {
		if (ks[i] != 0xa5) {
			report("%s: written past the key stream", name);
			return false;
		}
	}
	return true;
}

static bool run_case(const struct target *t, const struct tcase *c)
{
	u8 key[CHACHA_KEY_BYTES], iv[CHACHA_IV_BYTES];
	u32 state[CHACHA_STATE_WORDS], want_state[CHACHA_STATE_WORDS];
	size_t dst_start = GUARD + c->dst_off;
	size_t src_start = GUARD + (c->in_place ? c->dst_off : c->src_off);
	u8 *dst = dst_buf + dst_start;
	const u8 *src;
	char name[256];
	bool ok = true;
	long d;

	rng_fill(key, sizeof(key));
	rng_fill(iv + 4, sizeof(iv) - 4);
	put_le32(iv, c->ctr);
	rng_fill(plain, c->len);
	/* With block 0 apart, the text starts at the next counter. */
	ref_chacha_xor(key, c->ctr + t->key, iv + 4, c->nrounds, plain,
		       expect, c->len);

	fill_canary(dst_buf);
	if (c->in_place) {
		memcpy(dst, plain, c->len);
		src = dst;
	} else {
		fill_canary(src_buf);
		memcpy(src_buf + src_start, plain, c->len);
		src = src_buf + src_start;
	}

	chacha_setup(state, key, iv);
	memcpy(want_state, state, sizeof(state));
	if (t->core && t->part) {
		t->core->part(state, dst, src, c->nrounds, c->len);
	} else if (t->core && t->key) {
		if (!check_key_block(t, c, state, dst, src, key, iv))
			ok = false;
	} else if (t->core && t->strides) {
		unsigned int n = c->len / (t->core->blocks * CHACHA_BLOCK_BYTES);

		t->core->strides(state, dst, src, c->nrounds, n);
		want_state[12] += n * t->core->blocks;
	} else if (t->core) {
		t->core->fn(state, dst, src, c->nrounds);
	} else {
		if (t->request) {
			unsigned int max = chacha_scalar_max_bytes;
			unsigned int tail = chacha_scalar_tail_bytes;

			chacha_scalar_max_bytes = t->scalar_max;
			chacha_scalar_tail_bytes = t->scalar_tail;
			chacha_crypt_request(t->impl, state, dst, src, c->len,
					     c->nrounds, true);
			chacha_scalar_max_bytes = max;
			chacha_scalar_tail_bytes = tail;
		} else {
			chacha_crypt_impl(t->impl, state, dst, src, c->len,
					  c->nrounds);
		}
		want_state[12] += (c->len + CHACHA_BLOCK_BYTES - 1) /
				  CHACHA_BLOCK_BYTES;
	}

	case_name(name, sizeof(name), t, c);
	d = first_diff(dst, expect, c->len);
	if (d >= 0) {
		report_diff(name, dst, expect, d);
		ok = false;
	}
	d = guard_damage(dst_buf, dst_start, c->len);
	if (d >= 0) {
		report("%s: dst written outside the output, at offset %ld",
		       name, d - (long)dst_start);
		ok = false;
	}
	if (!c->in_place) {
		d = first_diff(src_buf + src_start, plain, c->len);
		if (d < 0)
			d = guard_damage(src_buf, src_start, c->len);
		else
			d += src_start;
		if (d >= 0) {
			report("%s: src modified, at offset %ld", name,
			       d - (long)src_start);
			ok = false;
		}
	}
	d = first_diff((const u8 *)state, (const u8 *)want_state,
		       sizeof(state));
	if (d >= 0) {
		report("%s: state word %ld is 0x%08x, want 0x%08x", name,
		       d / 4, (unsigned int)state[d / 4],
		       (unsigned int)want_state[d / 4]);
		ok = false;
	}
	count(ok);
	return ok;
}

/* ---- random-data sweeps ---- */

static u32 pick_ctr(unsigned int i)
{
	return CTR_FIRST + i % NUM_CTRS;
}

/*
 * Every length 0..MAX_LEN, 12 and 20 rounds, in place and out of place;
 * misalignments and counters rotate with the length so that every
 * combination is met many times over the sweep.
 */
static void sweep_lengths(const struct target *t)
{
	struct tcase c = { .kind = "random" };
	unsigned int v;

	for (c.len = 0; c.len <= MAX_LEN; c.len++) {
		for (v = 0; v < 4; v++) {
			c.nrounds = v & 1 ? 12 : 20;
			c.in_place = v & 2;
			c.src_off = (c.len + v) % MAX_OFF;
			c.dst_off = (c.len / MAX_OFF + 3 * v) % MAX_OFF;
			c.ctr = pick_ctr(c.len * 5 + v);
			run_case(t, &c);
		}
	}
}

/*
 * A core's part function: every length 1..stride (0 is never passed), 12
 * and 20 rounds, in place and out of place, misalignments and counters
 * rotating with the length.
 */
static void sweep_part(const struct target *t)
{
	struct tcase c = { .kind = "every-length" };
	unsigned int stride = t->core->blocks * CHACHA_BLOCK_BYTES;
	unsigned int v;

	for (c.len = 1; c.len <= stride; c.len++) {
		for (v = 0; v < 2; v++) {
			c.nrounds = (c.len + v) & 1 ? 12 : 20;
			c.in_place = v;
			c.src_off = (c.len * 3 + v) % MAX_OFF;
			c.dst_off = (c.len / 3 + 5 * v) % MAX_OFF;
			c.ctr = pick_ctr(c.len * 3 + v);
			run_case(t, &c);
		}
	}
}

/*
 * A core's strides function: one to three whole strides (as MAX_LEN
 * allows), every counter up to the wrap so that some strides cross it,
 * 12 and 20 rounds, in place and out of place.
 */
static void sweep_strides(const struct target *t)
{
	struct tcase c = { .kind = "strides" };
	unsigned int stride = t->core->blocks * CHACHA_BLOCK_BYTES;
	unsigned int n, v;

	for (n = 1; n <= 3 && n * stride <= MAX_LEN; n++) {
		c.len = n * stride;
		for (v = 0; v < 4 * NUM_CTRS; v++) {
			c.nrounds = v & 1 ? 12 : 20;
			c.in_place = v & 2;
			c.src_off = (n + v) % MAX_OFF;
			c.dst_off = (n * 3 + v / 4) % MAX_OFF;
			c.ctr = pick_ctr(v / 4);
			run_case(t, &c);
		}
	}
}

/*
 * A core's key entry: every text length 0..(blocks - 1) * 64, 12 and 20
 * rounds, in place and out of place, counters up to the wrap.
 */
static void sweep_key(const struct target *t)
{
	struct tcase c = { .kind = "every-length" };
	unsigned int max = (t->core->blocks - 1) * CHACHA_BLOCK_BYTES;
	unsigned int v;

	for (c.len = 0; c.len <= max; c.len++) {
		for (v = 0; v < 2; v++) {
			c.nrounds = (c.len + v) & 1 ? 12 : 20;
			c.in_place = v;
			c.src_off = (c.len * 5 + v) % MAX_OFF;
			c.dst_off = (c.len / 5 + 3 * v) % MAX_OFF;
			c.ctr = pick_ctr(c.len + 7 * v);
			run_case(t, &c);
		}
	}
}

/*
 * The full product of misalignments (64 out of place, 8 in place),
 * counters and round counts at one length.
 */
static void sweep_matrix(const struct target *t, unsigned int len)
{
	struct tcase c = { .kind = "matrix", .len = len };
	unsigned int r, k;

	for (r = 0; r < 2; r++) {
		c.nrounds = r ? 12 : 20;
		for (k = 0; k < NUM_CTRS; k++) {
			c.ctr = pick_ctr(k);
			c.in_place = false;
			for (c.src_off = 0; c.src_off < MAX_OFF; c.src_off++)
				for (c.dst_off = 0; c.dst_off < MAX_OFF;
				     c.dst_off++)
					run_case(t, &c);
			c.in_place = true;
			c.src_off = 0;
			for (c.dst_off = 0; c.dst_off < MAX_OFF; c.dst_off++)
				run_case(t, &c);
		}
	}
}

/* ---- known-answer vectors ---- */

static void vector_fail(const char *who, const char *source, const char *how,
			const u8 *got, const u8 *want, long d)
{
	char what[256];

	snprintf(what, sizeof(what), "%s vector \"%s\"%s", who, source, how);
	report_diff(what, got, want, d);
}

static void setup_tv(u32 *state, const struct chacha_tv *tv)
{
	if (tv->ivsize == XCHACHA_IV_BYTES)
		xchacha_setup(state, tv->key, tv->iv, tv->nrounds);
	else
		chacha_setup(state, tv->key, tv->iv);
}

static void check_vector_out(const char *who, const struct chacha_tv *tv,
			     const char *how, const u8 *got, unsigned int len)
{
	long d = first_diff(got, tv->ctext, len);

	if (d >= 0)
		vector_fail(who, tv->source, how, got, tv->ctext, d);
	count(d < 0);
}

/* A stream vector through chacha_crypt_impl(): whole, in two calls, in place. */
static void tv_crypt(const struct chacha_impl *impl,
		     const struct chacha_tv *tv)
{
	char who[64];
	u32 state[CHACHA_STATE_WORDS];
	unsigned int split;
	u8 *out;

	out = malloc(tv->len + 1);
	if (!out) {
		perror("malloc");
		exit(1);
	}
	snprintf(who, sizeof(who), "%s/crypt stride=%u", impl->name,
		 chacha_stride(table_entry(impl)));
	setup_tv(state, tv);
	chacha_crypt_impl(impl, state, out, tv->ptext, tv->len, tv->nrounds);
	check_vector_out(who, tv, "", out, tv->len);

	/* As a skcipher walk may: a block multiple first, then the rest. */
	split = tv->len / 2 / CHACHA_BLOCK_BYTES * CHACHA_BLOCK_BYTES;
	setup_tv(state, tv);
	chacha_crypt_impl(impl, state, out, tv->ptext, split, tv->nrounds);
	chacha_crypt_impl(impl, state, out + split, tv->ptext + split,
			  tv->len - split, tv->nrounds);
	check_vector_out(who, tv, " in two calls", out, tv->len);

	/* In place. */
	memcpy(out, tv->ptext, tv->len);
	setup_tv(state, tv);
	chacha_crypt_impl(impl, state, out, out, tv->len, tv->nrounds);
	check_vector_out(who, tv, " in place", out, tv->len);
	free(out);
}

/* A stream vector through one core, over the whole strides that fit. */
static void tv_core(const struct chacha_impl *impl,
		    const struct chacha_core *core,
		    const struct chacha_tv *tv)
{
	unsigned int stride = core->blocks * CHACHA_BLOCK_BYTES;
	unsigned int done;
	u32 state[CHACHA_STATE_WORDS];
	char who[64];
	u8 *out;

	if (tv->len < stride)
		return;
	out = malloc(tv->len);
	if (!out) {
		perror("malloc");
		exit(1);
	}
	snprintf(who, sizeof(who), "%s/%u-block", impl->name, core->blocks);
	setup_tv(state, tv);
	for (done = 0; done + stride <= tv->len; done += stride) {
		core->fn(state, out + done, tv->ptext + done, tv->nrounds);
		state[12] += core->blocks;
	}
	check_vector_out(who, tv, "", out, done);
	free(out);
}

/* The RFC 8439 2.3.2 block: the first block of each core's output. */
static void block_tv_core(const struct chacha_impl *impl,
			  const struct chacha_core *core,
			  const struct chacha_block_tv *tv)
{
	static const u8 zeros[CHACHA_MAX_BLOCKS * CHACHA_BLOCK_BYTES];
	u8 out[CHACHA_MAX_BLOCKS * CHACHA_BLOCK_BYTES];
	u32 state[CHACHA_STATE_WORDS];
	char who[64];
	long d;

	if (core->blocks > CHACHA_MAX_BLOCKS) {
		report("%s/%u-block: more blocks than CHACHA_MAX_BLOCKS",
		       impl->name, core->blocks);
		count(false);
		return;
	}
	snprintf(who, sizeof(who), "%s/%u-block", impl->name, core->blocks);
	chacha_setup(state, tv->key, tv->iv);
	core->fn(state, out, zeros, tv->nrounds);
	d = first_diff(out, tv->block, CHACHA_BLOCK_BYTES);
	if (d >= 0)
		vector_fail(who, tv->source, " (first block)", out, tv->block,
			    d);
	count(d < 0);
}

#define RFC_BLOCK_TV_END	(rfc_block_tv + ARRAY_SIZE(rfc_block_tv))
#define RFC_HCHACHA_TV_END	(rfc_hchacha_tv + ARRAY_SIZE(rfc_hchacha_tv))

static const struct {
	const struct chacha_tv *tv;
	unsigned int n;
} tv_tables[] = {
	{ rfc_tv, ARRAY_SIZE(rfc_tv) },
	{ tm_chacha20_tv, ARRAY_SIZE(tm_chacha20_tv) },
	{ tm_xchacha20_tv, ARRAY_SIZE(tm_xchacha20_tv) },
	{ tm_xchacha12_tv, ARRAY_SIZE(tm_xchacha12_tv) },
};

/* The @pos-th stream vector over all the tables, or NULL past the end. */
static const struct chacha_tv *stream_tv(unsigned int pos)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tv_tables); i++) {
		if (pos < tv_tables[i].n)
			return &tv_tables[i].tv[pos];
		pos -= tv_tables[i].n;
	}
	return NULL;
}

/* The reference itself must reproduce every vector before it judges. */
static void test_reference(void)
{
	const struct chacha_block_tv *btv;
	const struct hchacha_tv *htv;
	const struct chacha_tv *tv;
	u8 out[MAX_LEN], block[CHACHA_BLOCK_BYTES], subkey[32];
	u32 qr[CHACHA_STATE_WORDS];
	unsigned int i;
	long d;

	for (i = 0; (tv = stream_tv(i)); i++) {
		if (tv->len > sizeof(out)) {
			report("ref: vector \"%s\" longer than the buffer",
			       tv->source);
			count(false);
			continue;
		}
		if (tv->ivsize == XCHACHA_IV_BYTES)
			ref_xchacha_xor(tv->key, tv->iv, get_le32(tv->iv + 24),
					tv->nrounds, tv->ptext, out, tv->len);
		else
			ref_chacha_xor(tv->key, get_le32(tv->iv), tv->iv + 4,
				       tv->nrounds, tv->ptext, out, tv->len);
		check_vector_out("ref", tv, "", out, tv->len);
	}
	memcpy(qr, rfc_qr_state_tv.in, sizeof(qr));
	ref_quarter_round(&qr[rfc_qr_state_tv.a], &qr[rfc_qr_state_tv.b],
			  &qr[rfc_qr_state_tv.c], &qr[rfc_qr_state_tv.d]);
	d = first_diff((const u8 *)qr, (const u8 *)rfc_qr_state_tv.out,
		       sizeof(qr));
	if (d >= 0)
		vector_fail("ref", rfc_qr_state_tv.source, " (state bytes)",
			    (const u8 *)qr, (const u8 *)rfc_qr_state_tv.out, d);
	count(d < 0);
	for (btv = rfc_block_tv; btv < RFC_BLOCK_TV_END; btv++) {
		ref_chacha_block(btv->key, btv->iv, btv->nrounds, block);
		d = first_diff(block, btv->block, sizeof(block));
		if (d >= 0)
			vector_fail("ref", btv->source, "", block, btv->block,
				    d);
		count(d < 0);
	}
	for (htv = rfc_hchacha_tv; htv < RFC_HCHACHA_TV_END; htv++) {
		ref_hchacha(htv->key, htv->nonce, htv->nrounds, subkey);
		d = first_diff(subkey, htv->subkey, sizeof(subkey));
		if (d >= 0)
			vector_fail("ref", htv->source, "", subkey,
				    htv->subkey, d);
		count(d < 0);
	}
}

static void words_to_le_bytes(u8 *out, const u32 *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < 4 * n; i++)
		out[i] = (w[i / 4] >> (8 * (i % 4))) & 0xff;
}

/*
 * chacha_block_scalar() and hchacha_block_scalar(): the vectors, then
 * random states against the reference.
 */
static void test_scalar_functions(void)
{
	const struct chacha_block_tv *btv;
	const struct hchacha_tv *htv;
	u8 key[32], input[16], got[64], want[64];
	u32 state[CHACHA_STATE_WORDS], sub[8];
	unsigned int i, nrounds;
	char what[80];
	long d;

	for (btv = rfc_block_tv; btv < RFC_BLOCK_TV_END; btv++) {
		chacha_setup(state, btv->key, btv->iv);
		chacha_block_scalar(state, got, btv->nrounds);
		d = first_diff(got, btv->block, 64);
		if (d >= 0)
			vector_fail("chacha_block_scalar", btv->source, "",
				    got, btv->block, d);
		count(d < 0);
	}
	for (htv = rfc_hchacha_tv; htv < RFC_HCHACHA_TV_END; htv++) {
		chacha_setup(state, htv->key, htv->nonce);
		hchacha_block_scalar(state, sub, htv->nrounds);
		words_to_le_bytes(got, sub, 8);
		d = first_diff(got, htv->subkey, 32);
		if (d >= 0)
			vector_fail("hchacha_block_scalar", htv->source, "",
				    got, htv->subkey, d);
		count(d < 0);
	}
	for (i = 0; i < 512; i++) {
		nrounds = i & 1 ? 12 : 20;
		rng_fill(key, sizeof(key));
		rng_fill(input, sizeof(input));
		chacha_setup(state, key, input);

		chacha_block_scalar(state, got, nrounds);
		ref_chacha_block(key, input, nrounds, want);
		d = first_diff(got, want, 64);
		snprintf(what, sizeof(what),
			 "chacha_block_scalar random #%u rounds=%u", i, nrounds);
		if (d >= 0)
			report_diff(what, got, want, d);
		count(d < 0);

		hchacha_block_scalar(state, sub, nrounds);
		words_to_le_bytes(got, sub, 8);
		ref_hchacha(key, input, nrounds, want);
		d = first_diff(got, want, 32);
		snprintf(what, sizeof(what),
			 "hchacha_block_scalar random #%u rounds=%u", i,
			 nrounds);
		if (d >= 0)
			report_diff(what, got, want, d);
		count(d < 0);
	}
}

/* Random XChaCha messages through the kernel IV layout, vs the reference. */
static void xchacha_random(const struct chacha_impl *impl)
{
	u8 key[32], iv[XCHACHA_IV_BYTES], want[1100], got[1100];
	u32 state[CHACHA_STATE_WORDS];
	unsigned int i, len, nrounds;
	char what[128];
	u32 ctr;
	long d;

	for (i = 0; i < 64; i++) {
		nrounds = i & 1 ? 12 : 20;
		len = (unsigned int)(rng_next() % sizeof(want));
		ctr = pick_ctr(i * 7);
		rng_fill(key, sizeof(key));
		rng_fill(iv, 24);
		put_le32(iv + 24, ctr);
		put_le32(iv + 28, 0);
		rng_fill(got, len);
		ref_xchacha_xor(key, iv, ctr, nrounds, got, want, len);
		xchacha_setup(state, key, iv, nrounds);
		chacha_crypt_impl(impl, state, got, got, len, nrounds);
		d = first_diff(got, want, len);
		snprintf(what, sizeof(what),
			 "%s/crypt xchacha random len=%u ctr=0x%08x rounds=%u stride=%u",
			 impl->name, len, (unsigned int)ctr, nrounds,
			 chacha_stride(table_entry(impl)));
		if (d >= 0)
			report_diff(what, got, want, d);
		count(d < 0);
	}
}

/* ---- per implementation ---- */

/* chacha_scalar_max_bytes, chacha_scalar_tail_bytes for the request path. */
static const unsigned int request_choices[][2] = {
	{ 0, 0 }, { 128, CHACHA_BLOCK_BYTES },
};

/* Lengths for the full matrix: a tail alone, every core, all of them. */
static const unsigned int matrix_lens[] = { 37, 64 * 13 + 17, MAX_LEN };

/* The whole of @impl, @t, with the stride chosen now. */
static void test_strides(const struct chacha_impl *impl, struct target *t)
{
	const struct chacha_tv *tv;
	unsigned int i;

	new_group();
	for (i = 0; (tv = stream_tv(i)); i++)
		tv_crypt(impl, tv);
	new_group();
	sweep_lengths(t);
	/*
	 * The request path under both choices chacha_calibrate() can make
	 * for a last block (core or scalar C), small requests in SIMD or
	 * not, sections cut at CHACHA_SIMD_CHUNK.
	 */
	for (i = 0; i < ARRAY_SIZE(request_choices); i++) {
		struct target rt = {
			.impl = impl, .request = true,
			.scalar_max = request_choices[i][0],
			.scalar_tail = request_choices[i][1],
		};

		new_group();
		sweep_lengths(&rt);
	}
	new_group();
	for (i = 0; i < ARRAY_SIZE(matrix_lens); i++)
		sweep_matrix(t, matrix_lens[i]);
	new_group();
	xchacha_random(impl);
}

static void test_impl(const struct chacha_impl *impl)
{
	unsigned int before_pass = n_passed, before_fail = n_failed;
	const struct chacha_block_tv *btv;
	const struct chacha_core *core;
	const struct chacha_tv *tv;
	const char *missing = NULL;
	struct target t = { .impl = impl };
	unsigned int i, k;

	/* What chacha_crypt_impl() relies on, whatever the CPU. */
	new_group();
	if (impl->cores[CHACHA_MAX_CORES - 1].blocks) {
		report("%s: no terminating entry in cores[] (CHACHA_MAX_CORES)",
		       impl->name);
		count(false);
		return;
	}
	for (core = impl->cores; core->blocks; core++) {
		bool ok = core->blocks <= CHACHA_MAX_BLOCKS &&
			  (core->part || core->blocks <= CHACHA_BOUNCE_BLOCKS);

		if (!ok)
			report("%s/%u-block: too wide (CHACHA_MAX_BLOCKS, or bounce buffer)",
			       impl->name, core->blocks);
		count(ok);
	}

	if (!cpu_has_features(impl->needs, &missing)) {
		printf("SKIPPED %s: CPU lacks %s\n", impl->name, missing);
		n_skipped++;
		return;
	}

	/*
	 * Each core alone first, then the whole implementation.  With a
	 * mutant (--mutate), only its core alone: the others' checks
	 * cannot fail for it, and they were most of each mutated run.
	 */
	for (core = impl->cores; core->blocks; core++) {
		if (mutant_blocks && core->blocks != mutant_blocks)
			continue;
		new_group();
		for (btv = rfc_block_tv; btv < RFC_BLOCK_TV_END; btv++)
			block_tv_core(impl, core, btv);
		for (i = 0; (tv = stream_tv(i)); i++)
			tv_core(impl, core, tv);
		new_group();
		t.core = core;
		sweep_matrix(&t, core->blocks * CHACHA_BLOCK_BYTES);
		if (core->part) {
			new_group();
			t.part = true;
			sweep_part(&t);
			sweep_matrix(&t, core->blocks * CHACHA_BLOCK_BYTES -
					 CHACHA_BLOCK_BYTES / 2 - 3);
			t.part = false;
		}
		if (core->strides) {
			new_group();
			t.strides = true;
			sweep_strides(&t);
			t.strides = false;
		}
		if (core->key) {
			new_group();
			t.key = true;
			sweep_key(&t);
			t.key = false;
		}
	}

	/*
	 * The whole implementation, with each core that chacha_calibrate()
	 * may choose for whole strides in turn (scalar: once), the widest,
	 * its default, last.  With a mutant, the default alone.
	 */
	t.core = NULL;
	for (k = CHACHA_STRIDE_CHOICES; k-- > 0;) {
		if (k && (!impl->cores[k].blocks || mutant_blocks))
			continue;
		if (impl->cores[k].blocks)
			set_stride(impl, impl->cores[k].blocks);
		test_strides(impl, &t);
	}

	printf("  %s: %u checks, %u failed\n", impl->name,
	       n_passed + n_failed - before_pass - before_fail,
	       n_failed - before_fail);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: harness [--list-cores] [--mutate IMPL:BLOCKS[:flip|overrun|state]]\n"
		"               [--poly1305-only] [--aead-only] [--seed N] [--max-report N]\n");
	exit(2);
}

static unsigned long parse_num(const char *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end)
		print_usage();
	return v;
}

int main(int argc, char **argv)
{
	const struct chacha_impl *only = NULL;
	const char *mutate = NULL;
	bool list = false, poly1305_only = false, aead_only = false;
	u64 seed = 1;
	unsigned int i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--list-cores"))
			list = true;
		else if (!strcmp(argv[a], "--mutate") && a + 1 < argc)
			mutate = argv[++a];
		else if (!strcmp(argv[a], "--poly1305-only"))
			poly1305_only = true;
		else if (!strcmp(argv[a], "--aead-only"))
			aead_only = true;
		else if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			seed = parse_num(argv[++a]);
		else if (!strcmp(argv[a], "--max-report") && a + 1 < argc)
			max_report = parse_num(argv[++a]);
		else
			print_usage();
	}
	if ((poly1305_only || aead_only) && (mutate || list))
		print_usage();
	rng_state = seed * 0x9e3779b97f4a7c15ull + 0x5eed;

	impls = malloc(chacha_nimpls * sizeof(*impls));
	if (!impls) {
		perror("malloc");
		return 1;
	}
	memcpy(impls, chacha_impls, chacha_nimpls * sizeof(*impls));

	if (list) {
		for (i = 0; i < chacha_nimpls; i++) {
			const struct chacha_core *core;

			if (!cpu_has_features(impls[i].needs, NULL))
				continue;
			for (core = impls[i].cores; core->blocks; core++)
				printf("%s:%u\n", impls[i].name, core->blocks);
		}
		return 0;
	}
	if (mutate) {
		only = install_mutant(mutate);
		if (!only) {
			fprintf(stderr, "harness: bad --mutate %s; see --list-cores\n",
				mutate);
			print_usage();
			return 2;
		}
		if (!cpu_has_features(only->needs, NULL)) {
			fprintf(stderr, "harness: this CPU cannot run %s\n",
				only->name);
			return 2;
		}
		printf("MUTATED: %s (%s); failures expected\n", mutate,
		       mutation_names[mutation]);
	}

	if (poly1305_only || aead_only) {
		printf("%s checks only, seed %llu\n",
		       aead_only ? "ChaCha20-Poly1305" : "Poly1305",
		       (unsigned long long)seed);
		if (poly1305_only)
			test_poly1305();
		else
			test_aead();
		goto out;
	}

	printf("ChaCha harness: %u implementations, seed %llu\n",
	       chacha_nimpls, (unsigned long long)seed);
	if (!only) {
		new_group();
		test_reference();
		new_group();
		test_scalar_functions();
		printf("  reference and scalar functions: %u checks, %u failed\n",
		       n_passed + n_failed, n_failed);
	}
	/*
	 * chacha_impls[] itself, as the module runs it (each core called
	 * directly); a mutant in the copy runs through the table's pointers
	 * (CHACHA_TEST_TABLES).
	 */
	for (i = 0; i < chacha_nimpls; i++) {
		if (!only)
			test_impl(&chacha_impls[i]);
		else if (only == &impls[i])
			test_impl(&impls[i]);
	}
	/* The Poly1305 checks are not about the ChaCha table's copy. */
	if (!only) {
		test_poly1305();
		test_aead();
	}

out:
	free(impls);
	printf("%u passed, %u failed, %u skipped\n", n_passed, n_failed,
	       n_skipped);
	return n_failed ? 1 : 0;
}
