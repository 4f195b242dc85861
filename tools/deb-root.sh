# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154	# cache, log, die, now: lib.sh
#
# Throwaway Debian 12 roots (chroots), for tools/deb-check.sh and
# tools/fresh-check.sh; sourced after lib.sh, by a script run as root that
# calls deb_root_cleanup on exit.
#
#   deb_root_min            make once, and keep, the bare root: debootstrap
#                           --variant=minbase bookworm from $mirror, with
#                           a policy-rc.d that starts no daemon, nothing
#                           else; sets $deb_min to it
#                           ($cache/bookworm-min-<hash of the recipe>).
#                           Each check's own root starts as a copy of it
#                           (deb_root_copy), so one debootstrap serves all.
#   deb_root_copy BASE DIR  DIR: a copy of BASE, for a root of its own to
#                           set up (reflinks where the file system has them)
#   deb_root_overlay BASE RUN
#                           a fresh root at RUN/root, thrown away by the
#                           next call or deb_root_cleanup: an overlay on
#                           BASE (upper RUN/upper), a copy where overlays
#                           fail; sets $root
#   chroot_mounts ROOT [sys]
#                           /proc and /dev (apt, dpkg and make need them),
#                           with sys /sys too (the benchmark reads the CPU's
#                           vulnerabilities there), undone by umount_all
#   deb_root_cleanup        unmount everything, remove the RUN directories
#                           and half-made roots (never through a mount)

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
mounts=()

# What every user of these roots needs: root, for debootstrap, chroot and
# mount, and debootstrap itself.
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mount)"
command -v debootstrap >/dev/null ||
	die "debootstrap missing (apt-get install debootstrap)"
deb_root_trash=()

umount_all() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
	done
	mounts=()
}

chroot_mounts() {
	mount -t proc proc "$1/proc"
	mounts+=("$1/proc")
	mount --bind /dev "$1/dev"
	mounts+=("$1/dev")
	if [ "${2:-}" = sys ]; then
		mount -t sysfs sysfs "$1/sys"
		mounts+=("$1/sys")
	fi
}

deb_root_cleanup() {
	local d
	umount_all
	for d in "${deb_root_trash[@]}"; do
		# Never delete through a mount that is still there.
		findmnt -rn -o TARGET | grep -q "^$d/" ||
			rm -rf --one-file-system "$d"
	done
}

deb_root_min() {
	local recipe="bookworm-min 1: debootstrap --variant=minbase bookworm, policy-rc.d 101"
	local d t0

	deb_min=$cache/bookworm-min-$(printf '%s' "$recipe" | sha256sum | cut -c1-12)
	[ -e "$deb_min/.done" ] && return
	mkdir -p "$cache"
	# One maker at a time; a second waits and takes the first one's root.
	exec 7>"$cache/bookworm-min.lock"
	flock 7
	if [ ! -e "$deb_min/.done" ]; then
		t0=$(now)
		log "making the bare Debian 12 root $deb_min (once; debootstrap from $mirror)"
		deb_root_trash+=("$deb_min.new")
		rm -rf --one-file-system "$deb_min.new"
		if ! debootstrap --variant=minbase bookworm "$deb_min.new" "$mirror" \
			>"$cache/bookworm-min.log" 2>&1; then
			tail -n 20 "$cache/bookworm-min.log" >&2
			die "debootstrap failed (log: $cache/bookworm-min.log)"
		fi
		# No daemons started in the chroot.
		printf '#!/bin/sh\nexit 101\n' >"$deb_min.new/usr/sbin/policy-rc.d"
		chmod 755 "$deb_min.new/usr/sbin/policy-rc.d"
		for d in "$cache"/bookworm-min-*; do	# roots of older recipes
			case $d in
			"$deb_min.new" | *.lock | *.log) ;;
			*) rm -rf --one-file-system "$d" ;;
			esac
		done
		mv "$deb_min.new" "$deb_min"
		touch "$deb_min/.done"
		log "bare root ready ($(du -sh "$deb_min" | cut -f1), $(($(now) - t0)) s)"
	fi
	exec 7>&-
}

deb_root_copy() {
	rm -rf --one-file-system "$2"
	mkdir -p "$2"
	cp -a --reflink=auto "$1/." "$2/"
	rm -f "$2/.done"
}

deb_root_overlay() {
	local base=$1 run=$2
	umount_all
	if findmnt -rn -o TARGET | grep -q "^$run/"; then
		findmnt -rn -o TARGET | grep "^$run/" | sort -r | xargs -r -n 1 umount -l
	fi
	deb_root_trash+=("$run")
	rm -rf --one-file-system "$run"
	mkdir -p "$run/upper" "$run/work" "$run/root"
	root=$run/root
	if mount -t overlay overlay \
		-o "lowerdir=$base,upperdir=$run/upper,workdir=$run/work" "$root" 2>/dev/null; then
		mounts+=("$root")
	else
		cp -a "$base/." "$root/"
	fi
}
