// SPDX-License-Identifier: GPL-2.0
/*
 * User-space benchmark of the module's ChaCha code: chacha_crypt_impl() for
 * every implementation the CPU runs, each SIMD core alone, and, in the same
 * run, the kernel's own x86-64 ChaCha assembly driven the way the kernel's
 * chacha_dosimd() drives it.  It prints TSC cycles; it checks nothing
 * (beyond a warning when two implementations disagree, which would make
 * their numbers meaningless).
 *
 * Method: pinned to one CPU, page-aligned buffers, a warm-up per point,
 * then the best of many batches of calls, gathered in several passes over
 * all points with the implementations side by side at each length.  Each
 * batch sits between two short calibration loops and is redone when either
 * reads slow (the host takes throughput without showing steal time) or
 * implausibly fast; each repetition moves the stack by 16 bytes so that no
 * single stack position decides the result through 4K aliasing.
 */
#define _GNU_SOURCE
#include <alloca.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <linux/kernel.h>

#include "chacha20_core.h"
#include "kernel_chacha.h"
#include "testutil.h"

#ifndef __x86_64__
#error "the benchmark reads the x86 TSC"
#endif

/* Neither inlined nor specialised: a frame of its own, where alloca() put it. */
#define BENCH_NOINLINE	__attribute__((__noipa__))

static const unsigned int bench_lens[] = {
	16, 32, 64, 96, 128, 192, 256, 384, 512, 1024, 1500, 2048, 4096,
	8192, 65536
};

static const unsigned int bench_rounds[] = { 20, 12 };

#define NLENS		ARRAY_SIZE(bench_lens)
#define NROUNDS		ARRAY_SIZE(bench_rounds)
#define MAX_LEN		65536

/* fpu costs for which the crossover is always printed */
static const unsigned int fpu_costs[] = { 0, 100, 300 };

/* A batch of calls aims at this many TSC cycles, in at most this many calls. */
#define BATCH_CYCLES	20000
#define MAX_BATCH	1024
/* Calls before a point is measured, to warm caches and predictors. */
#define WARM_CYCLES	200000
/* A repetition is redone at most this often before it is taken as it is. */
#define MAX_REDO	20
/* Passes over all points; each takes its share of the repetitions. */
#define PASSES		4
/* Stack offsets cycled through, 16 bytes apart. */
#define STACK_STEPS	64
/* Iterations of the calibration loop: about a thousand TSC cycles. */
#define CALIB_ITERS	256
/* Readings that set the reference, after WARM_NS of spinning. */
#define CALIB_READINGS	20000
#define WARM_NS		200000000L

/* One measured point: the best batch, per call. */
struct point {
	double cycles;		/* TSC cycles per call */
	unsigned int redone;	/* batches redone after a slow calibration */
	unsigned int forced;	/* repetitions taken despite MAX_REDO redos */
};

struct kernel_core {
	unsigned int blocks;
	kernel_chacha_fn fn;
};

/*
 * The kernel's routines an ISA level uses, widest first and terminated by
 * an entry with .blocks == 0; .needs is in CHACHA_CPU_* bits.
 */
struct kernel_impl {
	const char *name;
	unsigned int needs;
	struct kernel_core cores[5];
};

static const struct kernel_impl kernel_impls[] = {
	{ "kernel-ssse3", CHACHA_CPU_SSSE3, {
		{ 4, chacha_4block_xor_ssse3 },
		{ 1, chacha_block_xor_ssse3 },
	} },
	{ "kernel-avx2", CHACHA_CPU_SSSE3 | CHACHA_CPU_AVX2, {
		{ 8, chacha_8block_xor_avx2 },
		{ 4, chacha_4block_xor_avx2 },
		{ 2, chacha_2block_xor_avx2 },
		{ 1, chacha_block_xor_ssse3 },
	} },
};

/*
 * Something measured: a whole-request path (chacha_crypt_impl() or the
 * kernel's ladder) over every length, or one core alone over its stride.
 */
struct subject {
	char name[32];
	void (*call)(const struct subject *s, u32 *state, u8 *dst,
		     const u8 *src, unsigned int len, unsigned int nrounds);
	const struct chacha_impl *impl;
	const struct kernel_impl *kimpl;
	chacha_core_fn core;
	kernel_chacha_fn kcore;
	unsigned int core_bytes;	/* a core: the bytes one call XORs */
	bool simd;			/* a request path that uses SIMD */
	struct point res[NROUNDS][NLENS];	/* a core: res[r][0] */
};

#define MAX_SUBJECTS	32

static struct subject subjects[MAX_SUBJECTS];
static unsigned int nsubjects;

static u32 bench_state[CHACHA_STATE_WORDS];
static u8 *src_buf, *dst_buf;

static u64 timer_overhead;
static u64 calib_lo, calib_hi = ~0ULL;	/* readings outside: not full speed */

static unsigned int opt_reps = 512;
static unsigned int opt_slack = 5;
static unsigned int opt_fpu_cost;
static int opt_cpu = -1;
static const char *opt_csv;
static const char *opt_png;

/* ---- the kernel's ladder ---- */

/*
 * What the kernel's chacha_dosimd() does with one ISA level's routines:
 * whole strides of the widest, then one call of the narrowest routine whose
 * next narrower one would not cover the rest (that call handles the partial
 * tail itself); state[12] advances by the blocks begun.
 */
static void kernel_crypt(const struct kernel_impl *k, u32 *state, u8 *dst,
			 const u8 *src, unsigned int len, unsigned int nrounds)
{
	const struct kernel_core *c = k->cores;
	unsigned int stride = c->blocks * CHACHA_BLOCK_BYTES;

	while (len >= stride) {
		c->fn(state, dst, src, len, nrounds);
		state[12] += c->blocks;
		dst += stride;
		src += stride;
		len -= stride;
	}
	for (; len && c->blocks; c++) {
		unsigned int next = c[1].blocks * CHACHA_BLOCK_BYTES;

		if (len > next) {
			c->fn(state, dst, src, len, nrounds);
			state[12] += DIV_ROUND_UP(len, CHACHA_BLOCK_BYTES);
			return;
		}
	}
}

/* ---- the calls measured ---- */

static void call_impl(const struct subject *s, u32 *state, u8 *dst,
		      const u8 *src, unsigned int len, unsigned int nrounds)
{
	chacha_crypt_impl(s->impl, state, dst, src, len, nrounds);
}

static void call_kernel(const struct subject *s, u32 *state, u8 *dst,
			const u8 *src, unsigned int len, unsigned int nrounds)
{
	kernel_crypt(s->kimpl, state, dst, src, len, nrounds);
}

static void call_core(const struct subject *s, u32 *state, u8 *dst,
		      const u8 *src, unsigned int len, unsigned int nrounds)
{
	s->core(state, dst, src, nrounds);
}

static void call_kcore(const struct subject *s, u32 *state, u8 *dst,
		       const u8 *src, unsigned int len, unsigned int nrounds)
{
	s->kcore(state, dst, src, len, nrounds);
}

static struct subject *add_subject(const char *name)
{
	struct subject *s;

	if (nsubjects == MAX_SUBJECTS) {
		fprintf(stderr, "bench: too many subjects\n");
		exit(1);
	}
	s = &subjects[nsubjects++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

/* A core shared by two implementations is listed once, under the first. */
static void add_core(const char *impl, unsigned int blocks, chacha_core_fn fn,
		     kernel_chacha_fn kfn)
{
	struct subject *s;
	char name[32];
	unsigned int i;

	for (i = 0; i < nsubjects; i++)
		if ((fn && subjects[i].core == fn) ||
		    (kfn && subjects[i].kcore == kfn))
			return;
	snprintf(name, sizeof(name), "%s/%u-block", impl, blocks);
	s = add_subject(name);
	s->core = fn;
	s->kcore = kfn;
	s->call = fn ? call_core : call_kcore;
	s->core_bytes = blocks * CHACHA_BLOCK_BYTES;
}

static void report_skip(const char *name, const char *missing)
{
	printf("skipping %s: the CPU lacks %s\n", name, missing);
}

static void build_subjects(void)
{
	const struct chacha_core *c;
	const struct kernel_core *kc;
	const char *missing = "?";
	unsigned int i;
	struct subject *s;

	for (i = 0; i < chacha_nimpls; i++) {
		const struct chacha_impl *impl = &chacha_impls[i];

		if (!cpu_has_features(impl->needs, &missing)) {
			report_skip(impl->name, missing);
			continue;
		}
		s = add_subject(impl->name);
		s->impl = impl;
		s->call = call_impl;
		s->simd = impl->cores[0].blocks != 0;
	}
	for (i = 0; i < ARRAY_SIZE(kernel_impls); i++) {
		const struct kernel_impl *k = &kernel_impls[i];

		if (!cpu_has_features(k->needs, &missing)) {
			report_skip(k->name, missing);
			continue;
		}
		s = add_subject(k->name);
		s->kimpl = k;
		s->call = call_kernel;
		s->simd = true;
	}

	/* Then every core of those, alone. */
	for (i = 0; i < chacha_nimpls; i++) {
		if (!cpu_has_features(chacha_impls[i].needs, NULL))
			continue;
		for (c = chacha_impls[i].cores; c->blocks; c++)
			add_core(chacha_impls[i].name, c->blocks, c->fn, NULL);
	}
	for (i = 0; i < ARRAY_SIZE(kernel_impls); i++) {
		if (!cpu_has_features(kernel_impls[i].needs, NULL))
			continue;
		for (kc = kernel_impls[i].cores; kc->blocks; kc++)
			add_core(kernel_impls[i].name, kc->blocks, NULL,
				 kc->fn);
	}
}

/* ---- timing ---- */

static inline u64 tsc_read(void)
{
	u32 lo, hi;

	/* lfence keeps rdtsc from passing the work before it. */
	asm volatile("lfence\n\trdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return (u64)hi << 32 | lo;
}

/*
 * Fixed work much like ChaCha rounds on both kinds of register: four vector
 * chains of add, xor and shift, and two scalar chains of add, xor and
 * rotate.  A host thread sharing the core slows one or the other.
 */
static u64 calib_once(void)
{
	unsigned int n = CALIB_ITERS;
	u32 a = 1, b = 2, c = 3, d = 4;
	u64 t0, t1;

	t0 = tsc_read();
	asm volatile("1:\n\t"
		     "paddd %%xmm8, %%xmm0\n\t"
		     "paddd %%xmm8, %%xmm1\n\t"
		     "paddd %%xmm8, %%xmm2\n\t"
		     "paddd %%xmm8, %%xmm3\n\t"
		     "add %1, %2\n\t"
		     "add %3, %4\n\t"
		     "pxor %%xmm8, %%xmm0\n\t"
		     "pxor %%xmm8, %%xmm1\n\t"
		     "pxor %%xmm8, %%xmm2\n\t"
		     "pxor %%xmm8, %%xmm3\n\t"
		     "xor %2, %1\n\t"
		     "xor %4, %3\n\t"
		     "pslld $7, %%xmm0\n\t"
		     "pslld $7, %%xmm1\n\t"
		     "pslld $7, %%xmm2\n\t"
		     "pslld $7, %%xmm3\n\t"
		     "rol $7, %1\n\t"
		     "rol $7, %3\n\t"
		     "dec %0\n\t"
		     "jnz 1b"
		     : "+r" (n), "+r" (a), "+r" (b), "+r" (c), "+r" (d)
		     :
		     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm8", "cc");
	t1 = tsc_read();
	return t1 - t0;
}

/*
 * Whether the core runs at full speed right now: not slower than the
 * usual fast reading by more than the slack (the host takes throughput,
 * or another thread shares the core), and not faster than nearly all
 * readings (a clock boost or a timer glitch that the rest of the run may
 * not get).
 */
static bool calib_ok(void)
{
	u64 c = calib_once();

	return c >= calib_lo && c <= calib_hi;
}

static BENCH_NOINLINE u64 time_batch(const struct subject *s, unsigned int len,
				     unsigned int nrounds, unsigned int n)
{
	u32 state[CHACHA_STATE_WORDS];
	unsigned int i;
	u64 t0, t1;

	memcpy(state, bench_state, sizeof(state));
	t0 = tsc_read();
	for (i = 0; i < n; i++)
		s->call(s, state, dst_buf, src_buf, len, nrounds);
	t1 = tsc_read();
	return t1 - t0;
}

/* time_batch() with its frame (the state, any bounce buffer) moved down. */
static BENCH_NOINLINE u64 time_batch_at(const struct subject *s,
					unsigned int len, unsigned int nrounds,
					unsigned int n, unsigned int rep)
{
	u8 *pad = alloca(16 * (rep % STACK_STEPS) + 1);

	asm volatile("" : : "r" (pad) : "memory");
	return time_batch(s, len, nrounds, n);
}

/* Measure @reps batches and keep the best in @pt, which may hold one already. */
static void measure(const struct subject *s, unsigned int len,
		    unsigned int nrounds, unsigned int reps, struct point *pt)
{
	u64 one = ~0ULL, best = ~0ULL, t, start;
	unsigned int i, n, rep, redo;

	start = tsc_read();
	while (tsc_read() - start < WARM_CYCLES)
		time_batch(s, len, nrounds, 1);
	for (i = 0; i < 8; i++) {
		t = time_batch(s, len, nrounds, 1);
		if (t < one)
			one = t;
	}
	n = one ? BATCH_CYCLES / one : MAX_BATCH;
	n = n < 1 ? 1 : n > MAX_BATCH ? MAX_BATCH : n;

	for (rep = 0; rep < reps; rep++) {
		for (redo = 0; ; redo++) {
			bool ok = calib_ok();

			t = time_batch_at(s, len, nrounds, n, rep);
			if (calib_ok() && ok)
				break;
			if (redo == MAX_REDO) {
				pt->forced++;
				break;
			}
			pt->redone++;
		}
		if (t < best)
			best = t;
	}
	best = best > timer_overhead ? best - timer_overhead : 0;
	if (!pt->cycles || (double)best / n < pt->cycles)
		pt->cycles = (double)best / n;
}

static void measure_overhead(void)
{
	struct subject *s = &subjects[0];
	unsigned int i;
	u64 t;

	timer_overhead = ~0ULL;
	for (i = 0; i < 1000; i++) {
		t = time_batch(s, 0, 20, 0);
		if (t < timer_overhead)
			timer_overhead = t;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Bring the core up to speed, then set the calibration band from many
 * readings: at most the slack above the 10th percentile, at least the 1st.
 */
static void warm_up(void)
{
	static u64 readings[CALIB_READINGS];
	struct timespec t0, t;
	unsigned int i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		calib_once();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		 (t.tv_nsec - t0.tv_nsec) < WARM_NS);
	for (i = 0; i < CALIB_READINGS; i++)
		readings[i] = calib_once();
	qsort(readings, CALIB_READINGS, sizeof(readings[0]), cmp_u64);
	calib_lo = readings[CALIB_READINGS / 100];
	calib_hi = readings[CALIB_READINGS / 10] * (100 + opt_slack) / 100;
}

/* ---- set-up ---- */

static void pin_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("bench: sched_getaffinity");
		exit(1);
	}
	if (opt_cpu < 0) {
		/* The last CPU allowed: CPU 0 tends to take the interrupts. */
		for (cpu = CPU_SETSIZE - 1; cpu > 0; cpu--)
			if (CPU_ISSET(cpu, &set))
				break;
		opt_cpu = cpu;
	}
	CPU_ZERO(&set);
	CPU_SET(opt_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("bench: sched_setaffinity");
		exit(1);
	}
}

static u8 *page_buffer(void)
{
	void *p;

	if (posix_memalign(&p, 4096, MAX_LEN)) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	return p;
}

static void setup_buffers(void)
{
	static const u8 iv[CHACHA_IV_BYTES] = { 1, 0, 0, 0, 9, 9, 9, 9 };
	u32 key[CHACHA_KEY_BYTES / 4];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(key); i++)
		key[i] = 0x01010101 * (i + 1);
	chacha_init_state(bench_state, key, iv);

	src_buf = page_buffer();
	dst_buf = page_buffer();
	for (i = 0; i < MAX_LEN; i++)
		src_buf[i] = i * 7 + (i >> 8);
	memset(dst_buf, 0, MAX_LEN);
}

/*
 * Numbers of an implementation that computes something else mean nothing:
 * compare every subject with scalar once, and say so if they differ.
 */
static void cross_check(void)
{
	u8 *want = page_buffer();
	u32 st_want[CHACHA_STATE_WORDS], st[CHACHA_STATE_WORDS];
	unsigned int i, l, len, bad = 0;

	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];

		for (l = 0; l < NLENS; l++) {
			len = s->core_bytes ? s->core_bytes : bench_lens[l];
			memcpy(st_want, bench_state, sizeof(st_want));
			memcpy(st, bench_state, sizeof(st));
			chacha_crypt_impl(&chacha_impls[0], st_want, want,
					  src_buf, len, 20);
			memset(dst_buf, 0, MAX_LEN);
			s->call(s, st, dst_buf, src_buf, len, 20);
			if (s->core_bytes)
				st[12] = st_want[12];
			if (memcmp(dst_buf, want, len) ||
			    memcmp(st, st_want, sizeof(st))) {
				printf("WARNING: %s differs from scalar at %u bytes\n",
				       s->name, len);
				bad++;
			}
			if (s->core_bytes)
				break;
		}
	}
	if (bad)
		printf("WARNING: the numbers of those mean nothing\n");
	else
		printf("cross-check: every implementation matches scalar\n");
	free(want);
}

/* ---- output ---- */

static const struct subject *find_subject(const char *name)
{
	unsigned int i;

	for (i = 0; i < nsubjects; i++)
		if (!subjects[i].core_bytes && !strcmp(subjects[i].name, name))
			return &subjects[i];
	return NULL;
}

static int col_width(const struct subject *s)
{
	int w = strlen(s->name) + 2;

	return w < 10 ? 10 : w;
}

static void print_table(unsigned int r, bool per_byte)
{
	unsigned int i, l;

	printf("\n%u rounds, TSC cycles per %s\n", bench_rounds[r],
	       per_byte ? "byte" : "call");
	printf("%7s", "bytes");
	for (i = 0; i < nsubjects; i++)
		if (!subjects[i].core_bytes)
			printf("%*s", col_width(&subjects[i]), subjects[i].name);
	printf("\n");
	for (l = 0; l < NLENS; l++) {
		printf("%7u", bench_lens[l]);
		for (i = 0; i < nsubjects; i++) {
			const struct subject *s = &subjects[i];
			double c = s->res[r][l].cycles;

			if (s->core_bytes)
				continue;
			if (per_byte)
				printf("%*.2f", col_width(s), c / bench_lens[l]);
			else
				printf("%*.0f", col_width(s), c);
		}
		printf("\n");
	}
}

static void print_cores(void)
{
	unsigned int i, r;

	printf("\nEach core alone, one call over its stride: TSC cycles per call (per byte)\n");
	printf("%-24s%7s", "core", "bytes");
	for (r = 0; r < NROUNDS; r++)
		printf("   %9u rounds", bench_rounds[r]);
	printf("\n");
	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];

		if (!s->core_bytes)
			continue;
		printf("%-24s%7u", s->name, s->core_bytes);
		for (r = 0; r < NROUNDS; r++)
			printf("   %7.0f (%5.2f)", s->res[r][0].cycles,
			       s->res[r][0].cycles / s->core_bytes);
		printf("\n");
	}
}

/* Ours against the kernel's, for each ISA level both have. */
static void print_ratios(void)
{
	const struct subject *ours[ARRAY_SIZE(kernel_impls)];
	const struct subject *theirs[ARRAY_SIZE(kernel_impls)];
	unsigned int i, l, r, n = 0;

	for (i = 0; i < ARRAY_SIZE(kernel_impls); i++) {
		const char *kname = kernel_impls[i].name;
		const struct subject *k = find_subject(kname);
		const struct subject *o = find_subject(strchr(kname, '-') + 1);

		if (k && o) {
			ours[n] = o;
			theirs[n++] = k;
		}
	}
	if (!n)
		return;
	printf("\nOurs / kernel's, cycles per call (below 1: ours is faster)\n");
	printf("%7s", "bytes");
	for (r = 0; r < NROUNDS; r++)
		for (i = 0; i < n; i++)
			printf("%10s/%-2u", ours[i]->name, bench_rounds[r]);
	printf("\n");
	for (l = 0; l < NLENS; l++) {
		printf("%7u", bench_lens[l]);
		for (r = 0; r < NROUNDS; r++)
			for (i = 0; i < n; i++)
				printf("%13.3f", ours[i]->res[r][l].cycles /
				       theirs[i]->res[r][l].cycles);
		printf("\n");
	}
}

/* Whether @s, charged @fpu cycles a call, beats scalar at length index @l. */
static bool simd_wins(const struct subject *s, const struct subject *scalar,
		      unsigned int r, unsigned int l, unsigned int fpu)
{
	return s->res[r][l].cycles + fpu < scalar->res[r][l].cycles;
}

static void print_crossover(void)
{
	const struct subject *scalar = find_subject(chacha_impls[0].name);
	unsigned int costs[ARRAY_SIZE(fpu_costs) + 1];
	unsigned int i, j, l, r, first, ncosts = ARRAY_SIZE(fpu_costs);
	char cell[32];

	if (!scalar)
		return;
	memcpy(costs, fpu_costs, sizeof(fpu_costs));
	for (j = 0; j < ncosts && costs[j] != opt_fpu_cost; j++)
		;
	if (j == ncosts)
		costs[ncosts++] = opt_fpu_cost;

	printf("\nCrossover: the smallest measured length at which SIMD beats scalar, each\n"
	       "SIMD call charged F more cycles for kernel_fpu_begin/end (--fpu-cost);\n"
	       "\"-\": never; \"(loses at N)\": scalar wins again at the longer length N\n");
#ifdef GLUE_SIMD_MIN_BYTES
	printf("(chacha20_glue.c runs SIMD from CHACHA_SIMD_MIN_BYTES = %u bytes)\n",
	       GLUE_SIMD_MIN_BYTES);
#endif
	printf("%-14s%7s", "", "rounds");
	for (j = 0; j < ncosts; j++) {
		snprintf(cell, sizeof(cell), "F=%u", costs[j]);
		printf("%20s", cell);
	}
	printf("\n");
	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];

		if (s->core_bytes || !s->simd)
			continue;
		for (r = 0; r < NROUNDS; r++) {
			printf("%-14s%7u", s->name, bench_rounds[r]);
			for (j = 0; j < ncosts; j++) {
				for (l = 0; l < NLENS; l++)
					if (simd_wins(s, scalar, r, l, costs[j]))
						break;
				if (l == NLENS) {
					printf("%20s", "-");
					continue;
				}
				first = l;
				for (; l < NLENS; l++)
					if (!simd_wins(s, scalar, r, l, costs[j]))
						break;
				if (l < NLENS)
					snprintf(cell, sizeof(cell),
						 " %u (loses at %u)",
						 bench_lens[first],
						 bench_lens[l]);
				else
					snprintf(cell, sizeof(cell), "%u",
						 bench_lens[first]);
				printf("%20s", cell);
			}
			printf("\n");
		}
	}
}

static void write_csv(const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i, l, r;

	if (!f) {
		perror(path);
		return;
	}
	fprintf(f, "kind,name,rounds,bytes,cycles_per_call,cycles_per_byte,redone,forced\n");
	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];

		for (r = 0; r < NROUNDS; r++) {
			for (l = 0; l < NLENS; l++) {
				const struct point *p = &s->res[r][l];
				unsigned int len = s->core_bytes ?: bench_lens[l];

				fprintf(f, "%s,%s,%u,%u,%.1f,%.4f,%u,%u\n",
					s->core_bytes ? "core" : "crypt",
					s->name, bench_rounds[r], len,
					p->cycles, p->cycles / len, p->redone,
					p->forced);
				if (s->core_bytes)
					break;
			}
		}
	}
	if (fclose(f))
		perror(path);
	else
		printf("\nCSV: %s\n", path);
}

/* Ours solid, the kernel's dashed in the same colour. */
static const char *plot_colour(const char *name)
{
	static const char * const names[] = { "scalar", "sse2", "ssse3", "avx2" };
	static const char * const colours[] = {
		"black", "dark-green", "blue", "red", "dark-violet"
	};
	unsigned int i;

	if (!strncmp(name, "kernel-", 7))
		name += 7;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			break;
	return colours[i];
}

static void write_png(const char *path)
{
	FILE *gp = popen("gnuplot", "w");
	unsigned int i, l, r;
	int status;

	if (!gp) {
		perror("bench: gnuplot");
		return;
	}
	fprintf(gp, "set terminal pngcairo size 1000,1300 font ',10'\n");
	fprintf(gp, "set output '%s'\n", path);
	fprintf(gp, "set multiplot layout 2,1 title 'ChaCha, TSC cycles per byte %s'\n",
		"(solid: ours, dashed: the kernel''s assembly)");
	fprintf(gp, "set logscale xy 2\nset grid xtics ytics mytics\n");
	fprintf(gp, "set xlabel 'bytes per call'\nset ylabel 'TSC cycles per byte'\n");
	fprintf(gp, "set xtics (");
	for (l = 0; l < NLENS; l++)
		fprintf(gp, "%s%u", l ? ", " : "", bench_lens[l]);
	fprintf(gp, ") rotate by -45\nset xrange [%u:%u]\n", bench_lens[0] * 3 / 4,
		MAX_LEN * 3 / 2);
	fprintf(gp, "set key outside right top\n");
#ifdef GLUE_SIMD_MIN_BYTES
	/* Where chacha20_glue.c starts to use SIMD. */
	fprintf(gp, "set arrow from %u, graph 0 to %u, graph 1 nohead dt 3\n",
		GLUE_SIMD_MIN_BYTES, GLUE_SIMD_MIN_BYTES);
	fprintf(gp, "set label 'CHACHA_SIMD_MIN_BYTES' noenhanced at %u, graph 0.97",
		GLUE_SIMD_MIN_BYTES);
	fprintf(gp, " rotate by 90 right font ',8' offset -0.6, 0\n");
#endif
	for (r = 0; r < NROUNDS; r++) {
		fprintf(gp, "$d%u << EOD\n", bench_rounds[r]);
		for (l = 0; l < NLENS; l++) {
			fprintf(gp, "%u", bench_lens[l]);
			for (i = 0; i < nsubjects; i++)
				if (!subjects[i].core_bytes)
					fprintf(gp, " %.4f",
						subjects[i].res[r][l].cycles /
						bench_lens[l]);
			fprintf(gp, "\n");
		}
		fprintf(gp, "EOD\n");
	}
	for (r = 0; r < NROUNDS; r++) {
		unsigned int col = 2;

		fprintf(gp, "set title '%u rounds'\nplot ", bench_rounds[r]);
		for (i = 0; i < nsubjects; i++) {
			const struct subject *s = &subjects[i];

			if (s->core_bytes)
				continue;
			fprintf(gp, "%s$d%u using 1:%u with linespoints lw 2",
				col > 2 ? ", " : "", bench_rounds[r], col);
			fprintf(gp, " lc rgb '%s' dt %d title '%s'",
				plot_colour(s->name), s->kimpl ? 2 : 1,
				s->name);
			col++;
		}
		fprintf(gp, "\n");
	}
	fprintf(gp, "unset multiplot\n");
	status = pclose(gp);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status))
		printf("no PNG: gnuplot failed or is missing %s\n",
		       "(Debian: apt-get install gnuplot-nox)");
	else
		printf("PNG: %s\n", path);
}

static void cpu_model(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, size, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(buf, size, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = 0;
			break;
		}
	}
	fclose(f);
}

/* The one-minute load average: other work on the VM shows in the numbers. */
static double load_average(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load = 0;

	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = 0;
		fclose(f);
	}
	return load;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: bench [options]\n"
		"  --reps N        batches per point, the best one counts (default 512)\n"
		"  --slack PCT     redo a batch when a calibration reads more than PCT%%\n"
		"                  slower than the 10th percentile at start-up\n"
		"                  (default 5)\n"
		"  --fpu-cost C    TSC cycles of a kernel_fpu_begin/end pair, added to\n"
		"                  every SIMD call for the crossover (default 0; 0, 100\n"
		"                  and 300 are always shown)\n"
		"  --cpu N         the CPU to pin to (default: the last one allowed)\n"
		"  --csv FILE      write every point as CSV\n"
		"  --png FILE      plot cycles per byte with gnuplot\n");
}

static unsigned int parse_uint(const char *opt, const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);

	if (!*arg || *end || v > 1000000000UL) {
		fprintf(stderr, "bench: bad %s: %s\n", opt, arg);
		exit(2);
	}
	return v;
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "slack", required_argument, NULL, 's' },
		{ "fpu-cost", required_argument, NULL, 'f' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "csv", required_argument, NULL, 'o' },
		{ "png", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			opt_reps = parse_uint("--reps", optarg) ?: 1;
			break;
		case 's':
			opt_slack = parse_uint("--slack", optarg);
			break;
		case 'f':
			opt_fpu_cost = parse_uint("--fpu-cost", optarg);
			break;
		case 'c':
			opt_cpu = parse_uint("--cpu", optarg);
			break;
		case 'o':
			opt_csv = optarg;
			break;
		case 'p':
			opt_png = optarg;
			break;
		case 'h':
			print_help(stdout);
			exit(0);
		default:
			print_help(stderr);
			exit(2);
		}
	}
	if (optind < argc) {
		print_help(stderr);
		exit(2);
	}
	opt_reps = DIV_ROUND_UP(opt_reps, PASSES) * PASSES;
}

int main(int argc, char **argv)
{
	unsigned int i, l, r, pass, redone = 0, forced = 0, npoints = 0;
	struct timespec t0, t1;
	char model[128];
	double load;

	parse_args(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	pin_cpu();
	cpu_model(model, sizeof(model));
	setup_buffers();
	build_subjects();

	printf("CPU %d: %s\n", opt_cpu, model);
#ifdef KERNEL_ASM_FROM
	printf("kernel assembly: %s\n", KERNEL_ASM_FROM);
#endif
	cross_check();

	clock_gettime(CLOCK_MONOTONIC, &t0);
	warm_up();
	measure_overhead();
	/*
	 * Several passes, each over everything and the subjects side by side
	 * at each length, so that a slow spell of the host hits one pass of
	 * many points rather than every batch of one.
	 */
	for (pass = 0; pass < PASSES; pass++) {
		for (r = 0; r < NROUNDS; r++) {
			for (l = 0; l < NLENS; l++) {
				for (i = 0; i < nsubjects; i++) {
					struct subject *s = &subjects[i];

					if (s->core_bytes && l)
						continue;
					measure(s, s->core_bytes ?: bench_lens[l],
						bench_rounds[r], opt_reps / PASSES,
						&s->res[r][l]);
				}
			}
		}
	}
	for (i = 0; i < nsubjects; i++) {
		for (r = 0; r < NROUNDS; r++) {
			for (l = 0; l < NLENS; l++) {
				redone += subjects[i].res[r][l].redone;
				forced += subjects[i].res[r][l].forced;
				npoints++;
				if (subjects[i].core_bytes)
					break;
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	printf("%u points, best of %u batches each, in %.1f s; timer overhead %llu cycles\n",
	       npoints, opt_reps,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       (unsigned long long)timer_overhead);
	printf("calibration: %u batches redone (a reading outside %llu..%llu cycles),",
	       redone, (unsigned long long)calib_lo,
	       (unsigned long long)calib_hi);
	printf(" %u taken anyway\n", forced);
	load = load_average();
	if (load > 0.5)
		printf("note: load average %.1f: other work ran beside us, expect noise\n",
		       load);

	for (r = 0; r < NROUNDS; r++) {
		print_table(r, true);
		print_table(r, false);
	}
	print_cores();
	print_ratios();
	print_crossover();
	if (opt_csv)
		write_csv(opt_csv);
	if (opt_png)
		write_png(opt_png);
	return 0;
}
