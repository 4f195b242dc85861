#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's checkpatch.pl --strict, taken from Debian's
# linux-source-6.12, over the given files (default: every C, header and
# assembly file in git).  Fails on any error, warning or check, except that
# tests/shim/ is held to "no errors" only: it stands in for kernel headers
# in user space and must define what checkpatch asks kernel code to use.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${CHACHA_CACHE:-$HOME/.cache/chacha20-simd}
cp_dir=$cache/checkpatch

if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	src=$("$here/debfetch.sh" get linux-source-6.12)
	tarball=$(ls "$src"/usr/src/linux-source-6.12.tar.*)
	rm -rf "$cp_dir.tmp"
	mkdir -p "$cp_dir.tmp"
	tar -xf "$tarball" -C "$cp_dir.tmp" --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	rm -rf "$cp_dir"
	mv "$cp_dir.tmp" "$cp_dir"
fi

[ $# -gt 0 ] || set -- $(git -C "$here/.." ls-files '*.c' '*.h' '*.S')

status=0
for f in "$@"; do
	case $f in
	tests/shim/*) clean='^total: 0 errors' ;;
	*) clean='^total: 0 errors, 0 warnings, 0 checks' ;;
	esac
	out=$(perl "$cp_dir/scripts/checkpatch.pl" --no-tree --strict \
		--show-types -f "$f" 2>&1) || true
	total=$(echo "$out" | grep '^total:' || echo "total: ?")
	if echo "$total" | grep -q "$clean"; then
		echo "checkpatch: $f: ${total#total: }"
	else
		echo "$out"
		echo "checkpatch: $f: $total"
		status=1
	fi
done
exit $status
