// SPDX-License-Identifier: GPL-2.0
/*
 * Rough cycles per byte of oot_poly1305_blocks() (C) and
 * oot_poly1305_blocks_x86_64_mulx() (poly1305-x86_64.S), by rdtsc, the least
 * of many runs.  Not part of make bench or any check; built by hand from
 * the top of the tree, after make -C tests (for the assembly's object),
 * with this file, poly1305_core.c and tests/build/poly1305-x86_64.o on
 * one gcc -O2 -Itests/shim -I. command line.
 *
 * rdtsc counts reference cycles, not core cycles, and nothing pins the
 * CPU or its clock: on a loaded or virtual machine the numbers are rough.
 */
#include <stdio.h>
#include <string.h>
#include <x86intrin.h>

#include <linux/kernel.h>

#include "poly1305_core.h"

#define RUNS	2000

typedef void (*blocks_fn)(struct poly1305_core_state *st, const u8 *src,
			  unsigned int nblocks, u32 hibit);

static u8 buf[16384];

static double cycles_per_byte(blocks_fn fn, unsigned int len)
{
	struct poly1305_core_state st;
	unsigned long long best = ~0ULL, t;
	u8 key[POLY1305_CORE_KEY_BYTES];
	unsigned int i;

	memset(key, 0x5a, sizeof(key));
	oot_poly1305_init(&st, key);
	for (i = 0; i < RUNS; i++) {
		t = __rdtsc();
		fn(&st, buf, len / POLY1305_CORE_BLOCK_BYTES, 1);
		t = __rdtsc() - t;
		if (t < best)
			best = t;
	}
	return (double)best / len;
}

int main(void)
{
	static const unsigned int lens[] = { 64, 1024, 16384 };
	unsigned int i;

	if (!__builtin_cpu_supports("bmi2") || !__builtin_cpu_supports("adx")) {
		printf("CPU lacks BMI2 or ADX\n");
		return 1;
	}
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (u8)(i * 7);
	printf("%8s %10s %10s\n", "bytes", "C c/B", "mulx c/B");
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		printf("%8u %10.2f %10.2f\n", lens[i],
		       cycles_per_byte(oot_poly1305_blocks, lens[i]),
		       cycles_per_byte(oot_poly1305_blocks_x86_64_mulx, lens[i]));
	return 0;
}
