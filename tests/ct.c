// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time check, to be run under valgrind memcheck:
 *
 *   valgrind --error-exitcode=1 --partial-loads-ok=no -q ct
 *
 * The key and nonce words of every state are marked undefined, so any
 * branch or memory address that depends on them is reported by memcheck
 * ("Conditional jump or move depends on uninitialised value(s)", "Use of
 * uninitialised value").  Every core of every implementation this CPU (as
 * valgrind presents it) can run, chacha_crypt_impl() over lengths that use
 * each core and a partial tail, chacha_block_scalar(), hchacha_block_scalar()
 * and the whole XChaCha set-up go through that, and so does Poly1305
 * (poly1305_core.c) with a secret key and message, its final reduction
 * from h in every range, and oot_poly1305_blocks_x86_64_mulx()
 * (poly1305-x86_64.S) where the CPU has BMI2 and ADX, from a secret h in
 * every range too.  Outputs are discarded, never branched on.
 *
 * The data of each call sits in heap blocks of exactly its length, so that
 * memcheck also reports any read or write past either end of src or dst.
 *
 *   ct --ct-selftest=index|branch
 *	deliberately leak a key byte through a table index or a branch, to
 *	show that this check can fail: valgrind must report an error.
 *
 *   ct --probe-mulx
 *	exit 0 if the CPU has BMI2 and ADX, 1 if not, and check nothing.
 *	valgrind (3.19 at least) runs mulx, adcx and adox but does not
 *	present ADX in CPUID, so tests/Makefile asks outside valgrind and
 *	passes --mulx to the run under valgrind if the CPU has both.
 *   ct --mulx
 *	check oot_poly1305_blocks_x86_64_mulx() whatever CPUID says.
 *
 * Outside valgrind the client requests do nothing and the run just
 * exercises the code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <valgrind/memcheck.h>

#include "chacha20_core.h"
#include "poly1305_core.h"
#include "testutil.h"

#define MAX_LEN		(8 * 64 + 4 * 64 + 64 + 17)

/*
 * Whole strides of each core, partial tails through the scalar code and
 * through a core's bounce buffer, and mixtures.
 */
static const unsigned int lens[] = {
	0, 1, 17, 63, 64, 65, 81, 128, 145, 192, 256, 257, 320, 512, 576,
	MAX_LEN,
};

static u8 pattern[MAX_LEN];
static unsigned int n_calls, n_untainted, n_skipped;

static void make_secret(void *p, size_t len)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, len);
}

/*
 * Check that the secret reached every output byte (else this test would
 * prove nothing), then make the output public: only then may it be used
 * again.  Reading the V bits does not count as a use.
 */
static void declassify(void *p, size_t len)
{
	static u8 vbits[MAX_LEN];
	size_t i;

	if (RUNNING_ON_VALGRIND && len &&
	    VALGRIND_GET_VBITS(p, vbits, len) == 1) {
		for (i = 0; i < len; i++) {
			if (vbits[i] != 0xff) {
				n_untainted++;
				break;
			}
		}
	}
	VALGRIND_MAKE_MEM_DEFINED(p, len);
}

/* A state whose key and nonce words are secret. */
static void secret_state(u32 *state, u32 ctr)
{
	u8 key[CHACHA_KEY_BYTES], iv[CHACHA_IV_BYTES];
	unsigned int i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (u8)(i * 7 + 1);
	for (i = 4; i < sizeof(iv); i++)
		iv[i] = (u8)(i * 13 + 5);
	put_le32(iv, ctr);
	chacha_setup(state, key, iv);
	make_secret(&state[4], 8 * sizeof(u32));
	make_secret(&state[13], 3 * sizeof(u32));
}

/* src and dst of exactly @len bytes each, for one call. */
struct io {
	u8 *src, *dst;
};

static struct io io_get(size_t len)
{
	struct io io = { malloc(len ? len : 1), malloc(len ? len : 1) };

	if (!io.src || !io.dst) {
		perror("malloc");
		exit(2);
	}
	memcpy(io.src, pattern, len);
	return io;
}

static void io_put(struct io io, size_t len)
{
	declassify(io.dst, len);
	free(io.src);
	free(io.dst);
	n_calls++;
}

static void ct_impl(const struct chacha_impl *impl)
{
	u32 state[CHACHA_STATE_WORDS];
	const struct chacha_core *core;
	unsigned int r, i, nrounds;
	size_t len;
	struct io io;

	for (r = 0; r < 2; r++) {
		nrounds = r ? 12 : 20;
		for (core = impl->cores; core->blocks; core++) {
			len = core->blocks * CHACHA_BLOCK_BYTES;
			io = io_get(len);
			secret_state(state, 0xfffffffe);
			core->fn(state, io.dst, io.src, nrounds);
			io_put(io, len);
		}
		/* Both choices for a last block: a core, and scalar C. */
		for (i = 0; i < 2 * ARRAY_SIZE(lens); i++) {
			unsigned int tail = chacha_scalar_tail_bytes;

			len = lens[i % ARRAY_SIZE(lens)];
			io = io_get(len);
			secret_state(state, 0xfffffff0);
			if (i >= ARRAY_SIZE(lens))
				chacha_scalar_tail_bytes = 0;
			chacha_crypt_impl(impl, state, io.dst, io.src, len,
					  nrounds);
			chacha_scalar_tail_bytes = tail;
			io_put(io, len);
		}
	}
}

static void ct_scalar_functions(void)
{
	u8 key[CHACHA_KEY_BYTES], xiv[XCHACHA_IV_BYTES];
	u32 state[CHACHA_STATE_WORDS], sub[8];
	u8 block[CHACHA_BLOCK_BYTES];
	unsigned int r, i, nrounds;
	struct io io;

	for (r = 0; r < 2; r++) {
		nrounds = r ? 12 : 20;

		secret_state(state, 0);
		chacha_block_scalar(state, block, nrounds);
		declassify(block, sizeof(block));

		/* HChaCha: secret key bytes and nonce. */
		for (i = 0; i < sizeof(key); i++)
			key[i] = (u8)(i * 5 + 3);
		for (i = 0; i < sizeof(xiv); i++)
			xiv[i] = (u8)(i * 11 + 2);
		make_secret(key, sizeof(key));
		make_secret(xiv, 24);
		chacha_setup(state, key, xiv);
		hchacha_block_scalar(state, sub, nrounds);
		declassify(sub, sizeof(sub));

		/* XChaCha as the glue does it, secret subkey onwards. */
		io = io_get(100);
		xchacha_setup(state, key, xiv, nrounds);
		chacha_crypt_impl(&chacha_impls[0], state, io.dst, io.src, 100,
				  nrounds);
		io_put(io, 100);
		n_calls += 2;
	}
}

/* Poly1305 with a secret key and message, through both interfaces. */
static void ct_poly1305(void)
{
	static const unsigned int plens[] = { 0, 1, 15, 16, 17, 64, 100 };
	/* h before the final reduction: below p, in [p, 2^130), >= 2^130 */
	static const u64 hs[][3] = {
		{ 0x1234, 0x5678, 1 },
		{ ~0ULL - 2, ~0ULL, 3 },
		{ 3, 0, 4 },
	};
	struct poly1305_core_state st;
	struct poly1305_core_ctx ctx;
	u8 key[POLY1305_CORE_KEY_BYTES], mac[POLY1305_CORE_MAC_BYTES];
	unsigned int i, j;
	struct io io;

	for (i = 0; i < ARRAY_SIZE(plens); i++) {
		for (j = 0; j < sizeof(key); j++)
			key[j] = (u8)(j * 29 + 7 + i);
		make_secret(key, sizeof(key));
		io = io_get(plens[i]);
		make_secret(io.src, plens[i]);
		oot_poly1305_ctx_init(&ctx, key);
		oot_poly1305_update(&ctx, io.src, plens[i]);
		oot_poly1305_final(&ctx, mac);
		declassify(mac, sizeof(mac));

		oot_poly1305_init(&st, key);
		oot_poly1305_blocks(&st, io.src, plens[i] / 16, 1);
		oot_poly1305_emit(&st, mac);
		declassify(mac, sizeof(mac));
		io_put(io, 0);
	}
	for (i = 0; i < ARRAY_SIZE(hs); i++) {
		memset(key, 0xff, sizeof(key));
		make_secret(key, sizeof(key));
		oot_poly1305_init(&st, key);
		memcpy(st.h, hs[i], sizeof(st.h));
		make_secret(st.h, sizeof(st.h));
		oot_poly1305_emit(&st, mac);
		declassify(mac, sizeof(mac));
		n_calls++;
	}
}

#ifdef __x86_64__
/*
 * oot_poly1305_blocks_x86_64_mulx() with a secret key, message and starting
 * h (h2 up to 4, all ones), hibit 1 and 0, in runs short and long enough
 * for its two chains; the C core's emit after it.
 * Then oot_poly1305_blocks_emit_x86_64_mulx(), its own emit, from the same
 * h.
 */
static bool cpu_has_mulx(void)
{
	return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
}

static void ct_poly1305_mulx(bool forced)
{
	/* 16 and 33: one and two groups of the two chains, then one. */
	static const unsigned int nbs[] = { 0, 1, 2, 7, 16, 33 };
	static const u64 hs[][3] = {
		{ 0, 0, 0 },
		{ ~0ULL, ~0ULL, 4 },
		{ ~0ULL - 2, ~0ULL, 3 },
	};
	struct poly1305_core_state st;
	u8 key[POLY1305_CORE_KEY_BYTES], mac[POLY1305_CORE_MAC_BYTES];
	unsigned int i, j, k;
	size_t len;
	struct io io;

	if (!cpu_has_mulx()) {
		if (!forced) {
			printf("ct: SKIPPED %s: CPU lacks BMI2 or ADX%s; NOT checked here\n",
			       "poly1305-mulx",
			       RUNNING_ON_VALGRIND ? " (as valgrind presents it)" : "");
			n_skipped++;
			return;
		}
		printf("ct: poly1305-mulx: CPUID%s lacks BMI2 or ADX, %s\n",
		       RUNNING_ON_VALGRIND ? " as valgrind presents it" : "",
		       "checked as the CPU has both (--mulx)");
	}
	for (i = 0; i < ARRAY_SIZE(nbs); i++) {
		for (k = 0; k < ARRAY_SIZE(hs); k++) {
			for (j = 0; j < sizeof(key); j++)
				key[j] = (u8)(j * 31 + 3 + i + k);
			if (k == 1)
				memset(key, 0xff, 16);
			make_secret(key, sizeof(key));
			len = nbs[i] * POLY1305_CORE_BLOCK_BYTES;
			io = io_get(len);
			make_secret(io.src, len);
			oot_poly1305_init(&st, key);
			memcpy(st.h, hs[k], sizeof(st.h));
			make_secret(st.h, sizeof(st.h));
			oot_poly1305_blocks_x86_64_mulx(&st, io.src, nbs[i],
							(i + k) % 2);
			oot_poly1305_emit(&st, mac);
			declassify(mac, sizeof(mac));
			/* Again from the same h, the tag in the same call. */
			memcpy(st.h, hs[k], sizeof(st.h));
			make_secret(st.h, sizeof(st.h));
			oot_poly1305_blocks_emit_x86_64_mulx(&st, io.src,
							     nbs[i], mac);
			declassify(mac, sizeof(mac));
			io_put(io, 0);
		}
	}
	printf("ct: checked poly1305-mulx\n");
}
#endif

/* ---- --ct-selftest: code that is NOT constant time, on purpose ---- */

static u8 sbox[256];

/*
 * Where the leaked value goes: a global, so that neither the compiler nor
 * valgrind's own optimiser can drop the load as dead.
 */
u8 ct_selftest_sink;

static int ct_selftest(const char *how)
{
	u8 key[CHACHA_KEY_BYTES];
	unsigned int i;

	for (i = 0; i < 256; i++)
		sbox[i] = (u8)(i * 167 + 13);
	for (i = 0; i < sizeof(key); i++)
		key[i] = (u8)i;
	make_secret(key, sizeof(key));

	if (!strcmp(how, "index")) {
		/* A load whose address depends on a secret byte. */
		ct_selftest_sink = sbox[key[3]];
	} else if (!strcmp(how, "branch")) {
		/* A branch on a secret bit. */
		if (key[5] & 1)
			puts("ct selftest: key bit set");
	} else {
		fprintf(stderr, "ct: unknown selftest %s\n", how);
		return 2;
	}
	printf("ct selftest (%s): leaked a key byte; valgrind should have reported it\n",
	       how);
	return 0;
}

int main(int argc, char **argv)
{
	bool mulx = false;
	unsigned int i;

	if (argc == 2 && !strncmp(argv[1], "--ct-selftest", 13)) {
		const char *how = argv[1][13] == '=' ? argv[1] + 14 : "index";

		return ct_selftest(how);
	}
#ifdef __x86_64__
	if (argc == 2 && !strcmp(argv[1], "--probe-mulx"))
		return cpu_has_mulx() ? 0 : 1;
	if (argc == 2 && !strcmp(argv[1], "--mulx")) {
		mulx = true;
		argc--;
	}
#endif
	if (argc != 1) {
		fprintf(stderr, "usage: ct [--ct-selftest[=index|branch] | %s]\n",
			"--probe-mulx | --mulx");
		return 2;
	}

	for (i = 0; i < sizeof(pattern); i++)
		pattern[i] = (u8)(i * 3);
	printf("ct: %s valgrind\n",
	       RUNNING_ON_VALGRIND ? "running under" : "NOT running under");
	ct_scalar_functions();
	ct_poly1305();
	printf("ct: checked poly1305\n");
#ifdef __x86_64__
	ct_poly1305_mulx(mulx);
#else
	(void)mulx;
#endif
	for (i = 0; i < chacha_nimpls; i++) {
		const char *missing = NULL;

		/*
		 * Under valgrind this is the CPU valgrind presents: Debian
		 * 12's valgrind 3.19 cannot run AVX-512 and hides it.
		 */
		if (!cpu_has_features(chacha_impls[i].needs, &missing)) {
			printf("ct: SKIPPED %s: CPU lacks %s%s; NOT checked here\n",
			       chacha_impls[i].name, missing,
			       RUNNING_ON_VALGRIND ? " (as valgrind presents it)" : "");
			n_skipped++;
			continue;
		}
		ct_impl(&chacha_impls[i]);
		printf("ct: checked %s\n", chacha_impls[i].name);
	}
	printf("ct: %u calls with secret key and nonce done; %u implementations NOT checked\n",
	       n_calls, n_skipped);
	if (n_untainted) {
		printf("ct: FAILED: %u outputs did not depend on the secret; the check is void\n",
		       n_untainted);
		return 1;
	}
	return 0;
}
