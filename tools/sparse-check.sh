#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sparse-check.sh [6.1|6.12|7.3-gcc ...]  (default: 6.1 6.12 7.3-gcc)
#
# `make C=2` (sparse over every C file) against each kernel's headers from
# the cache, in a fresh copy of the tree; fails on any sparse (or compiler)
# warning or error.  7.3-gcc: the gcc configuration of the 7.3 test kernel,
# prepared for module builds (the test kernel itself is a clang build);
# its modpost lacks the kernel's Module.symvers and only warns.
#
# 6.x: Debian 12's sparse 0.6.4.  From 6.14 on the kernel turns C=2 off
# (with only a warning) unless sparse knows __typeof_unqual__, which 0.6.4
# does not, and Debian's newer sparse (0.6.5~rc1, sid) needs glibc 2.38.
# For such kernels this builds sparse from sid's source package (a few
# seconds) into the cache and uses it; a checker the kernel still refuses
# is a failure, never a silent pass.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- 6.1 6.12 7.3-gcc
command -v sparse >/dev/null || die "sparse missing (apt-get install sparse)"

# new_sparse: build sid's sparse once, print its path.
new_sparse() {
	local src
	src=$("$debfetch" -s sid source sparse) || die "no sparse source"
	if [ ! -x "$src/sparse" ]; then
		# Debian's patch names gcc-16; build with this system's gcc.
		make -s -C "$src" -j2 CC=gcc HAVE_LLVM=no HAVE_GTK=no \
			HAVE_SQLITE=no sparse >&2 || die "cannot build sparse"
	fi
	echo "$src/sparse"
}

# checker_for TREE: the sparse that the kernel's own test (6.14 on)
# accepts: sets check (the program) and check_name.
checker_for() {
	local valid=$1/scripts/checker-valid.sh
	check=sparse
	check_name="Debian's sparse $(sparse --version)"
	if [ ! -e "$valid" ] || [ "$(sh "$valid" sparse -m64)" = 1 ]; then
		return
	fi
	check=$(new_sparse)
	check_name=${check%/sparse}
	check_name="sparse ${check_name##*/sparse_} (Debian sid's source, built here)"
	[ "$(sh "$valid" "$check" -m64)" = 1 ] ||
		die "the kernel refuses $check as well"
}

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
	tree=$HEADERS
	[ ! -e "$HEADERS/source" ] || tree=$(readlink -f "$HEADERS/source")
	checker_for "$tree"
	rc=0 warn=()
	[ -e "$HEADERS/Module.symvers" ] || warn=(KBUILD_MODPOST_WARN=1)
	make -C "$HEADERS" M="$src" C=2 CHECK="$check" "${warn[@]}" modules \
		>"$src/sparse.log" 2>&1 || rc=$?
	# sparse reports "file:line:col: warning|error: ..."
	# The kernel's "C=2 specified, but sparse is not ... up to date"
	# is a warning too.
	if [ $rc -ne 0 ] || grep -q -E '(warning|error):|C=2 specified' \
		"$src/sparse.log" || ! grep -q '^  CHECK ' "$src/sparse.log"; then
		grep -E '(warning|error):|Error' "$src/sparse.log" >&2 || true
		log "FAIL sparse against $KVER"
		fail=1
		continue
	fi
	echo "sparse against $KVER: $(grep -c '^  CHECK ' "$src/sparse.log") files checked by $check_name, no warnings"
done
[ $fail -eq 0 ] && echo "sparse: PASS ($*)"
exit $fail
