#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: make check.  The static checks in two lanes side by side
# (make -j2 -O check-source check-kernels: each lane's output comes out
# whole when it ends) and, beside them, the tests that boot kernels
# (tools/emulated-check.sh), whose lanes wait for the static ones: the
# first starts when the source lane's own checks have ended (fresh-check
# follows them there) and the W=1 builds against
# Debian's headers are done, the second when the kernel lane has built
# the 7.3 kernels and the module on them; jobs on 7.3 wait for that too.
# So a core the static checks leave idle (one lane done, single-threaded
# module builds, sparse, the Debian root of deb-check) runs the rows.  The lanes mark their ends in the gate directory (CHACHA_GATES,
# the Makefile's gate); whatever happens to them, all gates open when
# the static checks have ended.  Exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
t0=$(date +%s)
CHACHA_GATES=$(mktemp -d)
export CHACHA_GATES
trap 'rm -rf "$CHACHA_GATES"' EXIT

bash tools/emulated-check.sh &
emu=$!
make --no-print-directory -j2 --output-sync=recurse check-source \
	check-kernels
static=$?
touch "$CHACHA_GATES"/{source,debian,kernels}
echo "static checks: exit status $static after $(($(date +%s) - t0)) s"
wait "$emu"
emulated=$?
echo "make check took $(($(date +%s) - t0)) s (static checks: exit status" \
	"$static; kernel tests: $emulated)"
[ "$static" -eq 0 ] && [ "$emulated" -eq 0 ]
