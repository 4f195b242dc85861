// SPDX-License-Identifier: GPL-2.0
/*
 * ymm-check: hold known values in ymm0-ymm15 and check them without pause,
 * pinned to one CPU, so that whatever the kernel runs on that CPU in
 * between (softirq encryption, context switches) runs on top of live user
 * vector state.  tools/ipsec/run.sh --load starts one on each of guest A's
 * CPUs.
 *
 *   ymm-check CPU
 *
 * Runs until SIGTERM or SIGINT, then prints the iterations and exits 0.
 * On a change it prints the register, the value expected and the value
 * found, and exits 1 at once.  Exit status 2: no AVX2, or not pinned.
 * One iteration stores all sixteen registers and compares their 64
 * quadwords with the expected ones; batches of iterations run inside one
 * asm statement, and the registers are loaded again only between batches
 * (C code, the C library's included, may use them there).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NREGS	16
#define QWORDS	(NREGS * 4)
#define BATCH	20000UL

/* Set by the signal handler, read by the loop: atomic, never cached. */
static sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

/*
 * Load @exp into ymm0-ymm15, then up to @n times store them to @got and
 * compare with @exp.  Returns the iterations left: 0 when all matched,
 * else the one that found a change is in @got.
 */
static unsigned long check_batch(const uint64_t *exp, uint64_t *got,
				 unsigned long n)
{
	asm volatile("vmovdqu   0(%[e]), %%ymm0\n\t"
		"vmovdqu  32(%[e]), %%ymm1\n\t"
		"vmovdqu  64(%[e]), %%ymm2\n\t"
		"vmovdqu  96(%[e]), %%ymm3\n\t"
		"vmovdqu 128(%[e]), %%ymm4\n\t"
		"vmovdqu 160(%[e]), %%ymm5\n\t"
		"vmovdqu 192(%[e]), %%ymm6\n\t"
		"vmovdqu 224(%[e]), %%ymm7\n\t"
		"vmovdqu 256(%[e]), %%ymm8\n\t"
		"vmovdqu 288(%[e]), %%ymm9\n\t"
		"vmovdqu 320(%[e]), %%ymm10\n\t"
		"vmovdqu 352(%[e]), %%ymm11\n\t"
		"vmovdqu 384(%[e]), %%ymm12\n\t"
		"vmovdqu 416(%[e]), %%ymm13\n\t"
		"vmovdqu 448(%[e]), %%ymm14\n\t"
		"vmovdqu 480(%[e]), %%ymm15\n\t"
		"1:\n\t"
		"vmovdqu %%ymm0,    0(%[g])\n\t"
		"vmovdqu %%ymm1,   32(%[g])\n\t"
		"vmovdqu %%ymm2,   64(%[g])\n\t"
		"vmovdqu %%ymm3,   96(%[g])\n\t"
		"vmovdqu %%ymm4,  128(%[g])\n\t"
		"vmovdqu %%ymm5,  160(%[g])\n\t"
		"vmovdqu %%ymm6,  192(%[g])\n\t"
		"vmovdqu %%ymm7,  224(%[g])\n\t"
		"vmovdqu %%ymm8,  256(%[g])\n\t"
		"vmovdqu %%ymm9,  288(%[g])\n\t"
		"vmovdqu %%ymm10, 320(%[g])\n\t"
		"vmovdqu %%ymm11, 352(%[g])\n\t"
		"vmovdqu %%ymm12, 384(%[g])\n\t"
		"vmovdqu %%ymm13, 416(%[g])\n\t"
		"vmovdqu %%ymm14, 448(%[g])\n\t"
		"vmovdqu %%ymm15, 480(%[g])\n\t"
		"xorl %%ecx, %%ecx\n\t"
		"2:\n\t"
		"movq (%[g],%%rcx,8), %%rax\n\t"
		"cmpq (%[e],%%rcx,8), %%rax\n\t"
		"jne 3f\n\t"
		"incl %%ecx\n\t"
		"cmpl $64, %%ecx\n\t"
		"jne 2b\n\t"
		"decq %[n]\n\t"
		"jnz 1b\n\t"
		"3:\n\t"
		"vzeroupper\n\t"
		: [n] "+r" (n)
		: [e] "r" (exp), [g] "r" (got)
		: "rax", "rcx", "cc", "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "xmm14", "xmm15");
	return n;
}

static void print_ymm(const char *what, const uint64_t *q)
{
	printf(" %s %016llx%016llx%016llx%016llx", what,
	       (unsigned long long)q[3], (unsigned long long)q[2],
	       (unsigned long long)q[1], (unsigned long long)q[0]);
}

int main(int argc, char **argv)
{
	uint64_t exp[QWORDS], got[QWORDS];
	unsigned long long iters = 0;
	struct timespec t0, t1;
	struct sigaction sa;
	cpu_set_t set;
	int cpu, i;

	if (argc != 2) {
		fprintf(stderr, "usage: ymm-check CPU\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2")) {
		printf("ymm-check cpu %d: no AVX2\n", cpu);
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_getcpu() != cpu) {
		printf("ymm-check cpu %d: cannot pin to it (%ld CPUs online)\n",
		       cpu, sysconf(_SC_NPROCESSORS_ONLN));
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	/* Each quadword names its CPU, register and lane; none is zero. */
	for (i = 0; i < QWORDS; i++)
		exp[i] = 0xa5c30000f00d0000ULL ^ ((uint64_t)cpu << 40) ^
			 ((uint64_t)(i / 4) << 32) ^ ((uint64_t)(i % 4) << 8) ^
			 (0x0101010101010101ULL * (uint64_t)(i + 1));
	printf("ymm-check cpu %d: running\n", cpu);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		unsigned long left = check_batch(exp, got, BATCH);

		iters += BATCH - left;
		if (left) {
			for (i = 0; i < NREGS; i++) {
				if (!memcmp(exp + 4 * i, got + 4 * i, 32))
					continue;
				printf("ymm-check cpu %d: CHANGED ymm%d after %llu iterations:",
				       cpu, i, iters);
				print_ymm("expected", exp + 4 * i);
				print_ymm("got", got + 4 * i);
				printf("\n");
			}
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("ymm-check cpu %d: OK %llu iterations in %ld s, no change\n",
	       cpu, iters, (long)(t1.tv_sec - t0.tv_sec));
	return 0;
}
