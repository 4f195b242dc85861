/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's CPU policy (chacha20_policy.c): what the CPU has and what
 * runs where.  chacha20_main.c asks it at load, before it registers each
 * kind of driver; the glue reads chacha_impl.
 */
#ifndef CHACHA20_POLICY_H
#define CHACHA20_POLICY_H

#include <linux/init.h>
#include <linux/types.h>

#include "chacha20_core.h"

struct poly1305_impl;

/*
 * The ChaCha implementation every driver runs, chosen at load (__ro_after_init
 * unless CHACHA_TEST_HOOKS).
 */
extern const struct chacha_impl *chacha_impl;

/* CHACHA_CPU_* of this CPU. */
unsigned int chacha_cpu_features(void);

/* What the policy chose at load. */
struct chacha_policy {
	const struct chacha_impl *impl;		/* as chacha_impl */
	int priority;				/* the skciphers' */
	bool priority_set;			/* by priority= */
	const struct poly1305_impl *poly;	/* the AEADs'; NULL: no AEADs */
	int aead_priority;
};

/*
 * For the skciphers: the implementation (impl=, else the best the CPU
 * runs), into chacha_impl too; the cores for small requests, last blocks
 * and whole strides (measured; stride=); the priority (priority=, else
 * by the CPU).  Each choice in the log.  Returns 0 or, for a parameter
 * that cannot be had, an error.
 */
int __init chacha_policy_skciphers(struct chacha_policy *pol);

/*
 * For the AEADs, after chacha_policy_skciphers(): the Poly1305 (poly1305=,
 * else the best the CPU runs) and the priority, above the template's
 * instance on the skciphers; or no AEADs (@pol->poly NULL): by default on
 * arm64 only where chacha_arm64_models[] has them faster than the
 * template.  In the log.  Returns 0, or an error for poly1305=.
 */
int __init chacha_policy_aeads(struct chacha_policy *pol);

#endif /* CHACHA20_POLICY_H */
