#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compile-debian.sh 6.1|6.12
#
# Debian's kernels have no CONFIG_KUNIT, and build-module.sh never makes
# the test build (CHACHA_TEST_HOOKS=1), so it never compiles kunit/ nor
# the glue's test-only interface against them.  Compile both
# (objects only, W=1) against that kernel's headers with KUnit, failslab
# and the crypto manager's extra tests switched on for these files, so
# that API differences between 6.1 and 6.12 show; fail on any warning.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib.sh
. "$top/tools/lib.sh"

load_kernel "${1:?usage: $0 6.1|6.12}"
bdir=${cache:?}/kunit-compile-$KVER
rm -rf "$bdir"
mkdir -p "$bdir"
copy_sources "$top" "$bdir"
flags="-DCONFIG_KUNIT_MODULE=1 -DCONFIG_FAULT_INJECTION=1 -DCONFIG_FAILSLAB=1"
flags+=" -DCONFIG_CRYPTO_MANAGER_EXTRA_TESTS=1"
make -C "$HEADERS" M="$bdir" W=1 KCFLAGS="$flags" CONFIG_KUNIT=m CHACHA_TEST_HOOKS=1 \
	chacha20_glue.o chacha20_main.o chacha20_policy.o chacha20_core.o \
	chacha20poly1305_glue.o chacha20poly1305_core.o \
	kunit/chacha_kunit.o kunit/chachapoly_kunit.o \
	>"$bdir/build.log" 2>&1 || {
	cat "$bdir/build.log" >&2
	die "kunit/ does not compile against $KVER"
}
if grep -E 'warning:' "$bdir/build.log" >&2; then
	die "warnings compiling kunit/ against $KVER (W=1)"
fi
log "kunit/ and the glue's test interface compile against $KVER (W=1)"
