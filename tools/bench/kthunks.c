// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing and installing the mitigation thunks of kthunks-x86_64.S: by default
 * the forms this machine's kernel patches in, read from
 * /sys/devices/system/cpu/vulnerabilities, or the ones asked for.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/kernel.h>

#include "kthunks.h"

#define VULN	"/sys/devices/system/cpu/vulnerabilities/"
#define HALF	32

struct ind_thunk {
	const unsigned char *slot;
	const unsigned char *code[3][2];	/* plain, lfence, retpoline */
};

#define IND(r) { __x86_indirect_thunk_##r, {				\
	{ bench_ind_plain_##r, bench_ind_plain_##r##_end },		\
	{ bench_ind_lfence_##r, bench_ind_lfence_##r##_end },		\
	{ bench_ind_retpoline_##r, bench_ind_retpoline_##r##_end } } }

static const struct ind_thunk ind_thunks[] = {
	IND(rax), IND(rbx), IND(rcx), IND(rdx), IND(rsi), IND(rdi), IND(rbp),
	IND(r8), IND(r9), IND(r10), IND(r11), IND(r12), IND(r13), IND(r14),
	IND(r15),
};

const char *const bench_ind_modes[] = { "none", "its", "lfence", "retpoline",
					NULL };
const char *const bench_ret_modes[] = { "none", "its", "untrain", "srso",
					NULL };

static int mode_index(const char *const *modes, const char *name)
{
	int i;

	for (i = 0; modes[i]; i++)
		if (!strcmp(modes[i], name))
			return i;
	return -1;
}

/* The one line of a vulnerabilities file, or "" if there is none. */
static void vuln_line(const char *name, char *buf, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), VULN "%s", name);
	buf[0] = 0;
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, size, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/*
 * What the kernel on this machine patches in, from what it reports:
 * spectre_v2 (Retpolines, LFENCE, or IBRS of some kind), indirect_target_
 * selection (aligned thunks), retbleed (untrained return thunk) and
 * spec_rstack_overflow (Safe RET).  Call depth tracking ("Stuffing") and
 * the IBPB-based modes have no per-return thunk of their own here.
 */
void bench_thunks_auto(const char **ind, const char **ret, char *why,
		       size_t size)
{
	char v2[256], its[256], rb[256], srso[256];
	bool its_on;

	vuln_line("spectre_v2", v2, sizeof(v2));
	vuln_line("indirect_target_selection", its, sizeof(its));
	vuln_line("retbleed", rb, sizeof(rb));
	vuln_line("spec_rstack_overflow", srso, sizeof(srso));
	its_on = strstr(its, "Aligned branch/return thunks");

	if (strstr(v2, "Retpolines"))
		*ind = "retpoline";
	else if (strstr(v2, "LFENCE"))
		*ind = "lfence";
	else if (its_on)
		*ind = "its";
	else
		*ind = "none";
	if (strstr(srso, "Safe RET"))
		*ret = "srso";
	else if (strstr(rb, "untrained return thunk"))
		*ret = "untrain";
	else if (its_on)
		*ret = "its";
	else
		*ret = "none";
	snprintf(why, size,
		 "spectre_v2: %s; indirect_target_selection: %s; retbleed: %s; spec_rstack_overflow: %s",
		 v2[0] ? v2 : "(none)", its[0] ? its : "(none)",
		 rb[0] ? rb : "(none)", srso[0] ? srso : "(none)");
}

static void put(const unsigned char *slot, const unsigned char *start,
		const unsigned char *end)
{
	size_t n = end - start;

	if (n > HALF) {
		fprintf(stderr, "bench: a thunk variant is %zu bytes\n", n);
		exit(1);
	}
	memset((void *)slot, 0xcc, HALF);
	memcpy((void *)slot, start, n);
}

int bench_thunks_set(const char *ind, const char *ret)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long lo = (unsigned long)bench_thunks_start & ~(page - 1);
	unsigned long hi = (unsigned long)bench_thunks_end;
	int i = mode_index(bench_ind_modes, ind);
	int r = mode_index(bench_ret_modes, ret);
	unsigned int k;

	if (i < 0 || r < 0)
		return -1;
	/* none and its: the same code here (its placement is every thunk's). */
	i = i <= 1 ? 0 : i - 1;
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC)) {
		perror("bench: mprotect");
		exit(1);
	}
	for (k = 0; k < ARRAY_SIZE(ind_thunks); k++)
		put(ind_thunks[k].slot, ind_thunks[k].code[i][0],
		    ind_thunks[k].code[i][1]);
	if (r == 3)
		put(__x86_return_thunk, bench_ret_srso, bench_ret_srso_end);
	else
		put(__x86_return_thunk, bench_ret_plain, bench_ret_plain_end);
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC)) {
		perror("bench: mprotect");
		exit(1);
	}
	__builtin___clear_cache((char *)lo, (char *)hi);
	return 0;
}
