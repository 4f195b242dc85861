#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Download Debian packages through a private apt configuration, so that the
# system's own apt sources are never touched.
#
#   tools/debfetch.sh [-a ARCH] [-s SUITE...] update
#   tools/debfetch.sh [-a ARCH] [-s SUITE...] newest REGEX   # newest package name matching
#   tools/debfetch.sh [-a ARCH] [-s SUITE...] get PKG...     # download + unpack, print dirs
#   tools/debfetch.sh [-s SUITE...] source PKG...  # source package, unpacked, print dirs
#
# The cache lives in ${CHACHA_CACHE:-~/.cache/chacha20-simd}/apt-<arch>.
set -euo pipefail

arch=amd64
suites="bookworm bookworm-updates bookworm-security bookworm-backports"
while getopts "a:s:" o; do
	case $o in
	a) arch=$OPTARG ;;
	s) suites=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Debian 12's newest kernels come from the security archive.
security=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
cache=${CHACHA_CACHE:-$HOME/.cache/chacha20-simd}
root=$cache/apt-$arch
# Package lists and their sources.list are kept per set of suites, so that
# asking for another suite never changes what the default set resolves to.
lists=$root/lists
cmd=${1:-}
default_suites="bookworm bookworm-updates bookworm-security bookworm-backports"
[ "$suites" = "$default_suites" ] ||
	lists=$root/lists-$(printf '%s' "$suites" | tr ' ' '+')
# Source packages need deb-src lines, and lists of their own.
[ "$cmd" != source ] || lists=$lists-src
mkdir -p "$lists/partial" "$root/archives/partial" "$root/debs" "$root/x"
# One run per architecture at a time: apt runs unlocked here
# (Debug::NoLocking), and make check runs two lanes of checks at once.
exec 8>"$root.lock"
flock 8

list=$lists.sources.list
: >"$list.new"
for s in $suites; do
	case $s in
	*-security) url=$security ;;
	*) url=$mirror ;;
	esac
	kind=deb
	[ "$cmd" != source ] || kind=deb-src
	echo "$kind [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $url $s main" >>"$list.new"
done
mv "$list.new" "$list"

apt_private() {
	apt-get -q \
		-o Dir::Etc::sourcelist="$list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$lists" \
		-o Dir::State::status=/dev/null \
		-o Dir::Cache="$root" \
		-o Dir::Cache::archives="$root/archives" \
		-o APT::Architecture="$arch" \
		-o APT::Architectures="$arch" \
		-o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root \
		"$@"
}
apt_cache_private() {
	apt-cache \
		-o Dir::Etc::sourcelist="$list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$lists" \
		-o Dir::State::status=/dev/null \
		-o Dir::Cache="$root" \
		-o APT::Architecture="$arch" \
		-o APT::Architectures="$arch" \
		"$@"
}

update() {
	# Refresh the lists at most once a day.
	stamp=$lists/.stamp
	if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		apt_private update >&2
		touch "$stamp"
	fi
}

shift || true
case $cmd in
update)
	update
	;;
newest)
	update
	apt_cache_private pkgnames | grep -E "^($1)\$" | sort -V | tail -n 1
	;;
get)
	update
	for p in "$@"; do
		ver=$(apt_cache_private policy "$p" | awk '/Candidate:/ {print $2}')
		[ -n "$ver" ] && [ "$ver" != "(none)" ] || {
			echo "debfetch: no package $p for $arch" >&2
			exit 1
		}
		dir=$root/x/${p}_${ver//:/%}
		if [ ! -e "$dir/.done" ]; then
			(cd "$root/debs" && apt_private download "$p=$ver" >&2)
			deb=$(ls -t "$root"/debs/"${p}"_*"${ver##*:}"*.deb | head -n 1)
			rm -rf "$dir"
			mkdir -p "$dir"
			dpkg-deb -x "$deb" "$dir"
			touch "$dir/.done"
		fi
		echo "$dir"
	done
	;;
source)
	update
	for p in "$@"; do
		ver=$(apt_cache_private showsrc "$p" |
			awk '$1 == "Version:" {print $2}' | sort -V | tail -n 1)
		[ -n "$ver" ] || {
			echo "debfetch: no source package $p" >&2
			exit 1
		}
		dir=$root/src/${p}_${ver//:/%}
		if [ ! -e "$dir/.done" ]; then
			rm -rf "$dir" "$dir.dl"
			mkdir -p "$dir.dl"
			# A mirror may lack a .dsc (trixie's bochs 3.0 did): then
			# what did arrive, the tarballs apt checked against the
			# signed Sources index, is unpacked without dpkg-source.
			(cd "$dir.dl" && apt_private source --download-only \
				"$p=$ver" >&2) || true
			if ls "$dir.dl"/*.dsc >/dev/null 2>&1; then
				# dpkg-source's own check of the .dsc signature
				# needs debian-keyring, so it warns that it cannot.
				dpkg-source -x "$dir.dl"/*.dsc "$dir" >&2
			elif ls "$dir.dl"/*.orig.tar.* >/dev/null 2>&1; then
				echo "debfetch: no .dsc for $p $ver: unpacking its tarballs" >&2
				mkdir -p "$dir"
				tar -xf "$dir.dl"/*.orig.tar.* -C "$dir" \
					--strip-components=1
				for t in "$dir.dl"/*.debian.tar.*; do
					[ -e "$t" ] && tar -xf "$t" -C "$dir"
				done
			else
				echo "debfetch: could not download source $p $ver" >&2
				exit 1
			fi
			rm -rf "$dir.dl"
			touch "$dir/.done"
		fi
		echo "$dir"
	done
	;;
*)
	sed -n '3,13p' "$0"
	exit 2
	;;
esac
