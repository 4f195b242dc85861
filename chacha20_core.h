/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ChaCha cores: the scalar C block function, HChaCha, and the table of SIMD
 * implementations with their cores.  Shared by the kernel glue and the
 * user-space harness in tests/, which builds the same sources against a
 * small shim for the few kernel headers used here.
 */
#ifndef CHACHA20_CORE_H
#define CHACHA20_CORE_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/linkage.h>

#define CHACHA_BLOCK_BYTES	64
#define CHACHA_KEY_BYTES	32
#define CHACHA_IV_BYTES		16
#define XCHACHA_IV_BYTES	32
#define CHACHA_STATE_WORDS	16

/*
 * A SIMD core XORs exactly @blocks (> 1) full 64-byte blocks of key stream
 * into @src, writing @dst (which may equal @src; any alignment).  Block i uses
 * the counter state[12] + i, wrapping modulo 2^32 with no carry into
 * state[13].  The core reads @state and never writes it: the caller
 * advances state[12].
 */
typedef void (*chacha_core_fn)(const u32 *state, u8 *dst, const u8 *src,
			       unsigned int nrounds);

/* The widest stride a core may have (the tail bounce buffer's size). */
#define CHACHA_MAX_BLOCKS	8

struct chacha_core {
	unsigned int blocks;
	chacha_core_fn fn;
};

/* CPU features an implementation needs; each environment maps them. */
#define CHACHA_CPU_SSE2		BIT(0)
#define CHACHA_CPU_SSSE3	BIT(1)
#define CHACHA_CPU_AVX2		BIT(2)	/* AVX2 with YMM state enabled */
#define CHACHA_CPU_AVX512	BIT(3)	/* AVX-512F/VL with ZMM state */
#define CHACHA_CPU_NEON		BIT(4)

#define CHACHA_MAX_CORES	4

/*
 * An implementation: cores in descending stride, terminated by an entry
 * with .blocks == 0.  The scalar implementation has no cores.
 */
struct chacha_impl {
	const char *name;
	unsigned int needs;
	struct chacha_core cores[CHACHA_MAX_CORES];
};

#ifdef __x86_64__
asmlinkage void chacha20_4block_xor_sse2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_4block_xor_ssse3(const u32 *state, u8 *dst,
					  const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_4block_xor_avx2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
asmlinkage void chacha20_8block_xor_avx2(const u32 *state, u8 *dst,
					 const u8 *src, unsigned int nrounds);
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

void chacha_init_state(u32 *state, const u32 *key, const u8 *iv);
void chacha_block_scalar(const u32 *state, u8 *out, unsigned int nrounds);
void hchacha_block_scalar(const u32 *state, u32 *out, unsigned int nrounds);

/*
 * XOR @len bytes using @impl's widest core for whole strides, one call of
 * the narrowest core that covers a tail of more than one block, and scalar
 * C for a tail of one block or less; advances state[12] by the number of
 * blocks begun.  The caller owns any FPU section around it.
 */
void chacha_crypt_impl(const struct chacha_impl *impl, u32 *state, u8 *dst,
		       const u8 *src, unsigned int len, unsigned int nrounds);

/* Most bytes handled in one SIMD section, so preemption is never held off for long. */
#define CHACHA_SIMD_CHUNK	4096

/*
 * Requests of at most this many bytes run in scalar C: up to two blocks,
 * scalar C beats an FPU section plus one 4-block call (tools/bench).
 */
#define CHACHA_SCALAR_MAX_BYTES	128

/*
 * The environment's SIMD section: kernel_fpu_begin()/end() (or
 * kernel_neon_begin()/end()) in the module, a no-op in the harness, a
 * charged cost in the benchmark.  Each user of chacha_crypt_request()
 * defines both.
 */
void chacha_simd_begin(void);
void chacha_simd_end(void);

/*
 * The module's request path: XOR @len bytes at the position given by
 * @state, advancing its counter.  Decides between scalar C and @impl's
 * SIMD cores (size threshold, @simd_usable) and cuts SIMD work into
 * sections of at most CHACHA_SIMD_CHUNK bytes, each between
 * chacha_simd_begin() and chacha_simd_end().  The glue calls exactly this;
 * so do the harness and the benchmark.
 */
void chacha_crypt_request(const struct chacha_impl *impl, u32 *state, u8 *dst,
			  const u8 *src, unsigned int len, unsigned int nrounds,
			  bool simd_usable);

#endif /* CHACHA20_CORE_H */
