#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sparse-check.sh [6.1|6.12 ...]  (default: 6.1 6.12)
#
# `make C=2` (Debian's sparse over every C file) against each Debian
# kernel's headers from the cache, in a fresh copy of the tree; fails on any
# sparse (or compiler) warning or error.
set -euo pipefail
# shellcheck source=vm/lib.sh
. "$(dirname "$0")/vm/lib.sh"

[ $# -gt 0 ] || set -- 6.1 6.12
command -v sparse >/dev/null || die "sparse missing (apt-get install sparse)"

# The tracked files plus new ones (or every file, outside git).
list_files() {
	git -C "$top_dir" ls-files --cached --others --exclude-standard 2>/dev/null ||
		(cd "$top_dir" && find . -type f ! -path './.git/*' | sed 's|^\./||')
}

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/sparse.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail=0
for series in "$@"; do
	load_kernel "$series"
	src=$tmp/$KVER
	mkdir -p "$src"
	(cd "$top_dir" && list_files |
		while read -r f; do [ -f "$f" ] && echo "$f"; done |
		cpio -pdm --quiet "$src")
	rc=0
	make -C "$HEADERS" M="$src" C=2 modules >"$src/sparse.log" 2>&1 ||
		rc=$?
	# sparse reports "file:line:col: warning|error: ..."
	if [ $rc -ne 0 ] || grep -q -E '(warning|error):' "$src/sparse.log"; then
		grep -E '(warning|error):|Error' "$src/sparse.log" >&2 || true
		log "FAIL sparse against $KVER"
		fail=1
		continue
	fi
	echo "sparse against $KVER: $(grep -c '^  CHECK ' "$src/sparse.log") files checked, no warnings"
done
[ $fail -eq 0 ] && echo "sparse: PASS ($*)"
exit $fail
