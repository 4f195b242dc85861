/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ChaCha cores: the scalar C block function, HChaCha, and the table of SIMD
 * implementations with their cores.  Shared by the kernel glue and the
 * user-space harness in tests/, which builds the same sources against a
 * small shim for the few kernel headers used here.
 */
#ifndef CHACHA20_CORE_H
#define CHACHA20_CORE_H

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/init.h>
#include <linux/types.h>
#include <linux/linkage.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "compat.h"

#define CHACHA_BLOCK_BYTES	64
#define CHACHA_KEY_BYTES	32
#define CHACHA_IV_BYTES		16
#define XCHACHA_IV_BYTES	32
#define CHACHA_STATE_WORDS	16

/*
 * A SIMD core XORs exactly @blocks (>= 1) full 64-byte blocks of key stream
 * into @src, writing @dst (which may equal @src; any alignment).  Block i uses
 * the counter state[12] + i, wrapping modulo 2^32 with no carry into
 * state[13].  The core reads @state and never writes it: the caller
 * advances state[12].
 */
typedef void (*chacha_core_fn)(const u32 *state, u8 *dst, const u8 *src,
			       unsigned int nrounds);

/*
 * Optional, for a tail: the same as the core's fn, but XORs only the first
 * @len (0 < @len <= blocks * 64) bytes and reads and writes no byte of
 * @src and @dst past them (masked loads and stores), so a tail needs no
 * bounce buffer.  Block i still uses the counter state[12] + i.
 */
typedef void (*chacha_part_fn)(const u32 *state, u8 *dst, const u8 *src,
			       unsigned int nrounds, unsigned int len);

/*
 * Optional, for the stride core: @nstrides (> 0) calls of fn in one, over
 * @nstrides * blocks * 64 bytes, advancing state[12] by blocks each (the
 * only word it writes).  One call and one return for a section's strides:
 * with the kernel's return thunks each return costs.
 */
typedef void (*chacha_strides_fn)(u32 *state, u8 *dst, const u8 *src,
				  unsigned int nrounds, unsigned int nstrides);

/*
 * Optional, for the AEAD: block 0's 64 bytes of key stream into @key, with
 * nothing XORed, and the @len (<= (blocks - 1) * 64) bytes of @src XORed
 * with blocks 1 and on into @dst, as the part function does: block i
 * uses the counter state[12] + i.  Reads @state and never writes it.
 */
typedef void (*chacha_key_fn)(const u32 *state, u8 *dst, const u8 *src,
			      unsigned int nrounds, unsigned int len, u8 *key);

/* The widest stride a core may have. */
#define CHACHA_MAX_BLOCKS	24

/*
 * The tail bounce buffer's size in blocks: a core wider than this must
 * have a part function (tests/harness.c checks every table entry).
 */
#define CHACHA_BOUNCE_BLOCKS	8

struct chacha_core {
	unsigned int blocks;
	chacha_core_fn fn;
	chacha_part_fn part;	/* or NULL: tails go through a buffer */
	chacha_strides_fn strides;	/* or NULL: strides loop in C */
	chacha_key_fn key;	/* or NULL */
};

/* CPU features an implementation needs; each environment maps them. */
#define CHACHA_CPU_SSE2		BIT(0)
#define CHACHA_CPU_SSSE3	BIT(1)
#define CHACHA_CPU_AVX2		BIT(2)	/* AVX2 with YMM state enabled */
#define CHACHA_CPU_AVX512	BIT(3)	/* AVX-512F/VL/BW with ZMM state */
#define CHACHA_CPU_NEON		BIT(4)
/*
 * Not a capability but a policy: zmm beats ymm here and costs no clock
 * speed (see chacha_prefer_zmm(), chacha20_policy.c).  Only ever in
 * chacha_impl.prefer, never in .needs.
 */
#define CHACHA_CPU_PREFER_ZMM	BIT(5)
/*
 * A policy too: the NEON 4-block loop is modelled faster than the 6-block
 * one on this CPU (see chacha_arm64_models[], chacha20_policy.c).  Only
 * ever in .prefer.
 */
#define CHACHA_CPU_PREFER_NEON4	BIT(6)
/* For Poly1305 (chacha20poly1305_core.h): mulx, adcx and adox. */
#define CHACHA_CPU_BMI2_ADX	BIT(7)
/* AVX-512 IFMA (vpmadd52luq/huq), with CHACHA_CPU_AVX512. */
#define CHACHA_CPU_IFMA		BIT(8)

/* Slots for cores, the terminating entry included. */
#define CHACHA_MAX_CORES	8

/*
 * An implementation: cores in descending stride, terminated by an entry
 * with .blocks == 0.  The scalar implementation has no cores.
 */
struct chacha_impl {
	const char *name;
	unsigned int needs;
	/*
	 * Features without which the implementation is correct but is not
	 * chosen by default, only through impl= (see CHACHA_CPU_PREFER_ZMM).
	 */
	unsigned int prefer;
	struct chacha_core cores[CHACHA_MAX_CORES];
};

#ifdef __x86_64__
asmlinkage void chacha20_4block_xor_sse2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_4block_xor_ssse3(const u32 *state, u8 *dst,
					  const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_4block_xor_part_sse2(const u32 *state, u8 *dst,
					      const u8 *src,
					      unsigned int nrounds,
					      unsigned int len);
asmlinkage void chacha20_4block_xor_strides_sse2(u32 *state, u8 *dst,
						 const u8 *src,
						 unsigned int nrounds,
						 unsigned int nstrides);
asmlinkage void chacha20_4block_xor_part_ssse3(const u32 *state, u8 *dst,
					       const u8 *src,
					       unsigned int nrounds,
					       unsigned int len);
asmlinkage void chacha20_4block_xor_strides_ssse3(u32 *state, u8 *dst,
						  const u8 *src,
						  unsigned int nrounds,
						  unsigned int nstrides);
asmlinkage void chacha20_1block_xor_sse2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_1block_xor_ssse3(const u32 *state, u8 *dst,
					  const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_2block_xor_sse2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_2block_xor_ssse3(const u32 *state, u8 *dst,
					  const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_1block_xor_part_sse2(const u32 *state, u8 *dst,
					      const u8 *src,
					      unsigned int nrounds,
					      unsigned int len);
asmlinkage void chacha20_1block_xor_part_ssse3(const u32 *state, u8 *dst,
					       const u8 *src,
					       unsigned int nrounds,
					       unsigned int len);
asmlinkage void chacha20_2block_xor_avx2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_4block_xor_avx2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_2block_xor_part_avx2(const u32 *state, u8 *dst,
					      const u8 *src,
					      unsigned int nrounds,
					      unsigned int len);
asmlinkage void chacha20_4block_xor_part_avx2(const u32 *state, u8 *dst,
					      const u8 *src,
					      unsigned int nrounds,
					      unsigned int len);
asmlinkage void chacha20_8block_xor_avx2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_8block_xor_part_avx2(const u32 *state, u8 *dst,
					      const u8 *src,
					      unsigned int nrounds,
					      unsigned int len);
asmlinkage void chacha20_8block_xor_strides_avx2(u32 *state, u8 *dst,
						 const u8 *src,
						 unsigned int nrounds,
						 unsigned int nstrides);
asmlinkage void chacha20_24block_xor_avx512(const u32 *state, u8 *dst,
					    const u8 *src,
					    unsigned int nrounds);
asmlinkage void chacha20_24block_xor_part_avx512(const u32 *state, u8 *dst,
						 const u8 *src,
						 unsigned int nrounds,
						 unsigned int len);
asmlinkage void chacha20_24block_xor_strides_avx512(u32 *state, u8 *dst,
						    const u8 *src,
						    unsigned int nrounds,
						    unsigned int nstrides);
asmlinkage void chacha20_24block_xor_key_avx512(const u32 *state, u8 *dst,
						const u8 *src,
						unsigned int nrounds,
						unsigned int len, u8 *key);
asmlinkage void chacha20_16block_xor_avx512(const u32 *state, u8 *dst,
					    const u8 *src,
					    unsigned int nrounds);
asmlinkage void chacha20_16block_xor_part_avx512(const u32 *state, u8 *dst,
						 const u8 *src,
						 unsigned int nrounds,
						 unsigned int len);
asmlinkage void chacha20_16block_xor_strides_avx512(u32 *state, u8 *dst,
						    const u8 *src,
						    unsigned int nrounds,
						    unsigned int nstrides);
asmlinkage void chacha20_16block_xor_key_avx512(const u32 *state, u8 *dst,
						const u8 *src,
						unsigned int nrounds,
						unsigned int len, u8 *key);
asmlinkage void chacha20_16block_xor_avx512vl(const u32 *state, u8 *dst,
					      const u8 *src,
					      unsigned int nrounds);
asmlinkage void chacha20_16block_xor_part_avx512vl(const u32 *state, u8 *dst,
						   const u8 *src,
						   unsigned int nrounds,
						   unsigned int len);
asmlinkage void chacha20_16block_xor_strides_avx512vl(u32 *state, u8 *dst,
						      const u8 *src,
						      unsigned int nrounds,
						      unsigned int nstrides);
asmlinkage void chacha20_16block_xor_key_avx512vl(const u32 *state, u8 *dst,
						  const u8 *src,
						  unsigned int nrounds,
						  unsigned int len, u8 *key);
asmlinkage void chacha20_12block_xor_avx512vl(const u32 *state, u8 *dst,
					      const u8 *src,
					      unsigned int nrounds);
asmlinkage void chacha20_12block_xor_part_avx512vl(const u32 *state, u8 *dst,
						   const u8 *src,
						   unsigned int nrounds,
						   unsigned int len);
asmlinkage void chacha20_12block_xor_strides_avx512vl(u32 *state, u8 *dst,
						      const u8 *src,
						      unsigned int nrounds,
						      unsigned int nstrides);
asmlinkage void chacha20_12block_xor_key_avx512vl(const u32 *state, u8 *dst,
						  const u8 *src,
						  unsigned int nrounds,
						  unsigned int len, u8 *key);
asmlinkage void chacha20_8block_xor_avx512vl(const u32 *state, u8 *dst,
					     const u8 *src,
					     unsigned int nrounds);
asmlinkage void chacha20_8block_xor_part_avx512vl(const u32 *state, u8 *dst,
						  const u8 *src,
						  unsigned int nrounds,
						  unsigned int len);
asmlinkage void chacha20_8block_xor_strides_avx512vl(u32 *state, u8 *dst,
						     const u8 *src,
						     unsigned int nrounds,
						     unsigned int nstrides);
asmlinkage void chacha20_8block_xor_key_avx512vl(const u32 *state, u8 *dst,
						 const u8 *src,
						 unsigned int nrounds,
						 unsigned int len, u8 *key);
asmlinkage void chacha20_4block_xor_avx512vl(const u32 *state, u8 *dst,
					     const u8 *src,
					     unsigned int nrounds);
asmlinkage void chacha20_4block_xor_part_avx512vl(const u32 *state, u8 *dst,
						  const u8 *src,
						  unsigned int nrounds,
						  unsigned int len);
asmlinkage void chacha20_2block_xor_avx512vl(const u32 *state, u8 *dst,
					     const u8 *src,
					     unsigned int nrounds);
asmlinkage void chacha20_2block_xor_part_avx512vl(const u32 *state, u8 *dst,
						  const u8 *src,
						  unsigned int nrounds,
						  unsigned int len);
#endif

#if defined(__aarch64__) && !defined(__AARCH64EB__)
/* 6-block: four blocks in NEON registers and two on the integer ALUs. */
asmlinkage void chacha20_6block_xor_neon(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_4block_xor_neon(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
#endif

/* All implementations, lowest first; chacha_impls[0] is scalar. */
extern const struct chacha_impl chacha_impls[];
extern const unsigned int chacha_nimpls;

/* @n little-endian 32-bit words at @src, any alignment, into @dst. */
static __always_inline void chacha_le32_words(u32 *dst, const u8 *src,
					      unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		__le32 w;

		memcpy(&w, src + 4 * i, sizeof(w));
		dst[i] = le32_to_cpu(w);
	}
}

/* The state's constant and @key: words 0-11. */
static __always_inline void chacha_init_key(u32 *state, const u32 *key)
{
	/* "expand 32-byte k" */
	state[0] = 0x61707865;
	state[1] = 0x3320646e;
	state[2] = 0x79622d32;
	state[3] = 0x6b206574;
	memcpy(&state[4], key, CHACHA_KEY_BYTES);
}

/*
 * The state for @key and the 16-byte @iv: the block counter state[12],
 * then the nonce, little endian.  Inline: every request starts here, and
 * a call would cost a return through the kernel's thunk.
 */
static __always_inline void chacha_init_state(u32 *state, const u32 *key,
					      const u8 *iv)
{
	chacha_init_key(state, key);
	chacha_le32_words(&state[12], iv, 4);
}

/*
 * The ChaCha permutation, @nrounds rounds in place on @x: inline here,
 * for the AEAD's block 0 too, which so makes no call.
 */
static __always_inline void chacha_qr(u32 *x, int a, int b, int c, int d)
{
	x[a] += x[b];
	x[d] = rol32(x[d] ^ x[a], 16);
	x[c] += x[d];
	x[b] = rol32(x[b] ^ x[c], 12);
	x[a] += x[b];
	x[d] = rol32(x[d] ^ x[a], 8);
	x[c] += x[d];
	x[b] = rol32(x[b] ^ x[c], 7);
}

static __always_inline void chacha_permute(u32 *x, unsigned int nrounds)
{
	unsigned int i;

	for (i = 0; i < nrounds; i += 2) {
		chacha_qr(x, 0, 4, 8, 12);
		chacha_qr(x, 1, 5, 9, 13);
		chacha_qr(x, 2, 6, 10, 14);
		chacha_qr(x, 3, 7, 11, 15);
		chacha_qr(x, 0, 5, 10, 15);
		chacha_qr(x, 1, 6, 11, 12);
		chacha_qr(x, 2, 7, 8, 13);
		chacha_qr(x, 3, 4, 9, 14);
	}
}

/*
 * memzero_explicit() of @len bytes at @p, a multiple of 8 known at build
 * time, as stores of 8: the kernel's flags make a short memset() a rep
 * stos, whose start-up each block or request would pay.  The barrier
 * after each store keeps the compiler from making the loop a memset()
 * again.
 */
static __always_inline void chacha_wipe8(void *p, unsigned int len)
{
	unsigned int i;
	u64 z = 0;

	for (i = 0; i < len; i += sizeof(z)) {
		memcpy((u8 *)p + i, &z, sizeof(z));
		barrier_data(p);
	}
}

#ifndef __KERNEL__
/* One key stream block: the user-space tests' only (the module has none). */
void chacha_block_scalar(const u32 *state, u8 *out, unsigned int nrounds);
#endif
void hchacha_block_scalar(const u32 *state, u32 *out, unsigned int nrounds);

/* Most implementations, the scalar one included, in chacha_impls[]. */
#define CHACHA_MAX_IMPLS	8

/*
 * Whole strides run in one of an implementation's first
 * CHACHA_STRIDE_CHOICES cores, the one chacha_calibrate() measured
 * fastest per byte on this CPU (or chacha_set_stride() forced): the
 * widest is not always the fastest (on Intel the 24-block zmm core is
 * slower per byte than the 16-block one; on Zen 4 it is faster).
 */
#define CHACHA_STRIDE_CHOICES	3

/*
 * Run whole strides of @impl (an entry of chacha_impls[]) in its core of
 * @blocks blocks, one of its first CHACHA_STRIDE_CHOICES; -EINVAL,
 * changing nothing, if it has none.  In the kernel only at init, unless
 * CHACHA_TEST_HOOKS.
 */
int chacha_set_stride(const struct chacha_impl *impl, unsigned int blocks);
/* The blocks of the core that runs @impl's whole strides (0: scalar). */
unsigned int chacha_stride(const struct chacha_impl *impl);

/*
 * The most blocks a core wider than the stride may leave unused where one
 * call of it takes the place of a stride and a tail.  A core costs about
 * the same per call with a block more: its rounds are bound by latency.
 */
#define CHACHA_WIDE_IDLE_BLOCKS	3

/*
 * Whether @len bytes fill a core of @blocks blocks but for at most
 * CHACHA_WIDE_IDLE_BLOCKS: then, where they are more than a stride, one
 * call of that core beats a stride and a tail.
 */
static __always_inline bool chacha_core_fills(unsigned int blocks,
					      unsigned int len)
{
	return len > (blocks - CHACHA_WIDE_IDLE_BLOCKS - 1) * CHACHA_BLOCK_BYTES &&
	       len <= blocks * CHACHA_BLOCK_BYTES;
}

/*
 * XOR @len bytes using @impl's stride core (chacha_stride()) for whole
 * strides, then one call of the narrowest core that covers the tail (its
 * partial entry point, or through a stack buffer, when the tail is shorter
 * than its stride), except that a tail of at most
 * chacha_scalar_tail_bytes runs in scalar C; advances state[12] by the
 * number of blocks begun.  More than a stride that fills @impl's widest
 * core (chacha_core_fills()) takes one call of that core's part entry,
 * where it has one.  The caller owns any FPU section around it.
 */
void chacha_crypt_impl(const struct chacha_impl *impl, u32 *state, u8 *dst,
		       const u8 *src, unsigned int len, unsigned int nrounds);

/* Most bytes handled in one SIMD section, so preemption is never held off for long. */
#define CHACHA_SIMD_CHUNK	4096

/*
 * The choices between scalar C and SIMD, set by chacha_calibrate() (the
 * glue runs it once at module load, on one CPU, for all CPUs): requests
 * of at most chacha_scalar_max_bytes run in scalar C with no SIMD section,
 * and inside a section a last block of at most chacha_scalar_tail_bytes
 * (0 or 64) runs in scalar C rather than in a core.  Scalar C costs 3.3 cycles per
 * byte on a Zen 4 and 6.8 on a Zen 3, so no fixed threshold fits both.
 */
extern unsigned int chacha_scalar_max_bytes;
extern unsigned int chacha_scalar_tail_bytes;

/*
 * Whether a request of @len bytes through @impl runs in SIMD sections
 * rather than in scalar C: the one decision of chacha_crypt_request(),
 * which the AEAD's request path shares.
 */
static inline bool chacha_request_simd(const struct chacha_impl *impl,
				       unsigned int len, bool simd_usable)
{
	return len > chacha_scalar_max_bytes && impl->cores[0].blocks &&
	       simd_usable;
}

/* What chacha_calibrate() measured, in its clock's units, and chose. */
struct chacha_calibration {
	u64 scalar_block;	/* one block in scalar C */
	u64 simd_block;		/* one block through @impl, no section */
	u64 simd_request_block;	/* one block in a SIMD section of its own */
	/*
	 * CHACHA_CALIB_STRIDE_BYTES in whole strides of core k of @impl,
	 * inside a section (0: no such core)
	 */
	u64 stride_time[CHACHA_STRIDE_CHOICES];
	unsigned int scalar_max_bytes;
	unsigned int scalar_tail_bytes;
	unsigned int stride_blocks;	/* chacha_stride() chosen */
};

#define CHACHA_CALIB_TRIALS	32
#define CHACHA_CALIB_MAX_BYTES	256
/* 48 blocks: whole strides of 24, 16, 12, 8, 6, 4 and 2 blocks alike. */
#define CHACHA_CALIB_STRIDE_BYTES	(48 * CHACHA_BLOCK_BYTES)
/*
 * A wider stride core is chosen only if it is faster per byte than every
 * narrower candidate by more than 1 / CHACHA_CALIB_STRIDE_MARGIN.
 */
#define CHACHA_CALIB_STRIDE_MARGIN	32

/*
 * Time scalar C against @impl (the fastest of CHACHA_CALIB_TRIALS runs
 * each, in @clock's units) and set the two choices above: a single block
 * inside a section, then whole requests of 64, 128, ... bytes, each SIMD
 * run paying chacha_simd_begin() and chacha_simd_end(), up to the first
 * length at which scalar C no longer wins.  Then time each of @impl's
 * stride choices over CHACHA_CALIB_STRIDE_BYTES, by turns, and set
 * chacha_stride(@impl) to the fastest (a wider one only by the margin).
 */
void __init chacha_calibrate(const struct chacha_impl *impl,
			     u64 (*clock)(void), struct chacha_calibration *c);

/*
 * What the caller of chacha_simd_begin() keeps on its stack until
 * chacha_simd_end(): on arm64 from Linux 6.19 on, the buffer that
 * kernel_neon_begin() saves the kernel-mode FP/SIMD state into if the
 * task is preempted; elsewhere nothing.
 */
struct chacha_simd_save {
#ifdef COMPAT_KERNEL_NEON_BUFFER
	struct user_fpsimd_state fpsimd;
#endif
};

/*
 * The environment's SIMD section; @save is the same for both calls of
 * one section.  In the kernel, kernel_fpu_begin()/end() (arm64:
 * kernel_neon_begin()/end()), inline, so that a section costs the module
 * no more calls than the in-tree drivers pay.  In user space the harness
 * defines them as no-ops and the benchmark as a charged price.
 */
#ifdef __KERNEL__
#ifdef CONFIG_X86
#include <asm/fpu/api.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/neon.h>
#endif
#ifdef CHACHA_TEST_HOOKS
#include <linux/percpu.h>
/* SIMD sections entered, for kunit/ (chacha20_main.c). */
DECLARE_PER_CPU(unsigned long, chacha_simd_sections);
#endif

static __always_inline void chacha_simd_begin(struct chacha_simd_save *save)
{
#ifdef CONFIG_X86
	kernel_fpu_begin();
#endif
#ifdef COMPAT_KERNEL_NEON_BUFFER
	kernel_neon_begin(&save->fpsimd);
#elif defined(CONFIG_ARM64)
	kernel_neon_begin();
#endif
#ifdef CHACHA_TEST_HOOKS
	this_cpu_inc(chacha_simd_sections);
#endif
}

static __always_inline void chacha_simd_end(struct chacha_simd_save *save)
{
#ifdef CONFIG_X86
	kernel_fpu_end();
#endif
#ifdef COMPAT_KERNEL_NEON_BUFFER
	kernel_neon_end(&save->fpsimd);
#elif defined(CONFIG_ARM64)
	kernel_neon_end();
#endif
}
#else
void chacha_simd_begin(struct chacha_simd_save *save);
void chacha_simd_end(struct chacha_simd_save *save);
#endif

/*
 * The module's request path: XOR @len bytes at the position given by
 * @state, advancing its counter.  Decides between scalar C and @impl's
 * SIMD cores (chacha_scalar_max_bytes, @simd_usable) and cuts SIMD work into
 * sections of at most CHACHA_SIMD_CHUNK bytes, each between
 * chacha_simd_begin() and chacha_simd_end().  The glue calls exactly this;
 * so do the harness and the benchmark.
 */
void chacha_crypt_request(const struct chacha_impl *impl, u32 *state, u8 *dst,
			  const u8 *src, unsigned int len, unsigned int nrounds,
			  bool simd_usable);

#endif /* CHACHA20_CORE_H */
