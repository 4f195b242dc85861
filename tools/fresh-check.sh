#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fresh-check.sh [bench] [user]  (default: both)
#
# `make bench` and `make test-user` as a new user runs them, each on a
# fresh Debian 12 that has only the source tree and the packages of its
# own group of tools/install-deps.sh, so that a package missing from a
# group fails here rather than on a user's machine (make check installs
# every group, which hides it):
#   bench   make deps-bench, then make bench BENCH_ARGS=--reps 4: the
#           fewest batches per point (tools/bench/README.md), but the whole
#           build, the @kernel rows' module build against Debian's 6.12
#           headers included; its CSV must hold @kernel rows
#   user    make deps-user, then make test-user
# Each runs as root, after `apt install git make` (TESTING.md's first
# step), in its own overlay on the bare root of
# tools/deb-root.sh (debootstrap minbase, made once and shared with make
# deb-check; not deb-check's own root, whose headers packages pulled in
# gcc, make and pahole), thrown away at the end.  The root gets the tree
# (git ls-files: tracked and new files, as in the working tree), the apt
# sources of a Debian 12 install (bookworm, -updates, -security), and an
# empty ~/.cache/chacha20-simd, as a new user has.  Two things spare the
# downloads without hiding a missing package, since what is installed is
# still decided afresh each run:
#   - the .deb files the root's apt downloads stay in
#     $CHACHA_CACHE/fresh-check-apt, bound to its /var/cache/apt/archives
#   - the kernel .debs already in $CHACHA_CACHE/apt-amd64/debs are hard
#     linked into the root's empty cache; tools/debfetch.sh there still
#     fetches fresh package lists, resolves, and unpacks them itself, and
#     downloads any it lacks
# Logs of each step: $CHACHA_CACHE/runs/fresh-check/.
# Planted: pahole left out of the bench group, make bench fails where the
# module's build against 6.12 makes its BTF ("pahole: not found"); libelf1
# left out too, already at objtool ("libelf.so.1: cannot open").
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=deb-root.sh
. "$(dirname "$0")/deb-root.sh"

[ $# -gt 0 ] || set -- bench user
for c in "$@"; do
	case $c in
	bench | user) ;;
	*) die "usage: $0 [bench] [user]" ;;
	esac
done
t0=$(now)

fails=0 passes=0
pass() { echo "PASS $*"; passes=$((passes + 1)); }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

logs=$cache/runs/fresh-check
debs=$cache/fresh-check-apt	# the root's apt downloads, kept
rm -rf "$logs"
mkdir -p "$logs" "$debs/partial"
trap deb_root_cleanup EXIT
deb_root_min

# The tree as a clone of the working tree would have it.
tree=$logs/tree.tar
git -C "$top_dir" ls-files -z --cached --others --exclude-standard |
	(cd "$top_dir" && while IFS= read -r -d '' f; do
		if [ -e "$f" ]; then printf '%s\0' "$f"; fi	# not deleted
	done) | tar -C "$top_dir" --null -T - -cf "$tree"

# fresh_root: $root, a new overlay on the bare root with the tree in
# /root/chacha20-simd and the mounts the steps need.
fresh_root() {
	local h=/root/.cache/chacha20-simd
	deb_root_overlay "$deb_min" "$cache/fresh-check-run"
	chroot_mounts "$root" sys
	mount --bind "$debs" "$root/var/cache/apt/archives"
	mounts+=("$root/var/cache/apt/archives")
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	# No fsync per file: the root is thrown away anyway (dpkg's unpacking
	# into the overlay would take most of the time otherwise).
	echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/fresh-check"
	cat >"$root/etc/apt/sources.list" <<-EOT
		deb $mirror bookworm main
		deb $mirror bookworm-updates main
		deb ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security} bookworm-security main
	EOT
	mkdir -p "$root/root/chacha20-simd" "$root$h/apt-amd64/debs"
	tar -C "$root/root/chacha20-simd" -xf "$tree"
	# Hard links where the overlay's upper directory shares the cache's
	# file system; copies otherwise.
	if [ -n "$(ls "$cache"/apt-amd64/debs/*.deb 2>/dev/null)" ]; then
		cp -l "$cache"/apt-amd64/debs/*.deb "$root$h/apt-amd64/debs/" 2>/dev/null ||
			cp "$cache"/apt-amd64/debs/*.deb "$root$h/apt-amd64/debs/"
	fi
}

# step LOG NAME COMMAND: COMMAND in the root's tree, as root, with a new
# login's environment (nothing of make check's: no CHACHA_CACHE, no
# MAKEFLAGS), its output in $logs/LOG.log; PASS or FAIL NAME with the
# time it took, and on failure the end of the log.
step() {
	local log=$logs/$1.log name=$2 t s=0
	shift 2
	t=$(now)
	chroot "$root" env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c 'cd /root/chacha20-simd && exec "$@"' sh "$@" >"$log" 2>&1 || s=$?
	if [ $s -eq 0 ]; then
		pass "$name ($(($(now) - t)) s)"
	else
		fail "$name: exit $s ($(($(now) - t)) s; log: $log)"
		tail -n 25 "$log" | sed 's/^/  /'
	fi
	return $s
}

for c in "$@"; do
	fresh_root
	echo "fresh-check: $c, in a fresh Debian 12 root"
	# What TESTING.md has a user install before cloning (without the
	# recommended packages: the fewer, the surer a group is complete).
	if ! step "$c-git-make" "$c: apt install git make" sh -ec \
		'apt-get update -q; DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends git make'; then
		umount_all
		continue
	fi
	case $c in
	bench)
		csv=$root/root/chacha20-simd/tools/bench/build/bench.csv
		if step bench-deps "bench: make deps-bench" make deps-bench; then
			step bench "bench: make bench BENCH_ARGS=--reps 4" \
				make bench BENCH_ARGS='--reps 4' || true
		fi
		# The @kernel rows exist only if the module's build against
		# 6.12 gave their flags.
		if [ -s "$csv" ]; then
			if grep -q '@kernel' "$csv"; then
				pass "bench: build/bench.csv, $(grep -c '@kernel' "$csv") of $(($(wc -l <"$csv") - 1)) points @kernel"
			else
				fail "bench: no @kernel rows in build/bench.csv"
			fi
		fi
		;;
	user)
		if step user-deps "user: make deps-user" make deps-user; then
			step user "user: make test-user" make test-user || true
		fi
		;;
	esac
	umount_all
done

deb_root_cleanup	# in the time: removing the overlays takes a while
echo "fresh-check: $passes passed, $fails failed ($(($(now) - t0)) s)"
[ $fails -eq 0 ] && echo "fresh-check: PASS"
[ $fails -eq 0 ]
