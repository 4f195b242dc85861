#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-check.sh [6.1|6.12 ...]  (default: 6.1 6.12)
#
# `make install` and `make uninstall` of a copy of the tree, against Debian's
# headers from the cache, into a scratch INSTALL_MOD_PATH: the module must
# land in lib/modules/<the kernel's release>/extra/ and in depmod's alias
# index, and be gone from both after uninstall.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- 6.1 6.12

list_files() {
	git -C "$top_dir" ls-files --cached --others --exclude-standard 2>/dev/null ||
		(cd "$top_dir" && find . -type f ! -path './.git/*' | sed 's|^\./||')
}

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$top_dir" && list_files |
	while read -r f; do [ -f "$f" ] && echo "$f"; done |
	cpio -pdm --quiet "$tmp/src")

fail=0
for series in "$@"; do
	load_kernel "$series"
	root=$tmp/root-$KVER
	mdir=$root/lib/modules/$KVER
	args=(-C "$tmp/src" KDIR="$HEADERS" INSTALL_MOD_PATH="$root")
	if ! make "${args[@]}" install >"$tmp/install.log" 2>&1; then
		cat "$tmp/install.log" >&2
		log "FAIL make install against $KVER"
		fail=1
		continue
	fi
	# .ko, or .ko.xz where the kernel compresses its modules (6.12)
	if ! ls "$mdir"/extra/chacha20_simd.ko* >/dev/null 2>&1 ||
	   ! grep -q '^alias crypto-xchacha12 chacha20_simd$' "$mdir/modules.alias"; then
		find "$root" -name 'chacha20_simd*' >&2
		log "FAIL $KVER: not in $mdir/extra or not indexed by depmod"
		fail=1
		continue
	fi
	make "${args[@]}" uninstall >"$tmp/uninstall.log" 2>&1 || {
		cat "$tmp/uninstall.log" >&2
		log "FAIL make uninstall against $KVER"
		fail=1
		continue
	}
	if ls "$mdir"/extra/chacha20_simd.ko* >/dev/null 2>&1 ||
	   grep -q chacha20_simd "$mdir/modules.alias"; then
		log "FAIL $KVER: make uninstall left the module or its aliases"
		fail=1
		continue
	fi
	echo "make install: lib/modules/$KVER/extra/chacha20_simd.ko*, aliases" \
		"indexed by depmod; make uninstall removed both"
	make -C "$tmp/src" clean >/dev/null 2>&1 || true
done
[ $fail -eq 0 ] && echo "install: PASS ($*)"
exit $fail
