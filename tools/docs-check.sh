#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs-check.sh [FILE...]: the make targets and the files the documents
# name must exist (make docs runs it).  Default FILEs: README.md,
# TESTING.md, Documentation/*.rst and every README.md under tools/ and
# tests/; RESULTS.md and NEWS are records of the past and not checked.
#   - "make [-C DIR] [VAR=...] TARGET ..." in backquotes: each TARGET is
#     a rule of DIR's Makefile (the top one without -C), or one of the
#     kernel's own targets the documents name on purpose (below);
#   - a path under tools/, tests/, kunit/, debian/ or Documentation/
#     ending in a source or script suffix: the file exists, from the top
#     of the tree or from the document's own directory;
#   - a document in the table of line limits (below) has at most its
#     number of lines.
# Prints each one missing or too long, with its document, and fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# The kernel's targets (make -C KDIR ...) and the kernel's files the
# documents name, not this tree's.
kernel_targets=" modules_prepare modules_install olddefconfig "
kernel_paths=" tools/testing/kunit/kunit.py "

# Line limits: a document and the most lines it may have, one a line.
# A document that grows past its limit is split, not the limit raised.
line_limits="
README.md		200
TESTING.md		250
tools/bench/README.md	250
"

[ $# -gt 0 ] || set -- README.md TESTING.md Documentation/*.rst \
	$(git ls-files 'tools/*README.md' 'tests/*README.md')

# targets DIR: the rules of DIR/Makefile, one a line.
targets() {
	sed -n 's/^\([a-zA-Z0-9_.-][a-zA-Z0-9_. -]*\):\([^=]\|$\).*/\1/p' \
		"$1/Makefile" | tr ' ' '\n' | sed '/^$/d'
}

bad=0 n=0 ndocs=$#
for doc in "$@"; do
	[ -f "$doc" ] || { echo "docs-check: $doc: no such document"; bad=1; continue; }
	ddir=$(dirname "$doc")
	# Its line limit, if it has one.
	max=$(awk -v d="${doc#./}" '$1 == d { print $2 }' <<<"$line_limits")
	if [ -n "$max" ]; then
		lines=$(wc -l <"$doc")
		[ "$lines" -le "$max" ] || {
			echo "docs-check: $doc: $lines lines, over its limit of $max"
			bad=1
		}
	fi
	# make commands: "make", options, then targets up to a non-word.
	while IFS=: read -r line cmd; do
		set -f
		# shellcheck disable=SC2086 # the words of the command
		set -- $cmd
		set +f
		shift
		dir=.
		while [ $# -gt 0 ]; do
			case $1 in
			-C) dir=$2; shift 2; continue ;;
			-*|*=*) shift; continue ;;
			esac
			break
		done
		for t in "$@"; do
			case $t in
			-*|*=*) continue ;;
			esac
			[[ $t =~ ^[a-z][a-z0-9_.-]*$ ]] || break
			n=$((n + 1))
			[[ $kernel_targets == *" $t "* ]] && continue
			if [ ! -f "$dir/Makefile" ]; then
				echo "docs-check: $doc:$line: make -C $dir: no $dir/Makefile"
				bad=1
			elif ! targets "$dir" | grep -qxF "$t"; then
				echo "docs-check: $doc:$line: make $t: no target $t in $dir/Makefile"
				bad=1
			fi
		done
	done < <(grep -noE '`{1,2}make( [^`]*)?`' "$doc" | tr -d '`')
	# Paths of files.
	while IFS=: read -r line path; do
		n=$((n + 1))
		[[ $kernel_paths == *" $path "* ]] && continue
		[ -e "$path" ] || [ -e "$ddir/$path" ] || {
			echo "docs-check: $doc:$line: $path: no such file"
			bad=1
		}
	done < <(grep -noE '(^|[^A-Za-z0-9_./-])(tools|tests|kunit|debian|Documentation)/[A-Za-z0-9_./-]*\.(sh|py|c|h|S|mk|awk|pl|config|rst|md|json|txt)\b' "$doc" |
		sed -E 's/:[^A-Za-z0-9_.\/-]?((tools|tests|kunit|debian|Documentation)\/)/:\1/')
done
[ "$bad" = 0 ] || { echo "docs-check: FAIL"; exit 1; }
echo "docs-check: PASS ($n make targets and paths in $ndocs documents)"
