// SPDX-License-Identifier: GPL-2.0
/*
 * The module's CPU policy: its parameters, what the CPU has, and what
 * runs where.  Which ChaCha implementation (impl=, else the best the CPU
 * runs, with the zmm rule on x86-64 and the MIDR models on arm64), which
 * cores for small requests, tails and whole strides (measured at load;
 * stride=), the skciphers' priority (priority=, else by the same
 * models), and which Poly1305 the AEADs pair with it (poly1305=) at what
 * priority, if they are registered at all.  chacha20_main.c asks it at
 * load; the glue reads chacha_impl, what it chose.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timex.h>
#ifdef CONFIG_X86
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/cpufeature.h>
#include <asm/cputype.h>
#endif

#include "chacha20_core.h"
#include "chacha20_policy.h"
#include "chacha20poly1305_core.h"
#include "kunit/chacha20_simd_test.h"

/*
 * 400 puts the SIMD drivers above the in-tree SIMD ones (300); on arm64
 * only where the implementation in use is modelled faster than the
 * kernel's NEON code, else 250 (chacha_arm64_models[]).  The scalar
 * implementation, when it is all there is, registers at 200.  250 and 200
 * are above generic (100), below any in-tree SIMD driver.  -1: the
 * default.
 */
#define CHACHA_PRIORITY_SIMD	400
#define CHACHA_PRIORITY_SLOWER	250
#define CHACHA_PRIORITY_SCALAR	200

static int priority = -1;
module_param(priority, int, 0444);
MODULE_PARM_DESC(priority,
		 "crypto API priority of the drivers (default 400 with SIMD; on arm64 400 on Neoverse-N1, V1, V2, Cortex-A55 and A510, where a core is modelled faster than the kernel's, if every kind of CPU online is one of them, else 250, and the AEADs only where modelled faster than the kernel's template (Neoverse-V1, V2, N2 and Cortex-A510) unless this is set; 200 for scalar only; in-tree SIMD drivers use 300, generic 100)");

static char *impl;
module_param(impl, charp, 0444);
MODULE_PARM_DESC(impl,
		 "force an implementation no better than the CPU's: scalar, sse2, ssse3, avx2, avx512vl (AVX-512 on ymm), avx512 (zmm; not by default where the kernel prefers ymm: Skylake-X, Ice Lake, Tiger Lake) on x86-64; scalar, neon (6-block loop), neon4 (4-block loop; the default on Cortex-A55 and A510) on arm64 (default: best available)");

static unsigned int stride;
module_param(stride, uint, 0444);
MODULE_PARM_DESC(stride,
		 "force the core that runs whole strides, by its blocks: one of the first three cores of the implementation in use (avx512: 24, 16, 12; avx512vl: 16, 12, 8; avx2: 8, 4, 2; sse2, ssse3: 4, 2, 1; neon: 6, 4) (default 0: the fastest per byte, measured at load)");

static char *poly1305;
module_param(poly1305, charp, 0444);
MODULE_PARM_DESC(poly1305,
		 "force the AEADs' Poly1305: c, mulx (BMI2 and ADX), ifma (AVX-512 IFMA; not by default where the kernel prefers ymm), lib (the kernel's library) on x86-64; c, arm64 (mul/umulh, stitched into the NEON rounds) on arm64 (default: best available, with the kernel's library for long requests where that is faster)");

#ifdef CHACHA_TEST_HOOKS
/* kunit/ switches it between requests (CHACHA_TEST_HOOKS: see Kbuild). */
const struct chacha_impl *chacha_impl;
#else
const struct chacha_impl *chacha_impl __ro_after_init;
#endif

#ifdef CONFIG_X86_64
/*
 * The zmm policy: which AVX-512 variant is the default, "avx512" (24 and
 * 16 blocks in zmm) or "avx512vl" (the same instructions on ymm only, 16
 * blocks as two 8-block groups).  impl= forces either wherever AVX-512
 * exists.
 *
 * The kernel's own: from 6.13 on it sets X86_FEATURE_PREFER_YMM on the
 * Intel cores of its zmm_exclusion_list (arch/x86/kernel/cpu/intel.c),
 * which lower their clock while 512-bit instructions run and for a while
 * after, so that a few kilobytes of ChaCha in zmm would slow down
 * everything else on that core; its AES-XTS and AES-GCM code stays on ymm
 * there.  Before 6.13 the same list, here: Skylake-X/SP (with Cascade and
 * Cooper Lake), the Ice Lakes (server X and D, client, NNPI) and Tiger
 * Lake.  Everywhere else zmm: Rocket Lake, Sapphire Rapids and later
 * Intel cores, and AMD Zen 4 and 5 (Zen 4 splits each zmm operation in
 * two; "avx512" measured within 2% of "avx512vl" there from 4 KiB up, 12%
 * faster at 1420 bytes, 3% slower at 1024).
 */
#ifndef X86_FEATURE_PREFER_YMM
static const u8 chacha_zmm_excluded[] = {
	0x55,		/* Skylake-X/SP, Cascade Lake, Cooper Lake */
	0x6a, 0x6c,	/* Ice Lake-SP (X), Ice Lake-D */
	0x7d, 0x7e,	/* Ice Lake client */
	0x9d,		/* Ice Lake NNPI */
	0x8c, 0x8d,	/* Tiger Lake */
};
#endif

static bool chacha_prefer_zmm(void)
{
#ifdef X86_FEATURE_PREFER_YMM
	return !boot_cpu_has(X86_FEATURE_PREFER_YMM);
#else
	unsigned int i;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    boot_cpu_data.x86 != 6)
		return true;
	for (i = 0; i < ARRAY_SIZE(chacha_zmm_excluded); i++)
		if (boot_cpu_data.x86_model == chacha_zmm_excluded[i])
			return false;
	return true;
#endif
}
#endif

#ifdef CONFIG_ARM64
/*
 * The arm64 policy, big-endian kernels included: there the module has
 * only scalar C, which no model names, so the skciphers stay at
 * CHACHA_PRIORITY_SCALAR and the AEADs are not registered by default, as
 * with impl=scalar on little-endian (KUnit's ct_arm64_policy).  No arm64
 * machine has timed these cores; we have
 * llvm-mca's model of each call, loops unrolled (tools/bench/mca.sh,
 * README "arm64 (modelled)"): cycles per 4 KiB, ours over the kernel's
 * chacha-neon-core.S (6.12), in hundredths, for each CPU that has a
 * scheduling model of its own in LLVM 19.  The Cortex-A72, A76, A78 and
 * X1 run on LLVM's Cortex-A57 model and the Cortex-A710 on Neoverse-N2's:
 * not modelled.  The project's rule is never to displace a faster driver:
 * the drivers go above the in-tree NEON driver (300) only where the
 * implementation in use is modelled at 0.90 of the kernel's or better:
 * "neon" (6-block loop) on Neoverse-N1, V1 and V2; "neon4" (4-block loop)
 * on Cortex-A55 and A510, where the 6-block loop is modelled slower and
 * "neon4" is the default.  On every other CPU, Neoverse-N2 (1.15)
 * and those never modelled included, 250: above generic, below the
 * in-tree NEON driver, which plain names then reach.
 *
 * One decision for all CPUs, from the kinds of CPU online at load: 400
 * only if every one of them is modelled that fast, and "neon4" only if
 * every one prefers it.  A big.LITTLE phone (Cortex-A510 with A710 and X2
 * cores, A55 with A76) therefore gets 250: its big cores are not modelled
 * faster than the in-tree driver.
 *
 * The AEADs likewise: the one-pass ChaCha20-Poly1305 (NEON rounds with
 * mul/umulh Poly1305 woven in) over the rfc7539 template's two passes on
 * the in-tree NEON ChaCha20 and Poly1305, per 1420 and per 4096 bytes,
 * the worse of the two and of encrypting and decrypting (.aead; 0: not
 * modelled).  They are registered only where that is 0.80 or better on
 * every kind of CPU online: neon on Neoverse-V1 (0.77), V2 (0.80) and
 * N2 (0.77), neon4 on Cortex-A510 (0.62); nowhere else, since even a low
 * priority would win every lookup that finds no template instance yet.
 * Each implementation has its stitched core: neon's runs 4 NEON blocks,
 * a scalar one and two Poly1305 blocks per double round (320-byte
 * strides), after one 6-block call for block 0 (the Poly1305 key) and
 * the key stream of the text's first stride; neon4's 4 NEON blocks and
 * two Poly1305 blocks (256), after a 4-block call for block 0.  On
 * Neoverse-N1 the one multiply pipe keeps neon at 0.90, on the in-order
 * Cortex-A55 the Poly1305 costs its own cycles (neon4 0.92).
 */
struct chacha_arm64_model {
	struct midr_range midr;
	const char *cpu;
	const char *impl;	/* in chacha_impls[] */
	const char *loop;	/* its widest core */
	unsigned int ratio;	/* ours over the kernel's, in hundredths */
	unsigned int aead;	/* the AEAD's over the template's, or 0 */
};

#define CHACHA_MODEL(m, cpu, impl, loop, ratio, aead) \
	{ MIDR_ALL_VERSIONS(m), cpu, impl, loop, ratio, aead }

static const struct chacha_arm64_model chacha_arm64_models[] = {
	CHACHA_MODEL(MIDR_NEOVERSE_N1, "Neoverse-N1", "neon", "6-block", 87, 90),
	CHACHA_MODEL(MIDR_NEOVERSE_N1, "Neoverse-N1", "neon4", "4-block", 121, 105),
	CHACHA_MODEL(MIDR_NEOVERSE_V1, "Neoverse-V1", "neon", "6-block", 83, 77),
	CHACHA_MODEL(MIDR_NEOVERSE_V1, "Neoverse-V1", "neon4", "4-block", 120, 100),
	CHACHA_MODEL(MIDR_NEOVERSE_V2, "Neoverse-V2", "neon", "6-block", 83, 80),
	CHACHA_MODEL(MIDR_NEOVERSE_V2, "Neoverse-V2", "neon4", "4-block", 113, 100),
	CHACHA_MODEL(MIDR_NEOVERSE_N2, "Neoverse-N2", "neon", "6-block", 115, 77),
	CHACHA_MODEL(MIDR_NEOVERSE_N2, "Neoverse-N2", "neon4", "4-block", 120, 94),
	CHACHA_MODEL(MIDR_CORTEX_A55, "Cortex-A55", "neon", "6-block", 111, 105),
	CHACHA_MODEL(MIDR_CORTEX_A55, "Cortex-A55", "neon4", "4-block", 82, 92),
	CHACHA_MODEL(MIDR_CORTEX_A510, "Cortex-A510", "neon", "6-block", 101, 92),
	CHACHA_MODEL(MIDR_CORTEX_A510, "Cortex-A510", "neon4", "4-block", 58, 62),
};

/* The highest ratio, in hundredths, that earns CHACHA_PRIORITY_SIMD. */
#define CHACHA_MODEL_MAX_RATIO	90
/* The highest AEAD ratio, in hundredths, that registers the AEADs. */
#define CHACHAPOLY_MODEL_MAX_RATIO	80

/* The kinds of CPU online at load (their MIDRs, each once). */
#define CHACHA_MAX_MIDRS	8
static u32 chacha_midrs[CHACHA_MAX_MIDRS] __ro_after_init;
static unsigned int chacha_nmidrs __ro_after_init;

static void __init chacha_read_midr(void *midr)
{
	*(u32 *)midr = read_cpuid_id();
}

/*
 * Collect them.  More kinds than CHACHA_MAX_MIDRS: the last slot holds a
 * MIDR no model matches, so that the policy stays at 250.
 */
static void __init chacha_arm64_read_midrs(void)
{
	unsigned int i;
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		u32 midr = 0;

		if (smp_call_function_single(cpu, chacha_read_midr, &midr, 1))
			continue;
		for (i = 0; i < chacha_nmidrs; i++)
			if (chacha_midrs[i] == midr)
				break;
		if (i < chacha_nmidrs)
			continue;
		if (chacha_nmidrs == CHACHA_MAX_MIDRS) {
			chacha_midrs[CHACHA_MAX_MIDRS - 1] = 0;
			break;
		}
		chacha_midrs[chacha_nmidrs++] = midr;
	}
	cpus_read_unlock();
	if (!chacha_nmidrs)
		chacha_midrs[chacha_nmidrs++] = read_cpuid_id();
}

/* The model of implementation @name on the CPU with @midr, or NULL. */
static const struct chacha_arm64_model *
chacha_arm64_model(u32 midr, const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(chacha_arm64_models); i++) {
		const struct chacha_arm64_model *m = &chacha_arm64_models[i];

		if (compat_midr_in_range(midr, &m->midr) &&
		    !strcmp(m->impl, name))
			return m;
	}
	return NULL;
}

/* "neon4" is modelled faster than "neon" on every CPU of @midrs. */
static bool chacha_prefer_neon4(const u32 *midrs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct chacha_arm64_model *m4, *m6;

		m4 = chacha_arm64_model(midrs[i], "neon4");
		m6 = chacha_arm64_model(midrs[i], "neon");
		if (!m4 || !m6 || m4->ratio >= m6->ratio)
			return false;
	}
	return n > 0;
}

/*
 * The first CPU of @midrs on which SIMD implementation @p is not modelled
 * fast enough for CHACHA_PRIORITY_SIMD (@aead false) or for the AEADs on
 * it (@aead) (its index), or @n if none.
 */
static unsigned int chacha_arm64_slower(const struct chacha_impl *p,
					const u32 *midrs, unsigned int n,
					bool aead)
{
	unsigned int max = aead ? CHACHAPOLY_MODEL_MAX_RATIO :
				  CHACHA_MODEL_MAX_RATIO;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct chacha_arm64_model *m;
		unsigned int ratio;

		m = chacha_arm64_model(midrs[i], p->name);
		ratio = !m ? 0 : aead ? m->aead : m->ratio;
		if (!ratio || ratio > max)
			break;
	}
	return i;
}

/* The default priority of SIMD implementation @p on the CPUs of @midrs. */
static int chacha_arm64_prio(const struct chacha_impl *p, const u32 *midrs,
			     unsigned int n)
{
	if (n && chacha_arm64_slower(p, midrs, n, false) == n)
		return CHACHA_PRIORITY_SIMD;
	return CHACHA_PRIORITY_SLOWER;
}

/* For a reason in the log: whether one kind of CPU online or all decided. */
static const char *__init chacha_arm64_kinds(bool all)
{
	if (chacha_nmidrs < 2)
		return "";
	return all ? ", on every kind of CPU online" :
		     ", on one kind of CPU online";
}

/* That, on the CPUs online at load; why, in @why. */
static int __init chacha_arm64_priority(const struct chacha_impl *p,
					char *why, size_t size)
{
	unsigned int i = chacha_arm64_slower(p, chacha_midrs, chacha_nmidrs,
					      false);
	u32 midr = chacha_midrs[i < chacha_nmidrs ? i : 0];
	const struct chacha_arm64_model *m = chacha_arm64_model(midr, p->name);
	int prio = chacha_arm64_prio(p, chacha_midrs, chacha_nmidrs);
	bool faster = prio == CHACHA_PRIORITY_SIMD;
	const char *kinds = chacha_arm64_kinds(faster);

	if (!m)
		scnprintf(why, size,
			  " (no core modelled faster than the in-tree NEON on this CPU, MIDR %#010x%s)",
			  midr, kinds);
	else
		scnprintf(why, size,
			  " (%s: %s core modelled at %u.%02u of the kernel's%s%s)",
			  m->cpu, m->loop, m->ratio / 100, m->ratio % 100,
			  faster ? "" : ", not faster than the in-tree NEON",
			  kinds);
	return prio;
}

/*
 * Whether the AEADs on @ci are faster than the rfc7539 template on the
 * in-tree drivers: always on x86-64; on arm64 where they are modelled so
 * on every kind of CPU online, so never for scalar C, which big-endian
 * arm64 has alone.  Why, for the log, in @why (x86-64: nothing).
 */
static bool __init chacha_aead_modelled_faster(const struct chacha_impl *ci,
					       char *why, size_t size)
{
	unsigned int i = chacha_arm64_slower(ci, chacha_midrs,
					     chacha_nmidrs, true);
	u32 midr = chacha_midrs[i < chacha_nmidrs ? i : 0];
	const struct chacha_arm64_model *m = chacha_arm64_model(midr,
								 ci->name);
	bool faster = chacha_nmidrs && i == chacha_nmidrs;

	if (!m || !m->aead)
		scnprintf(why, size,
			  " (not modelled faster than the template on the in-tree NEON drivers on this CPU, MIDR %#010x)",
			  midr);
	else
		scnprintf(why, size,
			  " (%s: modelled at %u.%02u of the template's two passes%s%s)",
			  m->cpu, m->aead / 100, m->aead % 100,
			  faster ? "" : ", not fast enough",
			  chacha_arm64_kinds(faster));
	return faster;
}
#else
/* x86-64: the AEADs go wherever the skciphers go. */
static bool __init chacha_aead_modelled_faster(const struct chacha_impl *ci,
					       char *why, size_t size)
{
	return true;
}
#endif

unsigned int chacha_cpu_features(void)
{
	unsigned int f = 0;

#ifdef CONFIG_X86_64
	if (boot_cpu_has(X86_FEATURE_XMM2))
		f |= CHACHA_CPU_SSE2;
	if (boot_cpu_has(X86_FEATURE_SSSE3))
		f |= CHACHA_CPU_SSSE3;
	if (boot_cpu_has(X86_FEATURE_AVX) && boot_cpu_has(X86_FEATURE_AVX2) &&
	    cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL))
		f |= CHACHA_CPU_AVX2;
	/* BW for the byte masks (kmovq, vmovdqu8) of the tails. */
	if ((f & CHACHA_CPU_AVX2) && boot_cpu_has(X86_FEATURE_AVX512F) &&
	    boot_cpu_has(X86_FEATURE_AVX512VL) &&
	    boot_cpu_has(X86_FEATURE_AVX512BW) &&
	    cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
			      XFEATURE_MASK_AVX512, NULL)) {
		f |= CHACHA_CPU_AVX512;
		if (chacha_prefer_zmm())
			f |= CHACHA_CPU_PREFER_ZMM;
		if (boot_cpu_has(X86_FEATURE_AVX512IFMA))
			f |= CHACHA_CPU_IFMA;
	}
	if (boot_cpu_has(X86_FEATURE_BMI2) && boot_cpu_has(X86_FEATURE_ADX))
		f |= CHACHA_CPU_BMI2_ADX;
#endif
#ifdef CONFIG_ARM64
	if (system_supports_fpsimd() && cpu_have_named_feature(ASIMD))
		f |= CHACHA_CPU_NEON;
	if (chacha_prefer_neon4(chacha_midrs, chacha_nmidrs))
		f |= CHACHA_CPU_PREFER_NEON4;
#endif
	return f;
}

/*
 * The best implementation a CPU with the features @have runs, or the one
 * @name asks for (impl=).
 */
static const struct chacha_impl *chacha_choose_impl(unsigned int have,
						    const char *name)
{
	const struct chacha_impl *best = &chacha_impls[0];
	unsigned int i;

	for (i = 0; i < chacha_nimpls; i++) {
		const struct chacha_impl *p = &chacha_impls[i];
		bool usable = (p->needs & have) == p->needs;
		bool preferred = (p->prefer & have) == p->prefer;

		if (name && *name && sysfs_streq(name, p->name)) {
			if (usable)
				return p;
			pr_err("impl=%s: this CPU lacks what it needs\n", name);
			return ERR_PTR(-ENODEV);
		}
		if (usable && preferred)
			best = p;
	}
	if (name && *name) {
		pr_err("impl=%s: unknown implementation\n", name);
		return ERR_PTR(-EINVAL);
	}
	return best;
}

/*
 * The default priority of @p: CHACHA_PRIORITY_SIMD, on arm64 only where
 * chacha_arm64_models[] says so; CHACHA_PRIORITY_SCALAR for scalar C.
 * Why, for the log, in @why (x86: nothing).
 */
static int __init chacha_default_priority(const struct chacha_impl *p,
					  char *why, size_t size)
{
	if (!p->cores[0].blocks)
		return CHACHA_PRIORITY_SCALAR;
#ifdef CONFIG_ARM64
	return chacha_arm64_priority(p, why, size);
#else
	return CHACHA_PRIORITY_SIMD;
#endif
}

/* get_cycles(): the TSC on x86, the generic timer's counter on arm64. */
#ifdef CONFIG_X86
#define CHACHA_CLOCK_UNIT	"TSC cycles"
#else
#define CHACHA_CLOCK_UNIT	"timer ticks"
#endif

static u64 __init chacha_clock(void)
{
	return get_cycles();
}

/* What chacha_calibrate() chose for whole strides, and why. */
static void __init chacha_log_stride(const struct chacha_impl *p,
				     const struct chacha_calibration *cal)
{
	char times[96] = "";
	size_t n = 0;
	unsigned int k;

	for (k = 0; k < CHACHA_STRIDE_CHOICES && p->cores[k].blocks; k++)
		n += scnprintf(times + n, sizeof(times) - n, "%s%u-block %llu",
			       k ? ", " : "", p->cores[k].blocks,
			       cal->stride_time[k]);
	pr_info("whole strides in the %u-block core, the fastest per byte (%s per %u bytes: %s)\n",
		cal->stride_blocks, CHACHA_CLOCK_UNIT,
		CHACHA_CALIB_STRIDE_BYTES, times);
}

/* The best Poly1305 a CPU with @have runs, or the one @name asks for. */
static const struct poly1305_impl *
chachapoly_choose_poly(unsigned int have, const char *name)
{
	const struct poly1305_impl *best = &poly1305_impls[0];
	unsigned int i;

	for (i = 0; i < poly1305_nimpls; i++) {
		const struct poly1305_impl *p = &poly1305_impls[i];
		bool usable = (p->needs & have) == p->needs;

		if (name && *name && sysfs_streq(name, p->name)) {
			if (usable)
				return p;
			pr_err("poly1305=%s: this CPU lacks what it needs\n",
			       name);
			return ERR_PTR(-ENODEV);
		}
		if (usable && !p->lib && (p->prefer & have) == p->prefer)
			best = p;
	}
	if (name && *name) {
		pr_err("poly1305=%s: unknown implementation\n", name);
		return ERR_PTR(-EINVAL);
	}
	return best;
}

/*
 * The template's instance on the module's chacha20 has its priority on
 * 7.x, (its priority + poly1305's) / 2 on 6.x, where no poly1305 driver is
 * above CHACHAPOLY_POLY_PRIORITY_MAX (poly1305-simd, 300): one above the
 * higher of the two wins either lookup, whatever priority= says.
 */
#define CHACHAPOLY_POLY_PRIORITY_MAX	300

/*
 * One above max(@priority, (@priority + CHACHAPOLY_POLY_PRIORITY_MAX) / 2),
 * without overflow: chacha_policy_skciphers() rejects INT_MAX.
 */
static int __init chachapoly_priority(int priority)
{
	if (priority >= CHACHAPOLY_POLY_PRIORITY_MAX)
		return priority + 1;
	return (priority + CHACHAPOLY_POLY_PRIORITY_MAX) / 2 + 1;
}

/*
 * arm64 by default, where modelled faster than the template on the
 * in-tree drivers: the tier of a driver faster than the in-tree code
 * (the skciphers' 400), one above, whatever the skciphers got.
 */
#define CHACHAPOLY_PRIORITY_FASTER	401

int __init chacha_policy_skciphers(struct chacha_policy *pol)
{
	struct chacha_calibration cal;
	const struct chacha_impl *p;
	char why[160] = "";

#ifdef CONFIG_ARM64
	chacha_arm64_read_midrs();
#endif
	p = chacha_choose_impl(chacha_cpu_features(), impl);
	if (IS_ERR(p))
		return PTR_ERR(p);
	chacha_impl = p;
	/* The AEADs may go one above it (chachapoly_priority()). */
	if (priority == INT_MAX) {
		pr_err("priority=%d: at most %d\n", priority, INT_MAX - 1);
		return -EINVAL;
	}
	pol->priority_set = priority >= 0;
	if (priority < 0)
		priority = chacha_default_priority(p, why, sizeof(why));
	else if (IS_ENABLED(CONFIG_ARM64))
		strscpy(why, " (set by priority=)", sizeof(why));

	/*
	 * Scalar C or SIMD for small requests and last blocks, measured on
	 * the CPU that loads the module (one choice for all CPUs), which it
	 * may not leave while it measures.  The SIMD section is priced as
	 * this context pays it after the first one: like a kernel thread,
	 * with no user registers left to save (the fastest of several runs).
	 */
	migrate_disable();
	chacha_calibrate(p, chacha_clock, &cal);
	migrate_enable();
	pr_info("scalar C up to %u bytes, last block in %s (%s: scalar block %llu, %s block %llu, in a section of its own %llu)\n",
		cal.scalar_max_bytes, cal.scalar_tail_bytes ? "scalar C" : p->name,
		CHACHA_CLOCK_UNIT,
		cal.scalar_block, p->name, cal.simd_block,
		cal.simd_request_block);
	if (p->cores[0].blocks)
		chacha_log_stride(p, &cal);
	if (stride && chacha_set_stride(p, stride)) {
		pr_err("stride=%u: %s has no such stride core\n", stride,
		       p->name);
		return -EINVAL;
	}
	if (stride)
		pr_info("whole strides in the %u-block core (set by stride=)\n",
			stride);

	pr_info("using %s, priority %d%s\n", p->name, priority, why);
	pol->impl = p;
	pol->priority = priority;
	pol->poly = NULL;
	pol->aead_priority = 0;
	return 0;
}

int __init chacha_policy_aeads(struct chacha_policy *pol)
{
	const struct chacha_impl *ci = pol->impl;
	const struct poly1305_impl *pi;
	int prio = chachapoly_priority(pol->priority);
	char why[160] = "";

	pi = chachapoly_choose_poly(chacha_cpu_features(), poly1305);
	if (IS_ERR(pi))
		return PTR_ERR(pi);
	/* No core of the module's anywhere else: the template's is faster. */
	if (!IS_ENABLED(CONFIG_X86_64) && !IS_ENABLED(CONFIG_ARM64)) {
		pr_info("no ChaCha20-Poly1305 on this architecture\n");
		return 0;
	}
	/*
	 * arm64 by default: only where modelled faster than the template on
	 * the in-tree drivers, and then at CHACHAPOLY_PRIORITY_FASTER.  With
	 * priority= set: as on x86-64.
	 */
	if (!pol->priority_set &&
	    !chacha_aead_modelled_faster(ci, why, sizeof(why))) {
		pr_info("no ChaCha20-Poly1305 on %s%s\n", ci->name, why);
		return 0;
	}
	if (IS_ENABLED(CONFIG_ARM64) && pol->priority_set)
		strscpy(why, " (set by priority=)", sizeof(why));
	else if (IS_ENABLED(CONFIG_ARM64))
		prio = max(prio, CHACHAPOLY_PRIORITY_FASTER);
	if (chachapoly_poly_for(ci, pi, UINT_MAX) != pi)
		pr_info("ChaCha20-Poly1305 on %s and Poly1305 %s, the kernel's library from %u bytes, priority %d%s\n",
			ci->name, pi->name, pi->lib_from, prio, why);
	else
		pr_info("ChaCha20-Poly1305 on %s and Poly1305 %s, priority %d%s\n",
			ci->name, pi->name, prio, why);
	if (chachapoly_oneshot_max(ci, pi, true))
		pr_info("ChaCha20-Poly1305 in one pass up to %u bytes of text encrypting, %u decrypting, and %u of AD\n",
			chachapoly_oneshot_max(ci, pi, true),
			chachapoly_oneshot_max(ci, pi, false),
			CHACHAPOLY_ONESHOT_AD_MAX);
	pol->poly = pi;
	pol->aead_priority = prio;
	return 0;
}

#ifdef CHACHA_TEST_HOOKS
/* The test-only interface of kunit/chacha20_simd_test.h. */
const struct chacha_impl *chacha_test_impl(unsigned int i)
{
	const struct chacha_impl *p;

	if (i >= chacha_nimpls)
		return NULL;
	p = &chacha_impls[i];
	if ((p->needs & chacha_cpu_features()) != p->needs)
		return ERR_PTR(-ENODEV);
	return p;
}
EXPORT_SYMBOL_NS_GPL(chacha_test_impl, CHACHA_TEST_NS);

const struct chacha_impl *chacha_test_set_impl(const struct chacha_impl *p)
{
	/* Only an entry of the table that this CPU can run. */
	if (p < chacha_impls || p >= chacha_impls + chacha_nimpls ||
	    (p->needs & chacha_cpu_features()) != p->needs)
		return ERR_PTR(-EINVAL);
	return xchg(&chacha_impl, p);
}
EXPORT_SYMBOL_NS_GPL(chacha_test_set_impl, CHACHA_TEST_NS);

unsigned int chacha_test_set_stride(const struct chacha_impl *p,
				    unsigned int blocks)
{
	unsigned int prev = chacha_stride(p);

	return chacha_set_stride(p, blocks) ? 0 : prev;
}
EXPORT_SYMBOL_NS_GPL(chacha_test_set_stride, CHACHA_TEST_NS);

#ifdef CONFIG_ARM64
const struct chacha_impl *chacha_test_arm64_policy(const u32 *midrs,
						   unsigned int n,
						   const char *name, int *prio,
						   bool *aead)
{
	unsigned int have = CHACHA_CPU_NEON;
	const struct chacha_impl *p;

	if (chacha_prefer_neon4(midrs, n))
		have |= CHACHA_CPU_PREFER_NEON4;
	p = chacha_choose_impl(have, name);
	if (!IS_ERR(p)) {
		/* As chacha_default_priority(): scalar C first. */
		*prio = p->cores[0].blocks ? chacha_arm64_prio(p, midrs, n) :
					     CHACHA_PRIORITY_SCALAR;
		*aead = n && chacha_arm64_slower(p, midrs, n, true) == n;
	}
	return p;
}
EXPORT_SYMBOL_NS_GPL(chacha_test_arm64_policy, CHACHA_TEST_NS);
#endif

const struct poly1305_impl *chacha_test_poly(unsigned int i)
{
	const struct poly1305_impl *p;

	if (i >= poly1305_nimpls)
		return NULL;
	p = &poly1305_impls[i];
	/*
	 * The kernel's library is no pair of its own here: the others'
	 * requests from their lib_from on run it (and it is no Poly1305 of
	 * the module's for cp_poly1305_edges to test).
	 */
	if (p->lib)
		return ERR_PTR(-ENOENT);
	if ((p->needs & chacha_cpu_features()) != p->needs)
		return ERR_PTR(-ENODEV);
	return p;
}
EXPORT_SYMBOL_NS_GPL(chacha_test_poly, CHACHA_TEST_NS);
#endif
