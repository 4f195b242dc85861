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

#endif /* BENCH_KTHUNKS_H */
