#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh: build the module, boot Debian 12's 6.1 kernel with it under QEMU
# (-cpu max, so AVX2) and show modinfo, its /proc/crypto entries, a message
# it encrypts through AF_ALG, and tcrypt's table (emulated CPU: not a speed
# measurement).  Under a minute once the kernel is cached.
set -euo pipefail
exec "$(dirname "$0")/run.sh" --kernel 6.1 --cpu max --expect avx2 --demo \
	--timeout 180 "$@"
