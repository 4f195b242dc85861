#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# version.sh [DIR]  (default: the tree this script is in)
#
# Print the version of the tree in DIR: the one version that the Debian
# package, dkms.conf's PACKAGE_VERSION and the module's MODULE_VERSION
# (modinfo) all carry.  It comes from the file VERSION, which holds the
# last release (say 0.2), and from git when DIR is the top of a git work
# tree:
#   0.2                   at the commit that set VERSION to 0.2, clean
#   0.2+git5.1a2b3c4      5 commits later, at commit 1a2b3c4
#   0.2+git5.1a2b3c4.dirty  the same, with uncommitted changes
# Outside git (a DKMS copy, the package's /usr/src tree) VERSION is printed
# as it is: make deb writes the full version into the package's copy.
# Only characters that Debian versions and C strings both take are printed.
set -eu

dir=${1:-$(dirname "$0")/..}
base=$(cat "$dir/VERSION")
case $base in
'' | *[!0-9A-Za-z.+~]*)
	echo "version.sh: bad version '$base' in $dir/VERSION" >&2
	exit 1
	;;
esac

top=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null) || top=
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(cd "$dir" && pwd -P)" ]; then
	echo "$base"
	exit 0
fi

# Commits since the release: since the tag v<base> if there is one, else
# since the last commit that changed VERSION.
since=$(git -C "$dir" rev-parse -q --verify "refs/tags/v$base^{commit}" 2>/dev/null) ||
	since=$(git -C "$dir" log -n 1 --format=%H -- VERSION)
sha=$(git -C "$dir" rev-parse --short=7 HEAD)
if [ -n "$since" ]; then
	n=$(git -C "$dir" rev-list --count "$since..HEAD")
else
	n=0	# VERSION not committed yet
fi
dirty=
git -C "$dir" update-index -q --refresh >/dev/null 2>&1 || true
git -C "$dir" diff-index --quiet HEAD -- 2>/dev/null || dirty=.dirty

if [ "$n" -eq 0 ] && [ -n "$since" ] && [ -z "$dirty" ]; then
	echo "$base"
else
	echo "$base+git$n.$sha$dirty"
fi
