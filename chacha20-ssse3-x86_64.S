/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ChaCha block cores for x86-64 with SSSE3: the SSE2 source with pshufb
 * for the 16- and 8-bit rotations.
 */

#define CHACHA_SSSE3
#include "chacha20-sse2-x86_64.S"
