// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the harness and the constant-time check.
 */
#include <string.h>
#ifdef __aarch64__
#include <sys/auxv.h>
#endif

#include <linux/compiler_attributes.h>
#include <linux/kernel.h>

#include "testutil.h"

struct cpu_feature {
	unsigned int bit;
	const char *name;
	bool (*present)(void);
};

#ifdef __x86_64__
/* __builtin_cpu_supports() needs a string literal, hence one per feature. */
static bool has_sse2(void)
{
	return __builtin_cpu_supports("sse2");
}

static bool has_ssse3(void)
{
	return __builtin_cpu_supports("ssse3");
}

/* libgcc reports AVX features only when the OS saves the YMM/ZMM state. */
static bool has_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}

/* The AVX-512 cores use F, VL, and BW for their byte masks. */
static bool has_avx512(void)
{
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("avx512bw");
}

static bool has_bmi2_adx(void)
{
	return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
}

static bool has_ifma(void)
{
	return __builtin_cpu_supports("avx512ifma");
}

static const struct cpu_feature cpu_features[] = {
	{ CHACHA_CPU_SSE2, "sse2", has_sse2 },
	{ CHACHA_CPU_SSSE3, "ssse3", has_ssse3 },
	{ CHACHA_CPU_AVX2, "avx2", has_avx2 },
	{ CHACHA_CPU_AVX512, "AVX-512", has_avx512 },
	{ CHACHA_CPU_BMI2_ADX, "bmi2+adx", has_bmi2_adx },
	{ CHACHA_CPU_IFMA, "avx512ifma", has_ifma },
};
#elif defined(__aarch64__)
/* What the kernel reports: Linux's HWCAP_ASIMD. */
static bool has_neon(void)
{
	return getauxval(AT_HWCAP) & HWCAP_ASIMD;
}

static const struct cpu_feature cpu_features[] = {
	{ CHACHA_CPU_NEON, "neon", has_neon },
};
#else
static const struct cpu_feature cpu_features[] = {
	{ 0, NULL, NULL },
};
#endif

bool cpu_has_features(unsigned int needs, const char **missing)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpu_features); i++) {
		const struct cpu_feature *f = &cpu_features[i];

		if (!f->bit || !(needs & f->bit))
			continue;
		needs &= ~f->bit;
		if (!f->present()) {
			if (missing)
				*missing = f->name;
			return false;
		}
	}
	/* A feature bit this file does not know cannot be assumed. */
	if (needs) {
		if (missing)
			*missing = "a CHACHA_CPU_* feature unknown to the tests";
		return false;
	}
	return true;
}

u32 get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

void put_le32(u8 *p, u32 v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

void chacha_setup(u32 *state, const u8 *key, const u8 *iv)
{
	u32 kw[CHACHA_KEY_BYTES / 4];
	unsigned int i;

	for (i = 0; i < CHACHA_KEY_BYTES / 4; i++)
		kw[i] = get_le32(key + 4 * i);
	chacha_init_state(state, kw, iv);
}

void xchacha_setup(u32 *state, const u8 *key, const u8 *iv,
		   unsigned int nrounds)
{
	u32 subkey[CHACHA_KEY_BYTES / 4];
	u8 real_iv[CHACHA_IV_BYTES];

	chacha_setup(state, key, iv);
	hchacha_block_scalar(state, subkey, nrounds);
	memcpy(&real_iv[0], iv + 24, 8);	/* block counter */
	memcpy(&real_iv[8], iv + 16, 8);	/* last 64 nonce bits */
	chacha_init_state(state, subkey, real_iv);
}

/*
 * chacha_crypt_request()'s SIMD section: user space needs none.  Weak, so
 * that the benchmark can charge a cost of its own instead.
 */
__weak void chacha_simd_begin(struct chacha_simd_save *save __always_unused)
{
}

__weak void chacha_simd_end(struct chacha_simd_save *save __always_unused)
{
}
