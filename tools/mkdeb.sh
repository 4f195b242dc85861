#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkdeb.sh: make deb.  Build chacha20-simd-dkms_<version>_all.deb in the top
# directory with Debian's tools (dpkg-buildpackage -us -uc -b, dh, dh-dkms)
# and run lintian on it, which must report no error.
#
# <version> is tools/version.sh's.  The tree (git's tracked and untracked,
# not ignored files) is copied to .deb-build/chacha20-simd-<version>/, where
# VERSION gets the full version; a build between releases also gets a
# snapshot entry at the top of that copy's debian/changelog.  VERSION,
# NEWS and debian/changelog must agree on the release.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "${0##*/}: $*" >&2; }
die() { log "$*"; exit 1; }

ver=$(sh "$top/tools/version.sh")
base=$(cat "$top/VERSION")
clver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
newsver=$(sed -n 's/^\([0-9][^ ]*\) ([0-9-]*)$/\1/p' "$top/NEWS" | head -n 1)
[ "$clver" = "$base" ] ||
	die "debian/changelog's top version is $clver, VERSION says $base"
[ "$newsver" = "$base" ] ||
	die "NEWS's newest version is '$newsver', VERSION says $base"

work=$top/.deb-build
src=$work/chacha20-simd-$ver
deb=chacha20-simd-dkms_${ver}_all.deb
rm -rf "$work"
mkdir -p "$src"
(cd "$top" &&
	{ git ls-files --cached --others --exclude-standard 2>/dev/null ||
		find . -type f ! -path './.git/*' ! -path './.deb-build/*' |
		sed 's|^\./||'; } |
	while read -r f; do [ -f "$f" ] && echo "$f"; done |
	cpio -pdm --quiet "$src")
echo "$ver" >"$src/VERSION"

if [ "$ver" != "$base" ]; then
	# A snapshot: dated by its commit, so that rebuilding it gives the
	# same package.
	when=$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)
	rest=${ver#"$base"+git}		# <N>.<commit>[.dirty]
	maint=$(sed -n 's/^Maintainer: //p' "$top/debian/control")
	{
		echo "chacha20-simd ($ver) UNRELEASED; urgency=medium"
		echo
		echo "  * Snapshot of git commit ${rest#*.}, ${rest%%.*} commits" \
			"after $base."
		echo
		echo " -- $maint  $(date -R -u -d "@$when")"
		echo
		cat "$top/debian/changelog"
	} >"$src/debian/changelog"
fi

log "building $deb"
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
	tail -n 40 "$work/build.log" >&2
	die "dpkg-buildpackage failed (log: $work/build.log)"
fi
cp "$work/$deb" "$top/$deb"
dpkg-deb -c "$top/$deb" | awk '{ print "  " $NF }' | grep '/usr/src/.' || true

changes=$(ls "$work"/chacha20-simd_"${ver}"_*.changes)
log "lintian $(basename "$changes")"
if ! lintian --fail-on error --display-info "$changes" | tee "$work/lintian.log"; then
	die "lintian reports errors"
fi
log "lintian: $(grep -c '^E:' "$work/lintian.log") errors," \
	"$(grep -c '^W:' "$work/lintian.log") warnings," \
	"$(grep -c '^I:' "$work/lintian.log") notes"
echo "deb: PASS ($deb)"
