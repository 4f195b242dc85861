/* SPDX-License-Identifier: GPL-2.0 */
/* The mitigation thunks of the @kernel rows (kthunks-x86_64.S, kthunks.c). */
#ifndef BENCH_KTHUNKS_H
#define BENCH_KTHUNKS_H

#include <stddef.h>

/* The names of the modes, NULL-terminated. */
extern const char *const bench_ind_modes[];
extern const char *const bench_ret_modes[];

/*
 * The modes this machine's kernel runs, from its vulnerabilities files,
 * and those files' lines in @why.
 */
void bench_thunks_auto(const char **ind, const char **ret, char *why,
		       size_t size);

/* Install the thunks of these modes; -1 for an unknown name. */
int bench_thunks_set(const char *ind, const char *ret);

/* The thunks and the variants copied into them (kthunks-x86_64.S). */
extern const unsigned char bench_thunks_start[], bench_thunks_end[];
extern const unsigned char __x86_return_thunk[];
extern const unsigned char bench_ret_plain[], bench_ret_plain_end[];
extern const unsigned char bench_ret_srso[], bench_ret_srso_end[];

#define REG(r)								\
	extern const unsigned char __x86_indirect_thunk_##r[];		\
	extern const unsigned char bench_ind_plain_##r[],		\
				   bench_ind_plain_##r##_end[],		\
				   bench_ind_lfence_##r[],		\
				   bench_ind_lfence_##r##_end[],	\
				   bench_ind_retpoline_##r[],		\
				   bench_ind_retpoline_##r##_end[]
REG(rax); REG(rbx); REG(rcx); REG(rdx); REG(rsi); REG(rdi); REG(rbp);
REG(r8); REG(r9); REG(r10); REG(r11); REG(r12); REG(r13); REG(r14);
REG(r15);
#undef REG

#endif /* BENCH_KTHUNKS_H */
