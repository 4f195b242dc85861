/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <asm/frame.h>, which the kernel's
 * arch/x86/crypto/chacha-ssse3-x86_64.S includes for FRAME_BEGIN and
 * FRAME_END.  Debian's kernels use the ORC unwinder without frame
 * pointers, where both are empty; so they are here.  The rest of what the
 * kernel's ChaCha assembly includes (<linux/linkage.h>) comes from the
 * tests' shim, as for the module's own .S files.
 */
#ifndef BENCH_KSHIM_ASM_FRAME_H
#define BENCH_KSHIM_ASM_FRAME_H

#ifdef __ASSEMBLY__
#define FRAME_BEGIN
#define FRAME_END
#endif

#endif /* BENCH_KSHIM_ASM_FRAME_H */
