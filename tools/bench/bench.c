// SPDX-License-Identifier: GPL-2.0
/*
 * User-space benchmark of what the module runs, beside every peer:
 *
 *   module-<impl>        chacha_crypt_request(), the module's request path,
 *                        for every implementation the CPU runs, with the
 *                        scalar/SIMD choices chacha_calibrate() makes here
 *                        and --fpu-cost F cycles charged per SIMD section
 *   core-<impl>-<n>      each of the module's cores alone, one call
 *   kernel-<tier>        the kernel's own chacha-{ssse3,avx2,avx512vl}
 *                        assembly (linux-source-6.12), driven as the
 *                        kernel's chacha_dosimd() drives it, F per section
 *   kernel7-<tier>       Linux 6.16+'s chacha20-lib (7.3's
 *                        chacha_crypt_arch()): per walk step, generic C up
 *                        to 64 bytes, else the same assembly (unchanged in
 *                        7.3's lib/crypto/x86) the same way, F per section
 *   openssl, openssl-noavx512, libsodium, libgcrypt
 *                        Debian's libraries, F per 4 KiB as well
 *
 * and ChaCha20-Poly1305, encrypting and decrypting, with --aead-ad bytes
 * of AD:
 *
 *   module-<impl>-aead   the module's AEAD request (chachapoly_start(), _ad(),
 *                        _crypt() per page, the last one writing the tag)
 *                        on every ChaCha implementation the CPU runs with
 *                        the Poly1305 the glue would choose;
 *                        module-<impl>-aead-<poly>, the
 *                        default implementation with each other Poly1305
 *   kernel-aead-<tier>, kernel7-aead-<tier>
 *                        the kernel's rfc7539 template's work, re-created:
 *                        the key block and the text through the kernel*-<tier>
 *                        path, then the kernel's own Poly1305 assembly
 *                        (poly1305-x86_64-cryptogams) as its glue drives it
 *   openssl-aead, libsodium-aead, libgcrypt-aead
 *                        the libraries, F per 4 KiB
 *
 * Each module-* and kernel*-* row also comes as <row>@kernel: the same
 * code built with the flags Kbuild uses for the module against a
 * distribution kernel (auto-initialised stack, retpolines, return thunks,
 * no red zone, ...), calling the thunks this machine's kernel patches in
 * (paths.c, kthunks-x86_64.S, kflags.sh).
 *
 * It prints TSC cycles per byte, GB/s and ratios; for the AEAD rows the
 * cycles per packet of an IMIX, the @kernel rows' cycles over their plain
 * builds and the call sites on their request paths (calls.sh); then a
 * TARGET line per line of the targets file (tools/bench/targets, read at
 * run time, --targets); and writes Markdown, CSV and a PNG plot.  It
 * checks nothing (beyond a warning when a subject disagrees with scalar
 * C, or an AEAD row with libsodium, which would make its numbers
 * meaningless).
 *
 * Method: pinned to one CPU, page-aligned buffers, a warm-up per point,
 * then the best of many batches of calls, gathered in several passes over
 * all points with the subjects side by side at each length.  Each batch
 * sits between two short calibration loops and is redone when either reads
 * slow (the host takes throughput without showing steal time) or
 * implausibly fast; each repetition moves the stack by 16 bytes so that no
 * single stack position decides the result through 4K aliasing.
 */
#define _GNU_SOURCE
#include <alloca.h>
#include <cpuid.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <linux/compiler_attributes.h>
#include <linux/kernel.h>

#include "chacha20_core.h"
#include "kernel_chacha.h"
#include "kthunks.h"
#include "paths.h"
#include "peers.h"
#include "testutil.h"
#include "vectors-testmgr-aead.h"

#ifndef __x86_64__
#error "the benchmark reads the x86 TSC"
#endif

/* Neither inlined nor specialised: a frame of its own, where alloca() put it. */
#define BENCH_NOINLINE	__attribute__((__noipa__))

static const unsigned int bench_lens[] = {
	16, 64, 128, 256, 512, 576, 1024, 1420, 4096, 16384, 65536
};

#define NLENS		ARRAY_SIZE(bench_lens)
#define MAX_LEN		65536

/*
 * IMIX, for the AEAD rows: 7 x 64, 4 x 576 and 1 x 1420 byte requests
 * with 8 bytes of AD, in a fixed interleaved order; res[IMIX] holds the
 * cycles per packet, measure() takes it as length IMIX_LEN.
 */
#define IMIX		NLENS
#define IMIX_LEN	UINT_MAX
#define IMIX_AD		8
#define IMIX_PACKETS	12
static const unsigned int imix_lens[] = { 64, 576, 1420 };
static const u8 imix_order[IMIX_PACKETS] = {
	0, 1, 0, 0, 1, 0, 2, 0, 1, 0, 0, 1
};

/* The kernel's skcipher walks a page at a time, one SIMD section each. */
#define SECTION_BYTES	BENCH_SECTION_BYTES

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

/* Kernel tiers need these, beyond CHACHA_CPU_* (checked with cpuid). */
#define KNEEDS_SSSE3	BIT(0)
#define KNEEDS_AVX2	BIT(1)
#define KNEEDS_AVX512VL	BIT(2)	/* AVX512VL and AVX512BW, as the kernel asks */

/*
 * The kernel's routines of one tier, widest first and terminated by an
 * entry with .blocks == 0, in the order chacha_dosimd() tries them.
 */
struct kernel_impl {
	const char *name;
	unsigned int needs;
	struct kernel_core cores[5];
};

static const struct kernel_impl kernel_impls[] = {
	{ "kernel-ssse3", KNEEDS_SSSE3, {
		{ 4, chacha_4block_xor_ssse3 },
		{ 1, chacha_block_xor_ssse3 },
	} },
	{ "kernel-avx2", KNEEDS_SSSE3 | KNEEDS_AVX2, {
		{ 8, chacha_8block_xor_avx2 },
		{ 4, chacha_4block_xor_avx2 },
		{ 2, chacha_2block_xor_avx2 },
		{ 1, chacha_block_xor_ssse3 },
	} },
	{ "kernel-avx512vl", KNEEDS_SSSE3 | KNEEDS_AVX2 | KNEEDS_AVX512VL, {
		{ 8, chacha_8block_xor_avx512vl },
		{ 4, chacha_4block_xor_avx512vl },
		{ 2, chacha_2block_xor_avx512vl },
	} },
};

/* A*: ChaCha20-Poly1305 rows, one subject per direction. */
enum kind { MODULE, KERNEL, PEER, CORE, KCORE, AMODULE, AKERNEL, APEER };

/*
 * Something measured: a request path (the module's, the kernel's, a
 * library) over every length, or one core alone over its stride; or an
 * AEAD request path, encrypting or decrypting, over every length.
 */
struct subject {
	char name[40];
	enum kind kind;
	void (*call)(const struct subject *s, u32 *state, u8 *dst,
		     const u8 *src, unsigned int len);
	const struct bench_paths *paths;	/* module and kernel rows */
	const char *suffix;		/* "" or "@kernel" */
	const struct chacha_impl *impl;
	const struct kernel_impl *kimpl;
	unsigned int tier;		/* kernel rows: BENCH_TIER_* */
	unsigned int peer;
	chacha_core_fn core;
	kernel_chacha_fn kcore;
	unsigned int core_bytes;	/* a core: the bytes one call XORs */
	struct chacha_calibration cal;	/* a module row: its choices */
	const struct poly1305_impl *poly;	/* AEAD module rows */
	unsigned int ptier;		/* AEAD rows: the kernel's BENCH_POLY_* */
	bool v7;			/* AEAD kernel rows: 7.3's */
	bool decrypt;			/* AEAD rows */
	struct point res[NLENS + 1];	/* a core: res[0]; AEAD: res[IMIX] */
};

#define MAX_SUBJECTS	192

static struct subject subjects[MAX_SUBJECTS];
static unsigned int nsubjects;

static u32 bench_state[CHACHA_STATE_WORDS];
static u8 bench_key[CHACHA_KEY_BYTES];
static const u8 bench_iv[CHACHA_IV_BYTES] = { 1, 0, 0, 0, 9, 9, 9, 9 };
static u8 *src_buf, *dst_buf;

/*
 * The AEAD's messages: bench_key, the IV's 12 nonce bytes, --aead-ad
 * bytes of AD.  Decrypting rows read ct_buf, libsodium's ciphertext of
 * src_buf (a prefix for every length), and check libsodium's tag of
 * their length.
 */
#define MAX_AEAD_AD	1024
static unsigned int opt_aead_ad = 20;
/* --in-place: decrypting rows copy the ciphertext to dst, then work there. */
static bool opt_in_place;
static u8 aead_ad[MAX_AEAD_AD];
static u32 aead_key[CHACHA_KEY_BYTES / 4];
static u8 *ct_buf;
static u8 aead_tags[NLENS][CHACHAPOLY_TAG_BYTES];
static u8 aead_tag[CHACHAPOLY_TAG_BYTES];	/* what encrypting rows write */
static u8 imix_tags[ARRAY_SIZE(imix_lens)][CHACHAPOLY_TAG_BYTES];
static struct bench_aead aead_req = {
	.key = aead_key,
	.nonce = bench_iv + 4,
	.ad = aead_ad,
	.tag = aead_tag,
};

/* The last AEAD call's verdict; calls whose tag did not match. */
static bool aead_ok;
static unsigned int aead_rejected;

static u64 timer_overhead;
static u64 calib_lo, calib_hi = ~0ULL;	/* readings outside: not full speed */
static double tsc_hz, core_hz;

static unsigned int opt_reps = 512;
static unsigned int opt_slack = 5;
static unsigned int opt_fpu_cost = 100;
static unsigned int opt_rounds = 20;
static int opt_cpu = -1;
static int opt_scalar_max = -1, opt_scalar_tail = -1;	/* -1: calibrate */
/* --stride IMPL:BLOCKS, forced after calibration */
#define MAX_STRIDE_OPTS	8
static struct {
	char impl[16];
	unsigned int blocks;
} opt_strides[MAX_STRIDE_OPTS];
static unsigned int opt_nstrides;
static const char *opt_csv, *opt_png, *opt_md, *opt_commit;
static const char *opt_ind, *opt_ret;	/* NULL: this machine's (auto) */
static char mitigations_why[1024];
static FILE *md_file;

static inline u64 tsc_read(void);

static bool is_aead(const struct subject *s)
{
	return s->kind == AMODULE || s->kind == AKERNEL || s->kind == APEER;
}

/* ---- the calls measured ---- */

static void call_module(const struct subject *s, u32 *state, u8 *dst,
			const u8 *src, unsigned int len)
{
	s->paths->crypt_request(s->impl, state, dst, src, len, opt_rounds,
				true);
}

/*
 * Before a module row's calls: its implementation's choices
 * (chacha_scalar_*_bytes) in its build.  The price of a SIMD section is
 * the same for every row, set once per build (setup_paths()).  Before an
 * AEAD row's calls of @len bytes: the AD's length and the tag, the one to
 * check for that length when decrypting.
 */
static void prepare(const struct subject *s, unsigned int len)
{
	unsigned int l;

	if (s->kind == MODULE || s->kind == AMODULE)
		s->paths->set_choices(opt_fpu_cost, s->cal.scalar_max_bytes,
				      s->cal.scalar_tail_bytes);
	aead_req.adlen = len == IMIX_LEN ? IMIX_AD : opt_aead_ad;
	aead_req.tag = aead_tag;
	for (l = 0; s->decrypt && l < NLENS; l++)
		if (bench_lens[l] == len)
			aead_req.tag = aead_tags[l];
}

/* The kernel's skcipher: 6.12's, or 6.16+'s chacha20-lib (kernel7-*). */
static void call_kernel7(const struct subject *s, u32 *state, u8 *dst,
			 const u8 *src, unsigned int len)
{
	s->paths->kernel_walk(s->tier, true, state, dst, src, len, opt_rounds);
}

static void call_kernel(const struct subject *s, u32 *state, u8 *dst,
			const u8 *src, unsigned int len)
{
	s->paths->kernel_walk(s->tier, false, state, dst, src, len,
			      opt_rounds);
}

/* A library, charged as if it ran in the kernel's sections. */
static void call_peer(const struct subject *s, u32 *state, u8 *dst,
		      const u8 *src, unsigned int len)
{
	unsigned int n;

	for (n = 0; n < len; n += SECTION_BYTES)
		bench_plain.fpu_charge();
	peer_crypt(s->peer, dst, src, len);
}

/*
 * The ciphertext a decrypting row reads: ct_buf; with --in-place, a copy
 * of it in @dst, as IPsec decrypts.  Every row pays the same copy.
 */
static const u8 *aead_src(const struct subject *s, u8 *dst, const u8 *src,
			  unsigned int len)
{
	if (!s->decrypt)
		return src;
	if (!opt_in_place)
		return ct_buf;
	memcpy(dst, ct_buf, len);
	return dst;
}

/*
 * The AEAD rows: the module's request, the kernel's template re-created,
 * a library (charged F per 4 KiB as call_peer() is).  Decrypting rows
 * take the ciphertext from aead_src().
 */
static void call_amodule(const struct subject *s, u32 *state, u8 *dst,
			 const u8 *src, unsigned int len)
{
	s->paths->set_lib_poly(s->ptier);
	aead_ok = s->paths->aead(s->impl, s->poly, &aead_req, dst,
				 aead_src(s, dst, src, len), len, s->decrypt);
	aead_rejected += !aead_ok;
}

static void call_akernel(const struct subject *s, u32 *state, u8 *dst,
			 const u8 *src, unsigned int len)
{
	aead_ok = s->paths->kernel_aead(s->tier, s->ptier, s->v7, &aead_req,
					dst, aead_src(s, dst, src, len), len,
					s->decrypt);
	aead_rejected += !aead_ok;
}

static void call_apeer(const struct subject *s, u32 *state, u8 *dst,
		       const u8 *src, unsigned int len)
{
	const u8 *in = aead_src(s, dst, src, len);
	unsigned int n;

	for (n = 0; n < len; n += SECTION_BYTES)
		bench_plain.fpu_charge();
	aead_ok = !peer_aead(s->peer, s->decrypt, dst, in, len, aead_ad,
			     aead_req.adlen, aead_req.tag);
	aead_rejected += !aead_ok;
}

static void call_core(const struct subject *s, u32 *state, u8 *dst,
		      const u8 *src, unsigned int len)
{
	s->core(state, dst, src, opt_rounds);
}

static void call_kcore(const struct subject *s, u32 *state, u8 *dst,
		       const u8 *src, unsigned int len)
{
	s->kcore(state, dst, src, len, opt_rounds);
}

/* An AEAD row's IMIX: its 12 requests, each decrypting one with its tag. */
static void call_imix(const struct subject *s, u32 *state, u8 *dst,
		      const u8 *src, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < IMIX_PACKETS; i++) {
		if (s->decrypt)
			aead_req.tag = imix_tags[imix_order[i]];
		s->call(s, state, dst, src, imix_lens[imix_order[i]]);
	}
}

static struct subject *add_subject(enum kind kind, const char *fmt, ...)
{
	struct subject *s;
	va_list ap;

	if (nsubjects == MAX_SUBJECTS) {
		fprintf(stderr, "bench: too many subjects\n");
		exit(1);
	}
	s = &subjects[nsubjects++];
	s->kind = kind;
	s->suffix = "";
	va_start(ap, fmt);
	vsnprintf(s->name, sizeof(s->name), fmt, ap);
	va_end(ap);
	return s;
}

/*
 * A core shared by two implementations is listed once, under the first.
 * A core alone leaves the state alone, so it misses what a whole request
 * pays after its caller stores state[12] right before each call: a core
 * that read the counter row with one 16-byte load could not have it
 * forwarded from the 4-byte store, and would wait for the store to
 * retire.  The module's cores read that row word by word (movd, pinsrd,
 * movq; vpbroadcastd in the 8-block core), which forwards.
 */
static void add_core(const char *impl, unsigned int blocks, chacha_core_fn fn,
		     kernel_chacha_fn kfn)
{
	struct subject *s;
	unsigned int i;

	for (i = 0; i < nsubjects; i++)
		if ((fn && subjects[i].core == fn) ||
		    (kfn && subjects[i].kcore == kfn))
			return;
	if (fn) {
		s = add_subject(CORE, "core-%s-%u", impl, blocks);
		s->core = fn;
		s->call = call_core;
	} else {
		s = add_subject(KCORE, "%s-%u", impl, blocks);
		s->kcore = kfn;
		s->call = call_kcore;
	}
	s->core_bytes = blocks * CHACHA_BLOCK_BYTES;
}

static bool kernel_runs(const struct kernel_impl *k, const char **missing)
{
	__builtin_cpu_init();
	if ((k->needs & KNEEDS_SSSE3) && !__builtin_cpu_supports("ssse3"))
		*missing = "SSSE3";
	else if ((k->needs & KNEEDS_AVX2) && !__builtin_cpu_supports("avx2"))
		*missing = "AVX2";
	else if ((k->needs & KNEEDS_AVX512VL) &&
		 (!__builtin_cpu_supports("avx512vl") ||
		  !__builtin_cpu_supports("avx512bw")))
		*missing = "AVX512VL/BW";
	else
		return true;
	return false;
}

/* The model of an Intel family 6 CPU, or 0 for any other. */
static unsigned int intel_family6_model(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0, &a, &b, &c, &d) || b != 0x756e6547) /* "Genu" */
		return 0;
	__get_cpuid(1, &a, &b, &c, &d);
	if (((a >> 8) & 0xf) != 6)
		return 0;
	return ((a >> 4) & 0xf) | ((a >> 12) & 0xf0);
}

/*
 * Whether the module's zmm policy (chacha20_policy.c: chacha_prefer_zmm(),
 * the kernel's zmm_exclusion_list) allows an implementation that prefers
 * zmm (@prefer, a chacha_impl's or a poly1305_impl's): everywhere but
 * these Intel family 6 models (Skylake-X/SP, Ice Lake, Tiger Lake).
 */
static const unsigned int zmm_excluded[] = {
	0x55, 0x6a, 0x6c, 0x7d, 0x7e, 0x9d, 0x8c, 0x8d,
};

static bool prefer_ok(unsigned int prefer)
{
	unsigned int i, model;

	if (!(prefer & CHACHA_CPU_PREFER_ZMM))
		return true;
	model = intel_family6_model();
	for (i = 0; model && i < ARRAY_SIZE(zmm_excluded); i++)
		if (model == zmm_excluded[i])
			return false;
	return true;
}

static bool is_avx512(const struct subject *s)
{
	return s->kind == MODULE && !strncmp(s->impl->name, "avx512", 6);
}

/* The builds of the request paths: the benchmark's flags, the kernel's. */
static const struct bench_paths *const all_paths[] = {
	&bench_plain,
#ifdef BENCH_WITH_KERNEL
	&bench_kernel,
#endif
};

static const char *const path_suffix[] = { "", "@kernel" };

/* Every build's price of a SIMD section: --fpu-cost. */
static void setup_paths(void)
{
	unsigned int p;

	for (p = 0; p < ARRAY_SIZE(all_paths); p++)
		all_paths[p]->set_choices(opt_fpu_cost, 0, 0);
}

/* A kernel-* row (6.12's skcipher) or, with @v7, kernel7-* (7.3's). */
static void add_kernel_row(const struct kernel_impl *k, unsigned int tier,
			   const struct bench_paths *paths, const char *sfx,
			   bool v7)
{
	struct subject *s = add_subject(KERNEL, "%s%s%s", v7 ? "kernel7-" :
					"kernel-", k->name + 7, sfx);

	s->kimpl = k;
	s->tier = tier;
	s->paths = paths;
	s->suffix = sfx;
	s->call = v7 ? call_kernel7 : call_kernel;
}

static void build_subjects(void)
{
	const char *missing = "?";
	const struct chacha_core *c;
	const struct kernel_core *kc;
	unsigned int i, p;
	struct subject *s;

	for (p = 0; p < ARRAY_SIZE(all_paths); p++) {
		const struct bench_paths *paths = all_paths[p];
		const char *sfx = path_suffix[p];

		for (i = 0; i < *paths->nimpls; i++) {
			const struct chacha_impl *impl = &paths->impls[i];

			if (!cpu_has_features(impl->needs, &missing)) {
				if (!p)
					printf("skipping module-%s: the CPU lacks %s\n",
					       impl->name, missing);
				continue;
			}
			s = add_subject(MODULE, "module-%s%s", impl->name, sfx);
			s->impl = impl;
			s->paths = paths;
			s->suffix = sfx;
			s->call = call_module;
		}
		for (i = 0; i < ARRAY_SIZE(kernel_impls); i++) {
			const struct kernel_impl *k = &kernel_impls[i];

			if (!kernel_runs(k, &missing)) {
				if (!p)
					printf("skipping %s: the CPU lacks %s\n",
					       k->name, missing);
				continue;
			}
			add_kernel_row(k, i, paths, sfx, false);
			add_kernel_row(k, i, paths, sfx, true);
		}
	}
	if (opt_rounds == 20) {
		peers_init(bench_key, bench_iv);
		for (i = 0; peer_name(i); i++) {
			s = add_subject(PEER, "%s", peer_name(i));
			s->peer = i;
			s->suffix = "";
			s->call = call_peer;
		}
	} else {
		printf("skipping the libraries' ChaCha rows: they run 20 rounds only\n");
	}

	/* Then every core of the benchmark's build, alone. */
	for (i = 0; i < nsubjects; i++) {
		s = &subjects[i];
		if (s->paths != &bench_plain)
			continue;
		if (s->kind == MODULE)
			for (c = s->impl->cores; c->blocks; c++)
				add_core(s->impl->name, c->blocks, c->fn, NULL);
		if (s->kind == KERNEL)
			for (kc = s->kimpl->cores; kc->blocks; kc++)
				add_core(s->kimpl->name, kc->blocks, NULL,
					 kc->fn);
	}
}

/*
 * The kernel's Poly1305 beside its chacha tier: for the SSSE3 tier a CPU
 * without AVX, so the scalar code; AVX2's; AVX-512's, which 6.12 and 7.3
 * leave alone on Skylake-X (INTEL_SKYLAKE_X, model 0x55) only.
 */
static unsigned int kernel_poly_tier(unsigned int tier)
{
	if (tier == BENCH_TIER_SSSE3)
		return BENCH_POLY_SCALAR;
	if (tier == BENCH_TIER_AVX512VL && intel_family6_model() != 0x55)
		return BENCH_POLY_AVX512;
	return BENCH_POLY_AVX2;
}

/* The ChaCha implementation the glue takes by default, in @p's build. */
static const struct chacha_impl *module_default(const struct bench_paths *p)
{
	const struct chacha_impl *best = &p->impls[0];
	unsigned int i;

	for (i = 0; i < *p->nimpls; i++)
		if (cpu_has_features(p->impls[i].needs, NULL) &&
		    prefer_ok(p->impls[i].prefer))
			best = &p->impls[i];
	return best;
}

/* chachapoly_choose_poly(): the last usable one that its policy allows. */
static const struct poly1305_impl *module_poly(const struct bench_paths *p)
{
	const struct poly1305_impl *best = &p->polys[0];
	unsigned int i;

	for (i = 0; i < *p->npolys; i++)
		if (!p->polys[i].lib &&
		    cpu_has_features(p->polys[i].needs, NULL) &&
		    prefer_ok(p->polys[i].prefer))
			best = &p->polys[i];
	return best;
}

/*
 * The Poly1305 the glue would choose on a CPU whose best ChaCha20 is
 * @impl, of those this CPU runs: that CPU has @impl's features, BMI2 and
 * ADX if it has AVX2 (Broadwell and Zen on), and AVX-512 IFMA if it
 * prefers zmm (Ice Lake, Sapphire Rapids and Zen 4 on).  So an AVX2 row
 * runs mulx, not the IFMA this CPU may have, and an SSSE3 row runs C.
 */
static const struct poly1305_impl *tier_poly(const struct bench_paths *p,
					     const struct chacha_impl *impl)
{
	unsigned int has = impl->needs | impl->prefer;
	const struct poly1305_impl *best = &p->polys[0];
	unsigned int i;

	if (impl->needs & CHACHA_CPU_AVX2)
		has |= CHACHA_CPU_BMI2_ADX;
	if (impl->prefer & CHACHA_CPU_PREFER_ZMM)
		has |= CHACHA_CPU_IFMA;
	for (i = 0; i < *p->npolys; i++)
		if (!p->polys[i].lib &&
		    cpu_has_features(p->polys[i].needs, NULL) &&
		    prefer_ok(p->polys[i].prefer) &&
		    !(p->polys[i].needs & ~has) &&
		    !(p->polys[i].prefer & ~has))
			best = &p->polys[i];
	return best;
}

/* A module-<impl>-aead row, or with @named module-<impl>-aead-<poly>. */
static void add_amodule(const struct bench_paths *paths, const char *sfx,
			const struct chacha_impl *impl,
			const struct poly1305_impl *poly, bool named,
			bool decrypt)
{
	struct subject *s;

	if (named)
		s = add_subject(AMODULE, "module-%s-aead-%s%s", impl->name,
				poly->name, sfx);
	else
		s = add_subject(AMODULE, "module-%s-aead%s", impl->name, sfx);
	s->impl = impl;
	s->poly = poly;
	/* the kernel's library, where the AEAD takes it: as on that tier */
	s->ptier = kernel_poly_tier(impl->needs & CHACHA_CPU_AVX512 ?
				    BENCH_TIER_AVX512VL :
				    impl->needs & CHACHA_CPU_AVX2 ?
				    BENCH_TIER_AVX2 : BENCH_TIER_SSSE3);
	s->paths = paths;
	s->suffix = sfx;
	s->decrypt = decrypt;
	s->call = call_amodule;
}

/*
 * The AEAD rows, encrypting then decrypting: in each build the module
 * with every ChaCha implementation the CPU runs and the Poly1305 the glue
 * would choose, then its default with each other Poly1305 the CPU runs,
 * then the kernel's template on each tier, 6.12's and 7.3's; then the
 * libraries.
 */
static void build_aead_subjects(void)
{
	const struct poly1305_impl *poly;
	const struct chacha_impl *def;
	unsigned int d, i, p, v7;
	struct subject *s;

	peers_aead_init(bench_key, aead_req.nonce);
	for (d = 0; d < 2; d++) {
		for (p = 0; p < ARRAY_SIZE(all_paths); p++) {
			const struct bench_paths *paths = all_paths[p];
			const char *sfx = path_suffix[p];

			def = module_default(paths);
			poly = module_poly(paths);
			for (i = 0; i < *paths->nimpls; i++)
				if (cpu_has_features(paths->impls[i].needs,
						     NULL))
					add_amodule(paths, sfx,
						    &paths->impls[i],
						    tier_poly(paths,
							      &paths->impls[i]),
						    false, d);
			for (i = 0; i < *paths->npolys; i++)
				if (&paths->polys[i] != poly &&
				    cpu_has_features(paths->polys[i].needs,
						     NULL))
					add_amodule(paths, sfx, def,
						    &paths->polys[i], true, d);
			for (i = 0; i < ARRAY_SIZE(kernel_impls); i++) {
				const struct kernel_impl *k = &kernel_impls[i];
				const char *missing;

				if (!kernel_runs(k, &missing))
					continue;
				for (v7 = 0; v7 < 2; v7++) {
					s = add_subject(AKERNEL,
							"kernel%s-aead-%s%s",
							v7 ? "7" : "",
							k->name + 7, sfx);
					s->kimpl = k;
					s->tier = i;
					s->ptier = kernel_poly_tier(i);
					s->v7 = v7;
					s->paths = paths;
					s->suffix = sfx;
					s->decrypt = d;
					s->call = call_akernel;
				}
			}
		}
		for (i = 0; peer_aead_name(i); i++) {
			s = add_subject(APEER, "%s", peer_aead_name(i));
			s->peer = i;
			s->decrypt = d;
			s->call = call_apeer;
		}
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
				     unsigned int n)
{
	void (*call)(const struct subject *s, u32 *state, u8 *dst,
		     const u8 *src, unsigned int len) =
		len == IMIX_LEN ? call_imix : s->call;
	u32 state[CHACHA_STATE_WORDS];
	unsigned int i;
	u64 t0, t1;

	memcpy(state, bench_state, sizeof(state));
	t0 = tsc_read();
	for (i = 0; i < n; i++)
		call(s, state, dst_buf, src_buf, len);
	t1 = tsc_read();
	return t1 - t0;
}

/* time_batch() with its frame (the state, any bounce buffer) moved down. */
static BENCH_NOINLINE u64 time_batch_at(const struct subject *s,
					unsigned int len, unsigned int n,
					unsigned int rep)
{
	u8 *pad = alloca(16 * (rep % STACK_STEPS) + 1);

	asm volatile("" : : "r" (pad) : "memory");
	return time_batch(s, len, n);
}

/* Measure @reps batches and keep the best in @pt, which may hold one already. */
static void measure(const struct subject *s, unsigned int len,
		    unsigned int reps, struct point *pt)
{
	u64 one = ~0ULL, best = ~0ULL, t, start;
	unsigned int i, n, rep, redo;

	prepare(s, len);
	start = tsc_read();
	while (tsc_read() - start < WARM_CYCLES)
		time_batch(s, len, 1);
	for (i = 0; i < 8; i++) {
		t = time_batch(s, len, 1);
		if (t < one)
			one = t;
	}
	n = one ? BATCH_CYCLES / one : MAX_BATCH;
	n = n < 1 ? 1 : n > MAX_BATCH ? MAX_BATCH : n;

	for (rep = 0; rep < reps; rep++) {
		for (redo = 0; ; redo++) {
			bool ok = calib_ok();

			t = time_batch_at(s, len, n, rep);
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
		t = time_batch(s, 0, 0);
		if (t < timer_overhead)
			timer_overhead = t;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static double elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e9 + (b->tv_nsec - a->tv_nsec);
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
	} while (elapsed_ns(&t0, &t) < WARM_NS);
	for (i = 0; i < CALIB_READINGS; i++)
		readings[i] = calib_once();
	qsort(readings, CALIB_READINGS, sizeof(readings[0]), cmp_u64);
	calib_lo = readings[CALIB_READINGS / 100];
	calib_hi = readings[CALIB_READINGS / 10] * (100 + opt_slack) / 100;
}

/* A chain of dependent adds: one core clock each. */
static void add_chain(unsigned long n)
{
	asm volatile("1:\n\t"
		     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
		     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
		     "sub $9, %0\n\t"
		     "jnz 1b"
		     : "+r" (n) : : "cc");
}

/*
 * The TSC rate and the core clock, from the wall clock: the best of many
 * short readings of the TSC, and of a chain of dependent adds, which runs
 * at one add per core clock.  Short, so that some fall between the other
 * work this CPU is shared with.
 */
static void measure_clocks(void)
{
	const unsigned long iters = 200000;	/* 9 adds each */
	struct timespec a, b;
	unsigned int i;
	u64 t0, t1;
	double hz;

	for (i = 0; i < 200; i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		t0 = tsc_read();
		add_chain(iters);
		t1 = tsc_read();
		clock_gettime(CLOCK_MONOTONIC, &b);
		hz = (t1 - t0) / elapsed_ns(&a, &b) * 1e9;
		if (hz > tsc_hz)
			tsc_hz = hz;
		hz = 9.0 * iters / elapsed_ns(&a, &b) * 1e9;
		if (hz > core_hz)
			core_hz = hz;
	}
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
	unsigned int i;

	for (i = 0; i < CHACHA_KEY_BYTES; i++)
		bench_key[i] = (i / 4 + 1) * 0x01;
	chacha_setup(bench_state, bench_key, bench_iv);

	src_buf = page_buffer();
	dst_buf = page_buffer();
	for (i = 0; i < MAX_LEN; i++)
		src_buf[i] = i * 7 + (i >> 8);
	memset(dst_buf, 0, MAX_LEN);
}

static u64 clock_tsc(void)
{
	return tsc_read();
}

/*
 * What the module does at load, here: chacha_calibrate() for each
 * implementation, with this benchmark's charged SIMD section.
 */
static void calibrate_modules(void)
{
	unsigned int i;

	for (i = 0; i < nsubjects; i++) {
		struct subject *s = &subjects[i];
		struct chacha_calibration best;
		unsigned int k;

		if (s->kind != MODULE)
			continue;
		/* As in the kernel, the first readings warm up; keep the last. */
		for (k = 0; k < 3; k++)
			s->paths->calibrate(s->impl, clock_tsc, &best);
		if (opt_scalar_max >= 0)
			best.scalar_max_bytes = opt_scalar_max;
		if (opt_scalar_tail >= 0)
			best.scalar_tail_bytes = opt_scalar_tail;
		for (k = 0; k < opt_nstrides; k++) {
			if (strcmp(opt_strides[k].impl, s->impl->name))
				continue;
			if (s->paths->set_stride(s->impl,
						 opt_strides[k].blocks)) {
				fprintf(stderr, "bench: %s has no stride of %u blocks\n",
					s->impl->name, opt_strides[k].blocks);
				exit(2);
			}
			best.stride_blocks = opt_strides[k].blocks;
			best.stride_time[0] = 0;	/* forced: not measured */
		}
		s->cal = best;
	}
	/* An AEAD row takes the choices of its ChaCha implementation's row. */
	for (i = 0; i < nsubjects; i++) {
		struct subject *a = &subjects[i];
		unsigned int k;

		for (k = 0; a->kind == AMODULE && k < nsubjects; k++)
			if (subjects[k].kind == MODULE &&
			    subjects[k].impl == a->impl)
				a->cal = subjects[k].cal;
	}
}

/*
 * Numbers of a subject that computes something else mean nothing: compare
 * every subject with scalar C once, and say so if they differ.
 */
static void cross_check(void)
{
	u8 *want = page_buffer();
	u32 st_want[CHACHA_STATE_WORDS], st[CHACHA_STATE_WORDS];
	unsigned int i, l, len, bad = 0;

	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];

		for (l = 0; !is_aead(s) && l < NLENS; l++) {
			len = s->core_bytes ? s->core_bytes : bench_lens[l];
			memcpy(st_want, bench_state, sizeof(st_want));
			memcpy(st, bench_state, sizeof(st));
			chacha_crypt_impl(&chacha_impls[0], st_want, want,
					  src_buf, len, opt_rounds);
			memset(dst_buf, 0, MAX_LEN);
			prepare(s, len);
			s->call(s, st, dst_buf, src_buf, len);
			if (s->core_bytes || s->kind == PEER)
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
		printf("cross-check: every subject matches scalar C\n");
	free(want);
}

/*
 * The AEAD's reference: libsodium's ciphertext of all of src_buf and its
 * tag for each length (the ciphertext of a shorter message is a prefix).
 * Without libsodium, the module's scalar C with Poly1305 in C.
 */
static const char *setup_aead(void)
{
	const char *ref = "libsodium-aead";
	unsigned int i, l, peer = ~0U;
	struct bench_aead a = aead_req;

	for (i = 0; i < CHACHA_KEY_BYTES / 4; i++)
		aead_key[i] = get_le32(bench_key + 4 * i);
	for (i = 0; i < MAX_AEAD_AD; i++)
		aead_ad[i] = i * 13 + 5;
	ct_buf = page_buffer();
	a.adlen = opt_aead_ad;
	for (i = 0; peer_aead_name(i); i++)
		if (!strcmp(peer_aead_name(i), ref))
			peer = i;
	if (peer == ~0U)
		ref = "the module's scalar C (no libsodium)";
	for (l = 0; l < NLENS; l++) {
		a.tag = aead_tags[l];
		if (peer != ~0U)
			peer_aead(peer, false, ct_buf, src_buf, bench_lens[l],
				  aead_ad, opt_aead_ad, a.tag);
		else
			bench_plain.aead(&chacha_impls[0], &poly1305_impls[0],
					 &a, ct_buf, src_buf, bench_lens[l],
					 false);
	}
	/* IMIX's, with its AD; the ciphertext is the same. */
	a.adlen = IMIX_AD;
	for (l = 0; l < ARRAY_SIZE(imix_lens); l++) {
		a.tag = imix_tags[l];
		if (peer != ~0U)
			peer_aead(peer, false, ct_buf, src_buf, imix_lens[l],
				  aead_ad, IMIX_AD, a.tag);
		else
			bench_plain.aead(&chacha_impls[0], &poly1305_impls[0],
					 &a, ct_buf, src_buf, imix_lens[l],
					 false);
	}
	return ref;
}

#define RFC_LEN		114

/*
 * RFC 8439 section 2.8.2's vector (testmgr.h's first rfc7539 one) through
 * a module or kernel AEAD row.
 */
static bool rfc8439_ok(const struct subject *s)
{
	const struct aead_tv *v = &tm_aead_tv[0];
	u8 out[RFC_LEN], tag[CHACHAPOLY_TAG_BYTES];
	u32 key[CHACHA_KEY_BYTES / 4];
	struct bench_aead a = {
		.key = key, .nonce = v->iv,
		.ad = v->assoc, .adlen = v->alen, .tag = tag,
	};
	const u8 *in = s->decrypt ? v->ctext : v->ptext;
	bool ok;

	if (v->esp || v->plen != RFC_LEN)
		return false;	/* not the vector this expects */
	memcpy(key, v->key, sizeof(key));	/* little-endian words */
	memcpy(tag, v->ctext + RFC_LEN, sizeof(tag));
	prepare(s, RFC_LEN);
	if (s->kind == AMODULE)
		ok = s->paths->aead(s->impl, s->poly, &a, out, in, RFC_LEN,
				    s->decrypt);
	else
		ok = s->paths->kernel_aead(s->tier, s->ptier, s->v7, &a, out,
					   in, RFC_LEN, s->decrypt);
	if (s->decrypt)
		return ok && !memcmp(out, v->ptext, RFC_LEN);
	return !memcmp(out, v->ctext, RFC_LEN) &&
	       !memcmp(tag, v->ctext + RFC_LEN, sizeof(tag));
}

/*
 * The AEAD rows, as cross_check() the others: every row's ciphertext and
 * tag (or, decrypting, plaintext and verdict) at each length against
 * @ref's; a forged tag refused; the module's and kernel's rows on RFC
 * 8439's vector too.  With the choices the rows are measured with.
 */
static void aead_cross_check(const char *ref)
{
	unsigned int i, l, len, bad = 0;
	u8 forged[CHACHAPOLY_TAG_BYTES];

	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];
		const char *dir = s->decrypt ? "decrypt" : "encrypt";

		if (!is_aead(s))
			continue;
		for (l = 0; l < NLENS; l++) {
			bool differs;

			len = bench_lens[l];
			memset(dst_buf, 0, MAX_LEN);
			memset(aead_tag, 0, sizeof(aead_tag));
			prepare(s, len);
			s->call(s, NULL, dst_buf, src_buf, len);
			if (s->decrypt)
				differs = !aead_ok ||
					  memcmp(dst_buf, src_buf, len);
			else
				differs = memcmp(dst_buf, ct_buf, len) ||
					  memcmp(aead_tag, aead_tags[l],
						 sizeof(aead_tag));
			if (differs) {
				printf("WARNING: %s (%s) differs from %s at %u bytes\n",
				       s->name, dir, ref, len);
				bad++;
			}
		}
		if (s->decrypt) {
			unsigned int before = aead_rejected;

			prepare(s, IMIX_LEN);
			call_imix(s, NULL, dst_buf, src_buf, IMIX_LEN);
			if (aead_rejected != before) {
				printf("WARNING: %s refuses IMIX's tags (AD %u bytes)\n",
				       s->name, IMIX_AD);
				bad++;
			}
			l = NLENS / 2;
			prepare(s, bench_lens[l]);
			memcpy(forged, aead_tags[l], sizeof(forged));
			forged[l] ^= 0x10;
			aead_req.tag = forged;
			s->call(s, NULL, dst_buf, src_buf, bench_lens[l]);
			if (aead_ok) {
				printf("WARNING: %s accepts a forged tag at %u bytes\n",
				       s->name, bench_lens[l]);
				bad++;
			}
		}
		if (s->kind != APEER && !rfc8439_ok(s)) {
			printf("WARNING: %s (%s) fails RFC 8439 2.8.2\n",
			       s->name, dir);
			bad++;
		}
	}
	aead_rejected = 0;
	if (bad)
		printf("WARNING: the AEAD numbers of those mean nothing\n");
	else
		printf("cross-check: every AEAD row matches %s and %s\n", ref,
		       "refuses a forged tag; the module's and kernel's pass RFC 8439 2.8.2");
}

/* ---- output ---- */

/* To stdout and, with --md, to the Markdown file: the same text. */
static __printf(1, 2) void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (md_file) {
		va_start(ap, fmt);
		vfprintf(md_file, fmt, ap);
		va_end(ap);
	}
}

static const struct subject *find_subject(const char *name)
{
	unsigned int i;

	for (i = 0; i < nsubjects; i++)
		if (!strcmp(subjects[i].name, name))
			return &subjects[i];
	return NULL;
}

static bool is_request(const struct subject *s)
{
	return s->kind == MODULE || s->kind == KERNEL || s->kind == PEER;
}

static double per_byte(const struct subject *s, unsigned int l)
{
	return s->res[l].cycles / bench_lens[l];
}

static double gbps(double cycles_per_byte)
{
	return cycles_per_byte > 0 ? tsc_hz / cycles_per_byte / 1e9 : 0;
}

static void table_head(const char *first)
{
	unsigned int i;

	out("| %s |", first);
	for (i = 0; i < nsubjects; i++)
		if (is_request(&subjects[i]))
			out(" %s |", subjects[i].name);
	out("\n|---:|");
	for (i = 0; i < nsubjects; i++)
		if (is_request(&subjects[i]))
			out("---:|");
	out("\n");
}

static void print_tables(void)
{
	unsigned int i, l, t;

	for (t = 0; t < 2; t++) {
		out("\n### %s, %u rounds\n\n", t ? "GB/s (from the TSC rate)" :
		    "TSC cycles per byte", opt_rounds);
		table_head("bytes");
		for (l = 0; l < NLENS; l++) {
			out("| %u |", bench_lens[l]);
			for (i = 0; i < nsubjects; i++) {
				const struct subject *s = &subjects[i];

				if (!is_request(s))
					continue;
				if (t)
					out(" %.2f |", gbps(per_byte(s, l)));
				else
					out(" %.2f |", per_byte(s, l));
			}
			out("\n");
		}
	}

	out("\n### Each core alone, one call over its stride\n\n");
	out("| core | bytes | cycles per call | cycles per byte |\n");
	out("|---|---:|---:|---:|\n");
	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];

		if (s->core_bytes)
			out("| %s | %u | %.0f | %.2f |\n", s->name,
			    s->core_bytes, s->res[0].cycles,
			    s->res[0].cycles / s->core_bytes);
	}
}

/* The AEAD rows of one direction: cycles per byte and GB/s. */
static void print_aead_tables(void)
{
	unsigned int d, i, l, t;

	for (d = 0; d < 2; d++) {
		for (t = 0; t < 2; t++) {
			out("\n### ChaCha20-Poly1305 %s, AD %u bytes: %s\n\n",
			    d ? "decrypt" : "encrypt", opt_aead_ad,
			    t ? "GB/s (from the TSC rate)" :
			    "TSC cycles per byte");
			out("| bytes |");
			for (i = 0; i < nsubjects; i++)
				if (is_aead(&subjects[i]) &&
				    subjects[i].decrypt == d)
					out(" %s |", subjects[i].name);
			out("\n|---:|");
			for (i = 0; i < nsubjects; i++)
				if (is_aead(&subjects[i]) &&
				    subjects[i].decrypt == d)
					out("---:|");
			out("\n");
			for (l = 0; l < NLENS; l++) {
				out("| %u |", bench_lens[l]);
				for (i = 0; i < nsubjects; i++) {
					const struct subject *s = &subjects[i];

					if (!is_aead(s) || s->decrypt != d)
						continue;
					if (t)
						out(" %.2f |",
						    gbps(per_byte(s, l)));
					else
						out(" %.2f |", per_byte(s, l));
				}
				out("\n");
			}
		}
	}
}

/*
 * The kernel's best tier this CPU runs, or the best without AVX-512:
 * 6.12's (kernel-*) or, with @v7, 7.3's (kernel7-*), of the build with
 * suffix @sfx ("" or "@kernel").
 */
static const struct subject *kernel_best_of(bool avx512, bool v7,
					    const char *sfx)
{
	const struct subject *best = NULL;
	unsigned int i;

	for (i = 0; i < nsubjects; i++) {
		bool is7 = subjects[i].call == call_kernel7;

		if (subjects[i].kind == KERNEL && is7 == v7 &&
		    !strcmp(subjects[i].suffix, sfx) &&
		    (avx512 || !strstr(subjects[i].name, "avx512")))
			best = &subjects[i];
	}
	return best;
}

static const struct subject *kernel_best(bool avx512)
{
	return kernel_best_of(avx512, false, "");
}

/* A row by its name and the suffix of its build. */
static const struct subject *find_row(const char *name, const char *sfx)
{
	char full[64];

	snprintf(full, sizeof(full), "%s%s", name, sfx);
	return find_subject(full);
}

/* The kernel's tier of the same ISA as a module row, if it has one. */
static const struct subject *kernel_tier(const struct subject *m)
{
	char name[48];

	if (is_avx512(m))
		return find_row("kernel-avx512vl", m->suffix);
	snprintf(name, sizeof(name), "kernel-%s", m->impl->name);
	return find_row(name, m->suffix);
}

/*
 * The module row the glue picks by default on this CPU (the last usable
 * implementation its zmm policy allows), or, with !@avx512, the best one
 * leaving out AVX-512; of the build with suffix @sfx.
 */
static const struct subject *module_best(bool avx512, const char *sfx)
{
	const struct subject *best = NULL;
	unsigned int i;

	for (i = 0; i < nsubjects; i++)
		if (subjects[i].kind == MODULE &&
		    !strcmp(subjects[i].suffix, sfx) &&
		    (avx512 || !is_avx512(&subjects[i])) &&
		    prefer_ok(subjects[i].impl->prefer))
			best = &subjects[i];
	return best;
}

static void ratio_cell(const struct subject *a, const struct subject *b,
		       unsigned int l)
{
	if (a && b && b->res[l].cycles > 0)
		out(" %.3f |", a->res[l].cycles / b->res[l].cycles);
	else
		out(" |");
}

/*
 * Each module row against the kernel's best tier, the kernel's tier of
 * the same ISA and OpenSSL (native and without AVX-512), per call.
 */
static void print_ratios(void)
{
	const struct subject *os = find_subject("openssl");
	const struct subject *osm = find_subject("openssl-noavx512");
	const struct subject *cols[4 * MAX_SUBJECTS][2];
	unsigned int i, l, n = 0;

	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];
		const struct subject *kb;

		if (s->kind != MODULE || !s->impl->cores[0].blocks)
			continue;
		kb = kernel_best_of(true, false, s->suffix);
		if (kb) {
			cols[n][0] = s;
			cols[n++][1] = kb;
		}
		if (kernel_tier(s) && kernel_tier(s) != kb) {
			cols[n][0] = s;
			cols[n++][1] = kernel_tier(s);
		}
		if (os) {
			cols[n][0] = s;
			cols[n++][1] = os;
		}
		if (osm) {
			cols[n][0] = s;
			cols[n++][1] = osm;
		}
	}
	if (!n)
		return;
	out("\n### Ratios, cycles per call (below 1: ours is faster)\n\n");
	out("| bytes |");
	for (i = 0; i < n; i++)
		out(" %s / %s |", cols[i][0]->name, cols[i][1]->name);
	out("\n|---:|");
	for (i = 0; i < n; i++)
		out("---:|");
	out("\n");
	for (l = 0; l < NLENS; l++) {
		out("| %u |", bench_lens[l]);
		for (i = 0; i < n; i++)
			ratio_cell(cols[i][0], cols[i][1], l);
		out("\n");
	}
}

static void print_calibration(void)
{
	unsigned int i;

	unsigned int k;

	out("\n### The module's choices (chacha_calibrate(), F charged)\n\n");
	out("| row | scalar C up to | last block in | scalar block |");
	out(" SIMD block | SIMD block in its own section | whole strides in |");
	out(" %u B in whole strides of each choice |\n",
	    CHACHA_CALIB_STRIDE_BYTES);
	out("|---|---:|---|---:|---:|---:|---:|---|\n");
	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];

		if (s->kind != MODULE || !s->impl->cores[0].blocks)
			continue;
		out("| %s | %u B | %s | %llu | %llu | %llu | %u blocks%s |",
		    s->name, s->cal.scalar_max_bytes,
		    s->cal.scalar_tail_bytes ? "scalar C" : "a core",
		    (unsigned long long)s->cal.scalar_block,
		    (unsigned long long)s->cal.simd_block,
		    (unsigned long long)s->cal.simd_request_block,
		    s->cal.stride_blocks,
		    s->cal.stride_time[0] ? "" : " (--stride)");
		for (k = 0; s->cal.stride_time[0] &&
		     k < CHACHA_STRIDE_CHOICES && s->impl->cores[k].blocks; k++)
			out("%s %u: %llu", k ? "," : "",
			    s->impl->cores[k].blocks,
			    (unsigned long long)s->cal.stride_time[k]);
		out(" |\n");
	}
}

/*
 * The port bound of a module row at @len bytes: its fastest core alone
 * ("each core alone", the benchmark's build: the same assembly) over the
 * bytes, plus F per section of at most CHACHA_SIMD_CHUNK.  0 if no core
 * row was measured.
 */
static double core_bound(const struct subject *m, unsigned int len)
{
	const struct subject *plain;
	const struct chacha_core *c;
	double best = 0;
	unsigned int i;
	char name[48];

	snprintf(name, sizeof(name), "module-%s", m->impl->name);
	plain = find_subject(name);
	if (!plain)
		return 0;
	for (c = plain->impl->cores; c->blocks; c++)
		for (i = 0; i < nsubjects; i++) {
			const struct subject *s = &subjects[i];
			double cpb;

			if (s->kind != CORE || s->core != c->fn)
				continue;
			cpb = s->res[0].cycles / s->core_bytes;
			if (!best || cpb < best)
				best = cpb;
		}
	if (!best)
		return 0;
	return best * len + (double)opt_fpu_cost *
		DIV_ROUND_UP(len, CHACHA_SIMD_CHUNK);
}

/* The most rows a TARGET line or a ratio compares with at once. */
#define AEAD_THEIRS	16

/* The AEAD rows of build @sfx and direction @decrypt whose name matches. */
static unsigned int aead_rows(const char *sfx, bool decrypt,
			      bool (*match)(const struct subject *s,
					    const char *arg),
			      const char *arg, const struct subject **rows)
{
	unsigned int i, n = 0;

	for (i = 0; i < nsubjects && n < AEAD_THEIRS; i++) {
		const struct subject *s = &subjects[i];

		if (is_aead(s) && s->decrypt == decrypt &&
		    !strcmp(s->suffix, sfx) && match(s, arg))
			rows[n++] = s;
	}
	return n;
}

/* A kernel row (@tier NULL) or one of tier @tier, 6.12's or 7.3's. */
static bool is_kernel_aead(const struct subject *s, const char *tier)
{
	return s->kind == AKERNEL && (!tier || !strcmp(s->kimpl->name + 7,
						       tier));
}

static bool is_library_aead(const struct subject *s, const char *unused)
{
	return s->kind == APEER;
}

/* The row the module registers: its default ChaCha20 and Poly1305. */
static bool is_default_aead(const struct subject *s, const char *unused)
{
	return s->kind == AMODULE && s->impl == module_default(s->paths) &&
	       s->poly == module_poly(s->paths);
}

/* An AVX-512 implementation with the Poly1305 of its tier. */
static bool is_avx512_aead(const struct subject *s, const char *unused)
{
	return s->kind == AMODULE && !strncmp(s->impl->name, "avx512", 6) &&
	       s->poly == tier_poly(s->paths, s->impl);
}

/*
 * The largest ratio of @a over the fastest of @b[0..@nb) at each length
 * from @minlen to @maxlen; its length in @at.
 */
static double worst_aead(const struct subject *a,
			 const struct subject *const *b, unsigned int nb,
			 unsigned int minlen, unsigned int maxlen,
			 unsigned int *at)
{
	double worst = 0, best, r;
	unsigned int i, l;

	for (l = 0; l < NLENS; l++) {
		if (bench_lens[l] < minlen || bench_lens[l] > maxlen)
			continue;
		for (i = 0, best = 0; i < nb; i++)
			if (!best || b[i]->res[l].cycles < best)
				best = b[i]->res[l].cycles;
		r = a->res[l].cycles / best;
		if (r > worst) {
			worst = r;
			*at = bench_lens[l];
		}
	}
	return worst;
}

/*
 * The default AEAD (@kernel) over the fastest kernel row and the fastest
 * library at each size, per call: the ratios behind the targets
 * aead-default-vs-kernel and aead-default-vs-libraries.
 */
static void print_aead_ratios(void)
{
	const struct subject *ours[2][AEAD_THEIRS], *theirs[2][2][AEAD_THEIRS];
	unsigned int d, c, i, l, n[2], nk[2][2], at;
	const char *k = "@kernel";
	double r;

	for (d = 0; d < 2; d++) {
		n[d] = aead_rows(k, d, is_default_aead, NULL, ours[d]);
		nk[d][0] = aead_rows(k, d, is_kernel_aead, NULL, theirs[d][0]);
		nk[d][1] = aead_rows("", d, is_library_aead, NULL,
				     theirs[d][1]);
		if (!n[d] || !nk[d][0] || !nk[d][1])
			return;
	}
	out("\n### ChaCha20-Poly1305 ratios, cycles per call (below 1: ours is faster)\n\n");
	out("| bytes |");
	for (d = 0; d < 2; d++)
		out(" %s %s / min(kernel*-aead-*@kernel) | %s %s / min(libraries) |",
		    ours[d][0]->name, d ? "decrypt" : "encrypt",
		    ours[d][0]->name, d ? "decrypt" : "encrypt");
	out("\n|---:|---:|---:|---:|---:|\n");
	for (l = 0; l < NLENS; l++) {
		unsigned int len = bench_lens[l];

		out("| %u |", len);
		for (i = 0; i < 4; i++) {
			d = i / 2;
			c = i % 2;
			r = worst_aead(ours[d][0], theirs[d][c], nk[d][c], len,
				       len, &at);
			out(" %.3f |", r);
		}
		out("\n");
	}
}

/* ---- the AEAD in packets ---- */

/*
 * The call sites on the AEAD request paths of the @kernel build, as
 * calls.sh counted them at build time: the module's (module_aead()) and
 * the kernel's template re-created (kernel_aead()).
 */
struct path_calls {
	bool read;
	unsigned int calls, indirect, functions;
};

static struct path_calls module_calls, kernel_calls;
#ifdef BENCH_CALLS
static const char *calls_file = BENCH_CALLS;
#else
static const char *calls_file = "build/calls.txt";
#endif

static void read_calls(void)
{
	FILE *f = fopen(calls_file, "r");
	char line[4096], root[32];
	struct path_calls p = { .read = true };

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "path %31s %u %u %u", root, &p.calls,
			   &p.indirect, &p.functions) != 4)
			continue;
		if (!strcmp(root, "module_aead"))
			module_calls = p;
		else if (!strcmp(root, "kernel_aead"))
			kernel_calls = p;
	}
	fclose(f);
}

/* A @kernel AEAD row's call count cell, or an empty one. */
static void calls_cell(const struct subject *s)
{
	const struct path_calls *p = s->kind == AMODULE ? &module_calls :
				     &kernel_calls;

	if (strcmp(s->suffix, "@kernel") ||
	    (s->kind != AMODULE && s->kind != AKERNEL))
		out(" |");
	else if (!p->read)
		out(" ? |");
	else
		out(" %u (%u indirect) in %u functions |", p->calls,
		    p->indirect, p->functions);
}

/* The decrypting row of the same name as encrypting row @s. */
static const struct subject *aead_twin_dir(const struct subject *s)
{
	unsigned int i;

	for (i = 0; i < nsubjects; i++)
		if (is_aead(&subjects[i]) && subjects[i].decrypt &&
		    !strcmp(subjects[i].name, s->name))
			return &subjects[i];
	return NULL;
}

/* The plain row of @kernel row @s, same kind and direction. */
static const struct subject *plain_twin(const struct subject *s)
{
	size_t n = strlen(s->name) - strlen(s->suffix);
	unsigned int i;

	for (i = 0; i < nsubjects; i++)
		if (subjects[i].kind == s->kind &&
		    subjects[i].decrypt == s->decrypt &&
		    strlen(subjects[i].name) == n &&
		    !strncmp(subjects[i].name, s->name, n))
			return &subjects[i];
	return NULL;
}

/*
 * Per AEAD row: IMIX cycles per packet, encrypting and decrypting, and
 * beside each @kernel row the call sites on its request path; then each
 * module row's @kernel minus plain, per request, from 16 B to 4 KiB.
 */
static void print_packets(void)
{
	const struct subject *cols[MAX_SUBJECTS];
	unsigned int i, l, n = 0;

	out("\n### ChaCha20-Poly1305 IMIX, AD %u bytes: TSC cycles per packet\n\n",
	    IMIX_AD);
	out("7 x 64, 4 x 576 and 1 x 1420 B requests, in the order");
	for (i = 0; i < IMIX_PACKETS; i++)
		out("%s%u", i ? "," : " ", imix_lens[imix_order[i]]);
	out("; cycles per packet = cycles of the 12 / 12.  Call sites: %s.\n\n",
	    "calls.sh on the @kernel objects, static, every site once");
	out("| row | encrypt | decrypt | call sites on the request path |\n");
	out("|---|---:|---:|---|\n");
	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];
		const struct subject *dec;

		if (!is_aead(s) || s->decrypt)
			continue;
		dec = aead_twin_dir(s);
		out("| %s | %.0f |", s->name, s->res[IMIX].cycles);
		if (dec)
			out(" %.0f |", dec->res[IMIX].cycles);
		else
			out(" |");
		calls_cell(s);
		out("\n");
	}
	if (!module_calls.read)
		out("\n(no %s: make -C tools/bench builds it)\n", calls_file);

	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];

		if (s->kind == AMODULE && !strcmp(s->suffix, "@kernel") &&
		    plain_twin(s))
			cols[n++] = s;
	}
	if (!n)
		return;
	out("\n### ChaCha20-Poly1305: @kernel minus plain, TSC cycles per request\n\n");
	out("| bytes |");
	for (i = 0; i < n; i++)
		out(" %s %s |", cols[i]->name,
		    cols[i]->decrypt ? "decrypt" : "encrypt");
	out("\n|---:|");
	for (i = 0; i < n; i++)
		out("---:|");
	out("\n");
	for (l = 0; l <= IMIX; l++) {
		if (l < NLENS && bench_lens[l] > 4096)
			continue;
		if (l < NLENS)
			out("| %u |", bench_lens[l]);
		else
			out("| IMIX, per packet |");
		for (i = 0; i < n; i++)
			out(" %+.0f |", cols[i]->res[l].cycles -
			    plain_twin(cols[i])->res[l].cycles);
		out("\n");
	}
}

/* ---- the targets, from tools/bench/targets ---- */

#define MAX_TARGETS	64

/* Who a target judges, and when. */
enum target_when { WHEN_ALWAYS, WHEN_AVX512_DEFAULT, WHEN_RETURN_THUNKS };

/* One line of the targets file. */
struct target_def {
	char name[48];
	char ours[48];		/* a role or a row */
	char theirs[96];	/* a role, or rows separated by '|' */
	const char *sfx;	/* the build: "@kernel" or "" */
	bool aead;		/* op encrypt, decrypt or both; else xor */
	unsigned int dirs;	/* AEAD: BIT(0) encrypt, BIT(1) decrypt */
	bool imix;		/* sizes "imix": the IMIX point */
	unsigned int minlen, maxlen;
	double limit;
	bool cycles;		/* limit +N: ours minus theirs, in cycles */
	enum target_when when;
};

static struct target_def target_defs[MAX_TARGETS];
static unsigned int ntarget_defs;
#ifdef BENCH_TARGETS
static const char *opt_targets = BENCH_TARGETS;
#else
static const char *opt_targets = "targets";
#endif

/* The kernel's tiers, by BENCH_TIER_*: the names "tier:T" takes. */
static const char *const tier_names[] = { "ssse3", "avx2", "avx512vl" };

static int tier_index(const char *name)
{
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(tier_names); t++)
		if (!strcmp(name, tier_names[t]))
			return t;
	return -1;
}

static bool row_name_ok(const char *name)
{
	return *name && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
		strlen(name);
}

static bool ours_ok(const char *ours)
{
	if (!strncmp(ours, "tier:", 5))
		return tier_index(ours + 5) >= 0;
	return !strcmp(ours, "default") || !strcmp(ours, "tier") ||
	       !strcmp(ours, "each") || !strcmp(ours, "each-module") ||
	       row_name_ok(ours);
}

static bool theirs_ok(const char *theirs)
{
	char buf[96], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", theirs);
	for (tok = strtok_r(buf, "|", &save); tok;
	     tok = strtok_r(NULL, "|", &save))
		if (!row_name_ok(tok))
			return false;
	return *theirs && theirs[strlen(theirs) - 1] != '|';
}

static __printf(3, 4) void targets_error(const char *path, unsigned int line,
					 const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench: %s:%u: ", path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

/* One line's fields into @t; exits with the line's number on an error. */
static void parse_target(const char *path, unsigned int line, char **f,
			 unsigned int nf, struct target_def *t)
{
	unsigned int l, a, b;
	char *end;

	if (nf < 7 || nf > 8)
		targets_error(path, line, "%u fields, not 7 or 8", nf);
	if (!row_name_ok(f[0]) || strlen(f[0]) >= sizeof(t->name))
		targets_error(path, line, "bad name %s", f[0]);
	snprintf(t->name, sizeof(t->name), "%s", f[0]);
	if (!ours_ok(f[1]) || strlen(f[1]) >= sizeof(t->ours))
		targets_error(path, line, "bad ours %s", f[1]);
	snprintf(t->ours, sizeof(t->ours), "%s", f[1]);
	if (!theirs_ok(f[2]) || strlen(f[2]) >= sizeof(t->theirs))
		targets_error(path, line, "bad theirs %s", f[2]);
	snprintf(t->theirs, sizeof(t->theirs), "%s", f[2]);

	if (!strcmp(f[3], "kernel"))
		t->sfx = "@kernel";
	else if (!strcmp(f[3], "plain"))
		t->sfx = "";
	else
		targets_error(path, line, "build %s: kernel or plain", f[3]);

	if (!strcmp(f[5], "xor"))
		t->aead = false;
	else if (!strcmp(f[5], "encrypt"))
		t->dirs = BIT(0);
	else if (!strcmp(f[5], "decrypt"))
		t->dirs = BIT(1);
	else if (!strcmp(f[5], "both"))
		t->dirs = BIT(0) | BIT(1);
	else
		targets_error(path, line, "op %s: xor, encrypt, decrypt or both",
			      f[5]);
	t->aead = t->dirs != 0;

	if (!strcmp(f[4], "imix")) {
		t->imix = true;
		if (!t->aead)
			targets_error(path, line, "imix is an AEAD size");
	} else if (!strcmp(f[4], "all")) {
		t->minlen = bench_lens[0];
		t->maxlen = MAX_LEN;
	} else if (sscanf(f[4], "%u-%u", &a, &b) == 2 && a <= b) {
		t->minlen = a;
		t->maxlen = b;
		for (l = 0; l < NLENS; l++)
			if (bench_lens[l] >= a && bench_lens[l] <= b)
				break;
		if (l == NLENS)
			targets_error(path, line, "no size measured in %s",
				      f[4]);
	} else {
		targets_error(path, line, "sizes %s: A-B, all or imix", f[4]);
	}

	t->cycles = f[6][0] == '+';
	t->limit = strtod(f[6] + t->cycles, &end);
	if (*end || end == f[6] + t->cycles || t->limit <= 0)
		targets_error(path, line, "bad limit %s", f[6]);

	t->when = WHEN_ALWAYS;
	if (nf == 8 && !strcmp(f[7], "if:avx512-default"))
		t->when = WHEN_AVX512_DEFAULT;
	else if (nf == 8 && !strcmp(f[7], "if:return-thunks"))
		t->when = WHEN_RETURN_THUNKS;
	else if (nf == 8)
		targets_error(path, line, "bad condition %s", f[7]);

	if (!strcmp(t->theirs, "plain") && !*t->sfx)
		targets_error(path, line, "plain needs build kernel");
	if (!strcmp(t->theirs, "bound") && t->aead)
		targets_error(path, line, "bound is a ChaCha20 figure");
}

/* Read the targets file once, before anything is measured. */
static void read_targets(void)
{
	FILE *f = fopen(opt_targets, "r");
	char buf[512], *fields[9], *tok, *save;
	unsigned int line = 0, nf;

	if (!f) {
		perror(opt_targets);
		exit(2);
	}
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (!strchr(buf, '\n') && !feof(f))
			targets_error(opt_targets, line, "line too long");
		buf[strcspn(buf, "#\n")] = 0;
		nf = 0;
		for (tok = strtok_r(buf, " \t\r", &save); tok && nf < 9;
		     tok = strtok_r(NULL, " \t\r", &save))
			fields[nf++] = tok;
		if (!nf)
			continue;
		if (ntarget_defs == MAX_TARGETS)
			targets_error(opt_targets, line, "more than %u targets",
				      MAX_TARGETS);
		parse_target(opt_targets, line, fields, nf,
			     &target_defs[ntarget_defs++]);
	}
	fclose(f);
}

/* A row's tier (BENCH_TIER_*), or -1: SSE2 and scalar have none. */
static int row_tier(const struct subject *s)
{
	if (s->kind == KERNEL || s->kind == AKERNEL)
		return s->tier;
	if ((s->kind != MODULE && s->kind != AMODULE) || !s->impl)
		return -1;
	if (s->impl->needs & CHACHA_CPU_AVX512)
		return BENCH_TIER_AVX512VL;
	if (s->impl->needs & CHACHA_CPU_AVX2)
		return BENCH_TIER_AVX2;
	if (s->impl->needs & CHACHA_CPU_SSSE3)
		return BENCH_TIER_SSSE3;
	return -1;
}

/* A target's rows: of its kind, direction and build (libraries: any). */
static bool target_row(const struct target_def *t, const struct subject *s,
		       bool decrypt)
{
	if (t->aead != is_aead(s) || (t->aead && s->decrypt != decrypt))
		return false;
	if (!t->aead && !is_request(s))
		return false;
	return s->kind == PEER || s->kind == APEER || !strcmp(s->suffix, t->sfx);
}

/* The row named @name (@name@kernel in that build) of the target's kind. */
static const struct subject *target_named(const struct target_def *t,
					  const char *name, bool decrypt)
{
	char full[64];
	unsigned int i, k;

	for (k = 0; k < 2; k++) {
		snprintf(full, sizeof(full), "%s%s", name, k ? "" : t->sfx);
		for (i = 0; i < nsubjects; i++)
			if (target_row(t, &subjects[i], decrypt) &&
			    !strcmp(subjects[i].name, full))
				return &subjects[i];
	}
	return NULL;
}

/* Why a module implementation @name has no row here. */
static void why_no_module(const char *name, char *why, size_t size)
{
	const char *missing = NULL;
	unsigned int i;
	char impl[32];

	snprintf(impl, sizeof(impl), "%s", name + strlen("module-"));
	impl[strcspn(impl, "-")] = 0;
	for (i = 0; i < chacha_nimpls; i++)
		if (!strcmp(chacha_impls[i].name, impl) &&
		    !cpu_has_features(chacha_impls[i].needs, &missing))
			break;
	if (i < chacha_nimpls && missing)
		snprintf(why, size, "no %s: the CPU lacks %s", name, missing);
	else
		snprintf(why, size, "no row %s here", name);
}

/* The rows a line of @t judges: several only where it takes the best. */
struct target_ours {
	const struct subject *rows[AEAD_THEIRS];
	unsigned int n;
	int tier;		/* "tier": the tier; else -1 */
};

/*
 * @t's rows of ours, one line each, into @lines: "tier" one line per tier
 * (the AVX-512 rows together, the best of them judged), "each" one line
 * per row with a twin.  A line with no row says why in @why.
 */
static unsigned int target_ours_lines(const struct target_def *t,
				      bool decrypt, struct target_ours *lines,
				      char why[][96])
{
	unsigned int i, n = 0, t0, t1, tier;

	memset(lines, 0, sizeof(*lines) * MAX_SUBJECTS);
	if (!strcmp(t->ours, "each") || !strcmp(t->ours, "each-module")) {
		bool mod_only = !strcmp(t->ours, "each-module");

		for (i = 0; i < nsubjects; i++) {
			const struct subject *s = &subjects[i];

			if (!target_row(t, s, decrypt) ||
			    s->kind == PEER || s->kind == APEER ||
			    (mod_only && s->kind != MODULE &&
			     s->kind != AMODULE) ||
			    (s->kind == MODULE && !s->impl->cores[0].blocks))
				continue;
			lines[n].rows[0] = s;
			lines[n].n = 1;
			lines[n++].tier = -1;
		}
		if (!n)
			snprintf(why[n++], 96, "no %s rows", t->sfx);
		return n;
	}
	if (!strcmp(t->ours, "default")) {
		const struct subject *s = NULL;

		if (!t->aead)
			s = module_best(true, t->sfx);
		for (i = 0; t->aead && i < nsubjects; i++)
			if (target_row(t, &subjects[i], decrypt) &&
			    is_default_aead(&subjects[i], NULL)) {
				s = &subjects[i];
				break;
			}
		lines[0].rows[0] = s;
		lines[0].n = !!s;
		lines[0].tier = -1;
		snprintf(why[0], 96, "no default row");
		return 1;
	}
	if (strncmp(t->ours, "tier", 4)) {
		lines[0].rows[0] = target_named(t, t->ours, decrypt);
		lines[0].n = !!lines[0].rows[0];
		lines[0].tier = -1;
		why_no_module(t->ours, why[0], 96);
		return 1;
	}
	t0 = 0;
	t1 = ARRAY_SIZE(tier_names) - 1;
	if (t->ours[4] == ':') {
		t0 = tier_index(t->ours + 5);
		t1 = t0;
	}
	for (tier = t0; tier <= t1; tier++, n++) {
		char name[48];

		lines[n].tier = tier;
		if (tier != BENCH_TIER_AVX512VL) {
			snprintf(name, sizeof(name), "module-%s%s",
				 tier_names[tier], t->aead ? "-aead" : "");
			lines[n].rows[0] = target_named(t, name, decrypt);
			lines[n].n = !!lines[n].rows[0];
			why_no_module(name, why[n], 96);
			continue;
		}
		for (i = 0; i < nsubjects && lines[n].n < AEAD_THEIRS; i++) {
			const struct subject *s = &subjects[i];

			if (target_row(t, s, decrypt) &&
			    (t->aead ? is_avx512_aead(s, NULL) : is_avx512(s)))
				lines[n].rows[lines[n].n++] = s;
		}
		snprintf(why[n], 96,
			 "no AVX-512 row: the CPU lacks AVX512VL/BW, or no avx512 implementation");
	}
	return n;
}

/*
 * The rows @a is compared with, the fastest at each size counting, into
 * @rows; their label in @label.  0 and a reason in @label if none.
 */
static unsigned int target_theirs(const struct target_def *t,
				  const struct subject *a, bool decrypt,
				  const struct subject **rows, char *label,
				  size_t size)
{
	const struct subject *s;
	const char *missing = "?";
	unsigned int i, n = 0;
	int tier = row_tier(a);
	char buf[96], *tok, *save;

	if (!strcmp(t->theirs, "plain")) {
		snprintf(buf, sizeof(buf), "%.*s",
			 (int)(strlen(a->name) - strlen(a->suffix)), a->name);
		for (i = 0; i < nsubjects; i++)
			if (subjects[i].kind == a->kind &&
			    subjects[i].decrypt == a->decrypt &&
			    !strcmp(subjects[i].name, buf))
				rows[n++] = &subjects[i];
		snprintf(label, size, n ? "%s" : "no row %s", buf);
		return n;
	}
	if (!t->aead && (!strcmp(t->theirs, "kernel-best") ||
			 !strcmp(t->theirs, "kernel7-best"))) {
		bool v7 = t->theirs[6] == '7';

		s = kernel_best_of(true, v7, t->sfx);
		if (s)
			rows[n++] = s;
		snprintf(label, size, "%s", s ? s->name : v7 ?
			 "no kernel7 tier" : "no kernel tier");
		return n;
	}
	if (!strcmp(t->theirs, "kernel-tier") && tier < 0) {
		snprintf(label, size, "%s has no kernel tier", a->name);
		return 0;
	}
	if (!strcmp(t->theirs, "kernel-tier") && !t->aead) {
		snprintf(buf, sizeof(buf), "kernel-%s", tier_names[tier]);
		s = target_named(t, buf, decrypt);
		if (s)
			rows[n++] = s;
		else if (!kernel_runs(&kernel_impls[tier], &missing))
			snprintf(label, size, "no %s: the CPU lacks %s", buf,
				 missing);
		else
			snprintf(label, size, "no %s row", buf);
		if (s)
			snprintf(label, size, "%s", s->name);
		return n;
	}
	if (!strcmp(t->theirs, "kernel-best") ||
	    !strcmp(t->theirs, "kernel7-best") ||
	    !strcmp(t->theirs, "kernel-tier")) {
		bool tiered = t->theirs[7] == 't';
		bool v7 = t->theirs[6] == '7';

		for (i = 0; i < nsubjects && n < AEAD_THEIRS; i++) {
			s = &subjects[i];
			if (target_row(t, s, decrypt) && s->kind == AKERNEL &&
			    (!v7 || s->v7) &&
			    (!tiered || (int)s->tier == tier))
				rows[n++] = s;
		}
		if (tiered)
			snprintf(label, size, "kernel*-aead-%s%s",
				 tier_names[tier], t->sfx);
		else
			snprintf(label, size, "%s-aead-*%s",
				 v7 ? "kernel7" : "kernel*", t->sfx);
		if (!n && tiered &&
		    !kernel_runs(&kernel_impls[tier], &missing))
			snprintf(label, size,
				 "no kernel-aead-%s: the CPU lacks %s",
				 tier_names[tier], missing);
		else if (!n)
			snprintf(label, size, "no kernel AEAD rows");
		return n;
	}
	if (!strcmp(t->theirs, "libraries")) {
		label[0] = 0;
		for (i = 0; i < nsubjects && n < AEAD_THEIRS; i++) {
			s = &subjects[i];
			if (!target_row(t, s, decrypt) ||
			    (s->kind != PEER && s->kind != APEER))
				continue;
			rows[n++] = s;
			snprintf(label + strlen(label), size - strlen(label),
				 "%s%s", n > 1 ? "," : "", s->name);
		}
		if (!n)
			snprintf(label, size, "no library rows");
		return n;
	}
	if (!strcmp(t->theirs, "bound")) {
		snprintf(label, size, "(fastest core alone + F)");
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", t->theirs);
	for (tok = strtok_r(buf, "|", &save); tok && !n;
	     tok = strtok_r(NULL, "|", &save)) {
		s = target_named(t, tok, decrypt);
		if (s)
			rows[n++] = s;
	}
	snprintf(label, size, n ? "%s" : "no row %s here",
		 n ? rows[0]->name : t->theirs);
	return n;
}

/* A point of a row: a size's cycles per request, or IMIX's per packet. */
static double point_cycles(const struct subject *s, unsigned int l)
{
	return s->res[l].cycles;
}

/*
 * The worst figure of @a against the fastest of @b (or the port bound)
 * over @t's points: ratio, or cycles more.  Its point in @at; -1 if a
 * point lacks a measurement.
 */
static double target_worst(const struct target_def *t,
			   const struct subject *a,
			   const struct subject *const *b, unsigned int nb,
			   unsigned int *at)
{
	double worst = -1e300, best, v;
	unsigned int i, l, l0 = 0, l1 = NLENS - 1;
	bool bound = !strcmp(t->theirs, "bound");

	if (t->imix) {
		l0 = IMIX;
		l1 = IMIX;
	}
	for (l = l0; l <= l1; l++) {
		if (!t->imix && (bench_lens[l] < t->minlen ||
				 bench_lens[l] > t->maxlen))
			continue;
		best = bound ? core_bound(a, bench_lens[l]) : 0;
		for (i = 0; !bound && i < nb; i++)
			if (!best || point_cycles(b[i], l) < best)
				best = point_cycles(b[i], l);
		if (best <= 0 || point_cycles(a, l) <= 0)
			return -1;
		v = t->cycles ? point_cycles(a, l) - best :
			point_cycles(a, l) / best;
		if (v > worst) {
			worst = v;
			*at = l;
		}
	}
	return worst;
}

static bool return_thunks(void)
{
	return opt_ret && strcmp(opt_ret, "none");
}

/* The TARGET lines of one line of the file. */
static void print_target(const struct target_def *t)
{
	static struct target_ours lines[MAX_SUBJECTS];
	static char why[MAX_SUBJECTS][96];
	const struct subject *theirs[AEAD_THEIRS];
	unsigned int d, j, k, n, nb, best_nb = 0, at, best_at = 0;
	char label[160], best_label[160];
	const struct subject *m;
	double r, best_r;

	for (d = 0; d < 2; d++) {
		const char *dir = !t->aead ? "" : d ? ":decrypt" : ":encrypt";

		if (t->aead ? !(t->dirs & BIT(d)) : d)
			continue;
		if (t->when == WHEN_AVX512_DEFAULT &&
		    strncmp(module_default(&bench_plain)->name, "avx512", 6)) {
			out("TARGET %s%s: skipped (the default is not AVX-512 here)\n",
			    t->name, dir);
			continue;
		}
		if (t->when == WHEN_RETURN_THUNKS && !return_thunks()) {
			out("TARGET %s%s: skipped (%s)\n", t->name, dir,
			    "no return thunk: judge a run with --mitigations retpoline,srso");
			continue;
		}
		n = target_ours_lines(t, d, lines, why);
		for (k = 0; k < n; k++) {
			const char *tier = lines[k].tier < 0 ? "" :
					   tier_names[lines[k].tier];

			m = NULL;
			best_r = 0;
			snprintf(best_label, sizeof(best_label), "%s", why[k]);
			for (j = 0; j < lines[k].n; j++) {
				const struct subject *a = lines[k].rows[j];

				nb = target_theirs(t, a, d, theirs, label,
						   sizeof(label));
				if (!nb && strcmp(t->theirs, "bound")) {
					snprintf(best_label, sizeof(best_label),
						 "%s", label);
					continue;
				}
				r = target_worst(t, a, theirs, nb, &at);
				if (r < 0) {
					snprintf(best_label, sizeof(best_label),
						 nb ? "%s: not measured" :
						 "%s: no core rows", a->name);
					continue;
				}
				if (!m || r < best_r) {
					m = a;
					best_r = r;
					best_at = at;
					best_nb = nb;
					snprintf(best_label, sizeof(best_label),
						 "%s", label);
				}
			}
			if (!m) {
				out("TARGET %s%s%s%s: skipped (%s)\n", t->name,
				    *tier ? " " : "", tier, dir, best_label);
				continue;
			}
			out("TARGET %s %s%s%s%s%s%s at ", t->name, m->name,
			    t->cycles ? " - " : "/",
			    best_nb > 1 ? "min(" : "", best_label,
			    best_nb > 1 ? ")" : "", dir);
			if (t->imix)
				out("IMIX");
			else
				out("%u..%u B (worst at %u B)", t->minlen,
				    t->maxlen, bench_lens[best_at]);
			if (t->cycles)
				out(": %s %+.0f cycles (limit %+.0f)\n",
				    best_r <= t->limit ? "met" : "missed",
				    best_r, t->limit);
			else
				out(": %s %.3f (limit %.2f)\n",
				    best_r <= t->limit ? "met" : "missed",
				    best_r, t->limit);
		}
	}
}

static void print_targets(void)
{
	unsigned int i;

	out("\n### Targets (%s), F = %u charged to both sides\n\n```\n",
	    opt_targets, opt_fpu_cost);
	for (i = 0; i < ntarget_defs; i++)
		print_target(&target_defs[i]);
	out("```\n");
}

static void write_csv(const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i, l;

	if (!f) {
		perror(path);
		return;
	}
	fprintf(f, "kind,name,rounds,fpu_cost,bytes,cycles_per_call,%s\n",
		"cycles_per_byte,gb_per_s,redone,forced,op,ad_bytes");
	for (i = 0; i < nsubjects; i++) {
		const struct subject *s = &subjects[i];
		static const char * const kinds[] = {
			[MODULE] = "module", [KERNEL] = "kernel",
			[PEER] = "library", [CORE] = "core", [KCORE] = "core",
			[AMODULE] = "aead-module", [AKERNEL] = "aead-kernel",
			[APEER] = "aead-library",
		};
		const char *op = !is_aead(s) ? "xor" :
				 s->decrypt ? "decrypt" : "encrypt";

		for (l = 0; l < NLENS; l++) {
			const struct point *p = &s->res[l];
			unsigned int len = s->core_bytes ?: bench_lens[l];

			fprintf(f, "%s,%s,%u,%u,%u,%.1f,%.4f,%.3f,%u,%u,%s,%u\n",
				kinds[s->kind], s->name,
				is_aead(s) ? 20 : opt_rounds, opt_fpu_cost,
				len, p->cycles, p->cycles / len,
				gbps(p->cycles / len), p->redone, p->forced,
				op, is_aead(s) ? opt_aead_ad : 0);
			if (s->core_bytes)
				break;
		}
	}
	if (fclose(f))
		perror(path);
	else
		printf("\nCSV: %s\n", path);
}

/* Ours solid, the kernel's dashed, the libraries dotted; a colour each. */
static void plot_style(FILE *gp, const struct subject *s)
{
	static const char * const colours[] = {
		"black", "dark-green", "blue", "red", "dark-violet",
		"dark-orange", "brown", "dark-cyan", "magenta", "olive",
		"gray40", "dark-pink",
	};

	fprintf(gp, " lc rgb '%s' dt %d",
		colours[(s - subjects) % ARRAY_SIZE(colours)],
		s->kind == MODULE || s->kind == AMODULE ? 1 :
		s->kind == KERNEL || s->kind == AKERNEL ? 2 : 3);
}

/* The AEAD's plot: encrypting, the @kernel rows and the libraries. */
static bool aead_plotted(const struct subject *s)
{
	return is_aead(s) && !s->decrypt &&
	       (s->kind == APEER || !strcmp(s->suffix, "@kernel"));
}

static void plot_aead(FILE *gp)
{
	unsigned int i, l;
	bool first = true;

	fprintf(gp, "$a << EOD\n");
	for (l = 0; l < NLENS; l++) {
		fprintf(gp, "%u", bench_lens[l]);
		for (i = 0; i < nsubjects; i++)
			if (aead_plotted(&subjects[i]))
				fprintf(gp, " %.4f", per_byte(&subjects[i], l));
		fprintf(gp, "\n");
	}
	fprintf(gp, "EOD\n");
	fprintf(gp, "set logscale y 2\nset autoscale y\nset ylabel 'TSC cycles per byte'\n");
	fprintf(gp, "set title \"ChaCha20-Poly1305 encrypt, AD %u bytes: %s\" noenhanced\nplot ",
		opt_aead_ad, "the @kernel rows and the libraries");
	for (i = 0, l = 2; i < nsubjects; i++) {
		if (!aead_plotted(&subjects[i]))
			continue;
		fprintf(gp, "%s$a using 1:%u with linespoints lw 2",
			first ? "" : ", ", l++);
		first = false;
		plot_style(gp, &subjects[i]);
		fprintf(gp, " title '%s'", subjects[i].name);
	}
	fprintf(gp, "\n");
}

static void write_png(const char *path, const char *model)
{
	const struct subject *kb = kernel_best(true);
	FILE *gp = popen("gnuplot", "w");
	unsigned int i, l, col;
	bool first;
	int status;

	if (!gp) {
		perror("bench: gnuplot");
		return;
	}
	fprintf(gp, "set terminal pngcairo size 800,1440 font ',8'\n");
	fprintf(gp, "set output '%s'\n", path);
	fprintf(gp, "set multiplot layout 3,1 title \"ChaCha%u on %s, F = %u; %s\" noenhanced\n",
		opt_rounds, model, opt_fpu_cost,
		"solid: ours (module-*), dashed: the kernel's, dotted: libraries");
	fprintf(gp, "set logscale x 2\nset grid xtics ytics\n");
	fprintf(gp, "set xlabel 'bytes per request'\n");
	fprintf(gp, "set xtics (");
	for (l = 0; l < NLENS; l++)
		fprintf(gp, "%s%u", l ? ", " : "", bench_lens[l]);
	fprintf(gp, ") rotate by -45\nset xrange [%u:%u]\n",
		bench_lens[0] * 3 / 4, MAX_LEN * 3 / 2);
	fprintf(gp, "set key outside right top noenhanced\n");
	fprintf(gp, "$d << EOD\n");
	for (l = 0; l < NLENS; l++) {
		fprintf(gp, "%u", bench_lens[l]);
		for (i = 0; i < nsubjects; i++) {
			const struct subject *s = &subjects[i];
			const struct subject *b =
				kernel_best_of(true, false, s->suffix);

			if (is_request(s))
				fprintf(gp, " %.4f %.4f", per_byte(s, l),
					b ? s->res[l].cycles /
					b->res[l].cycles : 0);
		}
		fprintf(gp, "\n");
	}
	fprintf(gp, "EOD\n");

	fprintf(gp, "set logscale y 2\nset ylabel 'TSC cycles per byte'\n");
	fprintf(gp, "set title 'TSC cycles per byte'\nplot ");
	for (i = 0, col = 2; i < nsubjects; i++) {
		if (!is_request(&subjects[i]))
			continue;
		fprintf(gp, "%s$d using 1:%u with linespoints lw 2",
			col > 2 ? ", " : "", col);
		plot_style(gp, &subjects[i]);
		fprintf(gp, " title '%s'", subjects[i].name);
		col += 2;
	}
	fprintf(gp, "\n");

	fprintf(gp, "unset logscale y\nset ylabel 'ratio'\nset yrange [0.4:2]\n");
	fprintf(gp, "set title \"cycles per request / %s's %s\" noenhanced\nplot ",
		kb ? kb->name : "none",
		"of the same build (@kernel rows: its @kernel row; below 1: faster)");
	for (i = 0, col = 3, first = true; i < nsubjects; i++) {
		if (!is_request(&subjects[i]))
			continue;
		if ((subjects[i].kind == MODULE &&
		     subjects[i].impl->cores[0].blocks) ||
		    subjects[i].kind == KERNEL) {
			fprintf(gp, "%s$d using 1:%u with linespoints lw 2",
				first ? "" : ", ", col);
			first = false;
			plot_style(gp, &subjects[i]);
			fprintf(gp, " title '%s'", subjects[i].name);
		}
		col += 2;
	}
	fprintf(gp, ", 1 with lines lc rgb 'black' dt 3 notitle\n");
	plot_aead(gp);
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

/* Family, model and stepping: "AMD EPYC" alone does not say which Zen. */
static void cpu_signature(char *buf, size_t size)
{
	unsigned int eax, ebx, ecx, edx, family, model;

	asm volatile("cpuid" : "=a" (eax), "=b" (ebx), "=c" (ecx), "=d" (edx)
		     : "a" (1), "c" (0));
	family = (eax >> 8) & 0xf;
	model = (eax >> 4) & 0xf;
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	if (family >= 6)
		model |= ((eax >> 16) & 0xf) << 4;
	snprintf(buf, size, "family 0x%x model 0x%x stepping %u", family,
		 model, eax & 0xf);
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
		"  --fpu-cost F    TSC cycles charged per SIMD section: per\n"
		"                  chacha_simd_begin() of the module's path, per 4 KiB\n"
		"                  step of the kernel's and the libraries' (default 100)\n"
		"  --rounds N      20 (default) or 12; the libraries run 20 only\n"
		"  --scalar-max N, --scalar-tail N\n"
		"                  override chacha_calibrate()'s choices for module-*\n"
		"                  (e.g. 0 and 0: SIMD for everything, as on a CPU\n"
		"                  with slow scalar C)\n"
		"  --stride IMPL:BLOCKS\n"
		"                  whole strides of module-IMPL in its core of BLOCKS\n"
		"                  blocks, not the one chacha_calibrate() measured\n"
		"                  fastest (e.g. avx512:24); may be repeated\n"
		"  --mitigations IND,RET\n"
		"                  the thunks of the @kernel rows: IND one of none,\n"
		"                  its, lfence, retpoline; RET one of none, its,\n"
		"                  untrain, srso (default auto: what this machine's\n"
		"                  kernel reports in /sys/devices/system/cpu/\n"
		"                  vulnerabilities)\n"
		"  --targets FILE  the targets to judge (default tools/bench/targets)\n"
		"  --aead-ad N     bytes of AD per ChaCha20-Poly1305 message (default\n"
		"                  20, dm-crypt's; ESP has 8 or 12), at most 1024\n"
		"  --in-place      AEAD rows decrypt in place, as IPsec does: each\n"
		"                  request copies the ciphertext to its output first\n"
		"  --cpu N         the CPU to pin to (default: the last one allowed)\n"
		"  --commit ID     the commit measured, for the Markdown\n"
		"  --csv FILE      write every point as CSV\n"
		"  --md FILE       write the tables as Markdown\n"
		"  --png FILE      plot cycles per byte and ratios with gnuplot\n");
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

static void parse_mitigations(const char *arg)
{
	static char ind[32], ret[32];

	if (!strcmp(arg, "auto")) {
		opt_ind = NULL;
		opt_ret = NULL;
		return;
	}
	if (sscanf(arg, "%31[a-z],%31[a-z]", ind, ret) != 2 ||
	    bench_thunks_set(ind, ret)) {
		fprintf(stderr, "bench: bad --mitigations %s\n", arg);
		exit(2);
	}
	opt_ind = ind;
	opt_ret = ret;
}

/* The thunks of the @kernel rows: the ones asked for, or this machine's. */
static void setup_thunks(void)
{
	if (!opt_ind) {
		bench_thunks_auto(&opt_ind, &opt_ret, mitigations_why,
				  sizeof(mitigations_why));
	} else {
		snprintf(mitigations_why, sizeof(mitigations_why),
			 "forced with --mitigations");
	}
	if (bench_thunks_set(opt_ind, opt_ret)) {
		fprintf(stderr, "bench: no thunks %s,%s\n", opt_ind, opt_ret);
		exit(1);
	}
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "slack", required_argument, NULL, 's' },
		{ "fpu-cost", required_argument, NULL, 'f' },
		{ "rounds", required_argument, NULL, 'n' },
		{ "scalar-max", required_argument, NULL, 'x' },
		{ "scalar-tail", required_argument, NULL, 't' },
		{ "stride", required_argument, NULL, 'S' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "mitigations", required_argument, NULL, 'M' },
		{ "aead-ad", required_argument, NULL, 'A' },
		{ "in-place", no_argument, NULL, 'I' },
		{ "targets", required_argument, NULL, 'T' },
		{ "commit", required_argument, NULL, 'g' },
		{ "csv", required_argument, NULL, 'o' },
		{ "md", required_argument, NULL, 'm' },
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
		case 'n':
			opt_rounds = parse_uint("--rounds", optarg);
			if (opt_rounds != 20 && opt_rounds != 12) {
				fprintf(stderr, "bench: --rounds 20 or 12\n");
				exit(2);
			}
			break;
		case 'x':
			opt_scalar_max = parse_uint("--scalar-max", optarg);
			break;
		case 't':
			opt_scalar_tail = parse_uint("--scalar-tail", optarg);
			break;
		case 'S':
			if (opt_nstrides == MAX_STRIDE_OPTS ||
			    sscanf(optarg, "%15[a-z0-9]:%u",
				   opt_strides[opt_nstrides].impl,
				   &opt_strides[opt_nstrides].blocks) != 2) {
				fprintf(stderr, "bench: bad --stride %s\n",
					optarg);
				exit(2);
			}
			opt_nstrides++;
			break;
		case 'c':
			opt_cpu = parse_uint("--cpu", optarg);
			break;
		case 'M':
			parse_mitigations(optarg);
			break;
		case 'A':
			opt_aead_ad = parse_uint("--aead-ad", optarg);
			if (opt_aead_ad > MAX_AEAD_AD) {
				fprintf(stderr, "bench: --aead-ad at most %u\n",
					MAX_AEAD_AD);
				exit(2);
			}
			break;
		case 'I':
			opt_in_place = true;
			break;
		case 'T':
			opt_targets = optarg;
			break;
		case 'g':
			opt_commit = optarg;
			break;
		case 'o':
			opt_csv = optarg;
			break;
		case 'm':
			opt_md = optarg;
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
	unsigned int i, l, pass, redone = 0, forced = 0, npoints = 0;
	char model[128], sig[64];
	struct timespec t0, t1;
	const char *aead_ref;
	double load;

	parse_args(argc, argv);
	read_targets();
	read_calls();
	setup_thunks();
	setvbuf(stdout, NULL, _IOLBF, 0);
	pin_cpu();
	cpu_model(model, sizeof(model));
	cpu_signature(sig, sizeof(sig));
	setup_buffers();
	build_subjects();
	build_aead_subjects();
	aead_ref = setup_aead();
	setup_paths();
	if (opt_md) {
		md_file = fopen(opt_md, "w");
		if (!md_file)
			perror(opt_md);
	}

	cross_check();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	warm_up();
	measure_clocks();
	measure_overhead();
	calibrate_modules();
	aead_cross_check(aead_ref);
	/*
	 * Several passes, each over everything and the subjects side by side
	 * at each length, so that a slow spell of the host hits one pass of
	 * many points rather than every batch of one.
	 */
	for (pass = 0; pass < PASSES; pass++) {
		for (l = 0; l < NLENS; l++) {
			for (i = 0; i < nsubjects; i++) {
				struct subject *s = &subjects[i];

				if (s->core_bytes && l)
					continue;
				measure(s, s->core_bytes ?: bench_lens[l],
					opt_reps / PASSES, &s->res[l]);
			}
		}
		for (i = 0; i < nsubjects; i++)
			if (is_aead(&subjects[i]))
				measure(&subjects[i], IMIX_LEN,
					opt_reps / PASSES,
					&subjects[i].res[IMIX]);
	}
	for (i = 0; i < nsubjects; i++) {
		for (l = 0; l <= IMIX; l++) {
			if (l == IMIX && !is_aead(&subjects[i]))
				break;
			redone += subjects[i].res[l].redone;
			forced += subjects[i].res[l].forced;
			npoints++;
			if (subjects[i].core_bytes)
				break;
		}
		if (is_aead(&subjects[i]))
			subjects[i].res[IMIX].cycles /= IMIX_PACKETS;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	load = load_average();
	if (aead_rejected)
		printf("WARNING: %u AEAD calls refused the right tag while measured\n",
		       aead_rejected);

	out("## ChaCha%u: the module's request path beside the kernel's and the libraries'\n\n",
	    opt_rounds);
	out("- CPU %d: %s (%s); TSC %.3f GHz, core clock %.3f GHz (a chain of dependent adds)\n",
	    opt_cpu, model, sig, tsc_hz / 1e9, core_hz / 1e9);
	if (opt_commit)
		out("- commit %s\n", opt_commit);
	out("- command: `");
	for (i = 0; i < (unsigned int)argc; i++)
		out("%s%s", i ? " " : "", argv[i]);
	out("`\n");
#ifdef BENCH_WITH_KERNEL
	out("- @kernel rows: built with the flags Kbuild used for the module against %s %s",
	    KFLAGS_FROM, "(tools/bench/kflags.sh); ");
	out("thunks: indirect branches %s, returns %s (%s)\n", opt_ind, opt_ret,
	    mitigations_why);
#endif
#ifdef KERNEL_ASM_FROM
	out("- the kernel's assembly: %s\n", KERNEL_ASM_FROM);
#endif
	out("- F = %u TSC cycles per SIMD section (--fpu-cost): %s\n", opt_fpu_cost,
	    "per chacha_simd_begin() of module-*, per 4 KiB walk step of kernel-* and of the libraries");
	out("- ChaCha20-Poly1305: AD %u bytes (--aead-ad), %s%s; %s\n", opt_aead_ad,
	    "the module's and the kernel's Poly1305 F per section as well",
	    opt_in_place ? "; decrypting in place (--in-place)" : "",
	    "kernel*-aead-* leave out the template's API calls, scatterlist walks and callbacks (a lower bound)");
	out("- %u points, best of %u batches each, in %.1f s; timer overhead %llu cycles; ",
	    npoints, opt_reps, elapsed_ns(&t0, &t1) / 1e9,
	    (unsigned long long)timer_overhead);
	out("%u batches redone (a calibration reading outside %llu..%llu cycles), ",
	    redone, (unsigned long long)calib_lo,
	    (unsigned long long)calib_hi);
	out("%u taken anyway; load average %.1f\n", forced, load);

	print_tables();
	print_calibration();
	print_ratios();
	print_aead_tables();
	print_aead_ratios();
	print_packets();
	print_targets();
	if (md_file && fclose(md_file))
		perror(opt_md);
	if (opt_md)
		printf("\nMarkdown: %s\n", opt_md);
	if (opt_csv)
		write_csv(opt_csv);
	if (opt_png)
		write_png(opt_png, model);
	return 0;
}
