/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scalar Poly1305 (RFC 8439 section 2.5) in C: the accumulator in three
 * 64-bit limbs, r in two, 64 x 64 -> 128-bit products.  For the one-pass
 * ChaCha20-Poly1305 to come, which feeds whole 16-byte blocks across the
 * steps of a scatterlist walk, the block interface is resumable: any
 * number of oot_poly1305_blocks() calls between init and emit.  The
 * buffered interface below it takes any lengths, for the tests.
 *
 * The functions carry the prefix oot_, as the drivers carry the suffix
 * -oot: the kernel exports poly1305_core_blocks() and poly1305_core_emit()
 * of its own, with other prototypes (<crypto/internal/poly1305.h>), and
 * two functions of one name would confuse kallsyms, ftrace and kprobes.
 * make symbols-check fails on any global name a kernel also has.
 */
#ifndef POLY1305_CORE_H
#define POLY1305_CORE_H

#include <linux/linkage.h>
#include <linux/types.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#define POLY1305_CORE_BLOCK_BYTES	16
#define POLY1305_CORE_KEY_BYTES		32
#define POLY1305_CORE_MAC_BYTES		16

/*
 * h: the accumulator, h[0] + h[1] * 2^64 + h[2] * 2^128, only partially
 * reduced (h[2] <= 4 between calls); r: the clamped first key half;
 * s: the second key half, added at the end.
 */
struct poly1305_core_state {
	u64 h[3];
	u64 r[2];
	u64 s[2];
};

/* The little-endian 64-bit word at @p, any alignment. */
static __always_inline u64 oot_poly1305_le64(const u8 *p)
{
	__le64 w;

	memcpy(&w, p, sizeof(w));
	return le64_to_cpu(w);
}

/*
 * Clamp r, take s, clear the accumulator.  Inline: every AEAD request
 * starts here, and a call would cost a return through the kernel's thunk.
 */
static __always_inline void
oot_poly1305_init(struct poly1305_core_state *st,
		  const u8 key[POLY1305_CORE_KEY_BYTES])
{
	/* r &= 0x0ffffffc0ffffffc0ffffffc0fffffff */
	st->r[0] = oot_poly1305_le64(key) & 0x0ffffffc0fffffffULL;
	st->r[1] = oot_poly1305_le64(key + 8) & 0x0ffffffc0ffffffcULL;
	st->s[0] = oot_poly1305_le64(key + 16);
	st->s[1] = oot_poly1305_le64(key + 24);
	st->h[0] = 0;
	st->h[1] = 0;
	st->h[2] = 0;
}

/*
 * Absorb @nblocks whole 16-byte blocks of @src (any alignment).  @hibit
 * is 1 for message blocks (2^128 added to each), 0 only for a last
 * partial block that the caller has padded with 0x01 and then zeros.
 */
void oot_poly1305_blocks(struct poly1305_core_state *st, const u8 *src,
			 unsigned int nblocks, u32 hibit);

/*
 * The tag: h reduced modulo 2^130 - 5, plus s modulo 2^128, little
 * endian.  Constant time; @st is left as it was (the caller wipes it).
 */
void oot_poly1305_emit(const struct poly1305_core_state *st,
		       u8 mac[POLY1305_CORE_MAC_BYTES]);

/*
 * oot_poly1305_blocks(@st, @src, @nblocks, 1), then oot_poly1305_emit(@st,
 * @mac), in one call: the last blocks of a message and its tag, with one
 * return where the kernel's return thunks make each cost.
 */
void oot_poly1305_blocks_emit(struct poly1305_core_state *st, const u8 *src,
			      unsigned int nblocks,
			      u8 mac[POLY1305_CORE_MAC_BYTES]);

#ifdef __x86_64__
/*
 * oot_poly1305_blocks() in assembly with mulx and adcx/adox
 * (poly1305-x86_64.S), on the same state: the caller checks that the CPU
 * has BMI2 and ADX.  Uses no vector register.
 */
asmlinkage void oot_poly1305_blocks_x86_64_mulx(struct poly1305_core_state *st,
						const u8 *src,
						unsigned int nblocks, u32 hibit);

/*
 * oot_poly1305_blocks_emit() with mulx (poly1305-x86_64.S), the same
 * contract; BMI2 and ADX as above.
 */
asmlinkage void
oot_poly1305_blocks_emit_x86_64_mulx(struct poly1305_core_state *st,
				     const u8 *src, unsigned int nblocks,
				     u8 mac[POLY1305_CORE_MAC_BYTES]);

/*
 * oot_poly1305_blocks() in AVX-512 IFMA (poly1305-avx512ifma-x86_64.S),
 * eight blocks at a time: the same contract and the same state, so any of
 * the block functions may take the next blocks and oot_poly1305_emit()
 * the tag.  Needs AVX512F, AVX512VL and AVX512IFMA, between
 * kernel_fpu_begin() and kernel_fpu_end().
 */
asmlinkage void oot_poly1305_blocks_avx512ifma(struct poly1305_core_state *st,
					       const u8 *src, unsigned int nblocks,
					       u32 hibit);

/* oot_poly1305_blocks_emit() with IFMA, the same file; as above. */
asmlinkage void
oot_poly1305_blocks_emit_avx512ifma(struct poly1305_core_state *st,
				    const u8 *src, unsigned int nblocks,
				    u8 mac[POLY1305_CORE_MAC_BYTES]);
#endif

#if defined(__aarch64__) && !defined(__AARCH64EB__)
/*
 * oot_poly1305_blocks() in arm64 assembly with mul and umulh
 * (poly1305-arm64.S), on the same state.  Uses no vector register.
 */
asmlinkage void oot_poly1305_blocks_arm64(struct poly1305_core_state *st,
					  const u8 *src, unsigned int nblocks,
					  u32 hibit);
#endif

/* Any lengths: whole blocks go straight through, the rest is buffered. */
struct poly1305_core_ctx {
	struct poly1305_core_state st;
	u8 buf[POLY1305_CORE_BLOCK_BYTES];
	unsigned int buflen;
};

void oot_poly1305_ctx_init(struct poly1305_core_ctx *ctx,
			   const u8 key[POLY1305_CORE_KEY_BYTES]);
void oot_poly1305_update(struct poly1305_core_ctx *ctx, const u8 *src,
			 unsigned int len);
/* The tag of everything fed to @ctx; wipes @ctx. */
void oot_poly1305_final(struct poly1305_core_ctx *ctx,
			u8 mac[POLY1305_CORE_MAC_BYTES]);

#endif /* POLY1305_CORE_H */
